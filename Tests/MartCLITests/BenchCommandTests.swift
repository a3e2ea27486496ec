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
}
