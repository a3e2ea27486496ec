import Foundation
import Logging
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartFiles
import MartGeocoding
import MartReplay
import MartReport
import Synchronization

extension Pipeline {
  /// Runs the pipeline as `configuration` says.
  ///
  /// First the settings are checked without touching anything (the replay folder holds
  /// recordings; nothing that must be a directory is a file; the state directory, archive and
  /// geocoding cache, resolved through their links, lie outside the output directory and it
  /// outside them; no symbolic link stands where the run writes in the output or state
  /// directory), then the output and state directories are created and locked (one run at a
  /// time; a lock left by a killed run is taken over), an output directory of the old layout has
  /// its private files moved to the state directory, leftovers of killed runs are removed, the
  /// fetch stack and geocoding chain are built, the pipeline runs once, old bundles and archives
  /// are pruned (`keep`), the stable files of `current/` follow `latest.json`, and the stack is
  /// taken down again. A cancelled run publishes nothing and removes its partial archive. What
  /// follows `latest.json` and could not be written (`current/`, the reports) is one of the
  /// report's errors, in `report.json` too, and the run's exit status is then `1`.
  public static func run(_ configuration: RunConfiguration) async throws(RunSetupError) -> RunResult {
    let output = configuration.outputDirectory
    let state = configuration.stateDirectory
    let logger = configuration.logger
    if let replay = configuration.replayDirectory {
      try SettingChecks.checkRecordings(replay, setting: "--replay")
    }
    try SettingChecks.checkCanBeDirectory(output, setting: "--output")
    for folder in OutputLayout.folders {
      try SettingChecks.checkCanBeDirectory(output.appendingPathComponent(folder), setting: "--output")
    }
    try SettingChecks.checkPrivateApart(
      output: output,
      private: [
        (state, "--state"), (configuration.archiveDirectory, "--archive"),
        (configuration.geocodingCache, "--geocoding-cache"),
      ])
    try SettingChecks.checkCanBeDirectory(state, setting: "--state")
    for folder in StateLayout.folders {
      try SettingChecks.checkCanBeDirectory(state.appendingPathComponent(folder), setting: "--state")
    }
    if let archive = configuration.archiveDirectory {
      try SettingChecks.checkCanBeDirectory(archive, setting: "--archive")
    }
    try checkMirrors(configuration.mirrors, sources: configuration.sources)
    for (file, setting) in [
      (configuration.geocodingCache, "--geocoding-cache"), (configuration.validatorStore, "--validator-store"),
    ] + OutputLayout.files.map({ (output.appendingPathComponent($0), "--output") }) {
      if let file { try SettingChecks.checkCanBeFile(file, setting: setting) }
    }

    try SettingChecks.checkNothingForeign(OutputLayout(output).foreignEntries(), in: output, setting: "--output")
    try SettingChecks.checkNothingForeign(StateLayout(state).foreignEntries(), in: state, setting: "--state")

    try SettingChecks.prepare(output, setting: "--output")
    try SettingChecks.prepare(state, setting: "--state")
    let lock = try RunLock(output: output, state: state)
    defer { lock.release() }
    if let previous = lock.tookOverFromProcess {
      logger.warning(
        "took over the lock of \(output.path) left by a run that is no longer running (process \(previous))")
    }
    let layout = OutputLayout(output)
    let stateLayout = StateLayout(state)
    let migrated = stateLayout.moveFromOldLayout(of: output)
    if !migrated.isEmpty {
      let what = migrated.joined(separator: ", ")
      logger.notice(
        "moved \(what) from \(output.path) to the state directory \(state.path): the output directory now holds only what may be served"
      )
    }
    for leftover in layout.removeLeftovers() + stateLayout.removeUnfinishedArchives() {
      logger.notice("removed \(leftover), left by a run that was killed")
    }

    // Everything the run depends on is settled before anything is built: the recordings and,
    // without --as-of, the date they were recorded.
    let replay = try loadRecordings(configuration.replayDirectory)
    let asOf = try resolveAsOf(configuration.asOf, replay: replay, directory: configuration.replayDirectory)
    let resources = try RunResources(configuration, replay: replay, asOf: asOf)
    defer { resources.replayServer?.stop() }
    let pipeline = Pipeline(
      sources: configuration.sources, fetcher: resources.sourceFetcher, geocoding: resources.geocoding,
      statistics: resources.stack.statistics, progress: configuration.progress)
    let outcome = await pipeline.runOnce(asOf: asOf, brands: configuration.brands, outputDirectory: output)
    var report = outcome.report
    // current/ follows the bundle latest.json names as soon as it can, so that the time it lags
    // behind (where a kill leaves it stale until the next run) is as short as possible.
    var following = followLatest(outcome, output: output)

    var archiveDirectory = resources.archive?.directory
    var pruned: [String] = []
    if report.outcome == .cancelled {
      if let directory = archiveDirectory {
        Files.remove(directory.path)
        archiveDirectory = nil
      }
    } else {
      // Responses are written without a flush each; the archive is made durable once, here.
      if let directory = archiveDirectory {
        do throws(ReplayError) { try ReplayArchive.makeDurable(directory) } catch {
          logger.warning("archive: could not flush \(directory.path) to disk: \(error)")
        }
      }
      if let partial = archiveDirectory, var finished = resources.finishedArchiveDirectory {
        if !(resources.archive?.writeFailures.isEmpty ?? true) {
          finished = finished.deletingLastPathComponent().appendingPathComponent(
            finished.lastPathComponent + ".incomplete")
        }
        do throws(FileError) {
          try Files.rename(partial.path, to: finished.path)
          archiveDirectory = finished
        } catch {
          logger.warning("archive: could not rename \(partial.path) to \(finished.lastPathComponent): \(error)")
        }
      }
      if let keep = configuration.keep {
        pruned = layout.pruneBundles(keep: keep) + stateLayout.pruneArchives(keep: keep)
        for path in pruned { logger.info("removed \(path) (--keep \(keep))") }
      }
    }
    // Whatever the outcome, current/ follows the bundle latest.json names (a run stopped or
    // killed earlier may have left it behind); once more when pruning removed bundles, whose
    // branches current/ may have kept as unlisted, or when the first try failed.
    if following.current != nil || !pruned.isEmpty {
      following.current = synchronizeCurrent(output: output, latest: following.current == nil ? outcome.latest : nil)
    }
    // What follows latest.json and could not be written is an error of the run, in report.json
    // too (and on its page, when the page could be written).
    if !following.problems.isEmpty {
      report.errors += following.problems
      report = PublishStage.write(report, output: output).report
      if following.page == nil, let problem = writeReportPage(output: output, latest: nil, previous: outcome.previous) {
        report.errors.append(problem)
        report = PublishStage.write(report, output: output).report
      }
    }
    return RunResult(
      report: report, archiveDirectory: archiveDirectory, archiveFailures: resources.archive?.writeFailures ?? [],
      unmatchedReplayRequests: resources.replayServer?.unmatchedRequests ?? [],
      validatorStoreFailures: resources.stack.conditional?.storeFailures ?? [], pruned: pruned, migrated: migrated)
  }
}

extension Pipeline {
  /// What could not be written of what follows `latest.json` after a run: `current/`, and
  /// `report.html`.
  public struct Following: Sendable {
    /// Why `current/` does not follow `latest.json`, when it does not.
    public var current: RunProblem?
    /// Why `report.html` could not be written, when it could not.
    public var page: RunProblem?

    /// Both, as the run's errors.
    public var problems: [RunProblem] { [current, page].compactMap { $0 } }
  }

  /// Makes what follows `latest.json` after a run: `current/` and `report.html` beside
  /// `report.json`, both from the bundles `outcome` holds in memory when `latest.json` names the
  /// one it says (otherwise from disk). The two are made side by side: neither reads what the
  /// other writes. When `report.json` was kept as an earlier run wrote it (``PipelineOutcome/reportKept``),
  /// so is the page made from it. Returns what could not be written.
  public static func followLatest(_ outcome: PipelineOutcome, output: URL) -> Following {
    let named = try? OutputLayout(output).readLatest()
    let latest = outcome.latest.flatMap { named == $0.pointer ? $0 : nil }
    let parts = Mutex(Following())
    DispatchQueue.concurrentPerform(iterations: 2) { part in
      if part == 0 {
        let problem = synchronizeCurrent(output: output, latest: latest)
        parts.withLock { $0.current = problem }
      } else if !outcome.reportKept || Files.kind(at: OutputLayout(output).reportPage.path) != Files.regularFileKind {
        let problem = writeReportPage(output: output, latest: latest, previous: outcome.previous)
        parts.withLock { $0.page = problem }
      }
    }
    return parts.withLock { $0 }
  }

  /// Brings `current/` in line with `latest.json` (whose bundle is `latest`, when given);
  /// the problem when it could not.
  static func synchronizeCurrent(output: URL, latest: PublishedBundle?) -> RunProblem? {
    do {
      try CurrentDirectory(outputDirectory: output).synchronize(latest: latest)
      return nil
    } catch {
      return RunProblem(
        kind: .current, message: "current/ could not follow latest.json: \(error); the next run finishes it")
    }
  }

  /// Writes `report.html` beside `report.json`, before `keep` prunes the previous bundle it is
  /// compared with; the problem when it could not. An older page is then removed rather than
  /// left claiming another run's outcome.
  static func writeReportPage(output: URL, latest: PublishedBundle?, previous: PublishedBundle?) -> RunProblem? {
    do {
      if let latest {
        try ReportFiles.write(outputDirectory: output, latest: latest, previous: previous)
      } else {
        try ReportFiles.write(outputDirectory: output)
      }
      return nil
    } catch {
      Files.remove(OutputLayout(output).reportPage.path)
      return RunProblem(kind: .report, message: "report.html could not be written: \(error)")
    }
  }

  /// Brands that share a source (one site) cannot be sent to different mirrors: the source makes
  /// one set of requests for all of them.
  static func checkMirrors(_ mirrors: [BrandSlug: String], sources: [any BrandSource]) throws(RunSetupError) {
    for source in sources {
      let given = source.brands.compactMap { brand in mirrors[brand].map { (brand, $0) } }
      guard Set(given.map(\.1)).count > 1 else { continue }
      throw RunSetupError(
        setting: "--source",
        message: given.map { "\($0.0.rawValue)=\($0.1)" }.joined(separator: ", ")
          + " name different URLs, but \(source.brands.map(\.rawValue).joined(separator: ", ")) share one source"
          + " (\(source.origin)): give them the same URL, or name only one of them")
    }
  }
}

extension Pipeline {
  /// The recordings of `--replay`, when given.
  static func loadRecordings(_ directory: URL?) throws(RunSetupError) -> ReplayArchive? {
    guard let directory else { return nil }
    do { return try ReplayArchive.load(from: directory) } catch {
      throw RunSetupError(setting: "--replay", message: error.description)
    }
  }

  /// The run's date: `--as-of` when given, else the date the replayed recordings were made,
  /// else today in Korea.
  static func resolveAsOf(
    _ configured: CalendarDate?, replay: ReplayArchive?, directory: URL?
  ) throws(RunSetupError) -> CalendarDate {
    if let configured { return configured }
    if let recorded = replay?.recordedOn {
      guard let date = CalendarDate(iso: recorded) else {
        throw RunSetupError(
          setting: "--replay",
          message: "\(directory?.path ?? "")/replay.json: recordedOn \"\(recorded)\" is not YYYY-MM-DD")
      }
      return date
    }
    return KoreanCalendar.today()
  }
}

extension ReplayServer {
  /// Serves `archive` for a run of `sources`, with a listener for every origin the run may
  /// contact, the sources' and the geocoding providers' alike, so a replayed run never reaches
  /// the network and a request without a recording is reported under its own host.
  /// `baseURLOverrides` of the result sends each of those origins to its listener.
  public static func startForRun(
    _ archive: ReplayArchive, sources: [any BrandSource]
  ) throws(LocalHTTPServerError) -> ReplayServer {
    try start(archive: archive, unrecordedOrigins: sources.map(\.origin) + GeocodingChain.providerOrigins)
  }
}
