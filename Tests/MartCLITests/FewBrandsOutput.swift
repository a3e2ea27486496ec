import Foundation
import Synchronization
import TestSupport
import Testing

/// The output of `mart-holiday run --replay fixtures/web --brand B… --output DIR` (as of the
/// recordings' date, 2026-11-20) for a few brands, published once per test process and set of
/// brands by the built binary, with its state directory `DIR-state` beside it; tests take a
/// private copy of both, as of ``PublishedOutput``.
///
/// For a test whose point is not every brand (a lock, a leftover, a file that cannot be written,
/// a damage `validate` finds): its runs and validations of an output of one brand cost a fraction
/// of those of every brand's (a run over it a fifth, `validate` a tenth), and they meet the same
/// layout (`bundles/`, `current/`, `latest.json`, the reports and the state directory).
enum FewBrandsOutput {
  /// The one publishing run of each set of brands in this process; a failure is kept and thrown
  /// to every caller.
  private static let published = Mutex<[[String]: Result<URL, any Error>]>([:])

  /// The shared output directory of `brands` (read only: take a ``copy(_:brands:)``).
  static func directory(brands: [String]) throws -> URL {
    try published.withLock { outputs in
      if let done = outputs[brands] { return try done.get() }
      let result = Result<URL, any Error> { try publish(brands) }
      outputs[brands] = result
      return try result.get()
    }
  }

  /// A private copy of the output directory of `brands` and its state directory beside it,
  /// named `label-<UUID>` under the temporary directory.
  static func copy(_ label: String, brands: [String]) throws -> URL {
    try copy(
      to: FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)"),
      brands: brands)
  }

  /// A private copy of the output directory of `brands` at `output` (which must not exist; its
  /// parent must), with the state directory beside it.
  @discardableResult
  static func copy(to output: URL, brands: [String]) throws -> URL {
    let original = try directory(brands: brands)
    try copyTree(original, to: output)
    try copyTree(PublishedOutput.stateDirectory(of: original), to: PublishedOutput.stateDirectory(of: output))
    return output
  }

  /// `cp -a`, which keeps the hard links of `current/` to the current bundle's files.
  private static func copyTree(_ source: URL, to target: URL) throws {
    let copied = try ProcessRunner.run(URL(fileURLWithPath: "/bin/cp"), ["-a", source.path, target.path])
    guard copied.status == 0 else {
      throw PublishedOutput.PublishingFailed(status: copied.status, stderr: copied.stderrText)
    }
  }

  private static func publish(_ brands: [String]) throws -> URL {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("published-\(brands.joined(separator: "+"))-\(UUID().uuidString)/output")
    let outcome = try ProcessRunner.run(
      CommandLineContractTests.binary,
      ["run", "--replay", "fixtures/web", "--output", output.path] + brands.flatMap { ["--brand", $0] },
      in: FixturePaths.repositoryRoot)
    guard outcome.status == 0 else {
      throw PublishedOutput.PublishingFailed(status: outcome.status, stderr: outcome.stderrText)
    }
    return output
  }
}
