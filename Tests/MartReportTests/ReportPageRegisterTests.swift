import Foundation
import MartCore
import Testing

@testable import MartReport

/// The register's cross-checks on the page: shown when `report.json` has `register`, absent
/// otherwise.
@Suite struct ReportPageRegisterTests {
  func report(register: [String: Any]?) throws -> RunReportFile {
    var json: [String: Any] = [
      "asOf": "2026-11-20", "window": ["from": "2026-11-01", "through": "2027-01-31"], "outcome": "published",
      "brands": [], "warnings": [], "errors": [], "branchesWithoutCoordinates": [],
      "branchesWithUnknownClosingDays": [], "branchesNotTrading": [],
    ]
    if let register { json["register"] = register }
    return try JSONDecoder().decode(RunReportFile.self, from: JSONSerialization.data(withJSONObject: json))
  }

  @Test func theCrossChecksAreListed() throws {
    let store: [String: Any] = [
      "id": "2008301010007500002", "name": "주식회사 이마트 청계천점", "kind": "hypermarket", "brand": "emart",
      "sido": "서울특별시", "sigungu": "중구", "roadAddress": "서울특별시 중구 청계천로 400", "permitDate": "2008-06-26",
    ]
    let register: [String: Any] = [
      "origin": "kept", "openStores": 20, "notYetOpenStores": 1, "registerIDs": ["emart-1000": "2009310010807500001"],
      "shutInRegister": [
        [
          "branch": "homeplus-603", "registerID": "2001305010807500003", "state": "closed", "since": "2026-10-31",
          "until": NSNull(),
        ]
      ],
      "unlisted": [store], "newPermits": [],
    ]
    let html = ReportPage.render(report: try report(register: register), bundle: nil, previous: nil, diff: nil)
    #expect(html.contains("<section id=\"register\">"))
    #expect(html.contains("<a href=\"#register\">"))
    #expect(html.contains("<code>homeplus-603</code> closed (since 2026-10-31) · 관리번호 2001305010807500003"))
    #expect(html.contains("주식회사 이마트 청계천점 (emart, hypermarket) · 서울특별시 중구 · 관리번호 2008301010007500002"))
    #expect(html.contains("the last good register"))
    #expect(html.contains("1 published branches matched"))
  }

  @Test func noRegisterNoSection() throws {
    let html = ReportPage.render(report: try report(register: nil), bundle: nil, previous: nil, diff: nil)
    #expect(!html.contains("id=\"register\""))
    #expect(!html.contains("#register"))
  }
}
