import Foundation
import MartCore
import MartExport
import MartFetch

/// The bundle a run is putting together: branches and one outcome per brand.
public struct BundleDraft: Sendable {
  public private(set) var branches: [Branch] = []
  public private(set) var brands: [BrandSummary] = []
  /// What ``inferDistricts(window:brandName:)`` found, for the bundle's `districts.json`.
  public private(set) var districts: DistrictInference?

  public init() {}

  /// Adds a brand's outcome and its branches.
  public mutating func add(_ summary: BrandSummary, branches: [Branch]) {
    brands.append(summary)
    self.branches += branches
  }

  /// Gives each branch in `registerIDs` its register entry's 관리번호, and takes it from the
  /// other branches of the brands' sources (``RegisterCrossCheck/registerIDs``); a register
  /// store's branch keeps its own.
  public mutating func setRegisterIDs(_ registerIDs: [BranchID: String]) {
    for index in branches.indices where branches[index].source != .register {
      branches[index].registerID = registerIDs[branches[index].id]
    }
  }

  /// Says of every stale brand since when and for how many days up to `asOf` it has been
  /// stale (``BrandSummary/withStaleness(asOf:)``), for the run's report and log.
  public mutating func markStaleness(asOf: CalendarDate) {
    brands = brands.map { $0.withStaleness(asOf: asOf) }
  }

  /// Keeps what `previous` knew of the days before `day`'s as-of in every branch it also holds
  /// (``BranchClosing/keepingPastDays(of:previousWindow:before:)``): past days are
  /// history, so a later run neither forgets them nor reports them as changed. Nothing is taken
  /// from a bundle of a later as-of date.
  public mutating func keepPastDays(of previous: PublishedBundle?, day: RunDay) {
    guard let previous, previous.manifest.asOf <= day.asOf else { return }
    let before = Dictionary(
      previous.branches.branches.map { ($0.id, $0.closing) }, uniquingKeysWith: { first, _ in first })
    for index in branches.indices {
      guard let known = before[branches[index].id] else { continue }
      branches[index].closing = branches[index].closing.keepingPastDays(
        of: known, previousWindow: previous.manifest.window, before: day)
    }
  }

  /// Sets `closing.expected` on the branches of designated brands that publish no days, from
  /// the districts the draft's branches support, and returns the stores that break their
  /// district's pattern as `designation-mismatch` warnings. Nothing else of a branch changes.
  /// The brands' summaries say which are designated (``BrandSummary/designated``), as the
  /// bundle's manifest will, so that `validate` infers the same districts from it.
  ///
  /// `memory` is what earlier runs learned (``DistrictDesignations``): a designation no fresh
  /// store confirms is kept, and one the stores replace is reported as a `designation-change`.
  /// `reference` (the researched table) gives the designation of a class in a district where
  /// neither `memory` nor the stores give one (``DesignationBasis/cited``); a designation the
  /// stores confirm with other days than it is a `designation-contradiction`, with both sides.
  public mutating func inferDistricts(
    day: RunDay, sources: [BrandSlug: String], memory: DesignationMemory = DesignationMemory(),
    reference: DesignationReference? = nil, brandName: (BrandSlug) -> String
  ) -> RunProblems {
    let inference = DistrictDesignations.infer(
      from: branches, window: day.window, exempt: brands.exemptFromDesignation, storeClasses: brands.storeClasses,
      sources: sources, asOf: day.asOf, memory: memory, reference: reference)
    inference.setExpectedDays(of: &branches)
    districts = inference
    var problems = RunProblems()
    let names = Dictionary(branches.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    for mismatch in inference.mismatches {
      let branch = mismatch.branch
      problems.warn(
        .designationMismatch, "\(brandName(branch.brand)) \(names[branch] ?? branch.storeID): \(mismatch.message)",
        branch: branch)
    }
    for change in inference.changes {
      problems.warn(.designationChange, "designation changed: \(change.message)")
    }
    for contradiction in reference.map(inference.contradictions(with:)) ?? [] {
      problems.warn(.designationContradiction, contradiction.message)
    }
    return problems
  }

  /// Whether any brand was fetched fresh in this run.
  public var hasFreshBrand: Bool { brands.contains { $0.status == .fresh } }
}

/// What one pass of the pipeline leaves: its report, and the bundles in memory that the files
/// following `latest.json` (`current/`, `report.html`) are made from, so they need not be read
/// back from disk.
public struct PipelineOutcome: Sendable {
  public var report: RunReport
  /// The bundle `latest.json` names after the run: the one published, else the previous one;
  /// `nil` when there is none or it could not be read.
  public var latest: PublishedBundle?
  /// The bundle `latest.json` named before the run, when it could be read.
  public var previous: PublishedBundle?
}

/// Stage 4, publish: writes the bundle when at least one brand is fresh, and finishes the
/// run's report (written with the files that follow `latest.json`: see
/// ``Pipeline/finishOutput(_:output:)``).
public struct PublishStage: Sendable {
  public let store: BundleStore
  /// The bundle `latest.json` named before the run, which the report compares against.
  public let previous: PreviousBundle
  /// When the run started, for the report.
  public let startedAt: Date
  /// What the run's end is read from, for the report.
  public let clock: any FetchClock

  public init(
    store: BundleStore, previous: PreviousBundle = PreviousBundle(), startedAt: Date,
    clock: any FetchClock = SystemFetchClock()
  ) {
    self.store = store
    self.previous = previous
    self.startedAt = startedAt
    self.clock = clock
  }

  /// Publishes `draft` (unless no brand in it is fresh) and finishes the report; the outcome
  /// holds the bundle `latest.json` names afterwards, as written or as read before the run.
  ///
  /// Publishing stops, with nothing new made current, when `shouldStop` says so before
  /// `latest.json` is replaced; the report then says `cancelled`.
  public func publish(
    _ draft: BundleDraft, problems: RunProblems, day: RunDay,
    fetch: FetchReport = FetchReport(), shouldStop: () -> Bool = { Task.isCancelled }
  ) -> PipelineOutcome {
    let window = day.window
    let unknown = draft.branches.map { ($0.id, $0.unknownClosingDays(in: window).extent) }
    var report = RunReport(
      asOf: day.asOf, window: window, outcome: .failed, published: nil, brands: draft.brands,
      branchesWithoutCoordinates: draft.branches.filter { $0.coordinate == nil }.map(\.id).sorted(),
      branchesWithUnknownClosingDays: draft.branches.filter { $0.closing.status == .unknown }.map(\.id).sorted(),
      branchesWithUnknownDays: unknown.filter { $0.1 != .none }.map(\.0).sorted(),
      branchesWithEveryDayUnknown: unknown.filter { $0.1 == .everyDay }.map(\.0).sorted(),
      branchesNotTrading: draft.branches.filter { !$0.storeStatus.isTrading }.sorted { $0.id < $1.id }.map {
        RunReport.NotTradingBranch(id: $0.id, state: $0.storeStatus.state, until: $0.storeStatus.until)
      },
      warnings: problems.warnings, errors: problems.errors, fetch: fetch)
    report.branchesMissingFromSource = draft.branches.compactMap { branch in
      branch.missingFromSource.map { RunReport.MissingBranch(id: branch.id, since: $0.since, runs: $0.runs) }
    }.sorted { $0.id < $1.id }
    var latest = previous.bundle

    if draft.hasFreshBrand {
      do {
        let removed = RemovedBranch.following(
          previous.bundle, freshBrands: Set(draft.brands.filter { $0.status == .fresh }.map(\.slug)),
          listed: Set(draft.branches.flatMap { [$0.id] + $0.formerIDs }))
        switch try store.publish(
          branches: draft.branches, brands: draft.brands, day: day, removed: removed,
          districts: draft.districts, shouldStop: shouldStop)
        {
        case .stopped:
          report.outcome = .cancelled
          report.errors.append(Self.cancellation)
        case .published(let bundle, let latestChanged, let repaired):
          let pointer = bundle.pointer
          latest = bundle
          report.published = pointer
          report.change = change(
            of: draft, window: window, latestChanged: latestChanged && pointer.version != previous.version)
          report.change?.files = bundle.files ?? BundleFileCounts()
          if let repaired {
            report.warnings.append(
              RunProblem(
                kind: .publish,
                message: "bundle \(pointer.version) on disk was damaged (\(repaired)); it was written again"))
          }
          report.outcome =
            if draft.brands.contains(where: { $0.status == .missing }) {
              .publishedWithMissingBrands
            } else if draft.brands.contains(where: { $0.status == .stale }) {
              .publishedWithStaleBrands
            } else {
              .published
            }
        }
      } catch {
        report.errors.append(RunProblem(kind: .publish, message: "publishing failed: \(error)"))
      }
    } else {
      report.errors.append(
        RunProblem(
          kind: .publish, message: "no brand produced fresh data: nothing published; the previous bundle stays current")
      )
    }
    return PipelineOutcome(report: finished(report), latest: latest, previous: previous.bundle)
  }

  /// The outcome of a run that published nothing (its report finished, see ``finished(_:)``):
  /// `latest.json` still names the previous bundle.
  func unpublished(_ report: RunReport) -> PipelineOutcome {
    PipelineOutcome(report: finished(report), latest: previous.bundle, previous: previous.bundle)
  }

  /// The error a cancelled run reports.
  static let cancellation = RunProblem(
    kind: .publish, message: "cancelled: nothing published; the previous bundle stays current")

  /// What `draft`, just published, changes against the previous bundle.
  func change(of draft: BundleDraft, window: DateWindow, latestChanged: Bool) -> RunReport.Change {
    var counts: [String: RunReport.Change.BranchCount] = [:]
    let slugs = Set(draft.brands.map(\.slug)).union(previous.summaries.keys)
    for slug in slugs {
      let before = previous.branches[slug]?.count ?? 0
      let now = draft.brands.first { $0.slug == slug }?.branchCount ?? 0
      if before != now { counts[slug.rawValue] = .init(previous: before, now: now) }
    }
    var changedDays = 0
    if let previousWindow = previous.window {
      let from = max(previousWindow.from, window.from)
      let through = min(previousWindow.through, window.through)
      let before = Dictionary(
        previous.branches.values.joined().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
      for branch in draft.branches {
        guard let old = before[branch.id] else { continue }
        func inBoth(_ dates: [CalendarDate]) -> Set<CalendarDate> { Set(dates.filter { $0 >= from && $0 <= through }) }
        changedDays += inBoth(old.closing.dates).symmetricDifference(inBoth(branch.closing.dates)).count
      }
    }
    return RunReport.Change(
      bundle: latestChanged ? .new : .unchanged, previousVersion: previous.version, branchCounts: counts,
      closingDaysChanged: changedDays)
  }

  /// `report` with the run's start and end times and its warnings sorted.
  func finished(_ report: RunReport) -> RunReport {
    var report = report
    let timestamps = ISO8601DateFormatter()
    report.startedAt = timestamps.string(from: startedAt)
    report.finishedAt = timestamps.string(from: clock.date)
    if report.change == nil {
      report.change = RunReport.Change(
        bundle: .none, previousVersion: previous.version, branchCounts: [:], closingDaysChanged: 0)
    }
    report.warnings.sort(by: Self.precedes)
    return report
  }

  /// The order of the report's warnings: by kind, brand, branch id and message, each as its
  /// text (`rawValue`, `description`; a warning without a brand or branch first). A part is
  /// compared only when the ones before it are equal, and branch ids without making their
  /// texts (``BranchID/<(_:_:)`` is the order of the texts).
  private static func precedes(_ lhs: RunProblem, _ rhs: RunProblem) -> Bool {
    if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
    let leftBrand = lhs.brand?.rawValue ?? ""
    let rightBrand = rhs.brand?.rawValue ?? ""
    if leftBrand != rightBrand { return leftBrand < rightBrand }
    switch (lhs.branch, rhs.branch) {
    case (nil, nil): break
    case (nil, _?): return true
    case (_?, nil): return false
    case (let left?, let right?):
      // Ids whose texts are equal (`homeplus` + `express-1`, `homeplus-express` + `1`) go on
      // to the message, as their texts would.
      if left < right { return true }
      if right < left { return false }
    }
    return lhs.message < rhs.message
  }
}
