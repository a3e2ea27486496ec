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
  /// First the settings are checked without touching anything (the replay folder holds
  /// recordings; nothing that must be a directory is a file; the state directory, archive and
  /// geocoding cache, resolved through their links, lie outside the output directory and it
  /// outside them; no symbolic link stands where the run writes in the output or state
  /// directory), then the output and state directories are created and locked (one run at a
  /// time; a lock left by a killed run is taken over), an output directory of the old layout has
  /// its private files moved to the state directory, leftovers of killed runs are removed, the
  /// fetch stack and geocoding chain are built, the pipeline runs once, old bundles are pruned
  /// (`keep`), the stable files of `current/` follow `latest.json` and the reports are written
  /// (``finishOutput(_:output:)``), the archive is made durable and old archives pruned, and the
  /// stack is taken down again. A cancelled run publishes nothing and removes its partial
  /// archive. What follows `latest.json` and could not be written (`current/`, the reports) is
  /// one of the report's errors, in `report.json` too, and the run's exit status is then `1`.
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

    // The clock is input: a day the engine cannot speak of stops the run before anything is touched.
    let clockAsOf = configuration.asOf == nil && configuration.replayDirectory == nil ? try RunClock.asOf() : nil
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
    let asOf: CalendarDate
    if let clockAsOf {
      asOf = clockAsOf
    } else {
      asOf = try resolveAsOf(configuration.asOf, replay: replay, directory: configuration.replayDirectory)
    }
    if !configuration.allowsEarlierAsOf { try checkNotBeforePublished(asOf, layout: layout, configuration: configuration) }
    let resources = try RunResources(configuration, replay: replay, asOf: asOf)
    defer { resources.replayServer?.stop() }
    let pipeline = Pipeline(
      sources: configuration.sources, fetcher: resources.sourceFetcher, geocoding: resources.geocoding,
      statistics: resources.stack.statistics, progress: configuration.progress,
      admission: AdmitStage(acceptShrink: configuration.acceptShrink))
    let outcome = await pipeline.runOnce(asOf: asOf, brands: configuration.brands, outputDirectory: output)

    var pruned: [String] = []
    if outcome.report.outcome != .cancelled, let keep = configuration.keep {
      pruned = layout.pruneBundles(keep: keep)
    }
    // current/ follows the bundle latest.json names as soon as the bundles it draws on are
    // settled (its unlisted branches are those of the kept bundles), so that the time it lags
    // behind (where a kill leaves it stale until the next run) is as short as possible; then
    // report.html and report.json, with what could not be written among the report's errors.
    let report = finishOutput(outcome, output: output)
    let archiveDirectory = finishArchive(resources, cancelled: report.outcome == .cancelled, logger: logger)
    if report.outcome != .cancelled {
      if let keep = configuration.keep {
        pruned += stateLayout.pruneArchives(keep: keep)
        for path in pruned { logger.info("removed \(path) (--keep \(keep))") }
      }
    }
    return RunResult(
      report: report, archiveDirectory: archiveDirectory, archiveFailures: resources.archive?.writeFailures ?? [],
      unmatchedReplayRequests: resources.replayServer?.unmatchedRequests ?? [],
      validatorStoreFailures: resources.stack.conditional?.storeFailures ?? [], pruned: pruned, migrated: migrated)
  }
}

extension Pipeline {
  /// Ends the run's archive: made durable once (responses were written without a flush each),
  /// then renamed to its finished name, or to its incomplete one when the run was cancelled or
  /// responses could not be written. A cancelled run's `--archive` folder is removed. Returns
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

  /// Throws when `asOf` is before the as-of of the bundle `latest.json` names: a clock gone back
  /// or old recordings must not publish an older day over a newer one without being told to
  /// (`allowsEarlierAsOf`, `--allow-earlier-as-of`). An unreadable `latest.json` names no day.
  static func checkNotBeforePublished(
    _ asOf: CalendarDate, layout: OutputLayout, configuration: RunConfiguration
  ) throws(RunSetupError) {
    let latest: LatestPointer?
    do { latest = try layout.readLatest() } catch { latest = nil }
    guard let latest, asOf < latest.asOf else { return }
    let setting =
      configuration.asOf != nil
      ? "--as-of" : configuration.replayDirectory != nil ? "--replay" : RunClock.settingName
    throw RunSetupError(
      setting: setting,
      message:
        "the run's as-of \(asOf.iso) is before \(latest.asOf.iso), the as-of of the published bundle \(latest.version); nothing was published over it (--allow-earlier-as-of publishes an earlier day)"
    )
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
          message:
            "\(directory.map { ReplayArchive.isRecordingFolder($0) ? $0.path + "/replay.json" : $0.path } ?? ""): recordedOn \"\(recorded)\" is not YYYY-MM-DD"
        )
      }
      guard KoreanCalendar.supportedAsOf.contains(date) else {
        throw RunSetupError(
          setting: "--replay",
          message:
            "recordedOn \(recorded) is outside \(KoreanCalendar.supportedAsOf.lowerBound.iso) to \(KoreanCalendar.supportedAsOf.upperBound.iso), the days a run can be as of; give --as-of"
        )
      }
      return date
    }
    return try RunClock.asOf()
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
