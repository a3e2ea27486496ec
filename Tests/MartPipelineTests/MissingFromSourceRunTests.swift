import Foundation
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import TestSupport
import Testing

/// Stores that vanish from their source's answer, through replayed runs over the recorded
/// sites (real libcurl requests to the replay server on 127.0.0.1): kept with their last data,
/// marked missing, for two runs, then removed; told apart from removed stores in the diff; and
/// a new store of a gone store's name takes its id only at the same place.
@Suite(.serialized) struct MissingFromSourceRunTests {
  static let feedFolder = "www.costco.co.kr"

  func run(
    _ recordings: URL, output: URL, asOf: String, brand: BrandSlug = "costco", acceptShrink: Set<BrandSlug> = []
  ) async throws -> RunReport {
    try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: recordings, asOf: CalendarDate(iso: asOf)!, brands: [brand],
        geocodingRetryPolicy: .immediate, acceptShrink: acceptShrink)
    ).report
  }

  func scratch(_ prefix: String) -> URL {
    Scratch.directory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  }

  /// A copy of the recordings whose Costco feed `edit` changed, stating `totalResults` stores
  /// when given (the recording states 20).
  func recordings(totalResults: Int? = nil, _ edit: (inout [[String: Any]]) throws -> Void) throws -> URL {
    let copy = scratch("web")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    let folder = copy.appendingPathComponent(Self.feedFolder)
    let feed = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".body.json") })
    var records = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(feed))) as? [String: Any])
    var rows = try #require(records["stores"] as? [[String: Any]])
    try edit(&rows)
    records["stores"] = rows
    if let totalResults {
      var pagination = try #require(records["pagination"] as? [String: Any])
      pagination["totalResults"] = totalResults
      records["pagination"] = pagination
    }
    try JSONSerialization.data(withJSONObject: records).write(to: folder.appendingPathComponent(feed))
    return copy
  }

  func latest(_ output: URL) throws -> PublishedBundle {
    try #require(try BundleStore(outputDirectory: output).latest())
  }

  func branch(_ id: String, in bundle: PublishedBundle) -> Branch? {
    bundle.branches.branches.first { $0.id.description == id }
  }

  @Test func aVanishedStoreIsKeptMarkedForTwoRunsThenRemoved() async throws {
    let output = scratch("missing")
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-20").outcome == .published)
    let clean = try latest(output)
    let cleanCount = clean.branches.branches.filter { $0.brand == "costco" }.count
    let gone = ["costco-Daejeon", "costco-Ulsan"]
    let cleanBranches = try gone.map { try #require(branch($0, in: clean)) }

    // The primary lists fewer stores (2 of 20 fewer: well within the half a shrink check allows).
    let fewer = try recordings { rows in
      rows.removeAll { ["Daejeon", "Ulsan"].contains($0["name"] as? String) }
    }
    let first = try await run(fewer, output: output, asOf: "2026-11-21")
    #expect(first.outcome == .published && first.exitCode == 0)
    let warning = try #require(first.warnings.first { $0.kind == .missingFromSource && $0.brand == "costco" })
    #expect(warning.message.contains("costco-Daejeon") && warning.message.contains("costco-Ulsan"), "\(warning)")
    #expect(
      first.branchesMissingFromSource.map(\.id.description) == gone
        && first.branchesMissingFromSource.allSatisfy { $0.since.iso == "2026-11-21" && $0.runs == 1 })
    let afterFirst = try latest(output)
    #expect(afterFirst.branches.branches.filter { $0.brand == "costco" }.count == cleanCount)
    #expect(afterFirst.branches.removed.isEmpty)
    for clean in cleanBranches {
      var kept = try #require(branch(clean.id.description, in: afterFirst))
      #expect(kept.missingFromSource == MissingFromSource(since: CalendarDate(iso: "2026-11-21")!, runs: 1))
      // Everything else is the clean run's: the same window, so the same days.
      kept.missingFromSource = nil
      #expect(kept == clean)
    }
    // The diff tells them apart from removed stores, in every form.
    let diff = BundleDiff(old: clean, new: afterFirst)
    #expect(diff.removed.isEmpty)
    #expect(diff.countsByKind[.missingFromSource] == 2)
    #expect(diff.text().contains("missing-from-source"), "\(diff.text())")
    #expect(try diff.markdown().contains("missing-from-source"))
    let page = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(page.contains("missing-from-source"))
    let reportJSON = try String(contentsOf: output.appendingPathComponent("report.json"), encoding: .utf8)
    #expect(reportJSON.contains("\"branchesMissingFromSource\""))
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.isEmpty)

    // The second run still keeps them, since the first day they were missing.
    let second = try await run(fewer, output: output, asOf: "2026-11-22")
    #expect(second.outcome == .published)
    let afterSecond = try latest(output)
    #expect(
      branch("costco-Daejeon", in: afterSecond)?.missingFromSource
        == MissingFromSource(since: CalendarDate(iso: "2026-11-21")!, runs: 2))
    #expect(BundleDiff(old: afterFirst, new: afterSecond).countsByKind[.missingFromSource] == nil)

    // The third removes them, with a warning, into `removed`.
    let third = try await run(fewer, output: output, asOf: "2026-11-23")
    #expect(third.outcome == .published)
    #expect(third.warnings.contains { $0.kind == .missingFromSource && $0.message.contains("removed") })
    #expect(third.branchesMissingFromSource.isEmpty)
    let afterThird = try latest(output)
    #expect(gone.allSatisfy { id in branch(id, in: afterThird) == nil })
    #expect(Set(afterThird.branches.removed.map(\.id.description)) == Set(gone))
    #expect(Set(BundleDiff(old: afterSecond, new: afterThird).removed.map(\.id.description)) == Set(gone))
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.isEmpty)
  }

  @Test func aStoreListedAgainWithinTheGracePeriodIsExactlyTheCleanRuns() async throws {
    let output = scratch("back")
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-20").outcome == .published)
    let fewer = try recordings { rows in rows.removeAll { $0["name"] as? String == "Daejeon" } }
    #expect(try await run(fewer, output: output, asOf: "2026-11-20").outcome == .published)
    let missing = try latest(output)
    #expect(branch("costco-Daejeon", in: missing)?.missingFromSource != nil)
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-20").outcome == .published)
    let back = try latest(output)
    #expect(branch("costco-Daejeon", in: back)?.missingFromSource == nil)
    let diff = BundleDiff(old: missing, new: back)
    #expect(diff.countsByKind[.missingFromSource] == 1)
    #expect(diff.text().contains("listed by the source again"), "\(diff.text())")

    // A clean run into a fresh output makes the very same branches.
    let cleanOutput = scratch("clean")
    #expect(try await run(FixturePaths.web, output: cleanOutput, asOf: "2026-11-20").outcome == .published)
    #expect(try latest(cleanOutput).branches.branches == back.branches.branches)
  }

  @Test func theOperatorsWordThatTheChainClosedThemRemovesThemAtOnce() async throws {
    let output = scratch("accepted")
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-20").outcome == .published)
    let fewer = try recordings { rows in rows.removeAll { $0["name"] as? String == "Daejeon" } }
    let report = try await run(fewer, output: output, asOf: "2026-11-21", acceptShrink: ["costco"])
    #expect(report.outcome == .published)
    let bundle = try latest(output)
    #expect(branch("costco-Daejeon", in: bundle) == nil)
    #expect(bundle.branches.removed.map(\.id.description) == ["costco-Daejeon"])
  }

  /// An answer that states how many stores it holds (the OCC API's `pagination.totalResults`)
  /// and lists that many is complete: a store missing from it is removed at once. One that
  /// states more than it lists keeps the grace period.
  @Test func aStoreMissingFromAnAnswerThatStatesItsCountIsRemovedAtOnce() async throws {
    let output = scratch("complete")
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-20").outcome == .published)
    let clean = try latest(output)

    // 20 rows, 20 stated (one of them an announced warehouse without a code); 대전점 goes and the
    // answer states 19.
    let complete = try recordings(totalResults: 19) { rows in rows.removeAll { $0["name"] as? String == "Daejeon" } }
    let report = try await run(complete, output: output, asOf: "2026-11-21")
    #expect(report.outcome == .published && report.exitCode == 0)
    #expect(report.brands.first { $0.slug == "costco" }?.status == .fresh)
    let bundle = try latest(output)
    #expect(branch("costco-Daejeon", in: bundle) == nil)
    #expect(bundle.branches.removed.map(\.id.description) == ["costco-Daejeon"])
    #expect(report.branchesMissingFromSource.isEmpty)
    let warning = try #require(report.warnings.first { $0.kind == .missingFromSource && $0.brand == "costco" })
    #expect(warning.message.contains("removed at once") && warning.message.contains("costco-Daejeon"), "\(warning.message)")
    let diff = BundleDiff(old: clean, new: bundle)
    #expect(diff.removed.map(\.id.description) == ["costco-Daejeon"])
    #expect(diff.countsByKind[.missingFromSource] == nil)
    // Every other warehouse is exactly the clean run's.
    #expect(
      bundle.branches.branches.filter { $0.brand == "costco" }
        == clean.branches.branches.filter { $0.brand == "costco" && $0.id.description != "costco-Daejeon" })
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.isEmpty)

    // The count not reached (19 rows, 20 stated: a page lost a row): the grace period stands.
    let short = scratch("short")
    #expect(try await run(FixturePaths.web, output: short, asOf: "2026-11-20").outcome == .published)
    let fewer = try recordings(totalResults: 20) { rows in rows.removeAll { $0["name"] as? String == "Daejeon" } }
    let kept = try await run(fewer, output: short, asOf: "2026-11-21")
    #expect(kept.branchesMissingFromSource.map(\.id.description) == ["costco-Daejeon"])
    #expect(try latest(short).branches.removed.isEmpty)
  }

  /// GS THE FRESH's list states its count on every page (`totalNumberOfResults`): a store gone
  /// from a list that states one fewer and holds them all is removed at once.
  /// A copy of the recordings in which GS THE FRESH's list states `total` stores on every page
  /// (`page3Total` on page 3, when given: the count drifting while the list is read) and
  /// 창원상남점 is gone from page 6; and the id of the store gone.
  func gsRecordings(total: Int, page3Total: Int? = nil) throws -> (URL, String) {
    let copy = scratch("gs-web")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    let folder = copy.appendingPathComponent("gsthefresh.gsretail.com")
    var goneID = ""
    for number in 1...6 {
      let file = folder.appendingPathComponent("find-storelist-page-\(number).body.json")
      var page = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
      var pagination = try #require(page["pagination"] as? [String: Any])
      pagination["totalNumberOfResults"] = number == 3 ? page3Total ?? total : total
      page["pagination"] = pagination
      if number == 6 {
        // 창원상남점 goes (김해내동점, the last, is shut: it would go at once anyway).
        var results = try #require(page["results"] as? [[String: Any]])
        goneID = "gs-thefresh-\(try #require(results.removeFirst()["shopCode"] as? String))"
        page["results"] = results
      }
      try JSONSerialization.data(withJSONObject: page).write(to: file)
    }
    return (copy, goneID)
  }

  /// GS THE FRESH's list states its count on every page (`totalNumberOfResults`): a store gone
  /// from a list that states one fewer and holds them all is removed at once.
  @Test func aStoreMissingFromGSListThatStatesItsCountIsRemovedAtOnce() async throws {
    let output = scratch("gs-complete")
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-20", brand: "gs-thefresh").outcome == .published)
    let (copy, goneID) = try gsRecordings(total: 17)
    let report = try await run(copy, output: output, asOf: "2026-11-21", brand: "gs-thefresh")
    #expect(report.outcome == .published && report.exitCode == 0)
    let bundle = try latest(output)
    #expect(branch(goneID, in: bundle) == nil)
    #expect(bundle.branches.removed.map(\.id.description) == [goneID])
    #expect(report.branchesMissingFromSource.isEmpty)
    #expect(report.warnings.contains { $0.kind == .missingFromSource && $0.message.contains("removed at once") })
  }

  /// Counts that drift while the ~170-page list is read are a warning, not a failure: the brand
  /// is fresh, and a list whose count moved proves nothing complete, so the grace stands.
  @Test func gsCountsDriftingWhileTheListIsReadWarnAndKeepTheGrace() async throws {
    let output = scratch("gs-drift")
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-20", brand: "gs-thefresh").outcome == .published)
    let (copy, goneID) = try gsRecordings(total: 17, page3Total: 18)
    let report = try await run(copy, output: output, asOf: "2026-11-21", brand: "gs-thefresh")
    #expect(report.outcome == .published && report.exitCode == 0)
    #expect(report.brands.first { $0.slug == "gs-thefresh" }?.status == .fresh)
    #expect(report.warnings.contains { $0.message.contains("the list changed while it was read") })
    #expect(report.branchesMissingFromSource.map(\.id.description) == [goneID])
    #expect(try latest(output).branches.removed.isEmpty)
  }

  /// A new store of a gone store's name: the same name in another city is another store.
  @Test func aFormerIDNeedsTheNameAndThePlace() async throws {
    let output = scratch("former")
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-20").outcome == .published)
    // 대전점 (Daejeon, 대전 중구) goes; a new warehouse named 대전점 opens in Seoul (송파구).
    let elsewhere = try recordings { rows in
      let index = try #require(rows.firstIndex { $0["name"] as? String == "Daejeon" })
      var row = rows[index]
      row["name"] = "DaejeonNew"
      row["address"] = [
        "country": ["isocode": "KR", "name": "Korea, Republic of"], "line1": "서울특별시 송파구 올림픽로 300",
        "line2": "", "phone": "+82-1899-9900", "postalCode": "", "town": "",
      ]
      row["geoPoint"] = ["latitude": 37.5126, "longitude": 127.1025]
      rows[index] = row
    }
    let report = try await run(elsewhere, output: output, asOf: "2026-11-21", acceptShrink: ["costco"])
    #expect(report.outcome == .published)
    let bundle = try latest(output)
    let seoul = try #require(branch("costco-DaejeonNew", in: bundle))
    #expect(seoul.formerIDs.isEmpty, "\(seoul.formerIDs)")
    #expect(bundle.branches.removed.map(\.id.description) == ["costco-Daejeon"])
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.isEmpty)

    // The same name at the same place is the same store under a new id.
    let sameOutput = scratch("former-same")
    #expect(try await run(FixturePaths.web, output: sameOutput, asOf: "2026-11-20").outcome == .published)
    let renamed = try recordings { rows in
      let index = try #require(rows.firstIndex { $0["name"] as? String == "Daejeon" })
      rows[index]["name"] = "DaejeonNew"
    }
    #expect(try await run(renamed, output: sameOutput, asOf: "2026-11-21").outcome == .published)
    let same = try latest(sameOutput)
    #expect(branch("costco-DaejeonNew", in: same)?.formerIDs.map(\.description) == ["costco-Daejeon"])
    #expect(branch("costco-Daejeon", in: same) == nil)
    #expect(same.branches.removed.isEmpty)
  }
}
