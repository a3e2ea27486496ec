import ArgumentParser
import Foundation
import MartBench
import MartCore

/// One measured run, in its own process so that its peak memory is its own: the pipeline
/// against origins redirected to a replay server, printing a `BenchResult.ScaleResult`.
struct BenchRunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench-run", abstract: "One measured pipeline run (used by bench).", shouldDisplay: false)

  @Option var output: String
  @Option(name: .customLong("as-of")) var asOf: CalendarDate
  @Option(name: .customLong("origin")) var origins: [String] = []

  /// The arguments that start this command for `run`.
  static func arguments(for run: MeasuredRun) -> [String] {
    var arguments = ["bench-run", "--output", run.output.path, "--as-of", run.asOf]
    for (origin, baseURL) in run.overrides.sorted(by: { $0.key < $1.key }) {
      arguments += ["--origin", "\(origin)=\(baseURL)"]
    }
    return arguments
  }

  func validate() throws {
    try SupportedPaths.checkNotEmpty(output, option: "--output")
    try SupportedDates.checkAsOf(asOf, option: "--as-of")
  }

  func run() async throws {
    var overrides: [String: String] = [:]
    for origin in origins {
      let parts = origin.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { throw ValidationError("--origin \(origin): expected ORIGIN=BASEURL") }
      overrides[String(parts[0])] = String(parts[1])
    }
    let result = try await Bench.measuredRun(
      output: URL(fileURLWithPath: output), asOf: asOf, overrides: overrides)
    StandardStreams.outLine(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
  }
}
