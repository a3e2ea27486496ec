import ArgumentParser
import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import MartReplay

struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Fetch every brand's branches and closing days, and publish a bundle.",
    discussion: """
      Fetches each brand's store pages, parses branches and closing-day texts, turns them into dates for the as-of month and the next two, and writes a versioned bundle under the output directory, then points output/latest.json at it.

      A brand that fails keeps its branches from the last good bundle (marked stale); if a requested brand fails with nothing to keep, nothing is published. Every run writes output/report.json, and every run that is not a replay keeps the responses it received (see --archive).

      Branches whose source gives no valid coordinates are geocoded with the providers whose keys are set: KAKAO_REST_API_KEY, NAVER_CLIENT_ID + NAVER_CLIENT_SECRET, VWORLD_API_KEY (order: MART_GEOCODERS, default kakao,naver,vworld). Answers are cached in SQLite. With --replay, the recorded provider responses are used instead.

      Exit status: 0 published; 2 published, but some brands are stale; 1 nothing published.

      Examples:
        mart-holiday run --replay fixtures/web
        mart-holiday run --brand emart --brand lottemart --as-of 2026-11-20
        mart-holiday run --source lottemart=http://127.0.0.1:8080
      """)

  @Option(
    name: .customLong("output"),
    help: ArgumentHelp("Directory for bundles, latest.json and report.json.", valueName: "dir"))
  var outputDirectory = "output"

  @Option(
    name: .customLong("replay"),
    help: ArgumentHelp(
      "Serve the recorded responses in DIR from 127.0.0.1 and send every request there. Without --as-of, the run uses the date the recordings were made.",
      valueName: "dir"))
  var replayDirectory: String?

  @Option(
    name: .customLong("brand"),
    help: ArgumentHelp(
      "Only this brand (repeatable). Other brands stay as in the last bundle.",
      valueName: "slug"))
  var brands: [BrandSlug] = []

  @Option(
    name: .customLong("as-of"),
    help: ArgumentHelp("The day the run treats as today (YYYY-MM-DD). Default: today in Korea.", valueName: "date"))
  var asOf: CalendarDate?

  @Option(
    name: .customLong("source"),
    help: ArgumentHelp(
      "Send a brand's requests to another scheme://host:port (repeatable), for mirrors and tests.",
      valueName: "slug=baseurl"))
  var sourceOverrides: [SourceOverride] = []

  @Option(
    name: .customLong("geocoding-cache"),
    help: ArgumentHelp(
      "SQLite file caching geocoder answers between runs. Default: <output>/cache/geocoding.sqlite (none with --replay).",
      valueName: "file"))
  var geocodingCache: String?

  @Option(
    name: .customLong("archive"),
    help: ArgumentHelp(
      "Keep every response of this run in DIR, in the recording format, so it can be parsed again with --replay DIR. Default for runs that are not replays: <output>/raw/<as-of>-<time>.",
      valueName: "dir"))
  var archiveDirectory: String?

  func run() async throws {
    var replayServer: ReplayServer?
    var asOf = self.asOf
    if let replayDirectory {
      let archive = try ReplayArchive.load(from: URL(fileURLWithPath: replayDirectory))
      replayServer = try ReplayServer.start(archive: archive)
      if asOf == nil, let recorded = archive.recordedOn {
        guard let date = CalendarDate(iso: recorded) else {
          throw ValidationError("\(replayDirectory)/replay.json: recordedOn \"\(recorded)\" is not YYYY-MM-DD")
        }
        asOf = date
      }
    }
    defer { replayServer?.stop() }

    let options = RunOptions(
      asOf: asOf ?? KoreanCalendar.today(), brands: Set(brands),
      outputDirectory: URL(fileURLWithPath: outputDirectory))

    // Fetcher stack: libcurl ← origin redirection (replay, --source) ← archive of responses.
    // Sources and geocoders always name the real sites; only the redirection layer knows
    // where requests really go, so archives and exported records cite the real URLs.
    var overrides = replayServer.map(Self.replayOverrides) ?? [:]
    for override in sourceOverrides {
      for source in BrandSources.all where source.brands.contains(override.brand) {
        overrides[source.defaultBaseURL] = override.baseURL
      }
    }
    let network = OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: overrides)
    var fetcher: any HTTPFetching = network
    var archiving: ArchivingFetcher?
    if let directory = archiveDirectory ?? (replayServer == nil ? defaultArchive(asOf: options.asOf) : nil) {
      let archive = try ArchivingFetcher(
        wrapping: network, directory: URL(fileURLWithPath: directory), recordedOn: options.asOf.iso)
      archiving = archive
      fetcher = archive
    }
    // Geocoder traffic is not archived: it carries API keys. Replayed provider responses were
    // recorded with placeholder keys and must not fill the cache that live runs rely on.
    let geocoding = try GeocodingChain.fromEnvironment(
      cachePath: geocodingCache ?? (replayServer == nil ? "\(outputDirectory)/cache/geocoding.sqlite" : nil),
      fetcher: network,
      environment: replayServer == nil ? ProcessInfo.processInfo.environment : GeocodingChain.replayEnvironment)
    let pipeline = Pipeline(sources: BrandSources.all, fetcher: fetcher, geocoding: geocoding)
    let report = await pipeline.run(options)
    let unmatched = replayServer?.unmatchedRequests ?? []
    for request in unmatched.prefix(5) {
      FileHandle.standardError.write(Data("replay: no recording for \(request)\n".utf8))
    }
    if unmatched.count > 5 {
      FileHandle.standardError.write(Data("replay: \(unmatched.count - 5) more requests had no recording\n".utf8))
    }
    for failure in archiving?.writeFailures ?? [] {
      FileHandle.standardError.write(Data("archive: could not keep \(failure)\n".utf8))
    }
    print(RunSummary.render(report, outputDirectory: outputDirectory))
    if let archiving { print("responses kept in \(archiving.directory.path) (replay with --replay)") }
    if report.exitCode != 0 { throw ExitCode(report.exitCode) }
  }
}

extension RunCommand {
  /// `<output>/raw/<as-of>-<HHmmss>` (wall-clock time in Korea), one folder per run.
  func defaultArchive(asOf: CalendarDate) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "Asia/Seoul")
    formatter.dateFormat = "HHmmss"
    return "\(outputDirectory)/raw/\(asOf.iso)-\(formatter.string(from: Date()))"
  }

  /// Sends every origin the run may contact to the replay server, so a replayed run never
  /// reaches the network: recorded origins to their own listener, any other origin to a
  /// listener that answers 404 (reported as unmatched).
  static func replayOverrides(_ server: ReplayServer) -> [String: String] {
    var overrides = server.baseURLOverrides
    guard let fallback = overrides.values.sorted().first else { return overrides }
    let origins =
      BrandSources.all.map(\.defaultBaseURL)
      + [KakaoGeocoder.defaultBaseURL, NaverGeocoder.defaultBaseURL, VWorldGeocoder.defaultBaseURL]
    for origin in origins where overrides[origin] == nil { overrides[origin] = fallback }
    return overrides
  }
}

/// `--source SLUG=BASEURL`.
struct SourceOverride: ExpressibleByArgument {
  var brand: BrandSlug
  var baseURL: String

  init?(argument: String) {
    let parts = argument.split(separator: "=", maxSplits: 1)
    guard parts.count == 2, let brand = BrandSlug(rawValue: String(parts[0])),
      let url = URL(string: String(parts[1])), ["http", "https"].contains(url.scheme ?? ""), url.host != nil
    else { return nil }
    self.brand = brand
    self.baseURL = String(parts[1])
  }
}

/// The human-readable end-of-run summary.
enum RunSummary {
  static func render(_ report: RunReport, outputDirectory: String) -> String {
    var lines: [String] = []
    lines.append("as of \(report.asOf), closing dates \(report.window.from) … \(report.window.through)")
    for brand in report.brands {
      var line =
        "  \(brand.brand.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)) \(brand.status.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0)) \(brand.branchCount) branches"
      if let error = brand.error { line += " — \(error)" }
      lines.append(line)
    }
    if !report.warnings.isEmpty {
      lines.append("\(report.warnings.count) warnings (see \(outputDirectory)/report.json)")
    }
    for error in report.errors { lines.append("error: \(error)") }
    if let published = report.published {
      lines.append("published \(outputDirectory)/\(published.bundle) (\(outputDirectory)/latest.json)")
    }
    return lines.joined(separator: "\n")
  }
}
