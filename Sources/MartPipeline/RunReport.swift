import MartCore
import MartExport

/// What a run did, for operators and CI: written to `output/report.json` on every run,
/// successful or not.
public struct RunReport: Codable, Sendable {
  /// How the run ended.
  public enum Outcome: String, Codable, Sendable {
    /// Every requested brand was fetched; a bundle is published.
    case published
    /// Published, but some brands failed and were carried over from the last good bundle.
    case publishedWithStaleBrands = "published-with-stale-brands"
    /// Nothing was published; the previous bundle (if any) stays current.
    case failed
  }

  /// One brand's result in this run.
  public struct BrandResult: Codable, Sendable {
    public enum Status: String, Codable, Sendable {
      /// Fetched and parsed now.
      case fresh
      /// Failed now; carried over from the last good bundle.
      case stale
      /// Failed now, with no earlier data to fall back on.
      case failed
      /// Not requested in this run; kept unchanged from the last bundle.
      case kept
    }

    public var brand: BrandSlug
    public var status: Status
    public var branchCount: Int
    /// The failure, when there was one.
    public var error: String?
  }

  /// A branch that does not trade, as its source says.
  public struct NotTradingBranch: Codable, Sendable, Hashable {
    public var id: BranchID
    /// `temporarily-closed` or `closed`.
    public var state: StoreStatus.State
    /// The last shut day of a temporary closure, when published; JSON `null` otherwise.
    public var until: CalendarDate?

    public init(id: BranchID, state: StoreStatus.State, until: CalendarDate?) {
      self.id = id
      self.state = state
      self.until = until
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      try container.encode(state, forKey: .state)
      try container.encode(until, forKey: .until)
    }
  }

  public var asOf: CalendarDate
  public var window: DateWindow
  public var outcome: Outcome
  /// The bundle now in `latest.json`, when this run published one.
  public var published: LatestPointer?
  public var brands: [BrandResult]
  /// Branches exported without coordinates.
  public var branchesWithoutCoordinates: [BranchID]
  /// Branches whose closing days are unknown.
  public var branchesWithUnknownClosingDays: [BranchID]
  /// Branches that are temporarily closed or closed for good, sorted by id.
  public var branchesNotTrading: [NotTradingBranch]
  /// Everything worth a human's attention, each naming the brand or branch.
  public var warnings: [String]
  /// Fatal problems.
  public var errors: [String]

  /// The process exit status for this outcome: 0 published, 2 published with stale brands,
  /// 1 nothing published.
  public var exitCode: Int32 {
    switch outcome {
    case .published: 0
    case .publishedWithStaleBrands: 2
    case .failed: 1
    }
  }
}
