import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// Designations as lasting knowledge over two replayed runs of one output: real libcurl requests
/// to the replay server on 127.0.0.1, the state's SQLite database, the bundles as written,
/// validated and compared.
@Suite(.serialized) struct DesignationHistoryRunTests {
  let firstDay = CalendarDate(iso: "2026-11-20")!
  let nextDay = CalendarDate(iso: "2026-11-21")!

  func run(_ recordings: URL, output: URL, asOf: CalendarDate) async throws -> RunReport {
    try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: recordings, asOf: asOf, geocodingRetryPolicy: .immediate)
    ).report
  }

  /// A copy of the recordings whose every store.emart.com exchange answers 503: E-mart's four
  /// brands go stale.
  func recordingsWithEmartDown() throws -> URL {
    let copy = Scratch.directory.appendingPathComponent("web-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    let folder = copy.appendingPathComponent("store.emart.com")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".exchange.json") }
    #expect(names.count > 10)
    for name in names {
      let url = folder.appendingPathComponent(name)
      var exchange = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
      var response = try #require(exchange["response"] as? [String: Any])
      response["status"] = 503
      let body = try #require(response["bodyFile"] as? String)
      try Data("Service Unavailable".utf8).write(to: folder.appendingPathComponent(body))
      exchange["response"] = response
      try JSONSerialization.data(withJSONObject: exchange).write(to: url)
    }
    return copy
  }

  @Test func aStaleBrandTheNextDayLosesNoDesignationAndNoOtherStoreItsExpectedDays() async throws {
    // The first day's run: a copy of the process's one run over the fixtures as of that day.
    #expect(ReplayedFixtures.asOf == firstDay)
    let first = try await ReplayedFixtures.shared.published().report
    let output = try await ReplayedFixtures.shared.copy("history")
    #expect(first.outcome == .published)
    let before = try #require(try BundleStore(outputDirectory: output).latest())
    let districtsBefore = try #require(before.districtsFile())
    #expect(!districtsBefore.districts.isEmpty)
    // The recordings follow 2026's designations (fixtures/README.md): no district contradicts the
    // researched table, and the districts whose stores confirm a pattern carry the table's days.
    #expect(first.warnings.filter { $0.kind == .designationContradiction }.map(\.message) == [])
    let wednesdays = "2nd wednesday, 4th wednesday"
    let confirmed = [
      ("강원특별자치도 원주시 (ssm)", wednesdays), ("경기도 고양시 (ssm)", wednesdays),
      ("경기도 남양주시 (ssm)", wednesdays), ("부산광역시 해운대구 (ssm)", "2nd monday, 4th monday"),
    ]
    for (title, days) in confirmed {
      #expect(districtsBefore.districts.first { $0.title == title }?.patternDescription == days, "\(title)")
    }
    #expect(!districtsBefore.districts.contains { $0.patternDescription == "2nd sunday, 4th sunday" && $0.title.contains("하남시") })
    // A run with no history confirms what it infers on its own day; the rest is cited from the
    // researched table, confirmed by no run.
    let learned = districtsBefore.districts.filter { $0.basis == .learned }
    #expect(!learned.isEmpty)
    #expect(learned.allSatisfy { $0.firstConfirmed == firstDay && $0.lastConfirmed == firstDay })
    let cited = districtsBefore.districts.filter { $0.basis == .cited }
    #expect(!cited.isEmpty)
    #expect(cited.allSatisfy { $0.firstConfirmed == nil && $0.lastConfirmed == nil && $0.citation != nil })
    #expect(
      FileManager.default.fileExists(
        atPath: RunConfiguration(outputDirectory: output).stateDirectory.appendingPathComponent("designations.sqlite").path))

    let second = try await run(try recordingsWithEmartDown(), output: output, asOf: nextDay)
    #expect(second.outcome == .publishedWithStaleBrands)
    let emartBrands: Set<BrandSlug> = ["emart", "traders", "nobrand", "everyday"]
    #expect(Set(second.brands.filter { $0.status == .stale }.map(\.slug)) == emartBrands)
    #expect(second.warnings.filter { $0.kind == .designationChange }.isEmpty)
    let after = try #require(try BundleStore(outputDirectory: output).latest())
    #expect(after.manifest.asOf == nextDay)
    let districtsAfter = try #require(after.districtsFile())

    // Every designation of the first day is still there with the same days; those no fresh
    // store confirms now say they were last confirmed the day before.
    let now = Dictionary(uniqueKeysWithValues: districtsAfter.districts.map { ($0.key, $0) })
    for entry in districtsBefore.districts {
      let kept = try #require(now[entry.key], "\(entry.title) was lost")
      #expect(kept.pattern == entry.pattern, "\(entry.title)")
      #expect(kept.firstConfirmed == entry.firstConfirmed && kept.basis == entry.basis, "\(entry.title)")
    }
    #expect(districtsAfter.districts.contains { $0.lastConfirmed == firstDay })
    #expect(BundleDiff(old: before, new: after).districts.isEmpty)

    // Every store of another brand keeps its expected days.
    let expectedAfter = Dictionary(uniqueKeysWithValues: after.branches.branches.map { ($0.id, $0.closing.expected) })
    let withExpected = before.branches.branches.filter { $0.closing.expected != nil && !emartBrands.contains($0.brand) }
    #expect(!withExpected.isEmpty)
    for branch in withExpected {
      #expect(expectedAfter[branch.id] == branch.closing.expected, "\(branch.id)")
    }
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.map(\.description) == [])
  }
}
