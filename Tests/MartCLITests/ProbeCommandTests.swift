import Foundation
import TestSupport
import Testing

/// `mart-holiday probe` run as a built binary over the recorded sites: every source as expected
/// on the fixtures; a source whose page changed named, exit 1; trouble exit 2; nothing written.
@Suite struct ProbeCommandTests {
  func run(_ arguments: [String]) throws -> ProcessRunner.Outcome {
    try ProcessRunner.run(CommandLineContractTests.binary, arguments, in: FixturePaths.repositoryRoot)
  }

  /// A copy of `fixtures/web` with Costco's API page answering the store finder's older form.
  func recordingsWithCostcoChanged() throws -> URL {
    let copy = Scratch.directory.appendingPathComponent("probe-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    let older = try FixturePaths.data("web-older/www.costco.co.kr/store-finder-search.body.json")
    try older.write(to: copy.appendingPathComponent("www.costco.co.kr/occ-stores-0.body.json"))
    return copy
  }

  @Test func everySourceIsAsExpectedOnTheFixtures() throws {
    let before = try TreeSnapshot(FixturePaths.repositoryRoot.appendingPathComponent("fixtures"))
    let outcome = try run(["probe", "--replay", "fixtures/web"])
    #expect(outcome.status == 0, "\(outcome.stdoutText)\(outcome.stderrText)")
    for source in ["costco", "lottemart", "homeplus", "emart", "lotte-dowa", "gs-thefresh", "megamart", "lotte-super"] {
      #expect(outcome.stdoutText.contains("\(source) ("), "\(source)")
    }
    #expect(!outcome.stdoutText.contains("changed"))
    #expect(
      try TreeSnapshot(FixturePaths.repositoryRoot.appendingPathComponent("fixtures")).newFiles(since: before).isEmpty)
  }

  @Test func aChangedPageNamesItsSourceAndExitsOne() throws {
    let recordings = try recordingsWithCostcoChanged()
    let outcome = try run(["probe", "--replay", recordings.path, "--format", "json"])
    #expect(outcome.status == 1, "\(outcome.stderrText)")
    let json = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [String: Any])
    let sources = try #require(json["sources"] as? [[String: Any]])
    let outcomes = Dictionary(
      uniqueKeysWithValues: sources.compactMap { source in
        (source["source"] as? String).map { ($0, source["outcome"] as? String) }
      })
    #expect(outcomes["costco"] == "changed")
    #expect(outcomes.filter { $0.value != "expected" }.keys.sorted() == ["costco"])
  }

  @Test func oneBrandIsProbedAlone() throws {
    let outcome = try run(["probe", "--replay", "fixtures/web", "--brand", "costco"])
    #expect(outcome.status == 0, "\(outcome.stderrText)")
    #expect(outcome.stdoutText.hasPrefix("costco (costco): as expected"))
    #expect(!outcome.stdoutText.contains("lottemart"))
    #expect(outcome.stdoutText.contains("19 stores with warehouseCode, name and displayName"))
  }

  @Test func troubleExitsTwo() throws {
    let missing = try run(["probe", "--replay", "fixtures/wbe"])
    #expect(missing.status == 2)
    #expect(missing.stderrText.hasPrefix("error:"))
    let badFormat = try run(["probe", "--format", "xml"])
    #expect(badFormat.status == 2)
    #expect(badFormat.stderrText.contains("--format"))
  }
}
