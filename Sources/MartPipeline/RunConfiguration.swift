import Foundation
import MartBrands
import MartCore
import MartFetch
import MartGeocoding
import MartReplay

/// Everything one run of the pipeline needs to know, as the command line gives it. The
/// pipeline builds its own fetcher stack and geocoding chain from it (`Pipeline.run(_:)`).
public struct RunConfiguration: Sendable {
  /// Where bundles, `latest.json`, `report.json`, the geocoding cache and archives go.
  public var outputDirectory: URL
  /// A folder of recorded responses (`fixtures/web`, a run archive) to serve from 127.0.0.1
  /// instead of the network; every request of the run goes there.
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
  /// The SQLite geocoding cache. Default: `<output>/cache/geocoding.sqlite`, none on a replay
  /// (replayed answers must not fill the cache live runs rely on).
  public var geocodingCache: URL?
  /// How geocoders retry rate-limited and failed requests.
  public var geocodingRetryPolicy: RetryPolicy
  /// Where to keep every response of the run in the recording format. Default:
  /// `<output>/raw/<as-of>-<HHmmss>` for runs that are not replays, none for replays.
  public var archiveDirectory: URL?
  /// The brand sources to run.
  public var sources: [any BrandSource]

  public init(
    outputDirectory: URL, replayDirectory: URL? = nil, mirrors: [BrandSlug: String] = [:],
    asOf: CalendarDate? = nil, brands: Set<BrandSlug> = [],
    geocodingEnvironment: [String: String] = ProcessInfo.processInfo.environment,
    geocodingCache: URL? = nil, geocodingRetryPolicy: RetryPolicy = RetryPolicy(),
    archiveDirectory: URL? = nil, sources: [any BrandSource] = BrandSources.all
  ) {
    self.outputDirectory = outputDirectory
    self.replayDirectory = replayDirectory
    self.mirrors = mirrors
    self.asOf = asOf
    self.brands = brands
    self.geocodingEnvironment = geocodingEnvironment
    self.geocodingCache = geocodingCache
    self.geocodingRetryPolicy = geocodingRetryPolicy
    self.archiveDirectory = archiveDirectory
    self.sources = sources
  }
}

/// What a configured run did: the report, and what the fetcher stack noticed on the way.
public struct RunResult: Sendable {
  public var report: RunReport
  /// Where this run's responses were kept, if they were.
  public var archiveDirectory: URL?
  /// Responses the archive could not keep, with the reason.
  public var archiveFailures: [String]
  /// Requests a replay had no recording for (`METHOD host/path?query body: …`).
  public var unmatchedReplayRequests: [String]
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
  /// Runs the pipeline as `configuration` says: builds the fetcher stack (libcurl ← origin
  /// redirection for the replay server and mirrors ← archive of responses) and the geocoding
  /// chain, runs once, and takes the stack down again.
  public static func run(_ configuration: RunConfiguration) async throws(RunSetupError) -> RunResult {
    let stack = try FetcherStack(configuration)
    defer { stack.replayServer?.stop() }
    let pipeline = Pipeline(sources: configuration.sources, fetcher: stack.sourceFetcher, geocoding: stack.geocoding)
    let report = await pipeline.run(
      asOf: stack.asOf, brands: configuration.brands, outputDirectory: configuration.outputDirectory)
    return RunResult(
      report: report, archiveDirectory: stack.archive?.directory, archiveFailures: stack.archive?.writeFailures ?? [],
      unmatchedReplayRequests: stack.replayServer?.unmatchedRequests ?? [])
  }
}

/// The fetchers of one configured run. Sources and geocoders always name the real sites; only
/// the redirection layer knows where requests really go, so archives and exported records
/// cite the real URLs.
struct FetcherStack {
  let asOf: CalendarDate
  let replayServer: ReplayServer?
  /// libcurl behind origin redirection: what geocoders use (their traffic carries API keys
  /// and is never archived).
  let network: any HTTPFetching
  let archive: ArchivingFetcher?
  /// What sources use: the network, through the archive when there is one.
  var sourceFetcher: any HTTPFetching { archive ?? network }
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
      do { server = try ReplayServer.start(archive: archive) } catch {
        throw RunSetupError(setting: "--replay", message: "cannot serve the recordings: \(error)")
      }
      replayServer = server
      overrides = Self.replayOverrides(server, sources: configuration.sources)
    } else {
      replayServer = nil
    }
    for (brand, baseURL) in configuration.mirrors {
      for source in configuration.sources where source.brands.contains(brand) {
        overrides[source.origin] = baseURL
      }
    }
    let asOfDate = asOf ?? KoreanCalendar.today()
    self.asOf = asOfDate
    let network = OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: overrides)
    self.network = network

    let output = configuration.outputDirectory
    let isReplay = replayServer != nil
    let archiveDirectory =
      configuration.archiveDirectory
      ?? (isReplay
        ? nil
        : output.appendingPathComponent("raw/\(asOfDate.iso)-\(KoreanCalendar.timeOfDay())"))
    do {
      archive = try archiveDirectory.map { directory throws(FileError) in
        try ArchivingFetcher(wrapping: network, directory: directory, recordedOn: asOfDate.iso)
      }
    } catch {
      replayServer?.stop()
      throw RunSetupError(setting: "--archive", message: error.description)
    }

    let cache =
      configuration.geocodingCache ?? (isReplay ? nil : output.appendingPathComponent("cache/geocoding.sqlite"))
    do {
      geocoding = try GeocodingChain.fromEnvironment(
        cachePath: cache?.path, fetcher: network,
        environment: isReplay ? GeocodingChain.replayEnvironment : configuration.geocodingEnvironment,
        retryPolicy: configuration.geocodingRetryPolicy)
    } catch {
      replayServer?.stop()
      throw RunSetupError(setting: "--geocoding-cache", message: error.description)
    }
  }

  /// Sends every origin the run may contact to the replay server, so a replayed run never
  /// reaches the network: recorded origins to their own listener, any other origin to a
  /// listener that answers 404 (reported as unmatched).
  static func replayOverrides(_ server: ReplayServer, sources: [any BrandSource]) -> [String: String] {
    var overrides = server.baseURLOverrides
    guard let fallback = overrides.values.sorted().first else { return overrides }
    let origins = sources.map(\.origin) + GeocodingChain.providerOrigins
    for origin in origins where overrides[origin] == nil { overrides[origin] = fallback }
    return overrides
  }
}
