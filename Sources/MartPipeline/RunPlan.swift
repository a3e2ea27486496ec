import Foundation
import Logging
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartFiles
import MartGeocoding
import MartReplay

/// A run worked out before it starts: every path resolved, the mode, the as-of date, the
/// recordings and the origin routes, with every setting checked, and nothing created or opened.
/// ``prepare()`` then creates what it names and takes the run lock; `RunResources` opens the
/// rest.
///
/// The checks, in order: the replay folder holds recordings; nothing that must be a directory
/// is a file; the state directory, the archive folder and the geocoding cache, resolved through
/// their links, lie outside the output directory and it outside them; no place of the run lies
/// inside another run's output or state directory, nor holds one; brands that share a
/// source share a mirror; nothing that must be a file is a directory; the clock gives a day the
/// engine can speak of; no symbolic link, device or pipe stands where the run writes in the
/// output or state directory; the recordings load and give a date; and the as-of is not before
/// the published bundle's (unless allowed).
public struct RunPlan: Sendable {
  /// The configuration the plan was made from.
  public let configuration: RunConfiguration
  /// Whether the run talks to the sites or to recordings.
  public let mode: RunMode
  /// The recordings served instead of the network, loaded.
  public let recordings: ReplayArchive?
  /// The day the run treats as today.
  public let asOf: CalendarDate
  /// Where the as-of came from: the configuration, the recordings or the clock.
  public let asOfSetting: RunSetting
  /// Where each brand's requests go besides the replay server.
  public let routes: OriginRoutes
  /// The SQLite file of ETags and Last-Modified dates; `nil` sends no conditional requests.
  public let validatorStore: URL?
  /// The geocoding cache, and whether it is only read; `nil` for none.
  public let geocodingCache: (file: URL, readOnly: Bool)?
  /// Where the run keeps its responses; `nil` for nowhere.
  public let archive: ArchivePlan?

  /// The output directory: what may be served.
  public var output: URL { configuration.outputDirectory }
  /// The state directory: what must not be served.
  public var state: URL { configuration.stateDirectory }
  /// What the runs of this output learned of the closing-day designations: live or replayed,
  /// a run reads and replaces `<state>/designations.sqlite`.
  public var designationStore: URL { StateLayout(state).designationStore }

  /// Plans a run that publishes: checks every setting of `configuration` and resolves what the
  /// run will use, touching nothing.
  public init(_ configuration: RunConfiguration) throws(RunSetupError) {
    let output = configuration.outputDirectory
    let state = configuration.stateDirectory
    if let replay = configuration.replayDirectory {
      try SettingChecks.checkRecordings(replay, setting: .replay)
    }
    try SettingChecks.checkCanBeDirectory(output, setting: .output)
    for folder in OutputLayout.folders {
      try SettingChecks.checkCanBeDirectory(output.appendingPathComponent(folder), setting: .output)
    }
    try SettingChecks.checkPrivateApart(
      output: output,
      private: [
        (state, .state), (configuration.archiveDirectory, .archive), (configuration.geocodingCache, .geocodingCache),
      ])
    try SettingChecks.checkNotNested(
      output: output, state: state,
      others: [(configuration.archiveDirectory, .archive), (configuration.geocodingCache, .geocodingCache)])
    try SettingChecks.checkCanBeDirectory(state, setting: .state)
    for folder in StateLayout.folders {
      try SettingChecks.checkCanBeDirectory(state.appendingPathComponent(folder), setting: .state)
    }
    if let archive = configuration.archiveDirectory {
      try SettingChecks.checkCanBeDirectory(archive, setting: .archive)
    }
    let routes = try Self.routes(configuration)
    // A validator store is a file of the state the run keeps.
    let files: [(URL?, RunSetting)] =
      [(configuration.geocodingCache, .geocodingCache), (configuration.validatorStore, .state)]
      + OutputLayout.files.map { (output.appendingPathComponent($0), .output) }
    for (file, setting) in files {
      if let file { try SettingChecks.checkCanBeFile(file, setting: setting) }
    }
    // The clock is input: a day the engine cannot speak of stops the run before anything is touched.
    let clockAsOf = configuration.asOf == nil && configuration.replayDirectory == nil ? try RunClock.asOf(systemNow: configuration.clock.date) : nil
    try SettingChecks.checkNothingForeign(OutputLayout(output).foreignEntries(), in: output, setting: .output)
    try SettingChecks.checkNothingForeign(StateLayout(state).foreignEntries(), in: state, setting: .state)

    // Everything the run depends on is settled before anything is created: the recordings and,
    // without an as-of, the date they were recorded.
    let recordings = try Self.loadRecordings(configuration.replayDirectory)
    let asOf: CalendarDate
    if let clockAsOf { asOf = clockAsOf } else { asOf = try Self.resolveAsOf(configuration, recordings: recordings) }
    let mode: RunMode = recordings == nil ? .live : .replay
    self.configuration = configuration
    self.mode = mode
    self.recordings = recordings
    self.asOf = asOf
    self.asOfSetting = Self.asOfSetting(configuration)
    self.routes = routes
    validatorStore = mode.validatorStore(configured: configuration.validatorStore, state: state)
    geocodingCache = mode.geocodingCache(configured: configuration.geocodingCache, state: state)
    archive = mode.archive(
      configured: configuration.archiveDirectory, state: state, asOf: asOf, now: configuration.clock.date)
    if !configuration.allowsEarlierAsOf { try checkNotBeforePublished() }
  }

  /// Plans a probe of the sources, which writes nothing: only the recordings, the mirrors and
  /// the as-of are checked and resolved; no validator store, geocoding cache or archive.
  public init(probing configuration: RunConfiguration) throws(RunSetupError) {
    if let replay = configuration.replayDirectory {
      try SettingChecks.checkRecordings(replay, setting: .replay)
      if !configuration.mirrors.isEmpty {
        throw RunSetupError(setting: .source, message: "cannot be combined with \(setting: .replay)")
      }
    }
    routes = try Self.routes(configuration)
    recordings = try Self.loadRecordings(configuration.replayDirectory)
    asOf = try Self.resolveAsOf(configuration, recordings: recordings)
    asOfSetting = Self.asOfSetting(configuration)
    mode = recordings == nil ? .live : .replay
    self.configuration = configuration
    validatorStore = nil
    geocodingCache = nil
    archive = nil
  }
}

extension RunPlan {
  /// The routes of the configuration's mirrors over its sources' sites. Brands that share a
  /// source (one site) cannot be sent to different mirrors: the source makes one set of requests
  /// for all of them.
  static func routes(_ configuration: RunConfiguration) throws(RunSetupError) -> OriginRoutes {
    do {
      return try OriginRoutes(
        mirrors: configuration.mirrors,
        sites: configuration.sources.map(\.site) + (configuration.readsRegister ? [RegisterStage.site] : []))
    } catch {
      throw RunSetupError(setting: .source, cause: error)
    }
  }

  /// The recordings of the replay folder, when one is given.
  static func loadRecordings(_ directory: URL?) throws(RunSetupError) -> ReplayArchive? {
    guard let directory else { return nil }
    let archive: ReplayArchive
    do { archive = try ReplayArchive.load(from: directory) } catch {
      throw RunSetupError(setting: .replay, cause: error)
    }
    // Nothing to replay is bad input, not a run in which every brand fails.
    guard !archive.exchanges.isEmpty else {
      let what =
        ReplayArchive.isRecordingFolder(directory)
        ? "\(directory.path): holds no recorded exchange (no *.exchange.json file beside replay.json)"
        : "\(directory.path): holds no recorded response"
      throw RunSetupError(setting: .replay, message: "\(what): nothing to replay")
    }
    return archive
  }

  /// The setting the as-of comes from.
  static func asOfSetting(_ configuration: RunConfiguration) -> RunSetting {
    configuration.asOf != nil ? .asOf : configuration.replayDirectory != nil ? .replay : RunClock.setting
  }

  /// The run's date: the configured as-of when given, else the date the replayed recordings
  /// were made, else today in Korea.
  static func resolveAsOf(
    _ configuration: RunConfiguration, recordings: ReplayArchive?
  ) throws(RunSetupError) -> CalendarDate {
    if let configured = configuration.asOf { return configured }
    if let recorded = recordings?.recordedOn {
      let directory = configuration.replayDirectory
      guard let date = CalendarDate(iso: recorded) else {
        throw RunSetupError(
          setting: .replay,
          message:
            "\(directory.map { ReplayArchive.isRecordingFolder($0) ? $0.path + "/replay.json" : $0.path } ?? ""): recordedOn \"\(recorded)\" is not YYYY-MM-DD"
        )
      }
      guard KoreanCalendar.supportedAsOf.contains(date) else {
        throw RunSetupError(
          setting: .replay,
          message:
            "recordedOn \(recorded) is outside \(KoreanCalendar.supportedAsOf.lowerBound.iso) to \(KoreanCalendar.supportedAsOf.upperBound.iso), the days a run can be as of; give \(setting: .asOf)"
        )
      }
      return date
    }
    return try RunClock.asOf(systemNow: configuration.clock.date)
  }

  /// Throws when the as-of is before the as-of of the bundle `latest.json` names: a clock gone
  /// back or old recordings must not publish an older day over a newer one without being told
  /// to (``RunConfiguration/allowsEarlierAsOf``). An unreadable `latest.json` names no day.
  func checkNotBeforePublished() throws(RunSetupError) {
    let latest: LatestPointer?
    do { latest = try OutputLayout(output).readLatest() } catch { latest = nil }
    guard let latest, asOf < latest.asOf else { return }
    throw RunSetupError(
      setting: asOfSetting,
      message:
        "the run's as-of \(asOf.iso) is before \(latest.asOf.iso), the as-of of the published bundle \(latest.version); nothing was published over it (\(setting: .allowEarlierAsOf) publishes an earlier day)"
    )
  }
}

extension RunPlan {
  /// Creates what the plan names, in turn: the output and state directories, locked (one run at
  /// a time; a lock left by a killed run is taken over, with a warning), an output directory of
  /// the old layout with its private files moved to the state directory, the leftovers of
  /// killed runs removed, and the folders of the validator store, the archive and the geocoding
  /// cache. The as-of is checked against the published bundle again under the lock.
  public func prepare() throws(RunSetupError) -> PreparedRun {
    let logger = configuration.logger
    try SettingChecks.prepare(output, setting: .output)
    try SettingChecks.prepare(state, setting: .state)
    let lock = try lockRun()
    if let previous = lock.tookOverFromProcess {
      logger.warning(
        "took over the lock of \(output.path) left by a run that is no longer running (process \(previous))")
    }
    let stateLayout = StateLayout(state)
    let migrated = stateLayout.moveFromOldLayout(of: output)
    if !migrated.isEmpty {
      let what = migrated.joined(separator: ", ")
      logger.notice(
        "moved \(what) from \(output.path) to the state directory \(state.path): the output directory now holds only what may be served"
      )
    }
    for leftover in OutputLayout(output).removeLeftovers() + stateLayout.removeUnfinishedArchives() {
      logger.notice("removed \(leftover), left by a run that was killed")
    }
    if !configuration.allowsEarlierAsOf { try checkNotBeforePublished() }
    if let validatorStore { try SettingChecks.prepare(validatorStore.deletingLastPathComponent(), setting: .state) }
    if let archive {
      let folder = archive.isWARC ? archive.writing.deletingLastPathComponent() : archive.writing
      try SettingChecks.prepare(folder, setting: .archive)
    }
    if let cache = geocodingCache, !cache.readOnly {
      try SettingChecks.prepare(cache.file.deletingLastPathComponent(), setting: .geocodingCache)
    }
    return PreparedRun(lock: lock, migrated: migrated)
  }

  /// One run at a time per output directory: `<state>/run.lock` holds the running process's id
  /// under an exclusive lock, and the output directory itself is locked too, so two runs with
  /// different state directories cannot publish into it at once.
  private func lockRun() throws(RunSetupError) -> FileLock {
    do {
      return try FileLock(file: StateLayout(state).runLock.path, guarding: output.path)
    } catch {
      switch error {
      case .cannotOpenDirectory(let failure):
        throw RunSetupError(setting: .output, message: "cannot open \(output.path)", failure: failure)
      case .cannotOpenFile(let failure):
        throw RunSetupError(
          setting: .state, message: "cannot create the lock file \(failure.location)", failure: failure)
      case .held(let file, let process):
        throw busy("process \(process.map(String.init) ?? "unknown"), lock file \(file)")
      case .directoryHeld:
        throw busy("one with another state directory holds the lock on \(output.path) itself")
      }
    }
  }

  private func busy(_ which: String) -> RunSetupError {
    RunSetupError(
      setting: .output, message: "\(output.path) is in use by another run (\(which)); wait for it to finish")
  }
}

/// A planned run made ready: its folders created and its lock held until ``release()``.
public struct PreparedRun {
  let lock: FileLock
  /// What an output directory of the old layout had moved to the state directory, relative to
  /// the output directory.
  public let migrated: [String]

  /// Releases the run lock.
  public func release() { lock.release() }
}

extension BrandSource {
  /// The site this source reads, for the run's origin routes.
  var site: OriginRoutes.Site { OriginRoutes.Site(brands: brands, origin: origin, scope: scope) }
}
