import ArgumentParser
import MartFetch
import MartPipeline

/// How every request of a command that fetches through a run's fetch stack is made, shared by
/// `run` and `probe`: `--user-agent`, `--ignore-robots`, `--request-delay`, `--retries` and
/// `--timeout`, spelled, explained and checked once.
///
/// `run` adds `--max-per-host` and `--retry-delay`; `probe` asks one page at a time and waits a
/// second before its first retry. Both take ``CertificateOptions`` beside these options, not
/// inside them: a debug build of ArgumentParser checks a group's definition again for every
/// group around it, and the nesting cost each debug `run` 10 ms and `probe` 16 ms of parsing
/// (62 against 72 ms, 68 against 84 ms, 2026-12-03), which the tests' 500 runs pay.
struct RequestOptions: ParsableArguments {
  /// The most retries of one request.
  static let retriesLimit = 10
  /// The longest delay, interval or timeout in seconds: a day.
  static let secondsLimit = 86_400.0
  static var secondsLimitText: String { "\(Int(secondsLimit))" }

  @Option(
    name: .customLong("user-agent"),
    help: ArgumentHelp(
      "The User-Agent of every request. Default: \(RequestSettings.defaultUserAgent)", valueName: "text"))
  var userAgent: String?

  @Flag(
    name: .customLong("ignore-robots"),
    help: "Do not fetch or obey robots.txt. Only for mirrors you own (see --source); replays never read it.")
  var ignoreRobots = false

  @Option(
    name: .customLong("request-delay"), parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds between two requests to the same host (0 to \(Self.secondsLimitText)), plus up to half as much at random (robots.txt Crawl-delay can raise it; not on replays).",
      valueName: "seconds"))
  var requestDelay = 1.0

  @Option(
    name: .customLong("retries"), parsing: .unconditional,
    help: ArgumentHelp(
      "Retries of a request after a connection error, timeout, cut-short body, 408, 429 or 5xx (0 to \(Self.retriesLimit)).",
      valueName: "n"))
  var retries = 3

  @Option(
    name: .customLong("timeout"), parsing: .unconditional,
    help: ArgumentHelp(
      "Longest time for one transfer, in seconds (more than 0, at most \(Self.secondsLimitText)).", valueName: "seconds"
    ))
  var timeout = 30.0

  func validate() throws {
    if !(0...Self.retriesLimit).contains(retries) {
      throw ValidationError("--retries must be from 0 to \(Self.retriesLimit), not \(retries)")
    }
    try Self.checkSeconds(requestDelay, option: "--request-delay")
    if !(timeout > 0 && timeout <= Self.secondsLimit) {
      throw ValidationError(
        "--timeout must be a number of seconds more than 0 and at most \(Self.secondsLimitText), not \(timeout)")
    }
    if let userAgent {
      if userAgent.isEmpty { throw ValidationError("--user-agent must not be empty") }
      if let problem = RequestSettings.problem(inUserAgent: userAgent) {
        throw ValidationError("--user-agent \(problem): it cannot be sent in a header")
      }
    }
  }

  /// Checks a number of seconds an option gives: from 0 to a day.
  static func checkSeconds(_ value: Double, option: String) throws {
    guard (0...secondsLimit).contains(value) else {
      throw ValidationError("\(option) must be a number of seconds from 0 to \(secondsLimitText), not \(value)")
    }
  }

  /// The request settings these options give, with what the command sets itself.
  func settings(maxPerHost: Int, retryDelay: Double, https: HTTPSPolicy) -> RequestSettings {
    RequestSettings(
      userAgent: userAgent, timeout: .seconds(timeout), maxPerHost: maxPerHost, requestDelay: .seconds(requestDelay),
      obeysRobotsTxt: !ignoreRobots, retries: retries, retryDelay: .seconds(retryDelay), https: https)
  }
}
