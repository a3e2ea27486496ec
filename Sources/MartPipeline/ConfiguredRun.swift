import Foundation
import Logging
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartFiles
import MartGeocoding
import MartReplay

extension Pipeline {
  /// Runs the pipeline as `configuration` says.
  ///
  /// The run is planned (``RunPlan``: every setting checked and every path, the mode, the as-of,
  /// the recordings and the origin routes resolved, touching nothing), prepared (its folders
  /// created and locked, one run at a time, leftovers of killed runs removed), its resources
  /// opened (`RunResources`: the replay server, the fetch stack, the archive, the geocoding
  /// chain), then the pipeline collects, admits, normalizes and publishes once, and the run is
  /// finished (``finish(_:plan:resources:migrated:)``). A cancelled run publishes nothing and
  /// removes its partial archive. What follows `latest.json` and could not be written
  /// (`current/`, the reports) is one of the report's errors, in `report.json` too, and the
  /// run's exit status is then `1`.
  public static func run(_ configuration: RunConfiguration) async throws(RunSetupError) -> RunResult {
    let plan = try RunPlan(configuration)
    let prepared = try plan.prepare()
    defer { prepared.release() }
    let resources = try RunResources(plan)
    defer { resources.replayServer?.stop() }
    let pipeline = Pipeline(
      sources: configuration.sources, fetcher: resources.sourceFetcher, geocoding: resources.geocoding,
      statistics: resources.stack.statistics, progress: configuration.progress,
      admission: AdmitStage(acceptShrink: configuration.acceptShrink, settingNames: configuration.settingNames),
      designations: resources.designations, reference: reference(configuration),
      register: configuration.readsRegister
        ? RegisterStage(
          fetcher: resources.sourceFetcher,
          // A replay keeps no register: replayed answers must not become the last good one.
          lastGoodFile: plan.recordings == nil ? StateLayout(plan.state).lastGoodRegister : nil)
        : nil,
      clock: configuration.clock)
    let outcome = await pipeline.runOnce(asOf: plan.asOf, brands: configuration.brands, outputDirectory: plan.output)
    return finish(outcome, plan: plan, resources: resources, migrated: prepared.migrated)
  }

  /// The researched designations the run checks its stores against: the configured table, else
  /// the repository's `data/designations.json` when there is one; a table that cannot be used
  /// is a warning in the log, and no check.
  static func reference(_ configuration: RunConfiguration) -> DesignationReference? {
    let url = configuration.designationReference ?? DesignationReferenceFile.inRepository
    guard configuration.designationReference != nil || Files.exists(url.path) else {
      return nil
    }
    do throws(DesignationReferenceError) { return try DesignationReferenceFile.read(url) } catch {
      configuration.logger.warning("\(error): the designations are not checked against it")
      return nil
    }
  }

  /// Ends a run once the pipeline has run: old bundles pruned (`keep`), the stable files of
  /// `current/` following `latest.json` and the reports written (``finishOutput(_:output:)``),
  /// the archive made durable and old archives pruned.
  static func finish(
    _ outcome: PipelineOutcome, plan: RunPlan, resources: RunResources, migrated: [String]
  ) -> RunResult {
    let configuration = plan.configuration
    let logger = configuration.logger
    var pruned: [String] = []
    if outcome.report.outcome != .cancelled, let keep = configuration.keep {
      pruned = OutputLayout(plan.output).pruneBundles(keep: keep)
    }
    // current/ follows the bundle latest.json names as soon as the bundles it draws on are
    // settled (its unlisted branches are those of the kept bundles), so that the time it lags
    // behind (where a kill leaves it stale until the next run) is as short as possible; then
    // report.html and report.json, with what could not be written among the report's errors.
    let report = finishOutput(outcome, output: plan.output)
    let archiveDirectory = finishArchive(resources, cancelled: report.outcome == .cancelled, logger: logger)
    if report.outcome != .cancelled {
      if let keep = configuration.keep {
        pruned += StateLayout(plan.state).pruneArchives(keep: keep)
        for path in pruned { logger.info("removed \(path) (\(configuration.settingNames(.keep)) \(keep))") }
      }
    }
    var changes: BundleDiff.BrandCounts?
    if report.change?.bundle == .new, let latest = outcome.latest, let previous = outcome.previous {
      let diff = BundleDiff(old: previous, new: latest, sources: Pipeline.independentSources)
      changes = BundleDiff.BrandCounts(added: diff.added.count, removed: diff.removed.count, changed: diff.changed.count)
    }
    return RunResult(
      report: report, archiveDirectory: archiveDirectory, archiveFailures: resources.archive?.writeFailures ?? [],
      unmatchedReplayRequests: resources.replayServer?.unmatchedRequests ?? [],
      validatorStoreFailures: resources.stack.conditional?.storeFailures ?? [], pruned: pruned, migrated: migrated,
      changes: changes)
  }
}

extension Pipeline {
  /// Ends the run's archive: made durable once (responses were written without a flush each),
  /// then renamed to its finished name, or to its incomplete one when the run was cancelled or
  /// responses could not be written. A cancelled run's configured archive folder is removed. Returns
  /// where the archive is, if anywhere.
  static func finishArchive(_ resources: RunResources, cancelled: Bool, logger: Logger) -> URL? {
    guard let archive = resources.archive, let plan = resources.archivePlan else { return nil }
    do throws(FileError) { try archive.finish() } catch {
      logger.warning("archive: could not flush \(archive.location.path) to disk: \(error)")
    }
    if cancelled, !plan.isWARC {
      Files.remove(archive.location.path)
      return nil
    }
    let complete = !cancelled && archive.writeFailures.isEmpty
    guard let target = complete ? plan.finished : plan.incomplete else { return archive.location }
    do throws(FileError) {
      try Files.rename(archive.location.path, to: target.path)
      try Files.syncDirectory(target.deletingLastPathComponent().path)
    } catch {
      logger.warning("archive: could not rename \(archive.location.path) to \(target.lastPathComponent): \(error)")
      return Files.kind(at: target.path) == nil ? archive.location : target
    }
    return target
  }
}

extension ReplayServer {
  /// Serves `archive` for a run of `sources`, with a listener for every origin the run may
  /// contact, the sources', the register's and the geocoding providers' alike, so a replayed run never reaches
  /// the network and a request without a recording is reported under its own host.
  /// `baseURLOverrides` of the result sends each of those origins to its listener.
  public static func startForRun(
    _ archive: ReplayArchive, sources: [any BrandSource], readsRegister: Bool = false
  ) throws(LocalHTTPServerError) -> ReplayServer {
    try start(
      archive: archive,
      unrecordedOrigins: sources.map(\.origin) + (readsRegister ? [RegisterStage.origin] : [])
        + GeocodingChain.providerOrigins)
  }
}
