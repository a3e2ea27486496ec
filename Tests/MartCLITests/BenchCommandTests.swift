import Foundation
import TestSupport
import Testing

/// `mart-holiday bench` at its smallest scale, end to end: every brand's generated site is
/// served and the pipeline publishes every generated branch through the replay fetch stack.
/// Speed is not asserted here (see docs/benchmarks.md); that the bench works is.
@Suite struct BenchCommandTests {
  let cli = CommandLineContractTests()

  @Test func theBenchRunsEveryBrandAtItsSmallestScale() throws {
    let outcome = try cli.run(["bench", "--scale", "100", "--format", "json"])
    #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
    let result = try outcome.json()
    let scales = try #require(result["results"] as? [[String: Any]])
    #expect(scales.count == 1)
    // The bench checks itself that every generated branch was published and every request
    // answered; it reports how many there were.
    #expect((scales.first?["branches"] as? Int).map { $0 >= 100 } == true, "\(scales)")
    #expect((result["htmlPages"] as? Int).map { $0 > 0 } == true)
  }

  /// `bench-serve` given nothing to serve says so and stops, instead of serving nothing until
  /// it is killed.
  @Test func benchServeRefusesWhatIsNoRecording() throws {
    let empty = Scratch.directory.appendingPathComponent("bench-serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let file = empty.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: file)
    for (path, says) in [
      ("/nonexistent/recording", "no such directory"), (empty.path, "holds no recordings"),
      (file.path, "is a file, not a directory"),
    ] {
      let outcome = try cli.run(["bench-serve", path])
      #expect(outcome.status == 1, "\(path)")
      #expect(outcome.stdout.isEmpty, "\(path)")
      #expect(outcome.stderr.hasPrefix("error: \(path): \(says)"), "\(outcome.stderr)")
      #expect(outcome.stderr.split(separator: "\n").count == 1, "\(outcome.stderr)")
    }
  }
}
