import ArgumentParser
import Foundation
import MartCore
import MartExport
import MartPipeline

/// `mart-holiday probe`: whether each source's pages still hold what its parser reads.
struct ProbeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "probe",
    abstract: "Check that each brand source's pages still hold what its parser reads.",
    discussion: """
      For each brand (or --brand), requests the one or two pages its source's parser depends on, through the run's fetch stack (its User-Agent, politeness, robots.txt and retries; --source mirrors or --replay recordings), and counts the fields, keys and markup the parser reads there. Publishes nothing and writes nothing: no output, state, cache or archive. Run it weekly beside the daily run, so that a redesign is seen before a brand goes stale.

      Exit status: 0 every source as expected; 1 a source changed (a page answered with another status or format, or without what its parser needs); 2 could not run (bad usage, a --replay folder without recordings, a page that did not answer at all).

      Examples:
        mart-holiday probe --replay fixtures/web
        mart-holiday probe --brand costco --format json
      """)

  @Option(
    name: .customLong("brand"),
    help: ArgumentHelp("Probe only this brand's source (repeatable). Default: every source.", valueName: "slug"))
  var brands: [BrandSlug] = []

  @Option(
    name: .customLong("replay"),
    help: ArgumentHelp(
      "Probe recorded responses (a recording folder or a .warc.gz) instead of the sites.", valueName: "dir"))
  var replayDirectory: String?

  @Option(
    name: .customLong("source"),
    help: ArgumentHelp(
      "Send a brand's requests to another scheme://host:port (repeatable); not with --replay.",
      valueName: "slug=baseurl"))
  var sourceOverrides: [SourceOverride] = []

  @Option(
    name: .customLong("as-of"),
    help: ArgumentHelp(
      "The day whose month the probe asks for where a page is per month. Default: the recording day with --replay, else today in Korea.",
      valueName: "yyyy-mm-dd"))
  var asOf: CalendarDate?

  @Option(help: ArgumentHelp("text or json.", valueName: "format"))
  var format = "text"

  @OptionGroup var requests: RequestOptions
  @OptionGroup var certificates: CertificateOptions

  func validate() throws {
    guard ["text", "json"].contains(format) else {
      throw ValidationError("--format must be text or json, not \"\(format)\"")
    }
    if let asOf { try SupportedDates.checkAsOf(asOf, option: "--as-of") }
    if let replayDirectory { try SupportedPaths.checkNotEmpty(replayDirectory, option: "--replay") }
    if replayDirectory != nil, let first = sourceOverrides.first {
      throw ValidationError("--replay and --source \(first.brand.rawValue)=… cannot be used together")
    }
  }

  func run() async throws {
    let configuration = RunConfiguration(
      outputDirectory: FileManager.default.temporaryDirectory,
      replayDirectory: replayDirectory.map { URL(fileURLWithPath: $0) },
      mirrors: Dictionary(sourceOverrides.map { ($0.brand, $0.baseURL) }, uniquingKeysWith: { _, last in last }),
      asOf: asOf, brands: Set(brands),
      requests: requests.settings(maxPerHost: 1, retryDelay: 1, https: certificates.https), readsRegister: true)
    let results: [SourceProbeResult]
    do throws(RunSetupError) {
      results = try await Pipeline.probe(configuration)
    } catch {
      StandardStreams.err("error: \(error.commandLineText)\n")
      throw ExitCode(2)
    }
    if format == "json" {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = try encoder.encode(["sources": results])
      StandardStreams.outLine(String(decoding: data, as: UTF8.self))
    } else {
      StandardStreams.out(SourceProbeResult.text(results))
    }
    if results.contains(where: { $0.outcome == .unreachable }) { throw ExitCode(2) }
    if results.contains(where: { $0.outcome == .changed }) { throw ExitCode(1) }
  }
}
