import Foundation
import Synchronization
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

  /// The publishing run of each set of brands (`--brand B…`), from scratch into a new directory,
  /// once per test process and set; a failure is kept and thrown to every caller.
  private static let publishedBrands = Mutex<[[String]: Result<URL, any Error>]>([:])

  /// The shared output directory of a run of `brands` alone (read only: take a
  /// ``copy(_:brands:)``). For a test whose point is not every brand (a lock, a leftover, a
  /// stream that cannot be written, a damage `validate` finds): runs, validations, diffs and
  /// reports of an output of one or two brands cost a fraction of those of every brand's (a
  /// run a fifth, `validate` a tenth), over the same layout (`bundles/`, `current/`,
  /// `latest.json`, the reports and the state directory).
  static func directory(brands: [String]) throws -> URL {
    try publishedBrands.withLock { outputs in
      if let done = outputs[brands] { return try done.get() }
      let result = Result<URL, any Error> { try publish(brands.flatMap { ["--brand", $0] }) }
      outputs[brands] = result
      return try result.get()
    }
  }

  /// A private copy of the output of `brands` and its state directory beside it, named
  /// `label-<UUID>` under the temporary directory.
  static func copy(_ label: String, brands: [String]) throws -> URL {
    try copy(
      to: Scratch.directory.appendingPathComponent("\(label)-\(UUID().uuidString)"),
      brands: brands)
  }

  /// A private copy of the output of `brands` at `output` (which must not exist; its parent
  /// must), with the state directory beside it.
  @discardableResult
  static func copy(to output: URL, brands: [String]) throws -> URL {
    try copy(try directory(brands: brands), to: output)
  }

  /// The second publishing run's output directory (read only).
  static func secondRunDirectory() throws -> URL { try republished.get() }

  /// A private copy of the published output directory and its state directory beside it.
  /// - Parameter label: the start of the copy's directory name, for reading leftovers.
  static func copy(_ label: String) throws -> URL {
    try copy(to: Scratch.directory.appendingPathComponent("\(label)-\(UUID().uuidString)"))
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
      to: Scratch.directory.appendingPathComponent("\(label)-\(UUID().uuidString)"))
  }

  private static func copy(_ original: URL, to output: URL) throws -> URL {
    try ProcessRunner.copyTree(original, to: output)
    try ProcessRunner.copyTree(stateDirectory(of: original), to: stateDirectory(of: output))
    return output
  }

  /// The state directory a run uses by default for `output`: `<output>-state` beside it.
  static func stateDirectory(of output: URL) -> URL {
    URL(fileURLWithPath: output.standardizedFileURL.path + "-state")
  }

  private static func publish(_ extra: [String] = []) throws -> URL {
    let output = Scratch.directory
      .appendingPathComponent("published\(extra.joined(separator: "-"))-\(UUID().uuidString)/output")
    let outcome = try ProcessRunner.run(
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
