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
    /// Published, but some brands failed with nothing to carry over and are listed as missing.
    case publishedWithMissingBrands = "published-with-missing-brands"
    /// Nothing was published; the previous bundle (if any) stays current.
    case failed
  }

  public var asOf: CalendarDate
  public var window: DateWindow
  public var outcome: Outcome
  /// The bundle now in `latest.json`, when this run published one.
  public var published: LatestPointer?
  /// Every brand of the bundle (or of the would-be bundle), with what this run did with it.
  public var brands: [BrandSummary]
  /// Branches exported without coordinates.
  public var branchesWithoutCoordinates: [BranchID]
  /// Branches whose closing days are unknown.
  public var branchesWithUnknownClosingDays: [BranchID]
  /// Everything worth a human's attention, each naming the brand or branch.
  public var warnings: [RunProblem]
  /// Failures: brands that could not be fetched, and anything that stopped publishing.
  public var errors: [RunProblem]

  /// The process exit status for this outcome: 0 published, 2 published with stale or
  /// missing brands, 1 nothing published.
  public var exitCode: Int32 {
    switch outcome {
    case .published: 0
    case .publishedWithStaleBrands, .publishedWithMissingBrands: 2
    case .failed: 1
    }
  }
}
