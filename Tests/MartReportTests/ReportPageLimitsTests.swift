import Foundation
import MartCore
import MartExport
import Testing

@testable import MartReport

/// A page for a person stays readable at any scale: long day lists and runs of one kind of
/// warning are cut, and what is left out is counted and pointed to.
@Suite struct ReportPageLimitsTests {
  let asOf = CalendarDate(iso: "2026-11-20")!

  /// A bundle of `count` E-mart branches all closed on 2026-11-22, a Sunday.
  func bundle(_ count: Int) throws -> PublishedBundle {
    let window = DateWindow.threeMonths(startingAt: asOf)
    let branches = (0..<count).map { index in
      Branch(
        id: BranchID(brand: "emart", storeID: String(1000 + index)), name: "\(index)호점",
        address: BranchAddress(published: "경상남도 창원시 의창구 원이대로 430"), phone: nil, phonePublished: nil,
        openingHours: nil, coordinate: nil,
        closing: BranchClosing(schedule: .parse("20261122", asOf: asOf), window: window),
        sourceURL: "https://store.emart.com/branch/searchList.do")
    }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("report-limits-\(UUID().uuidString)")
    let result = try BundleStore(outputDirectory: output).publish(
      branches: branches,
      brands: [
        BrandSummary(slug: "emart", name: "이마트", branchCount: count, freshness: .fresh, lastFetchedAsOf: asOf)
      ],
      day: RunDay(asOf: asOf, window: window))
    return try #require(result.bundle)
  }

  func report(warnings: [(kind: String, count: Int)]) throws -> RunReportFile {
    var list: [[String: Any]] = []
    for (kind, count) in warnings {
      for index in 0..<count {
        list.append(["kind": kind, "brand": "emart", "branch": "emart-\(1000 + index)", "message": "\(kind) \(index)"])
      }
    }
    let json: [String: Any] = [
      "asOf": "2026-11-20", "window": ["from": "2026-11-01", "through": "2027-01-31"], "outcome": "published",
      "brands": [], "warnings": list, "errors": [["kind": "publish", "message": "an error"]],
      "branchesWithoutCoordinates": [], "branchesWithUnknownClosingDays": [], "branchesNotTrading": [],
    ]
    let data = try JSONSerialization.data(withJSONObject: json)
    return try JSONDecoder().decode(RunReportFile.self, from: data)
  }

  func count(_ needle: String, in html: String) -> Int { html.components(separatedBy: needle).count - 1 }

  @Test func aDayListsAtMostItsLimitAndCountsTheRest() throws {
    let limit = ReportPage.dayListLimit
    let html = ReportPage.render(report: nil, bundle: try bundle(limit + 37), previous: nil, diff: nil)
    #expect(count("data-closed-id=", in: html) == limit)
    #expect(html.contains("and 37 more (<code>closures.json</code> lists every one)"))
    // The day still says how many are closed.
    #expect(html.contains("data-date=\"2026-11-22\" data-closed=\"\(limit + 37)\""))
  }

  @Test func aDayAtItsLimitListsEveryBranch() throws {
    let limit = ReportPage.dayListLimit
    let html = ReportPage.render(report: nil, bundle: try bundle(limit), previous: nil, diff: nil)
    #expect(count("data-closed-id=", in: html) == limit)
    #expect(!html.contains("more (<code>closures.json</code>"))
  }

  @Test func warningsOfOneKindAreCutAtTheLimitAndErrorsNever() throws {
    let limit = ReportPage.warningsPerKindLimit
    let html = ReportPage.render(
      report: try report(warnings: [("address", limit + 5), ("location", 3)]), bundle: try bundle(1), previous: nil,
      diff: nil)
    #expect(count("<tr class=\"warning\"", in: html) == limit + 3)
    #expect(count("<tr class=\"error\"", in: html) == 1)
    #expect(html.contains("and 5 more address warnings (<code>report.json</code> lists every one)"))
    #expect(!html.contains("more location warnings"))
    // The summary line counts every warning.
    #expect(html.contains("1 errors, \(limit + 8) warnings (address \(limit + 5), location 3)"))
  }
}
