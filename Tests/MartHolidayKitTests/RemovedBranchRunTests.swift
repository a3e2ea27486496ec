import Foundation
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartHolidayKit
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// A store that leaves its brand's site, through real runs over the recorded sites (replay
/// server on 127.0.0.1, libcurl, real bundles): `branches.json`'s `removed` as the pipeline
/// writes it, `validate` accepts it, and the kit tells the id from one that never existed.
@Suite(.serialized) struct RemovedBranchRunTests {
  /// A copy of `fixtures/web` without Costco 대전점's row in the Costco feed.
  func recordingsWithoutDaejeon() throws -> URL {
    let recordings = Scratch.directory.appendingPathComponent("web-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: recordings)
    let site = recordings.appendingPathComponent("www.costco.co.kr")
    let feed = try #require(
      try FileManager.default.contentsOfDirectory(atPath: site.path).first { $0.hasSuffix(".body.json") })
    var records = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: site.appendingPathComponent(feed))) as? [String: Any])
    var rows = try #require(records["stores"] as? [[String: Any]])
    let before = rows.count
    rows.removeAll { $0["name"] as? String == "Daejeon" }
    #expect(rows.count == before - 1)
    records["stores"] = rows
    try JSONSerialization.data(withJSONObject: records).write(to: site.appendingPathComponent(feed))
    return recordings
  }

  /// `recordings` with every Costco answer a server error: the brand fails and is carried over.
  func failingCostco(_ recordings: URL) throws {
    let site = recordings.appendingPathComponent("www.costco.co.kr")
    for name in try FileManager.default.contentsOfDirectory(atPath: site.path) where name.hasSuffix(".exchange.json") {
      let file = site.appendingPathComponent(name)
      var exchange = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
      var response = try #require(exchange["response"] as? [String: Any])
      response["status"] = 500
      exchange["response"] = response
      try JSONSerialization.data(withJSONObject: exchange).write(to: file)
    }
  }

  func run(
    _ recordings: URL, output: URL, asOf: String, acceptShrink: Set<BrandSlug> = []
  ) async throws -> RunReport {
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: recordings, asOf: CalendarDate(iso: asOf)!,
        geocodingRetryPolicy: .immediate, acceptShrink: acceptShrink))
    return result.report
  }

  /// `removed` of the current bundle's `branches.json` (or of `brands/<slug>.json`), as plain JSON.
  func removed(_ output: URL, file: String = "branches.json") throws -> [[String: String?]] {
    let raw = try RawBundle(output: output)
    let object = try RawBundle.object(raw.directory.appendingPathComponent(file))
    let entries = try #require(object["removed"] as? [[String: Any]])
    return entries.map { entry in entry.mapValues { $0 as? String } }
  }

  @Test func aStoreTheSourceStopsListingIsRemovedUntilItIsListedAgain() async throws {
    // The first run, as of 2026-11-20: a copy of the process's one run over the fixtures.
    #expect(ReplayedFixtures.asOf.iso == "2026-11-20")
    let output = try await ReplayedFixtures.shared.copy("removed")
    #expect(try removed(output).isEmpty)
    #expect(try MartBundle(contentsOf: output).lookup(id: "costco-Daejeon") != .unknown)

    // The next day Costco no longer lists 대전점, and the operator says the chain closed it
    // (`--accept-shrink`; otherwise it is kept, marked missing, for two runs): removed, last
    // listed by the 2026-11-20 bundle.
    let withoutDaejeon = try recordingsWithoutDaejeon()
    #expect(
      try await run(withoutDaejeon, output: output, asOf: "2026-11-21", acceptShrink: ["costco"]).outcome == .published)
    let entry: [String: String?] = ["id": "costco-Daejeon", "brand": "costco", "lastListed": "2026-11-20"]
    #expect(try removed(output) == [entry])
    #expect(try removed(output, file: "brands/costco.json") == [entry])
    #expect(try removed(output, file: "brands/emart.json").isEmpty)
    var bundle = try MartBundle(contentsOf: output)
    #expect(bundle.knowsRemovedBranches)
    #expect(bundle.lookup(id: "costco-Daejeon") == .removed(lastListed: MartDay(year: 2026, month: 11, day: 20)))
    #expect(bundle.lookup(id: "costco-Atlantis") == .unknown)
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.isEmpty)

    // Costco's site fails: the brand is carried over (stale) and removes nothing; the entry is
    // kept as it was.
    try failingCostco(withoutDaejeon)
    let stale = try await run(withoutDaejeon, output: output, asOf: "2026-11-22")
    #expect(stale.outcome == .publishedWithStaleBrands)
    #expect(try removed(output) == [entry])
    bundle = try MartBundle(contentsOf: output)
    #expect(bundle.freshness(ofBrand: "costco") == .stale(lastGood: MartDay(year: 2026, month: 11, day: 21)))
    #expect(bundle.lookup(id: "costco-Daejeon") == .removed(lastListed: MartDay(year: 2026, month: 11, day: 20)))

    // Listed again, it is no longer removed.
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-23").outcome == .published)
    #expect(try removed(output).isEmpty)
    bundle = try MartBundle(contentsOf: output)
    #expect(bundle.lookup(id: "costco-Daejeon") == .listed(try #require(bundle.branch(id: "costco-Daejeon"))))
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.isEmpty)
  }
}
