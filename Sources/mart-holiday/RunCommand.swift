import ArgumentParser
import Foundation
import Logging
import MartCore
import MartExport
import MartPipeline

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Fetch every brand's branches and closing days, and publish a bundle.",
    discussion: """
      Fetches each brand's store pages, parses branches and closing-day texts, turns them into dates for the as-of month and the next two, and writes a versioned bundle under the output directory, then points output/latest.json at it.

      A brand that fails keeps its branches from the last good bundle (marked stale); a brand that fails with nothing to keep (or that has no source yet) is listed as missing, and the other brands are still published. Only when no brand produced fresh data is nothing published. Every run writes output/report.json, and every run that is not a replay keeps the responses it received (see --archive).

      Branches whose source gives no valid coordinates are geocoded with the providers whose keys are set: KAKAO_REST_API_KEY, NAVER_CLIENT_ID + NAVER_CLIENT_SECRET, VWORLD_API_KEY (order: MART_GEOCODERS, default kakao,naver,vworld). Answers are cached in SQLite. With --replay, the recorded provider responses are used instead.

      Requests are polite and persistent: per host at most --max-per-host at a time, --request-delay apart (plus jitter), robots.txt obeyed (--ignore-robots for mirrors you own), retries with backoff (--retries); a page that did not change since the last run is revalidated (If-None-Match / If-Modified-Since) and its stored body reused. Validators are kept in <state>/cache/http-validators.sqlite. A replay runs without delays, robots.txt or retries.

      The output directory holds only what may be served (latest.json, bundles/, current/, report.json); caches, raw archives and the run lock live in the state directory (--state, default <output>-state beside it). An output directory of the older layout has its private files moved there once.

      Progress goes to stderr (live lines on a terminal, log lines otherwise; --log-format json for schedulers); stdout carries only the summary. One run at a time per output directory (<state>/run.lock; a lock left by a killed run is taken over). SIGINT or SIGTERM stops the transfers and publishes nothing.

      Exit status: 0 published; 2 published, but some brands are stale or missing; 1 nothing published (a --brand run with no intact bundle to keep the other brands from publishes nothing), or bad input (a --replay folder without recordings, a file where a directory belongs, a symbolic link where the run writes in the output or state directory, --state, --archive or --geocoding-cache inside the output directory or it inside them, an output directory in use, --replay with --source, a value outside the range its help states), or published but current/ or a report could not be written (report.json says which, when it can be written; the next run finishes the job); 130 or 143 stopped by SIGINT or SIGTERM (report.json says cancelled, even after a second signal). A summary that cannot be written to stdout, or diagnostics to stderr, changes no status.

      Examples:
        mart-holiday run --replay fixtures/web
        mart-holiday run --brand emart --brand lottemart --as-of 2026-11-20
        mart-holiday run --source lottemart=http://127.0.0.1:8080
      """)

  @Option(
    name: .customLong("output"),
    help: ArgumentHelp(
      "Directory to serve: latest.json, bundles/, current/ and report.json.", valueName: "dir"))
  var outputDirectory = "output"

  @Option(
    name: .customLong("state"),
    help: ArgumentHelp(
      "Directory for what must not be served: caches, raw archives, the run lock. Default: <output>-state beside the output directory.",
      valueName: "dir"))
  var stateDirectory: String?

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
    name: .customLong("accept-shrink"),
    help: ArgumentHelp(
      "Publish this brand as fetched even if it lost more than half its branches since the last bundle (repeatable): for a chain that really closed many stores. Logged as a shrink-accepted warning. Without it, such a drop is taken for a broken page and the brand stays stale. Also removes at once the branches missing from its answer, which are otherwise kept, marked missing, for two runs.",
      valueName: "slug"))
  var acceptShrink: [BrandSlug] = []

  @Option(
    name: .customLong("as-of"), parsing: .unconditional,
    help: ArgumentHelp(
      "The day the run treats as today (YYYY-MM-DD, \(SupportedDates.asOfRangeText)). Default: today in Korea.",
      valueName: "date"))
  var asOf: CalendarDate?

  @Flag(
    name: .customLong("allow-earlier-as-of"),
    help:
      "Publish even when the run's as-of is before that of the bundle latest.json names (without it, such a run publishes nothing and exits 1)."
  )
  var allowEarlierAsOf = false

  @Option(
    name: .customLong("source"),
    help: ArgumentHelp(
      "Send a brand's requests (or the national register's: register=URL) to another scheme://host:port (repeatable), for mirrors and tests; not with --replay.",
      valueName: "slug=baseurl"))
  var sourceOverrides: [SourceOverride] = []

  @Option(
    name: .customLong("geocoding-cache"),
    help: ArgumentHelp(
      "SQLite file caching geocoder answers between runs, outside the output directory. Default: <state>/cache/geocoding.sqlite (none with --replay, which only reads a FILE that exists and never creates one).",
      valueName: "file"))
  var geocodingCache: String?

  @Option(
    name: .customLong("archive"),
    help: ArgumentHelp(
      "Keep every response of this run in DIR, in the recording format of fixtures/web, so it can be parsed again with --replay DIR. Default for runs that are not replays: one WARC file, <state>/raw/<as-of>-<time>.warc.gz (--replay reads it too).",
      valueName: "dir"))
  var archiveDirectory: String?

  @OptionGroup var requests: RequestOptions
  @OptionGroup var certificates: CertificateOptions

  @Option(
    name: .customLong("max-per-host"), parsing: .unconditional,
    help: ArgumentHelp("Requests to one host at the same time (1 to \(Self.maxPerHostLimit)).", valueName: "n"))
  var maxPerHost = 1

  @Option(
    name: .customLong("retry-delay"), parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds before the first retry (0 to \(RequestOptions.secondsLimitText)), doubled for each further one (with jitter; Retry-After can raise it).",
      valueName: "seconds"))
  var retryDelay = 1.0

  @Option(
    name: .customLong("keep"), parsing: .unconditional,
    help: ArgumentHelp(
      "Keep the newest N bundles (N at least 1) (and always the one latest.json names) and the newest N raw archives; remove older ones.",
      valueName: "n"))
  var keep: Int?

  @Option(
    name: .customLong("log-format"),
    help: ArgumentHelp("Diagnostics on stderr as text or JSON lines (for schedulers).", valueName: "text|json"))
  var logFormat = LogFormat.text

  @Option(
    name: .customLong("progress-interval"), parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds between progress log lines when stderr is not a terminal (0 to \(RequestOptions.secondsLimitText); a terminal gets live lines).",
      valueName: "seconds"))
  var progressInterval = 10.0

  /// The most requests to one host at a time.
  static let maxPerHostLimit = 64

  func validate() throws {
    if !(1...Self.maxPerHostLimit).contains(maxPerHost) {
      throw ValidationError("--max-per-host must be from 1 to \(Self.maxPerHostLimit), not \(maxPerHost)")
    }
    if let keep, keep < 1 { throw ValidationError("--keep must be at least 1, not \(keep)") }
    try RequestOptions.checkSeconds(retryDelay, option: "--retry-delay")
    try RequestOptions.checkSeconds(progressInterval, option: "--progress-interval")
    if let asOf { try SupportedDates.checkAsOf(asOf, option: "--as-of") }
    for (path, name) in [
      (outputDirectory, "--output"), (stateDirectory, "--state"), (replayDirectory, "--replay"),
      (geocodingCache, "--geocoding-cache"), (archiveDirectory, "--archive"),
    ] {
      if let path { try SupportedPaths.checkNotEmpty(path, option: name) }
    }
    if !brands.isEmpty, let stray = acceptShrink.first(where: { !brands.contains($0) }) {
      throw ValidationError(
        "--accept-shrink \(stray.rawValue) names a brand this run does not fetch (--brand \(brands.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    if replayDirectory != nil, let first = sourceOverrides.first {
      throw ValidationError(
        "--replay and --source \(first.brand.rawValue)=… cannot be used together: a replay sends every request to its recordings"
      )
    }
    for (brand, overrides) in Dictionary(grouping: sourceOverrides, by: \.brand)
    where Set(overrides.map(\.baseURL)).count > 1 {
      throw ValidationError(
        "--source names \(brand.rawValue) more than once with different URLs: "
          + overrides.map(\.baseURL).joined(separator: ", "))
    }
  }

  func run() async throws {
    let logger = Logger.standardError(label: "mart-holiday.run", format: logFormat)
    let progress = RunProgress()
    let configuration = RunConfiguration(
      outputDirectory: URL(fileURLWithPath: outputDirectory),
      stateDirectory: stateDirectory.map { URL(fileURLWithPath: $0) },
      replayDirectory: replayDirectory.map { URL(fileURLWithPath: $0) },
      mirrors: Dictionary(sourceOverrides.map { ($0.brand, $0.baseURL) }, uniquingKeysWith: { _, last in last }),
      asOf: asOf, allowsEarlierAsOf: allowEarlierAsOf, brands: Set(brands),
      geocodingCache: geocodingCache.map { URL(fileURLWithPath: $0) },
      archiveDirectory: archiveDirectory.map { URL(fileURLWithPath: $0) },
      keep: keep, progress: progress, logger: logger,
      requests: requests.settings(maxPerHost: maxPerHost, retryDelay: retryDelay, https: certificates.https),
      acceptShrink: Set(acceptShrink), readsRegister: true, settingNames: { SettingOptions.name($0) })

    let runTask = Task { () async throws(RunSetupError) -> RunResult in try await Pipeline.run(configuration) }
    let signals = SignalCancellation { runTask.cancel() }
    defer { signals.stop() }
    let display = Task {
      await ProgressDisplay(
        progress: progress, logger: logger, interval: .seconds(progressInterval),
        live: logFormat == .text && ProgressDisplay.standardErrorIsTerminal, padded: logFormat == .text,
        clock: configuration.clock
      ).run()
    }
    let outcome = await runTask.result
    display.cancel()
    await display.value

    let result: RunResult
    switch outcome {
    case .success(let finished): result = finished
    case .failure(let error):
      logger.error("\((error as? RunSetupError)?.commandLineText ?? "\(error)")")
      throw ExitCode(1)
    }
    if result.report.outcome == .cancelled {
      let name = SignalCancellation.name(signals.receivedSignal ?? SIGINT)
      logger.error("cancelled by \(name): nothing published; the previous bundle stays current")
      throw ExitCode(128 + (signals.receivedSignal ?? SIGINT))
    }

    let unmatched = result.unmatchedReplayRequests
    for request in unmatched.prefix(5) { logger.warning("replay: no recording for \(request)") }
    if unmatched.count > 5 {
      logger.warning("replay: \(DisplayText.count(unmatched.count - 5, "more request")) had no recording")
    }
    for failure in result.archiveFailures { logger.warning("archive: could not keep \(failure)") }
    for failure in result.validatorStoreFailures { logger.warning("validator store: \(failure)") }
    let report = result.report
    for brand in report.brands {
      guard let dataSource = brand.dataSource else { continue }
      logger.info(
        "\(brand.slug.rawValue): data from \(dataSource)",
        metadata: ["brand": .string(brand.slug.rawValue), "dataSource": .string(dataSource)])
    }
    for warning in report.warnings where Self.loggedWarnings.contains(warning.kind) {
      logger.warning("\(warning.description)", metadata: Self.fields(of: warning, in: report))
    }
    if !report.warnings.isEmpty {
      var counts: Logger.Metadata = ["warnings": .stringConvertible(report.warnings.count)]
      for (kind, problems) in Dictionary(grouping: report.warnings, by: \.kind.rawValue) {
        counts["kind.\(kind)"] = .stringConvertible(problems.count)
      }
      logger.notice(
        "\(DisplayText.count(report.warnings.count, "warning")) (see \(outputDirectory)/report.json)", metadata: counts)
    }
    for error in report.errors { logger.error("\(error.description)", metadata: Self.fields(of: error, in: report)) }
    var finished: Logger.Metadata = [
      "outcome": .string(report.outcome.rawValue), "bundle": .string(report.change?.bundle.rawValue ?? "none"),
      "branches": .stringConvertible(report.brands.reduce(0) { $0 + $1.branchCount }),
      "closingDaysChanged": .stringConvertible(report.change?.closingDaysChanged ?? 0),
    ]
    if let version = report.published?.version { finished["version"] = .string(version) }
    logger.info("run finished: \(report.outcome.rawValue)", metadata: finished)

    StandardStreams.outLine(report.summary(outputDirectory: outputDirectory, changes: result.changes))
    if let archive = result.archiveDirectory {
      if result.archiveFailures.isEmpty {
        StandardStreams.outLine("responses kept in \(archive.path) (replay with --replay)")
      } else {
        StandardStreams.outLine(
          "responses partly kept in \(archive.path): \(result.archiveFailures.count) could not be written,"
            + " so it cannot replay this run")
      }
    }
    if report.exitCode != 0 { throw ExitCode(report.exitCode) }
  }
}

extension RunCommand {
  /// The warnings logged one by one, besides every error: a brand kept from the last bundle
  /// (stale), and what concerns the whole output. The others are counted in one line and
  /// listed in `report.json`.
  static let loggedWarnings: Set<RunProblem.Kind> = [.brandStale, .shrinkAccepted, .publish, .previousBundle]

  /// A problem's brand (its slug), branch and kind as log fields, and for a brand that failed
  /// (`brand-stale`, `brand-failed`, `no-source`) the `reason` its entry in `report` gives, and
  /// for a stale one `staleSince` and `daysStale`.
  static func fields(of problem: RunProblem, in report: RunReport) -> Logger.Metadata {
    var fields: Logger.Metadata = ["kind": .string(problem.kind.rawValue)]
    if let brand = problem.brand { fields["brand"] = .string(brand.rawValue) }
    if let branch = problem.branch { fields["branch"] = .string(branch.description) }
    guard [.brandStale, .brandFailed, .noSource].contains(problem.kind),
      let entry = report.brands.first(where: { $0.slug == problem.brand })
    else { return fields }
    if let reason = entry.error { fields["reason"] = .string(reason) }
    if let since = entry.staleSince, let days = entry.daysStale {
      fields["staleSince"] = .string(since.iso)
      fields["daysStale"] = .stringConvertible(days)
    }
    return fields
  }
}

/// `--source SLUG=BASEURL`: a brand's slug, or `register` for the national register of large stores.
struct SourceOverride: ExpressibleByArgument {
  var brand: BrandSlug
  var baseURL: String

  init?(argument: String) {
    let parts = argument.split(separator: "=", maxSplits: 1)
    guard parts.count == 2,
      let brand = parts[0] == RegisterStage.slug.rawValue ? RegisterStage.slug : BrandSlug(argument: String(parts[0])),
      let url = URL(string: String(parts[1])), ["http", "https"].contains(url.scheme ?? ""), url.host != nil
    else { return nil }
    self.brand = brand
    self.baseURL = String(parts[1])
  }
}
