import Foundation
import MartCore
import MartFetch
import MartPipeline
import TestSupport

/// One in-process run over `fixtures/web` as `mart-holiday run --replay fixtures/web` makes it
/// (as of the recordings' date, 2026-11-20, geocoders retried at once), published once per test
/// process and shared by the pipeline's and the kit's tests.
///
/// A test that only reads what such a run published or reported calls ``published()``; a test
/// that needs "an output directory with one bundle published" as its starting point (to rerun
/// over it, damage it or serve it) takes a ``copy(_:)``, exactly as the run left it, with its
/// state directory beside it. Only a test of publishing itself (two runs writing the same bytes,
/// a run of other brands or other settings) runs the pipeline from scratch.
public actor ReplayedFixtures {
  /// The one run of this process.
  public static let shared = ReplayedFixtures()
  /// The recordings' date, the run's as-of date.
  public static let asOf = CalendarDate(iso: "2026-11-20")!

  /// What the one run left: its output directory (read only) and its result.
  public struct Published: Sendable {
    /// The shared output directory; its state directory is `<output>-state` beside it.
    public var output: URL
    /// The run's result: its report and the requests it had no recording for.
    public var result: RunResult
    /// The run's report.
    public var report: RunReport { result.report }
  }

  private var run: Task<Published, any Error>?

  /// The one run's output and result, run on first use; a failure is thrown to every caller.
  public func published() async throws -> Published {
    if let run { return try await run.value }
    let task = Task { try await Self.publish() }
    run = task
    return try await task.value
  }

  /// A private copy of the published output directory, named `label-<UUID>` under the temporary
  /// directory, with its state directory copied beside it: the test's to change or rerun over.
  public func copy(_ label: String) async throws -> URL {
    let original = try await published().output
    let copy = Scratch.directory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try ProcessRunner.copyTree(original, to: copy)
    try ProcessRunner.copyTree(Self.stateDirectory(of: original), to: Self.stateDirectory(of: copy))
    return copy
  }

  /// The state directory a run keeps for `output` by default.
  public static func stateDirectory(of output: URL) -> URL {
    RunConfiguration.defaultStateDirectory(for: output)
  }

  private static func publish() async throws -> Published {
    let output = Scratch.directory
      .appendingPathComponent("replayed-\(UUID().uuidString)/output")
    try FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: asOf, geocodingRetryPolicy: .immediate))
    guard result.report.outcome == .published else {
      throw FixtureRunFailed(description: "the run over fixtures/web into \(output.path) did not publish: \(result.report.outcome)")
    }
    return Published(output: output, result: result)
  }
}

/// The shared run over the fixtures did not publish, or a copy of its output failed.
public struct FixtureRunFailed: Error, CustomStringConvertible {
  public var description: String
}
