import ArgumentParser
import Foundation
import MartBench
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import MartReplay

struct BenchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Measure the offline pipeline's speed on generated source data.",
    discussion: """
      For each scale, generates a recording of every brand site (seeded, in each site's real format) with that many branches, serves it from 127.0.0.1 and runs the whole pipeline against it in a child process (fetch with libcurl, parse, normalize, export; no geocoding provider, no politeness delays), measuring wall time, CPU time and peak memory of that process.

      Then measures single stages on generated data: HTML parse+extract against libxml2's bare htmlReadMemory on the same pages (parseVsRaw, the ratio of the two times), closing-text parsing (rulesPerSecond, MB/s) and address normalization (addressesPerSecond).

      Examples:
        mart-holiday bench
        mart-holiday bench --scale 1000,10000,100000 --format json
      """)

  @Option(help: ArgumentHelp("Branch counts to run, comma-separated.", valueName: "n,n,…"))
  var scale: ScaleList = ScaleList(values: [1_000, 10_000])

  @Option(help: ArgumentHelp("Output format: text or json.", valueName: "format"))
  var format: BenchFormat = .text

  @Option(help: ArgumentHelp("Seed of the generated data.", valueName: "n"))
  var seed: UInt64 = 20_261_120

  @Option(
    name: .customLong("keep"),
    help: ArgumentHelp(
      "Keep the generated recordings and outputs in DIR (<dir>/<scale>/recording can be replayed with run --replay).",
      valueName: "dir"))
  var keepDirectory: String?

  func run() async throws {
    let workDirectory =
      keepDirectory.map { URL(fileURLWithPath: $0) }
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("mart-holiday-bench-\(getpid())")
    defer { if keepDirectory == nil { try? FileManager.default.removeItem(at: workDirectory) } }

    var results: [BenchResult.ScaleResult] = []
    for branches in scale.values {
      log("scale \(branches): generating")
      let directory = workDirectory.appendingPathComponent(String(branches))
      try? FileManager.default.removeItem(at: directory)
      let recording = directory.appendingPathComponent("recording")
      let generator = SourceDataGenerator(mix: .national(total: branches), seed: seed)
      let exchanges = try generator.write(to: recording)
      log("scale \(branches): \(exchanges) exchanges recorded; running the pipeline")
      let result = try runChild(recording: recording, output: directory.appendingPathComponent("output"))
      guard result.branches == branches else {
        throw ValidationError("scale \(branches): the run published \(result.branches) branches, expected \(branches)")
      }
      log(
        "scale \(branches): \(format(result.seconds)) s wall, \(format(result.cpuSeconds)) s CPU, \(result.peakMemoryBytes / 1_048_576) MB peak"
      )
      results.append(result)
    }

    log("stage benchmarks")
    let sample = SourceDataGenerator(mix: .national(total: 10_000), seed: seed)
    let parsing = StageBenchmarks.compareHTMLParsing(
      ReplayArchive(exchanges: sample.exchanges().map(\.exchange)))
    let closing = StageBenchmarks.closingTextRate(StageBenchmarks.closingTexts(), asOf: sample.asOf)
    let addresses = StageBenchmarks.addressRate(StageBenchmarks.addresses())

    let report = BenchResult(
      results: results, parseVsRaw: parsing.ratio, rulesPerSecond: closing.itemsPerSecond,
      addressesPerSecond: addresses.itemsPerSecond, closingTextMegabytesPerSecond: closing.megabytesPerSecond,
      cpuExponent: Self.fittedExponent(results.map { (Double($0.branches), $0.cpuSeconds) }),
      wallExponent: Self.fittedExponent(results.map { (Double($0.branches), $0.seconds) }),
      htmlPages: parsing.pages, htmlBytes: parsing.bytes)
    switch format {
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(report), as: UTF8.self))
    case .text:
      print(report.table)
    }
  }

  /// Serves `recording` and runs the pipeline over it in a child process of this binary.
  private func runChild(recording: URL, output: URL) throws -> BenchResult.ScaleResult {
    let archive = try ReplayArchive.load(from: recording)
    let server = try ReplayServer.start(archive: archive)
    defer { server.stop() }
    // Every origin a run may contact goes to the replay server (unrecorded ones to a listener
    // that answers 404, counted as unmatched), as `run --replay` does.
    var overrides = server.baseURLOverrides
    if let fallback = overrides.values.sorted().first {
      for origin in BrandSources.all.map(\.origin) + GeocodingChain.providerOrigins where overrides[origin] == nil {
        overrides[origin] = fallback
      }
    }
    var arguments = ["bench-run", "--output", output.path, "--as-of", archive.recordedOn ?? "2026-11-20"]
    for (origin, baseURL) in overrides.sorted(by: { $0.key < $1.key }) {
      arguments += ["--origin", "\(origin)=\(baseURL)"]
    }
    let process = Process()
    process.executableURL = URL(
      fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0])
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw ValidationError("bench-run failed (status \(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))")
    }
    let unmatched = server.unmatchedRequests
    guard unmatched.isEmpty else {
      throw ValidationError("\(unmatched.count) requests had no recording, first: \(unmatched[0])")
    }
    return try JSONDecoder().decode(BenchResult.ScaleResult.self, from: data)
  }

  /// The least-squares slope of log(cost) over log(branches): 1 is linear. `nil` with fewer
  /// than two scales.
  static func fittedExponent(_ points: [(branches: Double, cost: Double)]) -> Double? {
    let logs: [(Double, Double)] = points.filter { $0.branches > 0 && $0.cost > 0 }.map { (Foundation.log($0.branches), Foundation.log($0.cost)) }
    guard Set(logs.map(\.0)).count >= 2 else { return nil }
    let meanX = logs.reduce(0) { $0 + $1.0 } / Double(logs.count)
    let meanY = logs.reduce(0) { $0 + $1.1 } / Double(logs.count)
    let covariance = logs.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
    let variance = logs.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
    return covariance / variance
  }

  private func log(_ message: String) {
    FileHandle.standardError.write(Data("bench: \(message)\n".utf8))
  }

  private func format(_ value: Double) -> String { String(format: "%.3f", value) }
}

/// `bench --format json`, and the text table.
struct BenchResult: Codable {
  struct ScaleResult: Codable {
    var branches: Int
    var seconds: Double
    var cpuSeconds: Double
    var peakMemoryBytes: Int
  }

  var results: [ScaleResult]
  var parseVsRaw: Double
  var rulesPerSecond: Double
  var addressesPerSecond: Double
  var closingTextMegabytesPerSecond: Double
  /// Fitted exponent of CPU time in branches (1 is linear).
  var cpuExponent: Double?
  /// Fitted exponent of wall time in branches.
  var wallExponent: Double?
  var htmlPages: Int
  var htmlBytes: Int

  var table: String {
    func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    var lines = ["branches    wall s    CPU s   CPU ms/branch   peak MB"]
    for result in results {
      lines.append(
        [
          String(result.branches).leftPadded(8), fixed(result.seconds, 3).leftPadded(9),
          fixed(result.cpuSeconds, 3).leftPadded(8),
          fixed(result.cpuSeconds * 1000 / Double(result.branches), 4).leftPadded(15),
          String(result.peakMemoryBytes / 1_048_576).leftPadded(9),
        ].joined(separator: " "))
    }
    if let cpuExponent { lines.append("fitted exponent: CPU \(fixed(cpuExponent, 2)), wall \(fixed(wallExponent ?? 0, 2))") }
    lines.append(
      "HTML parse+extract / raw libxml2 parse: \(fixed(parseVsRaw, 2))× (\(htmlPages) pages, \(htmlBytes / 1024) KB)")
    lines.append(
      "closing texts: \(Int(rulesPerSecond)) per second, \(fixed(closingTextMegabytesPerSecond, 1)) MB/s")
    lines.append("addresses: \(Int(addressesPerSecond)) per second")
    return lines.joined(separator: "\n")
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}

/// `--scale 1000,10000`.
struct ScaleList: ExpressibleByArgument {
  var values: [Int]

  init(values: [Int]) { self.values = values }

  init?(argument: String) {
    let parts = argument.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard !parts.isEmpty, parts.allSatisfy({ ($0 ?? 0) >= 100 }) else { return nil }
    values = parts.compactMap { $0 }
  }
}

enum BenchFormat: String, ExpressibleByArgument {
  case text, json
}

/// One measured run, in its own process so that its peak memory is its own: the pipeline
/// against origins redirected to a replay server, printing a `BenchResult.ScaleResult`.
struct BenchRunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench-run", abstract: "One measured pipeline run (used by bench).", shouldDisplay: false)

  @Option var output: String
  @Option(name: .customLong("as-of")) var asOf: CalendarDate
  @Option(name: .customLong("origin")) var origins: [String] = []

  func run() async throws {
    var overrides: [String: String] = [:]
    for origin in origins {
      let parts = origin.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { throw ValidationError("--origin \(origin): expected ORIGIN=BASEURL") }
      overrides[String(parts[0])] = String(parts[1])
    }
    let before = ResourceUsage.current()
    var report: RunReport?
    let seconds = await measureWall {
      // The pipeline as `run` builds it, without archive, geocoding providers or delays.
      let fetcher = OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: overrides)
      let pipeline = Pipeline(sources: BrandSources.all, fetcher: fetcher)
      report = await pipeline.run(asOf: asOf, outputDirectory: URL(fileURLWithPath: output))
    }
    let after = ResourceUsage.current()
    guard let report, report.errors.isEmpty else {
      throw ValidationError("the run failed: \(report?.errors.map(\.description) ?? [])")
    }
    let result = BenchResult.ScaleResult(
      branches: report.brands.reduce(0) { $0 + $1.branchCount }, seconds: seconds,
      cpuSeconds: after.cpuSeconds - before.cpuSeconds, peakMemoryBytes: after.peakMemoryBytes)
    print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
  }

  private func measureWall(_ body: () async -> Void) async -> Double {
    let start = ContinuousClock.now
    await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }
}
