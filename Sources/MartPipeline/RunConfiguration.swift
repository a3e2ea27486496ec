import Foundation
import Logging
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartReplay
import MartReport
import MartSQLite

/// Everything one run of the pipeline needs to know, as the command line gives it. The
/// pipeline builds its own fetch stack and geocoding chain from it (`Pipeline.run(_:)`).
public struct RunConfiguration: Sendable {
  /// Where what may be served goes: `latest.json`, `bundles/`, `current/` and `report.json`.
  /// Created when missing.
  public var outputDirectory: URL
  /// Where the run keeps what must not be served: the caches (`cache/`), the raw archives
  /// (`raw/`) and the run lock. Default: ``defaultStateDirectory(for:)``. Created when missing.
  public var stateDirectory: URL
  /// A folder of recorded responses (`fixtures/web`, a run archive) to serve from 127.0.0.1
  /// instead of the network; every request of the run goes there. It must hold `replay.json`
  /// or `*.exchange.json` files.
  public var replayDirectory: URL?
  /// Brand to the `scheme://host[:port]` that stands in for its source's real origin.
  public var mirrors: [BrandSlug: String]
  /// The day the run treats as today. Default: the recordings' date on a replay, otherwise
  /// today in Korea.
  public var asOf: CalendarDate?
  /// The brands to fetch; empty means every brand the sources offer.
  public var brands: Set<BrandSlug>
  /// The environment holding the geocoding keys (`KAKAO_REST_API_KEY`, …, `MART_GEOCODERS`).
  /// A replay uses the keys the recordings were made with instead.
  public var geocodingEnvironment: [String: String]
  /// The SQLite geocoding cache. Default: `<state>/cache/geocoding.sqlite`, none on a replay
  /// (replayed answers must not fill the cache live runs rely on).
  public var geocodingCache: URL?
  /// How geocoders retry rate-limited and failed requests.
  public var geocodingRetryPolicy: RetryPolicy
  /// Where to keep every response of the run in the recording format. Default:
  /// `<state>/raw/<as-of>-<HHmmss>` for runs that are not replays, none for replays.
  public var archiveDirectory: URL?
  /// The brand sources to run.
  public var sources: [any BrandSource]
  /// libcurl's limits and the User-Agent.
  public var client: HTTPClientConfiguration
  /// Per-host limits, delays and robots.txt. A replay ignores delays and robots.txt (the
  /// replay server is ours) and keeps only the per-host limit.
  public var politeness: PolitenessPolicy
  /// Retries of brand requests.
  public var retry: FetchRetryPolicy
  /// The SQLite file of ETags and Last-Modified dates for conditional requests. Default:
  /// `<state>/cache/http-validators.sqlite`, none on a replay.
  public var validatorStore: URL?
  /// Keep the newest this many bundles (and the one `latest.json` names) and raw archives;
  /// nil keeps everything.
  public var keep: Int?
  /// Where the sources' requests are counted while the run goes on, for progress lines.
  public var progress: RunProgress?
  /// Where the run logs what it does (setup, takeovers, housekeeping, store problems).
  public var logger: Logger

  public init(
    outputDirectory: URL, stateDirectory: URL? = nil, replayDirectory: URL? = nil, mirrors: [BrandSlug: String] = [:],
    asOf: CalendarDate? = nil, brands: Set<BrandSlug> = [],
    geocodingEnvironment: [String: String] = ProcessInfo.processInfo.environment,
    geocodingCache: URL? = nil, geocodingRetryPolicy: RetryPolicy = RetryPolicy(),
    archiveDirectory: URL? = nil, sources: [any BrandSource] = BrandSources.all,
    client: HTTPClientConfiguration = HTTPClientConfiguration(), politeness: PolitenessPolicy = PolitenessPolicy(),
    retry: FetchRetryPolicy = FetchRetryPolicy(), validatorStore: URL? = nil, keep: Int? = nil,
    progress: RunProgress? = nil, logger: Logger = Logger(label: "mart-holiday.run")
  ) {
    self.outputDirectory = outputDirectory
    self.stateDirectory = stateDirectory ?? Self.defaultStateDirectory(for: outputDirectory)
    self.replayDirectory = replayDirectory
    self.mirrors = mirrors
    self.asOf = asOf
    self.brands = brands
    self.geocodingEnvironment = geocodingEnvironment
    self.geocodingCache = geocodingCache
    self.geocodingRetryPolicy = geocodingRetryPolicy
    self.archiveDirectory = archiveDirectory
    self.sources = sources
    self.client = client
    self.politeness = politeness
    self.retry = retry
    self.validatorStore = validatorStore
    self.keep = keep
    self.progress = progress
    self.logger = logger
  }
}

extension RunConfiguration {
  /// The state directory of an output directory when none is given: a sibling named after it,
  /// `<output>-state` (`output` → `output-state`), so nothing private sits in what is served.
  public static func defaultStateDirectory(for output: URL) -> URL {
    let standardized = output.standardizedFileURL
    return standardized.deletingLastPathComponent().appendingPathComponent(standardized.lastPathComponent + "-state")
  }
}

/// What a configured run did: the report, and what the fetch stack noticed on the way.
public struct RunResult: Sendable {
  public var report: RunReport
  /// Where this run's responses were kept, if they were (removed again when cancelled).
  public var archiveDirectory: URL?
  /// Responses the archive could not keep, with the reason. When there are any, the archive
  /// cannot replay the run (the default one is named `<as-of>-<time>.incomplete`).
  public var archiveFailures: [String]
  /// Requests a replay had no recording for (`METHOD host/path?query body: …`).
  public var unmatchedReplayRequests: [String]
  /// Problems reading or writing the validator store (conditional requests went on without it).
  public var validatorStoreFailures: [String]
  /// Bundles (relative to the output directory) and raw archives (relative to the state
  /// directory) removed by `keep`.
  public var pruned: [String]
  /// What an output directory of the old layout (caches, archives and locks among the served
  /// files) had moved to the state directory in this run, relative to the output directory.
  public var migrated: [String]
}

/// A run could not be set up: no fetch was made and nothing was written.
public struct RunSetupError: Error, Sendable, CustomStringConvertible {
  /// The setting at fault, e.g. `--replay`.
  public var setting: String
  public var message: String

  public init(setting: String, message: String) {
    self.setting = setting
    self.message = message
  }

  public var description: String { "\(setting): \(message)" }
}

extension Pipeline {
  /// Runs the pipeline as `configuration` says.
  ///
  /// First the settings are checked without touching anything (the replay folder holds
  /// recordings; nothing that must be a directory is a file), then the output and state
  /// directories are created and locked (one run at a time; a lock left by a killed run is
  /// taken over), an output directory of the old layout has its private files moved to the
  /// state directory, leftovers of killed runs are removed, the fetch stack and geocoding chain
  /// are built, the pipeline runs once, old bundles and archives are pruned (`keep`), the
  /// stable files of `current/` follow `latest.json`, and the stack is taken down again. A
  /// cancelled run publishes nothing and removes its partial archive.
  public static func run(_ configuration: RunConfiguration) async throws(RunSetupError) -> RunResult {
    let output = configuration.outputDirectory
    let state = configuration.stateDirectory
    let logger = configuration.logger
    if let replay = configuration.replayDirectory {
      try OutputDirectory.checkRecordings(replay, setting: "--replay")
    }
    try OutputDirectory.checkCanBeDirectory(output, setting: "--output")
    for folder in ["bundles", "current"] {
      try OutputDirectory.checkCanBeDirectory(output.appendingPathComponent(folder), setting: "--output")
    }
    guard state.standardizedFileURL.path != output.standardizedFileURL.path,
      !state.standardizedFileURL.path.hasPrefix(output.standardizedFileURL.path + "/")
    else {
      throw RunSetupError(
        setting: "--state",
        message:
          "\(state.path) is inside the output directory \(output.path), which is served: choose a folder outside it")
    }
    try OutputDirectory.checkCanBeDirectory(state, setting: "--state")
    for folder in ["cache", "raw"] {
      try OutputDirectory.checkCanBeDirectory(state.appendingPathComponent(folder), setting: "--state")
    }
    if let archive = configuration.archiveDirectory {
      try OutputDirectory.checkCanBeDirectory(archive, setting: "--archive")
    }
    try checkMirrors(configuration.mirrors, sources: configuration.sources)
    for (file, setting) in [
      (configuration.geocodingCache, "--geocoding-cache"), (configuration.validatorStore, "--validator-store"),
      (output.appendingPathComponent("latest.json"), "--output"),
      (output.appendingPathComponent("report.json"), "--output"),
    ] {
      if let file { try OutputDirectory.checkCanBeFile(file, setting: setting) }
    }

    try OutputDirectory.prepare(output, setting: "--output")
    try OutputDirectory.prepare(state, setting: "--state")
    let lock = try RunLock(output: output, state: state)
    defer { lock.release() }
    if let previous = lock.tookOverFromProcess {
      logger.warning(
        "took over the lock of \(output.path) left by a run that is no longer running (process \(previous))")
    }
    let migrated = OutputDirectory.migrateOldLayout(output: output, state: state)
    if !migrated.isEmpty {
      let what = migrated.joined(separator: ", ")
      logger.notice(
        "moved \(what) from \(output.path) to the state directory \(state.path): the output directory now holds only what may be served"
      )
    }
    for leftover in OutputDirectory.removeLeftovers(output: output, state: state) {
      logger.notice("removed \(leftover), left by a run that was killed")
    }

    let resources = try RunResources(configuration)
    defer { resources.replayServer?.stop() }
    var pipeline = Pipeline(
      sources: configuration.sources, fetcher: resources.sourceFetcher, geocoding: resources.geocoding)
    pipeline.statistics = resources.stack.statistics
    pipeline.progress = configuration.progress
    let report = await pipeline.run(asOf: resources.asOf, brands: configuration.brands, outputDirectory: output)
    // current/ follows the bundle latest.json names as soon as it can, so that the time it lags
    // behind (where a kill leaves it stale until the next run) is as short as possible.
    var currentFollows = synchronizeCurrent(output: output, logger: logger)
    writeReportPage(output: output, logger: logger)

    var archiveDirectory = resources.archive?.directory
    var pruned: [String] = []
    if report.outcome == .cancelled {
      if let directory = archiveDirectory {
        try? FileManager.default.removeItem(at: directory)
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
        do {
          try FileManager.default.moveItem(at: partial, to: finished)
          archiveDirectory = finished
        } catch {
          logger.warning("archive: could not rename \(partial.path) to \(finished.lastPathComponent): \(error)")
        }
      }
      if let keep = configuration.keep {
        pruned = OutputDirectory.prune(
          output: output, state: state, keep: keep, current: OutputDirectory.currentBundle(in: output))
        for path in pruned { logger.info("removed \(path) (--keep \(keep))") }
      }
    }
    // Whatever the outcome, current/ follows the bundle latest.json names (a run stopped or
    // killed earlier may have left it behind); once more when pruning removed bundles, whose
    // branches current/ may have kept as unlisted.
    if !currentFollows || !pruned.isEmpty {
      currentFollows = synchronizeCurrent(output: output, logger: logger)
    }
    return RunResult(
      report: report, archiveDirectory: archiveDirectory, archiveFailures: resources.archive?.writeFailures ?? [],
      unmatchedReplayRequests: resources.replayServer?.unmatchedRequests ?? [],
      validatorStoreFailures: resources.stack.conditional?.storeFailures ?? [], pruned: pruned, migrated: migrated)
  }
}

extension Pipeline {
  /// Writes `report.html` beside `report.json`, before `keep` prunes the previous bundle it is
  /// compared with. When it cannot be written, an older one is removed rather than left claiming
  /// another run's outcome.
  /// Brings `current/` in line with `latest.json`; `false`, logged, when it could not.
  static func synchronizeCurrent(output: URL, logger: Logger) -> Bool {
    do {
      try CurrentDirectory(outputDirectory: output).synchronize()
      return true
    } catch {
      logger.error("current/ could not follow latest.json: \(error)")
      return false
    }
  }

  static func writeReportPage(output: URL, logger: Logger) {
    do {
      try ReportFiles.write(outputDirectory: output)
    } catch {
      logger.warning("report.html could not be written: \(error)")
      try? FileManager.default.removeItem(at: output.appendingPathComponent(ReportFiles.fileName))
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

/// What one configured run talks through: the replay server when replaying, the `FetchStack`
/// (conditional → retrying → polite → origin redirection → libcurl), the archive of source
/// responses on top of it, and the geocoding chain over the stack's polite network. Sources
/// and geocoders always name the real sites; only the redirection layer knows where requests
/// really go, so archives and exported records cite the real URLs.
struct RunResources {
  let asOf: CalendarDate
  let replayServer: ReplayServer?
  let stack: FetchStack
  let archive: ArchivingFetcher?
  /// Where the default archive goes once the run has finished (it is written under a hidden
  /// name until then); `nil` for `--archive DIR` and replays.
  let finishedArchiveDirectory: URL?
  /// What sources use: the stack, through the archive when there is one.
  var sourceFetcher: any HTTPFetching { archive ?? stack.fetcher }
  let geocoding: GeocodingChain

  init(_ configuration: RunConfiguration) throws(RunSetupError) {
    var asOf = configuration.asOf
    var overrides: [String: String] = [:]
    if let directory = configuration.replayDirectory {
      let archive: ReplayArchive
      do { archive = try ReplayArchive.load(from: directory) } catch {
        throw RunSetupError(setting: "--replay", message: error.description)
      }
      if asOf == nil, let recorded = archive.recordedOn {
        guard let date = CalendarDate(iso: recorded) else {
          throw RunSetupError(
            setting: "--replay", message: "\(directory.path)/replay.json: recordedOn \"\(recorded)\" is not YYYY-MM-DD")
        }
        asOf = date
      }
      let server: ReplayServer
      do { server = try Pipeline.startReplayServer(archive, sources: configuration.sources) } catch {
        throw RunSetupError(setting: "--replay", message: "cannot serve the recordings: \(error)")
      }
      replayServer = server
      overrides = server.baseURLOverrides
    } else {
      replayServer = nil
    }
    let unmirrored = overrides
    for (brand, baseURL) in configuration.mirrors {
      for source in configuration.sources where source.brands.contains(brand) {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        overrides[source.origin + source.scope] = base + source.scope
      }
    }
    for source in configuration.sources where !source.scope.isEmpty {
      let siteMirrored = overrides[source.origin] != unmirrored[source.origin]
      if let partMirror = overrides[source.origin + source.scope] {
        // The site's robots.txt is asked where the part went, unless the site has a mirror too.
        if !siteMirrored, partMirror.hasSuffix(source.scope) {
          overrides[source.origin + "/robots.txt"] = partMirror.dropLast(source.scope.count) + "/robots.txt"
        }
      } else if siteMirrored {
        // A source reading one part of a site keeps going where it went when only another
        // source of that site has a mirror.
        overrides[source.origin + source.scope] = (unmirrored[source.origin] ?? source.origin) + source.scope
      }
    }
    let asOfDate = asOf ?? KoreanCalendar.today()
    self.asOf = asOfDate
    let state = configuration.stateDirectory
    let isReplay = replayServer != nil
    let replayServer = self.replayServer

    do throws(RunSetupError) {
      // The replay server is ours and answers what was recorded: no delays, no robots.txt,
      // no retries (a recorded failure answers the same every time), no validators.
      var politeness = configuration.politeness
      var retry = configuration.retry
      if isReplay {
        politeness.minimumDelay = .zero
        politeness.jitter = .zero
        politeness.obeysRobotsTxt = false
        retry.maxAttempts = 1
      }
      let validatorFile =
        configuration.validatorStore
        ?? (isReplay ? nil : state.appendingPathComponent("cache/http-validators.sqlite"))
      var validators: HTTPValidatorStore?
      if let validatorFile {
        try OutputDirectory.prepare(validatorFile.deletingLastPathComponent(), setting: "--state")
        validators = try Self.openCache(validatorFile, setting: "--state", logger: configuration.logger) {
          path throws(SQLiteError) in try HTTPValidatorStore(path: path)
        }
      }
      stack = FetchStack(
        client: configuration.client, overrides: overrides, politeness: politeness, retry: retry,
        validators: validators)

      // The default archive is written under a hidden name and renamed when the run ends, so a
      // killed run's partial archive is a leftover, never counted as one of the kept archives.
      let archiveDirectory: URL?
      if let chosen = configuration.archiveDirectory {
        (archiveDirectory, finishedArchiveDirectory) = (chosen, nil)
      } else if isReplay {
        (archiveDirectory, finishedArchiveDirectory) = (nil, nil)
      } else {
        let name = "\(asOfDate.iso)-\(KoreanCalendar.timeOfDay())"
        archiveDirectory = state.appendingPathComponent("raw/\(OutputDirectory.partialArchivePrefix)\(name)")
        finishedArchiveDirectory = state.appendingPathComponent("raw/\(name)")
      }
      if let archiveDirectory {
        try OutputDirectory.prepare(archiveDirectory, setting: "--archive")
        do {
          archive = try ArchivingFetcher(wrapping: stack.fetcher, directory: archiveDirectory, recordedOn: asOfDate.iso)
        } catch {
          throw RunSetupError(setting: "--archive", message: error.description)
        }
      } else {
        archive = nil
      }

      let cache =
        configuration.geocodingCache ?? (isReplay ? nil : state.appendingPathComponent("cache/geocoding.sqlite"))
      var geocodeCache: GeocodeCache?
      if let cache {
        try OutputDirectory.prepare(cache.deletingLastPathComponent(), setting: "--geocoding-cache")
        geocodeCache = try Self.openCache(cache, setting: "--geocoding-cache", logger: configuration.logger) {
          path throws(SQLiteError) in try GeocodeCache(path: path)
        }
      }
      geocoding = GeocodingChain.fromEnvironment(
        cache: geocodeCache, fetcher: stack.politeNetwork,
        environment: isReplay ? GeocodingChain.replayEnvironment : configuration.geocodingEnvironment,
        retryPolicy: configuration.geocodingRetryPolicy)
    } catch {
      replayServer?.stop()
      throw error
    }
  }

  /// Opens a cache database with `open`. A file that is not a database, or a corrupt one, is
  /// set aside (renamed, with one warning) and the cache starts empty: a cache never stops runs.
  private static func openCache<Cache>(
    _ file: URL, setting: String, logger: Logger, with open: (String) throws(SQLiteError) -> Cache
  ) throws(RunSetupError) -> Cache {
    do {
      let (cache, setAside) = try SQLiteConnection.openSettingAsideDamaged(path: file.path, with: open)
      if let setAside {
        logger.warning("\(file.path) was not a readable database; moved it to \(setAside) and started an empty one")
      }
      return cache
    } catch {
      throw RunSetupError(setting: setting, message: "\(error) (check the file's permissions, or remove it)")
    }
  }
}

/// How a run's requests behave, in the command line's own terms (seconds and counts); the
/// configuration turns them into the fetch stack's client, politeness and retry policies.
public struct RequestSettings: Sendable, Hashable {
  /// The User-Agent of every request; `nil` keeps `defaultUserAgent`.
  public var userAgent: String?
  /// Longest time for one transfer.
  public var timeout: Duration
  /// Requests to one host at the same time.
  public var maxPerHost: Int
  /// Pause between two requests to one host; up to half as much again is added at random.
  public var requestDelay: Duration
  /// Whether robots.txt is fetched and obeyed.
  public var obeysRobotsTxt: Bool
  /// Retries of a request after a retryable failure.
  public var retries: Int
  /// The wait before the first retry, doubled for each further one.
  public var retryDelay: Duration

  /// `mart-holiday/<version> (+…)`.
  public static var defaultUserAgent: String { MartVersion.userAgent }

  public init(
    userAgent: String? = nil, timeout: Duration = .seconds(30), maxPerHost: Int = 1,
    requestDelay: Duration = .seconds(1), obeysRobotsTxt: Bool = true, retries: Int = 3,
    retryDelay: Duration = .seconds(1)
  ) {
    self.userAgent = userAgent
    self.timeout = timeout
    self.maxPerHost = maxPerHost
    self.requestDelay = requestDelay
    self.obeysRobotsTxt = obeysRobotsTxt
    self.retries = retries
    self.retryDelay = retryDelay
  }
}

extension RunConfiguration {
  /// Sets the client limits, politeness and retries from `settings`.
  public mutating func apply(_ settings: RequestSettings) {
    client.totalTimeout = settings.timeout
    if let userAgent = settings.userAgent { client.userAgent = userAgent }
    politeness = PolitenessPolicy(
      maxConcurrentRequestsPerHost: settings.maxPerHost, minimumDelay: settings.requestDelay,
      jitter: settings.requestDelay / 2, obeysRobotsTxt: settings.obeysRobotsTxt)
    retry = FetchRetryPolicy(maxAttempts: settings.retries + 1, initialDelay: settings.retryDelay)
  }
}

extension Pipeline {
  /// Serves `archive` for a run of `sources`, with a listener for every origin the run may
  /// contact, the sources' and the geocoding providers' alike, so a replayed run never reaches
  /// the network and a request without a recording is reported under its own host.
  /// `baseURLOverrides` of the result sends each of those origins to its listener.
  public static func startReplayServer(
    _ archive: ReplayArchive, sources: [any BrandSource]
  ) throws(LocalHTTPServerError) -> ReplayServer {
    try ReplayServer.start(
      archive: archive, unrecordedOrigins: sources.map(\.origin) + GeocodingChain.providerOrigins)
  }
}
