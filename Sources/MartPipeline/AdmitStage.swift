import Foundation
import MartBrands
import MartCore
import MartExport
import MartFiles

/// The last published bundle, as far as carrying branches over needs it.
public struct PreviousBundle: Sendable {
  /// Each brand's branches in the last bundle.
  public var branches: [BrandSlug: [Branch]]
  /// Each brand's entry in the last bundle's manifest.
  public var summaries: [BrandSlug: BrandSummary]
  /// Why the bundle `latest.json` names could not be read, when it exists but is damaged.
  public var damage: String?
  /// The last bundle's version and window, when there is one.
  public var version: String?
  public var window: DateWindow?
  /// The last bundle as read (and verified) at the start of the run, when it could be.
  public var bundle: PublishedBundle?

  public init(branches: [BrandSlug: [Branch]] = [:], summaries: [BrandSlug: BrandSummary] = [:]) {
    self.branches = branches
    self.summaries = summaries
  }

  public init(_ bundle: PublishedBundle?) {
    branches = Dictionary(grouping: bundle?.branches.branches ?? [], by: \.brand)
    summaries = Dictionary(
      (bundle?.manifest.brands ?? []).map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
    version = bundle?.manifest.version
    window = bundle?.manifest.window
    self.bundle = bundle
  }

  /// Reads the bundle `latest.json` points to. When there is none to read — `latest.json`
  /// missing while `bundles/` holds bundles, unreadable, or naming a bundle that is gone or
  /// damaged — the newest intact kept bundle stands in for it, with a warning; with none
  /// intact, nothing can be carried over (a warning, and ``damage`` says why).
  static func read(from store: BundleStore, problems: inout RunProblems) -> PreviousBundle {
    let layout = OutputLayout(store.outputDirectory)
    let failure: String
    do {
      if let bundle = try store.latest() { return PreviousBundle(bundle) }
      // A new output directory has no bundle yet: nothing is missing.
      guard !layout.keptBundles().isEmpty else { return PreviousBundle() }
      failure = "\(layout.latest.path) is missing while \(OutputLayout.bundlesName)/ holds bundles"
    } catch {
      failure = error.description
    }
    let named = (try? layout.readLatest())?.map { ($0.bundle as NSString).lastPathComponent }
    if let standIn = store.newestIntactBundle(excluding: named) {
      problems.warn(
        .previousBundle,
        "\(failure): \(OutputLayout.bundlePath(version: standIn.directory.lastPathComponent)), the newest intact"
          + " bundle, stands in as the previous one")
      return PreviousBundle(standIn)
    }
    problems.warn(
      .previousBundle, "last bundle unreadable and no kept bundle intact, nothing to carry over: \(failure)")
    var none = PreviousBundle()
    none.damage = failure
    return none
  }
}

/// What becomes of one requested brand.
public enum Admission: Sendable, Hashable {
  /// The source's branches are admitted (repeated ids dropped).
  case fresh([RawBranch])
  /// The source failed; the last bundle's branches are kept.
  case carriedOver([Branch], lastFetchedAsOf: CalendarDate?, reason: String)
  /// The source failed and there is nothing to keep.
  case missing(reason: String)
}

/// Stage 2, admit or carry over: decides whether a brand's fresh result can be trusted, and
/// otherwise what the last bundle can stand in for it.
public struct AdmitStage: Sendable {
  /// A brand whose branch count falls below this fraction of the last bundle's count is
  /// treated as failed (a page that lost most of its rows is more likely broken than real).
  public var minimumRetainedFraction: Double
  /// The brands whose fresh result is admitted even below that fraction
  /// (``RunSetting/acceptShrink``): the operator has checked that the chain really closed those
  /// stores.
  public var acceptShrink: Set<BrandSlug>
  /// How a brand's error and warnings name the setting that accepts a shrink.
  public var settingNames: SettingNames

  public init(
    minimumRetainedFraction: Double = 0.5, acceptShrink: Set<BrandSlug> = [],
    settingNames: @escaping SettingNames = { $0.description }
  ) {
    self.minimumRetainedFraction = minimumRetainedFraction
    self.acceptShrink = acceptShrink
    self.settingNames = settingNames
  }

  /// Admits `result` for `brand`, or falls back on `previous`.
  public func admit(
    _ brand: BrandSlug, result: CollectStage.BrandResult, previous: PreviousBundle
  ) -> (Admission, RunProblems) {
    var problems = RunProblems()
    let failure: String
    switch result {
    case .failure(let error):
      // One line of at most about 200 characters: the reason every report, diff and log gives.
      failure = BriefReason.brief(error.description)
    case .success(let branches):
      let admitted = Self.deduplicated(branches, problems: &problems)
      let previousCount = previous.branches[brand]?.count ?? 0
      if admitted.isEmpty {
        failure = "the source returned no branches"
      } else if Double(admitted.count) < Double(previousCount) * minimumRetainedFraction {
        let shrink = "only \(DisplayText.branches(admitted.count)), down from \(previousCount) in the last bundle"
        guard acceptShrink.contains(brand) else {
          failure =
            "\(shrink) (less than \(Int(minimumRetainedFraction * 100))% is taken for a broken page; if the chain"
            + " really closed those stores, run once with \(settingNames(.acceptShrink)) \(brand.rawValue))"
          return carryOver(brand, failure: failure, previous: previous, problems: problems)
        }
        problems.warn(
          .shrinkAccepted, "\(shrink): published as fetched, as \(settingNames(.acceptShrink)) \(brand.rawValue) asks",
          brand: brand)
        return (.fresh(admitted), problems)
      } else {
        return (.fresh(admitted), problems)
      }
    }
    return carryOver(brand, failure: failure, previous: previous, problems: problems)
  }

  /// The last bundle's branches of a brand that failed with `failure`, or missing with nothing
  /// to keep.
  func carryOver(
    _ brand: BrandSlug, failure: String, previous: PreviousBundle, problems: RunProblems
  ) -> (Admission, RunProblems) {
    var problems = problems
    if let carried = previous.branches[brand], !carried.isEmpty {
      let since = previous.summaries[brand]?.lastFetchedAsOf
      problems.warn(
        .brandStale, "\(failure); kept \(DisplayText.branches(carried.count)) from \(since?.iso ?? "the last bundle")",
        brand: brand)
      return (.carriedOver(carried, lastFetchedAsOf: since, reason: failure), problems)
    }
    problems.fail(.brandFailed, failure, brand: brand)
    return (.missing(reason: failure), problems)
  }

  /// The branches with each id once, the first kept; the one place repeated ids are dropped,
  /// and ids that cannot name a file (`../x`): such a branch is left out with a warning, and
  /// its brand and every other brand go on.
  static func deduplicated(_ branches: [RawBranch], problems: inout RunProblems) -> [RawBranch] {
    var seen = Set<BranchID>()
    seen.reserveCapacity(branches.count)
    var dropped = Set<Int>()
    // By index: only each branch's id is read, not the branch copied with all its texts.
    for index in branches.indices {
      let id = branches[index].id
      if let problem = id.fileNameProblem {
        problems.warn(
          .source, "branch id \(id.description.debugDescription) cannot name a file (\(problem)); left out",
          brand: id.brand)
        dropped.insert(index)
      } else if !seen.insert(id).inserted {
        problems.warn(.duplicateBranch, "listed more than once by the source; kept the first", branch: id)
        dropped.insert(index)
      }
    }
    // Nearly always none is dropped: the list is kept as it is, no branch copied.
    guard !dropped.isEmpty else { return branches }
    return branches.indices.filter { !dropped.contains($0) }.map { branches[$0] }
  }
}
