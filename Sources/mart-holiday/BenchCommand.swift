import ArgumentParser
import Foundation
import MartBench
import MartCore

struct BenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure the offline pipeline's speed on generated source data.",
    discussion: """
      For each scale, generates a recording of every brand site (seeded, in each site's real format) with that many branches, serves it from 127.0.0.1 and runs the whole pipeline against it in a child process (fetch with libcurl, parse, normalize, export; no geocoding provider, no politeness delays), measuring wall time, CPU time and peak memory of that process.

      Then measures single stages on generated data: HTML parse+extract against libxml2's bare htmlReadMemory on the same pages (parseVsRaw, the ratio of the two times), closing-text parsing (rulesPerSecond, MB/s) and address normalization (addressesPerSecond).

      With --html-only, measures the HTML stage alone (no pipeline run, no other stage): parseVsRaw on the pages of the 10,000-branch sample, and the same comparison on each kind of page (Lotte Mart store list, Homeplus store pages, No Brand store pages) with the seconds of the best pass of each side.

      Examples:
        mart-holiday bench
        mart-holiday bench --scale 1000,10000,100000 --format json
        mart-holiday bench --html-only
      """)

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Branch counts to run, comma-separated, each from 100 to \(ScaleList.largest).", valueName: "n,n,…"))
  var scale: ScaleList = ScaleList(values: [1_000, 10_000])

  @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
  var format: BenchFormat = .text

  @Option(parsing: .unconditional, help: ArgumentHelp("Seed of the generated data (0 or more).", valueName: "n"))
  var seed: UInt64 = 20_261_120

  @Option(
    name: .customLong("keep"),
    help: ArgumentHelp(
      "Keep the generated recordings and outputs in DIR (<dir>/<scale>/recording can be replayed with run --replay).",
      valueName: "dir"))
  var keepDirectory: String?

  @Flag(
    name: .customLong("html-only"),
    help: "Measure only HTML parse+extract against bare libxml2 parsing (parseVsRaw), per kind of page.")
  var htmlOnly = false

  func validate() throws {
    if let keepDirectory { try SupportedPaths.checkNotEmpty(keepDirectory, option: "--keep") }
  }

  func run() async throws {
    if htmlOnly {
      let result = Bench.htmlParsing(
        seed: seed, log: { StandardStreams.err("bench: \($0)\n") })
      switch format {
      case .json: StandardStreams.outLine(result.json)
      case .text: StandardStreams.outLine(result.table)
      }
      return
    }
    let result = try await Bench.run(
      scales: scale.values, seed: seed, keep: keepDirectory.map { URL(fileURLWithPath: $0) },
      executable: URL(
        fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
          ?? CommandLine.arguments[0]),
      arguments: BenchRunCommand.arguments(for:),
      log: { StandardStreams.err("bench: \($0)\n") })
    switch format {
    case .json: StandardStreams.outLine(result.json)
    case .text: StandardStreams.outLine(result.table)
    }
  }
}

struct ScaleList: ExpressibleByArgument {
  var values: [Int]

  var defaultValueDescription: String { values.map(String.init).joined(separator: ",") }

  /// The most branches a scale may generate.
  static let largest = 1_000_000

  init(values: [Int]) { self.values = values }

  init?(argument: String) {
    let parts = argument.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard !parts.isEmpty, parts.allSatisfy({ (100...Self.largest).contains($0 ?? 0) }) else { return nil }
    values = parts.compactMap { $0 }
  }
}

enum BenchFormat: String, ExpressibleByArgument {
  case text, json
}
