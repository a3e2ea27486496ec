import MartCore

/// A problem worth a human's attention, as the run report lists it: which brand and branch
/// (when known), what kind of problem, and the detail.
public struct RunProblem: Codable, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem; written as a short kebab-case string.
  public enum Kind: String, Codable, Sendable {
    /// A brand was requested that no source offers yet.
    case noSource = "no-source"
    /// A brand's source failed (fetch, redesign, collapsed count) and nothing could be kept.
    case brandFailed = "brand-failed"
    /// A brand's source failed; its branches were carried over from the last good bundle.
    case brandStale = "brand-stale"
    /// A brand lost more than half its branches and was published as fetched all the same, as
    /// the run accepted its shrink (`RunSetting.acceptShrink`: a chain closing many stores).
    case shrinkAccepted = "shrink-accepted"
    /// A source met a problem that did not stop it (e.g. a broken detail page).
    case source
    /// The source listed the same branch id more than once; the first was kept.
    case duplicateBranch = "duplicate-branch"
    /// Parts of an address were not understood.
    case address
    /// A published phone number is not a Korean phone number.
    case phone
    /// Part of a closing-day text was not understood.
    case closingDays = "closing-days"
    /// A store's confirmed closing days break the pattern its district's other stores keep
    /// (``DistrictDesignations``): worth a look, never a change to its data.
    case designationMismatch = "designation-mismatch"
    /// Branches the source's answer no longer lists: kept with their last data, marked missing,
    /// or removed once missing for longer than the grace period (``MissingFromSource``).
    case missingFromSource = "missing-from-source"
    /// Fresh stores of at least two independent sources, a majority of their class in the
    /// district, replaced the designation earlier runs had confirmed (both patterns, the stores).
    case designationChange = "designation-change"
    /// The cited table of designations (`data/designations.json`) and the stores disagree on a
    /// district's days: both sides are named, neither overrides the other.
    case designationContradiction = "designation-contradiction"
    /// What earlier runs learned of the designations (`<state>/designations.sqlite`) could not
    /// be read or written.
    case designationState = "designation-state"
    /// A source announces that a trading store shuts on a later day.
    case storeStatus = "store-status"
    /// A coordinate was rejected or repaired, or geocoding failed.
    case location
    /// The national register of large stores could not be fetched, read or trusted (the last
    /// good one was kept, when there is one).
    case register
    /// The last published bundle could not be read; nothing was carried over.
    case previousBundle = "previous-bundle"
    /// The bundle could not be published, or no brand produced fresh data.
    case publish
    /// `report.json` or `report.html` could not be written.
    case report
    /// `current/` could not follow `latest.json`.
    case current

    /// Whether a problem of this kind is a failure after the pointer switch: what follows
    /// `latest.json` (`current/`, the reports) was not written, so the run did not finish its
    /// job even when it published (the next run finishes it).
    public var isUnfinishedOutput: Bool { self == .current || self == .report }
  }

  /// The brand concerned, when there is one.
  public var brand: BrandSlug?
  /// The branch concerned, when there is one.
  public var branch: BranchID?
  public var kind: Kind
  public var message: String

  public init(brand: BrandSlug? = nil, branch: BranchID? = nil, kind: Kind, message: String) {
    self.brand = brand ?? branch?.brand
    self.branch = branch
    self.kind = kind
    self.message = message
  }

  /// `<branch or brand>: <message>`, the subject once even when the message starts with it.
  public var description: String {
    guard let subject = branch?.description ?? brand?.rawValue, !message.hasPrefix("\(subject): ") else {
      return message
    }
    return "\(subject): \(message)"
  }

  enum CodingKeys: String, CodingKey { case brand, branch, kind, message }

  /// Writes `brand` and `branch` as `null` when absent, so every problem has the same four keys.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(brand, forKey: .brand)
    try container.encode(branch, forKey: .branch)
    try container.encode(kind, forKey: .kind)
    try container.encode(message, forKey: .message)
  }
}

/// The problems of a run, in the order they were met.
public struct RunProblems: Sendable, Hashable {
  public var warnings: [RunProblem] = []
  public var errors: [RunProblem] = []

  public init() {}

  mutating func warn(_ kind: RunProblem.Kind, _ message: String, brand: BrandSlug? = nil, branch: BranchID? = nil) {
    warnings.append(RunProblem(brand: brand, branch: branch, kind: kind, message: message))
  }

  mutating func fail(_ kind: RunProblem.Kind, _ message: String, brand: BrandSlug? = nil) {
    errors.append(RunProblem(brand: brand, kind: kind, message: message))
  }

  mutating func append(_ other: RunProblems) {
    warnings += other.warnings
    errors += other.errors
  }
}
