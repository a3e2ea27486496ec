import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartFiles
import MartPipeline
import MartReplay

/// The `bench` command's work: generated recordings at each scale, a measured pipeline run in a
/// child process per scale, and the stage benchmarks.
public enum Bench {
  /// Runs every scale and the stage benchmarks. `executable` is this program, started with the
  /// arguments `arguments` gives for each measured run (a child that calls
  /// ``measuredRun(output:asOf:overrides:)`` and prints its result as JSON); `keep` keeps the
  /// recordings and outputs.
  public static func run(
    scales: [Int], seed: UInt64, keep: URL?, executable: URL, arguments: (MeasuredRun) -> [String],
    log: (String) -> Void
  ) async throws -> BenchResult {
    let workDirectory =
      keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("mart-holiday-bench-\(getpid())")
    defer { if keep == nil { try? FileManager.default.removeItem(at: workDirectory) } }

    var results: [BenchResult.ScaleResult] = []
    for branches in scales {
      log("scale \(branches): generating")
      let directory = workDirectory.appendingPathComponent(String(branches))
      try? FileManager.default.removeItem(at: directory)
      let recording = directory.appendingPathComponent("recording")
      let generator = SourceDataGenerator(mix: .national(total: branches), seed: seed)
      let exchanges = try generator.write(to: recording)
      log("scale \(branches): \(exchanges) exchanges recorded; running the pipeline")
      let result = try runChild(
        executable: executable, arguments: arguments, recording: recording,
        output: directory.appendingPathComponent("output"))
      guard result.branches == branches else {
        throw BenchError("scale \(branches): the run published \(result.branches) branches, expected \(branches)")
      }
      log(
        "scale \(branches): \(fixed(result.seconds, 3)) s wall, \(fixed(result.cpuSeconds, 3)) s CPU, \(result.peakMemoryBytes / 1_048_576) MB peak"
      )
      results.append(result)
    }

    log("stage benchmarks")
    // The samples of the largest scale asked for, at most 10,000 branches (2,000 closing texts'
    // branches, 5,000 addresses): `--scale 100` is a quick check of the whole bench, not a
    // 10,000-branch parse.
    let sampleSize = min(scales.max() ?? 10_000, 10_000)
    let sample = SourceDataGenerator(mix: .national(total: sampleSize), seed: seed)
    let parsing = StageBenchmarks.compareHTMLParsing(ReplayArchive(exchanges: sample.exchanges().map(\.exchange)))
    let closing = StageBenchmarks.closingTextRate(
      StageBenchmarks.closingTexts(count: min(sampleSize, 2_000)), asOf: sample.asOf)
    let addresses = StageBenchmarks.addressRate(StageBenchmarks.addresses(count: min(sampleSize, 5_000)))
    return BenchResult(
      results: results, parseVsRaw: parsing.ratio, rulesPerSecond: closing.itemsPerSecond,
      addressesPerSecond: addresses.itemsPerSecond, closingTextMegabytesPerSecond: closing.megabytesPerSecond,
      cpuExponent: fittedExponent(results.map { (Double($0.branches), $0.cpuSeconds) }),
      wallExponent: fittedExponent(results.map { (Double($0.branches), $0.seconds) }),
      htmlPages: parsing.pages, htmlBytes: parsing.bytes)
  }

  /// The HTML stage alone (`bench --html-only`): parse+extract against libxml2's bare parse on
  /// the pages of the same 10,000-branch sample `run` uses, for all pages and for each kind.
  public static func htmlParsing(seed: UInt64, log: (String) -> Void) -> HTMLParsingResult {
    log("generating the 10,000-branch sample")
    let sample = SourceDataGenerator(mix: .national(total: 10_000), seed: seed)
    let archive = ReplayArchive(exchanges: sample.exchanges().map(\.exchange))
    log("all pages")
    let all = StageBenchmarks.compareHTMLParsing(archive)
    var kinds: [String: StageBenchmarks.ParseComparison] = [:]
    for kind in StageBenchmarks.HTMLPageKind.allCases {
      log(kind.rawValue)
      kinds[kind.rawValue] = StageBenchmarks.compareHTMLParsing(archive, kinds: [kind])
    }
    return HTMLParsingResult(
      parseVsRaw: all.ratio, htmlPages: all.pages, htmlBytes: all.bytes,
      parseAndExtractSeconds: all.parseAndExtractSeconds, rawParseSeconds: all.rawParseSeconds, kinds: kinds)
  }

  /// One measured run (the `bench-run` child): the pipeline over the fetch stack `run --replay`
  /// uses (`RunMode.replay`: no archive, geocoding providers, delays or retries), every origin
  /// sent where `overrides` says, then `current/` and the reports, as after every run.
  public static func measuredRun(
    output: URL, asOf: CalendarDate, overrides: [String: String]
  ) async throws -> BenchResult.ScaleResult {
    let before = ResourceUsage.current()
    let start = ContinuousClock.now
    let stack = RunMode.replay.fetchStack(
      client: HTTPClientConfiguration(), overrides: overrides, politeness: PolitenessPolicy(),
      retry: FetchRetryPolicy(), validators: nil)
    let pipeline = Pipeline(sources: BrandSources.all, fetcher: stack.fetcher, statistics: stack.statistics)
    let outcome = await pipeline.runOnce(asOf: asOf, outputDirectory: output)
    // What every run does after publishing: current/, report.html and report.json.
    let report = Pipeline.finishOutput(outcome, output: output)
    let elapsed = ContinuousClock.now - start
    let after = ResourceUsage.current()
    guard report.errors.isEmpty else { throw BenchError("the run failed: \(report.errors.map(\.description))") }
    return BenchResult.ScaleResult(
      branches: report.brands.reduce(0) { $0 + $1.branchCount },
      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
      cpuSeconds: after.cpuSeconds - before.cpuSeconds, peakMemoryBytes: after.peakMemoryBytes)
  }

  private static func runChild(
    executable: URL, arguments: (MeasuredRun) -> [String], recording: URL, output: URL
  ) throws -> BenchResult.ScaleResult {
    let archive = try ReplayArchive.load(from: recording)
    let server = try ReplayServer.startForRun(archive, sources: BrandSources.all)
    defer { server.stop() }
    let run = MeasuredRun(
      output: output, asOf: archive.recordedOn ?? "2026-11-20", overrides: server.baseURLOverrides)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments(run)
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw BenchError(
        "bench-run failed (status \(process.terminationStatus)): \(String(decoding: data, as: UTF8.self))")
    }
    let unmatched = server.unmatchedRequests
    guard unmatched.isEmpty else {
      throw BenchError("\(unmatched.count) requests had no recording, first: \(unmatched[0])")
    }
    return try JSONDecoder().decode(BenchResult.ScaleResult.self, from: data)
  }

  /// The least-squares slope of log(cost) over log(branches): 1 is linear. `nil` with fewer
  /// than two scales.
  static func fittedExponent(_ points: [(branches: Double, cost: Double)]) -> Double? {
    let logs: [(Double, Double)] = points.filter { $0.branches > 0 && $0.cost > 0 }.map {
      (Foundation.log($0.branches), Foundation.log($0.cost))
    }
    guard Set(logs.map(\.0)).count >= 2 else { return nil }
    let meanX = logs.reduce(0) { $0 + $1.0 } / Double(logs.count)
    let meanY = logs.reduce(0) { $0 + $1.1 } / Double(logs.count)
    let covariance = logs.reduce(0) { $0 + ($1.0 - meanX) * ($1.1 - meanY) }
    let variance = logs.reduce(0) { $0 + ($1.0 - meanX) * ($1.0 - meanX) }
    return covariance / variance
  }

  static func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
}

/// What one measured run is asked to do, for the command line to turn into a child's arguments.
public struct MeasuredRun: Sendable, Hashable {
  /// Where the run publishes.
  public var output: URL
  /// The run's as-of (YYYY-MM-DD): the day the recording was made.
  public var asOf: String
  /// Real origin to the replay server's listener standing in for it.
  public var overrides: [String: String]
}

/// A benchmark could not be run or its run did not publish what it should have.
public struct BenchError: Error, CustomStringConvertible {
  public var description: String
  init(_ description: String) { self.description = description }
}

/// What `bench` measured; `--format json` prints it as is.
public struct BenchResult: Codable, Sendable {
  public struct ScaleResult: Codable, Sendable {
    public var branches: Int
    public var seconds: Double
    public var cpuSeconds: Double
    public var peakMemoryBytes: Int
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

  /// The JSON form, as `--format json` prints it.
  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// A table for people.
  public var table: String {
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
    if let cpuExponent {
      lines.append("fitted exponent: CPU \(fixed(cpuExponent, 2)), wall \(fixed(wallExponent ?? 0, 2))")
    }
    lines.append(
      "HTML parse+extract / raw libxml2 parse: \(fixed(parseVsRaw, 2))× (\(htmlPages) pages, \(htmlBytes / 1024) KB)")
    lines.append(
      "closing texts: \(Int(rulesPerSecond)) per second, \(fixed(closingTextMegabytesPerSecond, 1)) MB/s")
    lines.append("addresses: \(Int(addressesPerSecond)) per second")
    return lines.joined(separator: "\n")
  }
}

/// What `bench --html-only` measured; `--format json` prints it as is.
public struct HTMLParsingResult: Encodable, Sendable {
  /// Parse+extract time over bare libxml2 parse time, on every page (as `bench` reports it).
  var parseVsRaw: Double
  var htmlPages: Int
  var htmlBytes: Int
  /// Seconds of the best pass over every page.
  var parseAndExtractSeconds: Double
  var rawParseSeconds: Double
  /// The same comparison on each kind of page alone, by kind.
  var kinds: [String: StageBenchmarks.ParseComparison]

  /// The JSON form, keys sorted.
  public var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  /// A table for people.
  public var table: String {
    func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    var lines = ["pages                    count        KB   ours ms    raw ms   ratio"]
    func line(_ name: String, _ comparison: StageBenchmarks.ParseComparison) -> String {
      [
        name.padding(toLength: 22, withPad: " ", startingAt: 0), String(comparison.pages).leftPadded(7),
        String(comparison.bytes / 1024).leftPadded(9), fixed(comparison.parseAndExtractSeconds * 1000, 1).leftPadded(9),
        fixed(comparison.rawParseSeconds * 1000, 1).leftPadded(9), fixed(comparison.ratio, 2).leftPadded(7),
      ].joined(separator: " ")
    }
    for (name, comparison) in kinds.sorted(by: { $0.key < $1.key }) { lines.append(line(name, comparison)) }
    lines.append(
      line(
        "all",
        StageBenchmarks.ParseComparison(
          pages: htmlPages, bytes: htmlBytes, parseAndExtractSeconds: parseAndExtractSeconds,
          rawParseSeconds: rawParseSeconds)))
    return lines.joined(separator: "\n")
  }
}

extension String {
  fileprivate func leftPadded(_ width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}

/// `--scale 1000,10000`.

extension Bench {
  /// A recording served on 127.0.0.1 as the bench serves it, for runs of other programs
  /// against the same responses (`bench-serve`).
  public final class Served: Sendable {
    private let server: ReplayServer
    /// Origin (`https://store.emart.com`) → the local base URL that answers for it.
    public let baseURLs: [String: String]

    /// Loads the recording in `directory` (the replay format) and starts serving it. Throws
    /// when `directory` is missing or holds no recorded exchange: serving nothing would only
    /// make every request of the other program fail.
    public init(recording directory: URL) throws {
      guard let kind = Files.kind(at: directory.path, followingLinks: true) else {
        throw BenchError("\(directory.path): no such directory")
      }
      guard kind == .directory else { throw BenchError("\(directory.path): is a file, not a directory") }
      let noRecordings = BenchError("\(directory.path): holds no recordings (no *.exchange.json files)")
      // A folder that is no recording folder (the repository root) is not walked for one.
      guard ReplayArchive.isRecordingFolder(directory) else { throw noRecordings }
      let archive = try ReplayArchive.load(from: directory)
      guard !archive.exchanges.isEmpty else { throw noRecordings }
      server = try ReplayServer.startForRun(archive, sources: BrandSources.all)
      baseURLs = server.baseURLOverrides
    }

    /// The requests so far that matched no recorded exchange.
    public var unmatchedRequests: [String] { server.unmatchedRequests }

    public func stop() { server.stop() }
  }
}
