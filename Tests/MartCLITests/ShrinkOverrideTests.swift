import Foundation
import TestSupport
import Testing

/// A brand that lost more than half its branches stays stale unless the operator says the chain
/// really closed them (`run --accept-shrink SLUG`).
@Suite struct ShrinkOverrideTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()

  /// A copy of `fixtures/web` whose E-mart store list keeps its first `rows` stores.
  func recordings(emartRows rows: Int) throws -> URL {
    let copy = Scratch.directory.appendingPathComponent("shrunk-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    let list = copy.appendingPathComponent("store.emart.com/searchList-EM.body.json")
    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: list)) as? [String: Any])
    let all = try #require(json["dataList"] as? [Any])
    json["dataList"] = Array(all.prefix(rows))
    try JSONSerialization.data(withJSONObject: json).write(to: list)
    return copy
  }

  /// The entry of `brand` in `output/report.json`.
  func entry(_ brand: String, in output: URL) throws -> [String: Any] {
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    return try #require((report["brands"] as? [[String: Any]])?.first { $0["slug"] as? String == brand })
  }

  @Test func aShrunkBrandStaysStaleUntilTheOverrideAcceptsIt() throws {
    // An output of the E-mart source's brands alone (이마트 and the three it lists with it), and
    // runs of them: the shrink is 이마트's, and the other sources add nothing but their cost.
    let source = ["emart", "traders", "nobrand", "everyday"]
    let brands = source.flatMap { ["--brand", $0] }
    let output = try PublishedOutput.copy("shrink", brands: source)
    let before = try #require(try entry("emart", in: output)["branchCount"] as? Int)
    let shrunk = try recordings(emartRows: 2)

    let refused = try cli.run(
      ["run", "--replay", shrunk.path, "--output", output.path, "--as-of", "2026-11-21"] + brands)
    #expect(refused.status == 2, "stderr: \(refused.stderr)")
    let stale = try entry("emart", in: output)
    #expect(stale["status"] as? String == "stale")
    #expect(stale["branchCount"] as? Int == before)
    #expect((stale["error"] as? String)?.contains("run once with --accept-shrink emart") == true, "\(stale)")

    let accepted = try cli.run(
      [
        "run", "--replay", shrunk.path, "--output", output.path, "--as-of", "2026-11-22", "--accept-shrink", "emart",
        "--log-format", "json",
      ] + brands)
    #expect(accepted.status == 0, "stderr: \(accepted.stderr)")
    let fresh = try entry("emart", in: output)
    #expect(fresh["status"] as? String == "fresh")
    let after = try #require(fresh["branchCount"] as? Int)
    #expect(after < before / 2 && after > 0)
    // Logged, as a line of its own, and kept in report.json.
    let logged = accepted.stderr.split(separator: "\n").filter { $0.contains(#""kind":"shrink-accepted""#) }
    #expect(logged.count == 1 && logged[0].contains(#""brand":"emart""#), "stderr: \(accepted.stderr)")
  }

  @Test func theOverrideNamesABrandTheRunFetches() throws {
    let output = Scratch.directory.appendingPathComponent("shrink-usage-\(UUID().uuidString)")
    let outcome = try cli.run([
      "run", "--replay", "fixtures/web", "--output", output.path, "--brand", "costco", "--accept-shrink", "emart",
    ])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("--accept-shrink emart names a brand this run does not fetch"), "\(outcome.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }
}
