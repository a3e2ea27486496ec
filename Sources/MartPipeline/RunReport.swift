import Foundation
import MartCore
import MartExport
import MartFetch

/// What a run did, for operators and CI: written to `output/report.json` on every run,
/// successful or not.
public struct RunReport: Codable, Sendable {
  /// What the run's bundle is against the one `latest.json` named before the run.
  public struct Change: Codable, Sendable, Hashable {
    /// `new`: `latest.json` now names another bundle; `unchanged`: the same content was
    /// published again (same version); `none`: nothing was published.
    public enum Bundle: String, Codable, Sendable {
      case new, unchanged, none
    }
    public var bundle: Bundle
    /// The version `latest.json` named before the run, if any.
    public var previousVersion: String?
    /// Each brand's branch count before (0 when new) and now, for the brands whose count changed.
    public var branchCounts: [String: BranchCount]
    /// Closing days added or removed on the days both windows cover, over every branch in both.
    public var closingDaysChanged: Int
    /// The files of the bundle the run created and those it made hard links of the previous
    /// bundle's (``BundleFileCounts``); none of either when it wrote no bundle. A report written
    /// before the field existed reads with none.
    public var files = BundleFileCounts()

    public init(
      bundle: Bundle, previousVersion: String?, branchCounts: [String: BranchCount], closingDaysChanged: Int,
      files: BundleFileCounts = BundleFileCounts()
    ) {
      self.bundle = bundle
      self.previousVersion = previousVersion
      self.branchCounts = branchCounts
      self.closingDaysChanged = closingDaysChanged
      self.files = files
    }

    private enum CodingKeys: String, CodingKey { case bundle, previousVersion, branchCounts, closingDaysChanged, files }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      bundle = try container.decode(Bundle.self, forKey: .bundle)
      previousVersion = try container.decodeIfPresent(String.self, forKey: .previousVersion)
      branchCounts = try container.decode([String: BranchCount].self, forKey: .branchCounts)
      closingDaysChanged = try container.decode(Int.self, forKey: .closingDaysChanged)
      files = try container.decodeIfPresent(BundleFileCounts.self, forKey: .files) ?? BundleFileCounts()
    }

    public struct BranchCount: Codable, Sendable, Hashable {
      public var previous: Int
      public var now: Int
    }
  }

  /// The `mart-holiday` version that made the report.
  public var toolVersion: String = MartVersion.current
  /// When the run started and ended, ISO 8601 in UTC.
  public var startedAt: String?
  public var finishedAt: String?
  /// Against the previous bundle; `nil` until publishing has been decided.
  public var change: Change?

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
    /// Stopped by a signal before `latest.json` was replaced: nothing new was published, the
    /// previous bundle (if any) stays current.
    case cancelled
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

  /// A branch its source's answer no longer lists, kept with its last data
  /// (``Branch/missingFromSource``).
  public struct MissingBranch: Codable, Sendable, Hashable {
    public var id: BranchID
    /// The as-of date of the first run that did not find it.
    public var since: CalendarDate
    /// The runs in a row that did not find it, this one included.
    public var runs: Int

    public init(id: BranchID, since: CalendarDate, runs: Int) {
      self.id = id
      self.since = since
      self.runs = runs
    }
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
  /// Branches whose closing-day text could not be read at all (`closing.status` `unknown`),
  /// sorted: every day of the window is unknown for them.
  public var branchesWithUnknownClosingDays: [BranchID]
  /// Branches with at least one unknown day in the window (``UnknownClosingDays``), sorted.
  public var branchesWithUnknownDays: [BranchID] = []
  /// Of ``branchesWithUnknownDays``, the branches with every day of the window unknown, sorted.
  public var branchesWithEveryDayUnknown: [BranchID] = []
  /// Branches that are temporarily closed or closed for good, sorted by id.
  public var branchesNotTrading: [NotTradingBranch]
  /// Branches missing from their source's answer and kept with their last data, sorted by id;
  /// not among the removed branches (a branch is removed once missing for longer than
  /// ``MissingFromSource/graceRuns`` runs).
  public var branchesMissingFromSource: [MissingBranch] = []
  /// Everything worth a human's attention, each naming the brand or branch.
  public var warnings: [RunProblem]
  /// Failures: brands that could not be fetched, and anything that stopped publishing.
  public var errors: [RunProblem]
  /// What the fetcher layers did, per host of the real sites and in total.
  public var fetch: FetchReport = FetchReport()
  /// What the national register of large stores says of the published branches, when the run
  /// read one (absent otherwise).
  public var register: RegisterSummary? = nil

  /// The process exit status for this outcome: 0 published, 2 published with stale or
  /// missing brands, 1 nothing published, or published but what follows `latest.json`
  /// (`current/`, `report.json`, `report.html`) could not be written (an error says which), 130
  /// cancelled.
  public var exitCode: Int32 {
    switch outcome {
    case _ where outcome != .cancelled && errors.contains(where: \.kind.isUnfinishedOutput): 1
    case .published: 0
    case .publishedWithStaleBrands, .publishedWithMissingBrands: 2
    case .failed: 1
    case .cancelled: 130
    }
  }
}

extension RunReport {
  /// Whether `earlier`, the bytes of a `report.json`, say what this report says but for how
  /// its run went: the same in every field but `startedAt`, `finishedAt` and `fetch` (the
  /// requests made, answered `304` or retried), and but `change` when this run published the
  /// very bundle that was current (its change then says only that). A rerun that found
  /// everything as it was keeps the report of the run that made it so, instead of rewriting the
  /// file with new times.
  public func saysTheSame(as earlier: Data) -> Bool {
    // Its branch ids are read against this report's brands: an id of another brand is a difference.
    guard let other = try? BundleJSON.decode(RunReport.self, from: earlier, brands: brands.map(\.slug)) else {
      return false
    }
    var this = self
    this.startedAt = other.startedAt
    this.finishedAt = other.finishedAt
    this.fetch = other.fetch
    if change?.bundle == .unchanged { this.change = other.change }
    return (try? BundleJSON.encode(this)) == earlier
  }
}

/// The fetch statistics of a run: requests, retries, `304` reuses, bytes and failures.
public struct FetchReport: Codable, Sendable, Hashable {
  /// Per host of the brand sources' real sites (`host` or `host:port`), whatever mirror or
  /// replay server answered for it. robots.txt and geocoder requests are not counted.
  public var hosts: [String: HostFetchCounts]
  /// All hosts together.
  public var total: HostFetchCounts

  public init(hosts: [String: HostFetchCounts] = [:]) {
    self.hosts = hosts
    self.total = hosts.values.reduce(HostFetchCounts(), +)
  }

  public init(_ statistics: FetchStatistics) {
    self.init(hosts: statistics.byHost)
  }
}
