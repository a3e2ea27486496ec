import Foundation
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartHolidayKit
import MartPipeline
import TestSupport
import Testing

/// Lotte Mart's ids through real runs over the recorded sites: a bundle made from the older
/// rows (`brnchCd` ids), then one from the 2026 rows (named ids), lists each old id as the
/// former id of exactly one branch, never as removed; `validate` accepts it and the kit finds a
/// favourite saved under the old id.
@Suite(.serialized) struct FormerIDRunTests {
  func run(_ recordings: URL, output: URL, asOf: String) async throws -> RunReport {
    try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: recordings, asOf: CalendarDate(iso: asOf)!, brands: ["lottemart"],
        geocodingRetryPolicy: .immediate)
    ).report
  }

  @Test func everyOldIDStaysOrIsTheFormerIDOfOneBranch() async throws {
    let output = Scratch.directory.appendingPathComponent("former-\(UUID().uuidString)")
    #expect(try await run(FixturePaths.olderWeb, output: output, asOf: "2026-11-20").outcome == .published)
    let before = try #require(try BundleStore(outputDirectory: output).latest()).branches.branches
    let oldIDs = Set(before.map(\.id))
    #expect(oldIDs.contains(BranchID(brand: "lottemart", storeID: "0100001")))

    let report = try await run(FixturePaths.web, output: output, asOf: "2026-11-21")
    #expect(report.outcome == .published)
    #expect(report.brands.first { $0.slug == "lottemart" }?.dataSource?.contains("shop_search_type.asp") == true)
    let file = try #require(try BundleStore(outputDirectory: output).latest()).branches
    let listed = Set(file.branches.map(\.id))
    var owners: [BranchID: [BranchID]] = [:]
    for branch in file.branches {
      for former in branch.formerIDs { owners[former, default: []].append(branch.id) }
    }
    for id in oldIDs {
      #expect(listed.contains(id) || owners[id]?.count == 1, "\(id)")
    }
    let jamsil = try #require(file.branches.first { $0.id.description == "lottemart-잠실점" })
    #expect(jamsil.formerIDs.map(\.description) == ["lottemart-0100001"])
    #expect(jamsil.banner == "제타플렉스")
    #expect(!file.removed.contains { owners[$0.id] != nil })

    let bundle = try MartBundle(contentsOf: output)
    #expect(bundle.branch(id: "lottemart-0100001")?.id == "lottemart-잠실점")
    #expect(bundle.branch(id: "lottemart-0100001")?.formerIDs == ["lottemart-0100001"])
    #expect(bundle.branch(id: "lottemart-잠실점")?.name == "잠실점")

    let problems = BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems
    #expect(problems.isEmpty, "\(problems)")

    // A third run keeps the former ids.
    #expect(try await run(FixturePaths.web, output: output, asOf: "2026-11-22").outcome == .published)
    let third = try #require(try BundleStore(outputDirectory: output).latest()).branches
    #expect(
      third.branches.first { $0.id.description == "lottemart-잠실점" }?.formerIDs.map(\.description) == [
        "lottemart-0100001"
      ])
  }
}
