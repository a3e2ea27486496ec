import Foundation
import TestSupport
import Testing

/// The output of `mart-holiday run --replay fixtures/web --output DIR` (as of the recordings'
/// date, 2026-11-20), published once per test process by the built binary, with its state
/// directory `DIR-state` beside it; tests take a private copy of both.
///
/// A test that needs "an output directory with one bundle published" as its starting point
/// calls `try PublishedOutput.copy("label")` instead of running the binary itself: the copy is
/// an output directory under the temporary directory, named `label-<UUID>`, with
/// `label-<UUID>-state` beside it, exactly as a run into that directory would have left them.
/// It is the test's to change, rerun over or damage. Only a test of publishing itself (a run
/// into a new directory, the sample) runs the publishing command from scratch; ``directory()``
/// is the shared original, for reading only. The tests of determinism (two runs writing the
/// same bytes) compare it with ``secondRunDirectory()``, a second run of the same command from
/// scratch, made once.
enum PublishedOutput {
  /// The one publishing run of this process; a failure is kept and thrown to every caller.
  private static let published = Result<URL, any Error> { try publish() }

  /// The shared published output directory (read only: take a ``copy(_:)`` to change anything).
  static func directory() throws -> URL { try published.get() }

  /// A second publishing run of the same command, from scratch into a new directory of its own,
  /// once per test process, independent of the first: for the tests of determinism, which
  /// compare what two runs over the same recordings write (read only: take a
  /// ``copyOfSecondRun(_:)`` to change anything).
  private static let republished = Result<URL, any Error> { try publish() }

  /// A publishing run of two brands, 롯데마트 and 메가마트 (`--brand lottemart --brand megamart`),
  /// from scratch into a new directory, once per test process: for the tests that need an output
  /// directory with a bundle in it whatever it holds (streams that cannot be written, arguments
  /// refused, a brand going stale), on which `validate`, `diff` and `report` take a fraction of
  /// the time the full output takes.
  private static let publishedSmall = Result<URL, any Error> {
    try publish(["--brand", "lottemart", "--brand", "megamart"])
  }

  /// A private copy of the output of the two brands' publishing run and its state directory.
  static func smallCopy(_ label: String) throws -> URL {
    try copy(
      try publishedSmall.get(),
      to: FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)"))
  }

  /// The second publishing run's output directory (read only).
  static func secondRunDirectory() throws -> URL { try republished.get() }

  /// A private copy of the published output directory and its state directory beside it.
  /// - Parameter label: the start of the copy's directory name, for reading leftovers.
  static func copy(_ label: String) throws -> URL {
    try copy(to: FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)"))
  }

  /// A private copy of the published output directory at `output` (which must not exist; its
  /// parent must), with the state directory beside it.
  @discardableResult
  static func copy(to output: URL) throws -> URL {
    try copy(try directory(), to: output)
  }

  /// A private copy of the second publishing run's output directory and its state directory,
  /// as ``copy(_:)`` makes of the first.
  static func copyOfSecondRun(_ label: String) throws -> URL {
    try copy(
      try secondRunDirectory(),
      to: FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)"))
  }

  private static func copy(_ original: URL, to output: URL) throws -> URL {
    try copyTree(original, to: output)
    try copyTree(stateDirectory(of: original), to: stateDirectory(of: output))
    return output
  }

  /// `cp -a`: the files under `current/` are hard links to the current bundle's, which a run
  /// checks and keeps, and a copy keeps them so (as it keeps times, modes and links).
  private static func copyTree(_ source: URL, to target: URL) throws {
    let copied = try ChildProcess.run(URL(fileURLWithPath: "/bin/cp"), ["-a", source.path, target.path])
    guard copied.status == 0 else { throw PublishingFailed(status: copied.status, stderr: copied.stderrText) }
  }

  /// The state directory a run uses by default for `output`: `<output>-state` beside it.
  static func stateDirectory(of output: URL) -> URL {
    URL(fileURLWithPath: output.standardizedFileURL.path + "-state")
  }

  private static func publish(_ extra: [String] = []) throws -> URL {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("published-\(UUID().uuidString)/output")
    let outcome = try ChildProcess.run(
      CommandLineContractTests.binary, ["run", "--replay", "fixtures/web", "--output", output.path] + extra,
      in: FixturePaths.repositoryRoot)
    guard outcome.status == 0 else {
      throw PublishingFailed(status: outcome.status, stderr: outcome.stderrText)
    }
    return output
  }

  /// The publishing run, or a copy of its output, did not exit 0.
  struct PublishingFailed: Error, CustomStringConvertible {
    var status: Int32
    var stderr: String
    var description: String { "publishing or copying the replay of fixtures/web exited \(status): \(stderr)" }
  }
}
