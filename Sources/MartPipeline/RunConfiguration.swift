import Foundation
import Logging
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartFiles
import MartGeocoding

/// Everything one run of the pipeline needs to know, as the command line gives it. The
/// pipeline builds its own fetch stack and geocoding chain from it (`Pipeline.run(_:)`).
public struct RunConfiguration: Sendable {
  /// Where what may be served goes: `latest.json`, `bundles/`, `current/` and `report.json`.
  /// Created when missing.
  public let outputDirectory: URL
  /// Where the run keeps what must not be served: the caches (`cache/`), the raw archives
  /// (`raw/`) and the run lock. Default: ``defaultStateDirectory(for:)``. Created when missing.
  public let stateDirectory: URL
  /// A folder of recorded responses (`fixtures/web`, a run archive) to serve from 127.0.0.1
  /// instead of the network; every request of the run goes there. It must hold `replay.json`
  /// or `*.exchange.json` files.
  public let replayDirectory: URL?
  /// Brand to the `scheme://host[:port]` that stands in for its source's real origin.
  public let mirrors: [BrandSlug: String]
  /// The day the run treats as today. Default: the recordings' date on a replay, otherwise
  /// today in Korea.
  public let asOf: CalendarDate?
  /// Whether the run may publish over a bundle of a later as-of (``RunSetting/allowEarlierAsOf``);
  /// otherwise such a run stops before anything is touched.
  public let allowsEarlierAsOf: Bool
  /// The brands to fetch; empty means every brand the sources offer.
  public let brands: Set<BrandSlug>
  /// The environment holding the geocoding keys (`KAKAO_REST_API_KEY`, …, `MART_GEOCODERS`).
  /// A replay uses the keys the recordings were made with instead.
  public let geocodingEnvironment: [String: String]
  /// The SQLite geocoding cache. Default: `<state>/cache/geocoding.sqlite`, none on a replay
  /// (replayed answers must not fill the cache live runs rely on: a replay only reads one given
  /// here that exists, and creates none).
  public let geocodingCache: URL?
  /// How geocoders retry rate-limited and failed requests.
  public let geocodingRetryPolicy: FetchRetryPolicy
  /// Where to keep every response of the run in the recording format. Default:
  /// `<state>/raw/<as-of>-<HHmmss>` for runs that are not replays, none for replays.
  public let archiveDirectory: URL?
  /// The brand sources to run.
  public let sources: [any BrandSource]
  /// libcurl's limits and the User-Agent.
  public let client: HTTPClientConfiguration
  /// Per-host limits, delays and robots.txt. A replay ignores delays and robots.txt (the
  /// replay server is ours) and keeps only the per-host limit.
  public let politeness: PolitenessPolicy
  /// Retries of brand requests.
  public let retry: FetchRetryPolicy
  /// The SQLite file of ETags and Last-Modified dates for conditional requests. Default:
  /// `<state>/cache/http-validators.sqlite`, none on a replay.
  public let validatorStore: URL?
  /// Keep the newest this many bundles (and the one `latest.json` names) and raw archives;
  /// nil keeps everything.
  public let keep: Int?
  /// Where the sources' requests are counted while the run goes on, for progress lines.
  public let progress: RunProgress?
  /// The brands admitted as fetched even when they lost more than half their branches
  /// (``RunSetting/acceptShrink``), each with a `shrink-accepted` warning.
  public let acceptShrink: Set<BrandSlug>
  /// Where the run logs what it does (setup, takeovers, housekeeping, store problems).
  public let logger: Logger
  /// Whether the run reads the national register of large stores (``RegisterStage``) after the
  /// brands, for the cross-checks in `report.json`.
  public let readsRegister: Bool
  /// How log lines and `report.json` name the run's settings (the command line's options);
  /// by default ``RunSetting/description``.
  public let settingNames: SettingNames
  /// The researched designations to check the stores against (``DesignationReferenceFile``);
  /// `nil`: the repository's `data/designations.json` when there is one.
  public let designationReference: URL?
  /// The run's one clock: the fetch layers' turns, pauses and backoffs, the geocoders' retries
  /// and the progress lines wait on it (`FetchStack` hands it out). libcurl's timeouts and the
  /// report's timestamps keep real time.
  public let clock: any FetchClock

  /// A configuration, fixed once made. `requests`, when given, sets `client`'s timeout and
  /// User-Agent, `politeness` and `retry` from the command line's plain numbers.
  public init(
    outputDirectory: URL, stateDirectory: URL? = nil, replayDirectory: URL? = nil, mirrors: [BrandSlug: String] = [:],
    asOf: CalendarDate? = nil, allowsEarlierAsOf: Bool = false, brands: Set<BrandSlug> = [],
    geocodingEnvironment: [String: String] = ProcessInfo.processInfo.environment,
    geocodingCache: URL? = nil, geocodingRetryPolicy: FetchRetryPolicy = .geocoding,
    archiveDirectory: URL? = nil, sources: [any BrandSource] = BrandSources.all,
    client: HTTPClientConfiguration = HTTPClientConfiguration(), politeness: PolitenessPolicy = PolitenessPolicy(),
    retry: FetchRetryPolicy = FetchRetryPolicy(), validatorStore: URL? = nil, keep: Int? = nil,
    progress: RunProgress? = nil, logger: Logger = Logger(label: "mart-holiday.run"), requests: RequestSettings? = nil,
    acceptShrink: Set<BrandSlug> = [], readsRegister: Bool = false,
    settingNames: @escaping SettingNames = { $0.description }, designationReference: URL? = nil,
    clock: any FetchClock = SystemFetchClock()
  ) {
    self.clock = clock
    self.readsRegister = readsRegister
    self.settingNames = settingNames
    self.designationReference = designationReference
    self.acceptShrink = acceptShrink
    self.outputDirectory = outputDirectory
    self.stateDirectory = stateDirectory ?? Self.defaultStateDirectory(for: outputDirectory)
    self.replayDirectory = replayDirectory
    self.mirrors = mirrors
    self.asOf = asOf
    self.allowsEarlierAsOf = allowsEarlierAsOf
    self.brands = brands
    self.geocodingEnvironment = geocodingEnvironment
    self.geocodingCache = geocodingCache
    self.geocodingRetryPolicy = geocodingRetryPolicy
    self.archiveDirectory = archiveDirectory
    self.sources = sources
    if let requests {
      // The client limits, politeness and retries the command line's plain numbers call for.
      var client = client
      client.totalTimeout = requests.timeout
      if let userAgent = requests.userAgent { client.userAgent = userAgent }
      client.https = requests.https
      self.client = client
      self.politeness = PolitenessPolicy(
        maxConcurrentRequestsPerHost: requests.maxPerHost, minimumDelay: requests.requestDelay,
        jitter: requests.requestDelay / 2, obeysRobotsTxt: requests.obeysRobotsTxt)
      self.retry = FetchRetryPolicy(maxAttempts: requests.retries + 1, initialDelay: requests.retryDelay)
    } else {
      self.client = client
      self.politeness = politeness
      self.retry = retry
    }
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
  /// Where this run's responses were kept, if they were: the WARC file, or the configured
  /// archive folder (removed again when cancelled).
  public var archiveDirectory: URL?
  /// Responses the archive could not keep, with the reason. When there are any, the archive
  /// cannot replay the run (the default one is named `<as-of>-<time>.incomplete.warc.gz`).
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
  /// The published bundle against the one `latest.json` named before the run, as `diff`
  /// counts it (branches added, removed and changed); `nil` when the run published no new
  /// bundle or there was none before.
  public var changes: BundleDiff.BrandCounts? = nil
}

/// A run could not be set up: no fetch was made and nothing was written. A ``LocatedError`` at
/// the setting at fault (``setting``), with what is wrong with it (``text``) and the error
/// underneath (``cause``), when there is one.
public struct RunSetupError: LocatedError, Sendable {
  /// The setting at fault.
  public var setting: RunSetting
  /// What is wrong with it, naming other settings where it helps, without the cause; empty
  /// when the cause says it all (a recording that cannot be read).
  public var text: SettingText
  /// The error underneath: the system's error number when a folder or the lock file cannot be
  /// opened or created, the recordings that cannot be read or served, the archive that cannot
  /// be begun, the mirrors that conflict; `nil` when the setting itself is at fault.
  public var cause: (any Error)?

  /// An error of `setting`, saying `message`, and then the words of `cause` when there is one.
  public init(setting: RunSetting, message: SettingText, cause: (any Error)? = nil) {
    self.setting = setting
    self.text = message
    self.cause = cause
  }

  /// An error of `setting` whose cause says it all: `<setting>: <cause>`.
  public init(setting: RunSetting, cause: any Error) {
    self.init(setting: setting, message: "", cause: cause)
  }

  /// An error of `setting` for `failure` of the disk, saying `message` and then why in the
  /// fewest words (``FileError/reason``): the system's error number, kept as the cause, or the
  /// failure's own words.
  init(setting: RunSetting, message: SettingText, failure: FileError) {
    if let errno = failure.errno {
      self.init(setting: setting, message: message, cause: errno)
    } else {
      self.init(setting: setting, message: message + ": \(failure.message)")
    }
  }

  /// The setting at fault, by its plain name: `the output directory`, `the as-of date`, ….
  public var location: String { setting.description }

  /// What is wrong with the setting, with the settings' plain names, without the cause.
  public var message: String { text.description }

  /// `<setting>: <message>`, then `: <cause>` when there is one, with each setting named by
  /// `name` (the command line's options).
  public func worded(_ name: (RunSetting) -> String) -> String {
    let words = text.worded(name)
    guard let cause else { return "\(name(setting)): \(words)" }
    return words.isEmpty ? "\(name(setting)): \(cause)" : "\(name(setting)): \(words): \(cause)"
  }

  /// The error with the settings' plain names.
  public var description: String { worded(\.description) }
}

extension RunSetupError: Hashable {
  /// Two errors are one when they say the same of the same setting.
  public static func == (lhs: RunSetupError, rhs: RunSetupError) -> Bool {
    lhs.setting == rhs.setting && lhs.text == rhs.text && lhs.cause.map { "\($0)" } == rhs.cause.map { "\($0)" }
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(setting)
    hasher.combine(text)
    hasher.combine(cause.map { "\($0)" })
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
  /// The certificate authorities HTTPS servers are checked against and whether a redirect from
  /// HTTPS to plain HTTP is followed (refused by default), as the front end resolved them.
  public var https: HTTPSPolicy

  /// `mart-holiday/<version> (+…)`.
  public static var defaultUserAgent: String { MartVersion.userAgent }

  /// Why `userAgent` cannot be sent in a header (a control character, …), or `nil` when it can.
  public static func problem(inUserAgent userAgent: String) -> String? { HTTPHeader.problem(inValue: userAgent) }

  public init(
    userAgent: String? = nil, timeout: Duration = .seconds(30), maxPerHost: Int = 1,
    requestDelay: Duration = .seconds(1), obeysRobotsTxt: Bool = true, retries: Int = 3,
    retryDelay: Duration = .seconds(1), https: HTTPSPolicy = HTTPSPolicy()
  ) {
    self.https = https
    self.userAgent = userAgent
    self.timeout = timeout
    self.maxPerHost = maxPerHost
    self.requestDelay = requestDelay
    self.obeysRobotsTxt = obeysRobotsTxt
    self.retries = retries
    self.retryDelay = retryDelay
  }
}

