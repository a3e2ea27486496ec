import ArgumentParser
import Foundation
import MartCore
import MartExport
import MartPipeline

struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Fetch every brand's branches and closing days, and publish a bundle.",
    discussion: """
      Fetches each brand's store pages, parses branches and closing-day texts, turns them into dates for the as-of month and the next two, and writes a versioned bundle under the output directory, then points output/latest.json at it.

      A brand that fails keeps its branches from the last good bundle (marked stale); a brand that fails with nothing to keep (or that has no source yet) is listed as missing, and the other brands are still published. Only when no brand produced fresh data is nothing published. Every run writes output/report.json, and every run that is not a replay keeps the responses it received (see --archive).

      Branches whose source gives no valid coordinates are geocoded with the providers whose keys are set: KAKAO_REST_API_KEY, NAVER_CLIENT_ID + NAVER_CLIENT_SECRET, VWORLD_API_KEY (order: MART_GEOCODERS, default kakao,naver,vworld). Answers are cached in SQLite. With --replay, the recorded provider responses are used instead.

      Exit status: 0 published; 2 published, but some brands are stale or missing; 1 nothing published.

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
    let configuration = RunConfiguration(
      outputDirectory: URL(fileURLWithPath: outputDirectory),
      replayDirectory: replayDirectory.map { URL(fileURLWithPath: $0) },
      mirrors: Dictionary(sourceOverrides.map { ($0.brand, $0.baseURL) }, uniquingKeysWith: { _, last in last }),
      asOf: asOf, brands: Set(brands),
      geocodingCache: geocodingCache.map { URL(fileURLWithPath: $0) },
      archiveDirectory: archiveDirectory.map { URL(fileURLWithPath: $0) })
    let result = try await Pipeline.run(configuration)

    let unmatched = result.unmatchedReplayRequests
    for request in unmatched.prefix(5) {
      FileHandle.standardError.write(Data("replay: no recording for \(request)\n".utf8))
    }
    if unmatched.count > 5 {
      FileHandle.standardError.write(Data("replay: \(unmatched.count - 5) more requests had no recording\n".utf8))
    }
    for failure in result.archiveFailures {
      FileHandle.standardError.write(Data("archive: could not keep \(failure)\n".utf8))
    }
    print(RunSummary.render(result.report, outputDirectory: outputDirectory))
    if let archive = result.archiveDirectory { print("responses kept in \(archive.path) (replay with --replay)") }
    if result.report.exitCode != 0 { throw ExitCode(result.report.exitCode) }
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
      let status = brand.status?.rawValue ?? brand.freshness.rawValue
      var line =
        "  \(brand.slug.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)) \(status.padding(toLength: 7, withPad: " ", startingAt: 0)) \(brand.branchCount) branches"
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
