import Foundation
import MartCore
import Testing

@testable import MartReport

/// The page states the run's outcome as the run does, and a fresh brand has no error.
@Suite struct ReportOutcomeTests {
  static func report(errors: String) throws -> RunReportFile {
    let json = """
      {"asOf": "2026-11-20", "window": {"from": "2026-11-01", "through": "2027-01-31"},
       "outcome": "published",
       "published": {"schemaVersion": 1, "version": "2026-11-20-abc", "bundle": "bundles/2026-11-20-abc",
                     "asOf": "2026-11-20", "manifestSHA256": "00"},
       "brands": [{"slug": "emart", "name": "이마트", "branchCount": 3, "freshness": "fresh",
                   "lastFetchedAsOf": "2026-11-20", "status": "fresh", "dataSource": "emart store master",
                   "designated": true}],
       "warnings": [], "errors": \(errors)}
      """
    return try RunReportFile.decode(Data(json.utf8), path: "report.json")
  }

  @Test func aRunThatCouldNotWriteCurrentSaysSoAtTheTop() throws {
    let report = try Self.report(
      errors: #"[{"kind": "current", "message": "current/ could not follow latest.json: no space; the next run finishes it"}]"#)
    let page = ReportPage.render(report: report, bundle: nil, previous: nil, diff: nil)
    #expect(page.contains("Outcome: <strong>published, unfinished</strong>"))
    #expect(page.contains("<p class=\"outcome bad\""))
    let banner = try #require(page.range(of: "id=\"unfinished\""))
    let main = try #require(page.range(of: "<main"))
    #expect(banner.lowerBound < main.lowerBound)
    #expect(page.contains("<strong>current/</strong>: current/ could not follow latest.json: no space"))
    #expect(page.contains("<dt>Errors</dt><dd>1</dd>"))
  }

  @Test func aRunThatPublishedEverythingSaysPublished() throws {
    let page = ReportPage.render(report: try Self.report(errors: "[]"), bundle: nil, previous: nil, diff: nil)
    #expect(page.contains("Outcome: <strong>published</strong>"))
    #expect(!page.contains("id=\"unfinished\""))
    // A fresh brand's error cell is empty; where its data came from is said beside its name.
    #expect(page.contains("<td class=\"error\"></td>"))
    #expect(page.contains("<small class=\"data-source\">data from emart store master</small></th>"))
  }
}
