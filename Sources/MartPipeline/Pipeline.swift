import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartSQLite
import MartRegister

/// Collect → admit or carry over → normalize and locate → publish, for every requested brand.
///
/// Sources always address the real sites; to use a mirror or the replay server, give the
/// pipeline a fetcher that redirects origins (`OriginRedirectingFetcher`), or let
/// `Pipeline.run(_:)` build the whole stack from a `RunConfiguration`.
///
/// No brand is held hostage by another: a brand that fails (network, HTTP error, redesigned
/// page, a suspicious drop in branch count) keeps its branches from the last good bundle,
/// marked stale, or, with nothing to keep, is listed as missing while the other brands are
/// published. Only when no brand produced fresh data is nothing published.
public struct Pipeline: Sendable {
  public let sources: [any BrandSource]
  public let fetcher: any HTTPFetching
  /// Locates branches: the source's coordinates when valid, then the cache and providers.
  public let geocoding: GeocodingChain
  /// When a fresh result is trusted.
  public let admission: AdmitStage
  /// The fetcher layers' counters, copied into the report (`fetch`).
  public let statistics: FetchStatistics?
  /// Where the sources' requests are counted while the run goes on.
  public let progress: RunProgress?
  /// What earlier runs of the output learned of the designations, read before the districts
  /// are inferred and replaced once the bundle is published; `nil`: every run infers from its
  /// stores alone.
  public let designations: DesignationStore?
  /// The researched designations (`data/designations.json`) the stores are checked against;
  /// `nil`: no check.
  public let reference: DesignationReference?
  /// Reads the national register of large stores after the brands, when the run reads it.
  public let register: RegisterStage?
  /// What the report's start and end times are read from (the run's clock).
  public let clock: any FetchClock

  /// - Parameters:
  ///   - geocoding: the chain to locate branches with; by default only the sources' own
  ///     coordinates are used (validated), with no provider and no cache.
  ///   - statistics: the fetcher layers' counters, copied into the report.
  ///   - progress: where the sources' requests are counted while the run goes on.
  public init(
    sources: [any BrandSource], fetcher: any HTTPFetching,
    geocoding: GeocodingChain = GeocodingChain(geocoders: [], cache: nil), statistics: FetchStatistics? = nil,
    progress: RunProgress? = nil, admission: AdmitStage = AdmitStage(), designations: DesignationStore? = nil,
    reference: DesignationReference? = nil, register: RegisterStage? = nil, clock: any FetchClock = SystemFetchClock()
  ) {
    self.clock = clock
    self.designations = designations
    self.reference = reference
    self.register = register
    self.admission = admission
    self.sources = sources
    self.fetcher = fetcher
    self.geocoding = geocoding
    self.statistics = statistics
    self.progress = progress
  }

  /// Runs once and returns the report (also written to `<outputDirectory>/report.json`, with
  /// `current/` and `report.html`: see ``finishOutput(_:output:)``).
  ///
  /// When the task is cancelled (a signal), the run stops at the next stage boundary, or while
  /// publishing before `latest.json` is replaced: nothing new becomes current, and the report
  /// (also in `report.json`) says `cancelled`.
  /// - Parameter brands: the brands to fetch; empty means every brand the sources offer.
  ///   The others stay as they are in the last bundle.
  public func run(asOf: CalendarDate, brands: Set<BrandSlug> = [], outputDirectory: URL) async -> RunReport {
    Self.finishOutput(
      await runOnce(asOf: asOf, brands: brands, outputDirectory: outputDirectory), output: outputDirectory)
  }

  /// Runs once, like ``run(asOf:brands:outputDirectory:)`` but writing nothing after
  /// `latest.json`, and keeps in memory the bundles `current/` and `report.html` are made from
  /// (see ``finishOutput(_:output:)``, which writes them and `report.json`).
  public func runOnce(asOf: CalendarDate, brands: Set<BrandSlug> = [], outputDirectory: URL) async -> PipelineOutcome {
    let startedAt = clock.date
    let day = RunDay(asOf: asOf)
    let store = BundleStore(outputDirectory: outputDirectory)
    let normalizer = BranchNormalizer(day: day)
    var problems = RunProblems()

    let selection = BrandSelection(asked: brands, sources: sources)
    let previous = PreviousBundle.read(from: store, problems: &problems)
    let facts = BrandFacts(previous: previous)
    let publishStage = PublishStage(store: store, previous: previous, startedAt: startedAt, clock: clock)
    if let damage = previous.damage, !selection.coversEveryBrand {
      // The brands this run does not fetch would have to come from a bundle, and none is intact.
      problems.fail(
        .previousBundle,
        "the current bundle is damaged (\(damage)), no kept bundle is intact, and this run fetches only some brands,"
          + " so the others cannot be kept: nothing published; run every brand to rebuild it")
      return publishStage.unpublished(
        RunReport(
          asOf: asOf, window: day.window, outcome: .failed, published: nil, brands: [], branchesWithoutCoordinates: [],
          branchesWithUnknownClosingDays: [], branchesNotTrading: [], warnings: problems.warnings,
          errors: problems.errors))
    }
    var (collected, collectProblems, dataSources, completeAnswers) = await CollectStage(
      sources: sources, fetcher: fetcher, progress: progress
    )
    .collect(selection, asOf: asOf)
    problems.append(collectProblems)
    let registerReading = await register?.read(problems: &problems)
    if Task.isCancelled {
      return publishStage.unpublished(Self.cancelled(day: day, problems: problems))
    }

    let normalizeStage = NormalizeStage(normalizer: normalizer, geocoding: geocoding)
    var draft = BundleDraft()
    for brand in selection.unsourced {
      problems.fail(.noSource, "no source for this brand yet", brand: brand)
      draft.add(facts.missing(brand, reason: "no source for this brand yet"), branches: [])
    }
    for brand in selection.requested {
      // Taken out, so that each brand's raw branches are freed once it is normalized.
      let result = collected.removeValue(forKey: brand) ?? .success([])
      let (admission, admitProblems) = admission.admit(brand, result: result, previous: previous)
      problems.append(admitProblems)
      switch admission {
      case .fresh(let raw):
        let (normalized, normalizeProblems) = await normalizeStage.normalize(raw)
        let following = FormerIDs.following(normalized, previous: previous.branches[brand] ?? [])
        let branches =
          following
          + MissingBranches.kept(
            brand, fresh: following, previous: previous.branches[brand] ?? [], asOf: asOf,
            removeAtOnce: self.admission.acceptShrink.contains(brand), completeAnswer: completeAnswers[brand],
            refresh: normalizer.refresh, problems: &problems)
        if Task.isCancelled {
          return publishStage.unpublished(Self.cancelled(day: day, problems: problems))
        }
        problems.append(normalizeProblems)
        draft.add(
          facts.fresh(brand, branchCount: branches.count, asOf: asOf, dataSource: dataSources[brand]),
          branches: branches)
      case .carriedOver(let carried, let lastFetchedAsOf, let reason):
        draft.add(
          facts.stale(brand, branchCount: carried.count, lastFetchedAsOf: lastFetchedAsOf, reason: reason),
          branches: carried.map(normalizer.refresh))
      case .missing(let reason):
        draft.add(facts.missing(brand, reason: reason), branches: [])
      }
    }
    // The stores of the register brands, when the run reads the register for every brand.
    let registerBrands =
      register != nil && selection.coversEveryBrand
      ? RegisterStage.brands(from: registerReading, previous: previous, asOf: asOf, normalizer: normalizer) : []
    for (summary, branches) in registerBrands { draft.add(summary, branches: branches) }
    let published = Set(registerBrands.map(\.summary.slug))
    // Brands not requested this time stay as they were.
    for (brand, summary) in previous.summaries.sorted(by: { $0.key < $1.key })
    where !selection.contains(brand) && !published.contains(brand) {
      draft.add(facts.kept(summary), branches: (previous.branches[brand] ?? []).map(normalizer.refresh))
    }
    if Task.isCancelled {
      return publishStage.unpublished(Self.cancelled(day: day, problems: problems))
    }
    draft.keepPastDays(of: previous.bundle, day: day)
    draft.markStaleness(asOf: asOf)
    let memory = rememberedDesignations(&problems)
    problems.append(
      draft.inferDistricts(
        day: day, sources: Self.independentSources, memory: memory, reference: reference, brandName: facts.name))
    let registerCheck = registerReading.flatMap {
      RegisterStage.crossCheck($0, branches: draft.branches, asOf: asOf)
    }
    if let registerCheck { draft.setRegisterIDs(registerCheck.registerIDs) }
    var outcome = publishStage.publish(
      draft, problems: problems, day: day,
      fetch: statistics.map(FetchReport.init) ?? FetchReport())
    if let registerReading, let registerCheck {
      outcome.report.register = RegisterSummary(registerReading, check: registerCheck)
    }
    return remember(draft, outcome: outcome)
  }

  /// What earlier runs learned of the designations; empty without a store, and (with a
  /// warning) when it cannot be read.
  private func rememberedDesignations(_ problems: inout RunProblems) -> DesignationMemory {
    guard let designations else { return DesignationMemory() }
    do {
      let (memory, unreadable) = try designations.load()
      for row in unreadable {
        problems.warn(.designationState, "\(designations.path): \(row) could not be read and is forgotten")
      }
      return memory
    } catch {
      problems.warn(.designationState, "\(error): the designations are inferred from this run's stores alone")
      return DesignationMemory()
    }
  }

  /// Replaces what the store knows with what the published run learned (nothing when the run
  /// published nothing); a failure is one more warning of the report.
  private func remember(_ draft: BundleDraft, outcome: PipelineOutcome) -> PipelineOutcome {
    guard let designations, outcome.report.published != nil, let memory = draft.districts?.memory else { return outcome }
    var outcome = outcome
    do throws(SQLiteError) { try designations.save(memory) } catch {
      outcome.report.warnings.append(
        RunProblem(kind: .designationState, message: "\(error): the next run will not know this run's designations"))
    }
    return outcome
  }

  private static func cancelled(day: RunDay, problems: RunProblems) -> RunReport {
    RunReport(
      asOf: day.asOf, window: day.window, outcome: .cancelled, published: nil, brands: [],
      branchesWithoutCoordinates: [],
      branchesWithUnknownClosingDays: [], branchesNotTrading: [], warnings: problems.warnings,
      errors: problems.errors + [PublishStage.cancellation])
  }

  /// Every brand the pipeline knows (the registry beside the sources), sorted by slug.
  public static var knownBrands: [Brand] { KnownBrands.all }

  /// The independent source of each known brand's closing days, for the district inference
  /// (``KnownBrands/independentSources``): what `validate` and `diff` infer again with.
  public static var independentSources: [BrandSlug: String] { KnownBrands.independentSources }
}
