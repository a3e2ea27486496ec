import Foundation
import MartBrands
import MartCore
import MartExport
import MartGeocoding
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// Stores that stopped trading, through a replayed run over the recorded sites: real libcurl
/// requests to the replay server on 127.0.0.1, real parsing, real bundles.
@Suite(.serialized) struct StoreStatusRunTests {
  let asOf = CalendarDate(iso: "2026-11-20")!

  /// A replayed run as of `asOf`, as ``PipelineRunTests`` makes one.
  func run(recordings: URL = FixturePaths.web, output: URL) async throws -> RunReport {
    try await PipelineRunTests().run(recordings: recordings, output: output)
  }

  /// The process's one run over `fixtures/web` (``ReplayedFixtures``, configured as ``run(recordings:output:)``
  /// configures one), read only: its output directory and report.
  func published() async throws -> (output: URL, report: RunReport) {
    let published = try await PipelineRunTests().published()
    return (published.output, published.report)
  }

  /// A private copy of that run's output, to rerun over.
  func publishedOutput() async throws -> URL {
    try await PipelineRunTests().publishedOutput()
  }

  func scratch(_ prefix: String) -> URL {
    Scratch.directory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  }

  /// Every day from `from` through `through`, as ISO strings.
  static func days(_ from: String, _ through: String) -> [String] {
    var result: [String] = []
    var day = CalendarDate(iso: from)!
    while day <= CalendarDate(iso: through)! {
      result.append(day.iso)
      day = day.adding(days: 1)
    }
    return result
  }

  @Test func shutStoresAreExportedWithTheirStatusAndEveryShutDayClosed() async throws {
    let (output, report) = try await published()
    #expect(report.outcome == .published)
    let bundle = try #require(try BundleStore(outputDirectory: output).latest())
    let byID = Dictionary(uniqueKeysWithValues: bundle.branches.branches.map { ($0.id.description, $0) })
    // A store shut with no published start is shut from the as-of date, 2026-11-20, through the
    // window's end, 2027-01-31: 11 + 31 + 31 = 73 days. The days before are what its closing
    // days say, or unknown: the source does not say since when it is shut.
    let fromAsOf = Self.days("2026-11-20", "2027-01-31")
    #expect(fromAsOf.count == 73)

    let closedForGood: [(String, String)] = [
      ("homeplus-655", "계룡점 영업종료로 단골매장을 변경해주세요."),
      ("homeplus-662", "감제점 영업종료로 단골매장을 변경해주세요."),
      ("homeplus-express-1220", "원주단계점 영업종료로 단골매장을 변경해주세요."),
      ("lottemart-도봉점", "영업종료"),
      ("gs-thefresh-11759", "20250831"),
    ]
    for (id, text) in closedForGood {
      let branch = try #require(byID[id], "\(id) is exported")
      #expect(branch.storeStatus == StoreStatus(state: .closed, text: text), "\(id)")
      #expect(branch.closing.dates.filter { $0.iso >= "2026-11-20" }.map(\.iso) == fromAsOf, "\(id)")
      #expect(branch.closing.status == .closures)
      #expect(
        branch.closing.unknownRanges.allSatisfy { $0.through.iso < "2026-11-20" }, "\(id): shut days are known")
    }
    for id in ["homeplus-641", "homeplus-express-1219"] {
      let branch = try #require(byID[id], "\(id) is exported")
      #expect(
        branch.storeStatus
          == StoreStatus(state: .temporarilyClosed, text: "마트 임시휴업. 몰영업시간 10:00~21:00"), "\(id)")
      #expect(branch.closing.dates.filter { $0.iso >= "2026-11-20" }.map(\.iso) == fromAsOf, "\(id)")
      // The mall's hours are not the mart's.
      #expect(branch.hours == nil)
    }

    // 마산점: 임시휴업 with a refit until 2026-12-31, shut from the as-of date; before it its 2nd
    // Sunday, 11-08 (11-01 is a Sunday); after it its 2nd and 4th Sundays: 2027-01-01 is a
    // Friday, so January's Sundays are 3, 10, 17, 24, 31.
    let masan = try #require(byID["lottemart-마산점"])
    #expect(
      masan.storeStatus
        == StoreStatus(
          state: .temporarilyClosed, text: "매월 둘째, 넷째주 일요일 (리뉴얼 공사로 12/31까지 휴점)",
          until: CalendarDate(iso: "2026-12-31")))
    #expect(
      masan.closing.dates.map(\.iso)
        == ["2026-11-08"] + Self.days("2026-11-20", "2026-12-31") + ["2027-01-10", "2027-01-24"])

    // 세종도담점 announces its shut-down for 2026-12-15: trading now with `closesOn`, its
    // published days (11/08, 11/22, 12/13; 12/27 falls after it), then closed from 12-15 through
    // the window's end.
    let sejong = try #require(byID["gs-thefresh-10972"])
    #expect(
      sejong.storeStatus == StoreStatus(state: .trading, text: "20261215", closesOn: CalendarDate(iso: "2026-12-15")))
    #expect(
      sejong.closing.dates.map(\.iso)
        == ["2026-11-08", "2026-11-22", "2026-12-13"] + Self.days("2026-12-15", "2027-01-31"))
    #expect(
      report.warnings.contains {
        $0.kind == .storeStatus && $0.branch?.description == "gs-thefresh-10972" && $0.message.contains("2026-12-15")
      })

    // Trading stores: Lotte Mart's state cell says so; Homeplus says nothing.
    #expect(byID["lottemart-제주점"]?.storeStatus == StoreStatus(state: .trading, text: "영업중"))
    #expect(byID["homeplus-595"]?.storeStatus == .trading)

    let notTrading = closedForGood.map(\.0) + ["homeplus-641", "homeplus-express-1219", "lottemart-마산점"]
    #expect(
      Set(bundle.branches.branches.filter { !$0.storeStatus.isTrading }.map(\.id.description)) == Set(notTrading))
    #expect(Set(report.branchesNotTrading.map(\.id.description)) == Set(notTrading))
    #expect(report.branchesNotTrading.map(\.id) == report.branchesNotTrading.map(\.id).sorted())
    #expect(
      report.branchesNotTrading.first { $0.id.description == "lottemart-마산점" }?.until
        == CalendarDate(iso: "2026-12-31"))
    #expect(report.branchesNotTrading.first { $0.id.description == "homeplus-655" }?.state == .closed)

    // branches.json spells the status out, nulls included.
    let data = try Data(contentsOf: bundle.directory.appendingPathComponent("branches.json"))
    let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let rows = try #require(file["branches"] as? [[String: Any]])
    func status(_ id: String) throws -> [String: Any] {
      let row = try #require(rows.first { $0["id"] as? String == id })
      return try #require(row["storeStatus"] as? [String: Any])
    }
    let dobong = try status("lottemart-도봉점")
    #expect(dobong["state"] as? String == "closed" && dobong["text"] as? String == "영업종료")
    #expect(dobong["until"] is NSNull)
    let changwon = try status("homeplus-595")
    #expect(changwon["state"] as? String == "trading")
    #expect(changwon["text"] is NSNull && changwon["until"] is NSNull)
    #expect(try status("lottemart-마산점")["until"] as? String == "2026-12-31")
  }

  @Test func clientFilesListShutStoresOnceAndSpanTheirShutDays() async throws {
    let output = try await published().output
    let bundle = try #require(try BundleStore(outputDirectory: output).latest())
    let closures = try BundleJSON.decode(
      ClosuresFile.self, from: try Data(contentsOf: bundle.directory.appendingPathComponent("closures.json")),
      brands: bundle.manifest.brands.map(\.slug))
    let shut = [
      "gs-thefresh-11759", "homeplus-641", "homeplus-655", "homeplus-662", "homeplus-express-1219",
      "homeplus-express-1220", "lottemart-도봉점", "lottemart-마산점",
    ]
    #expect(closures.shut.map(\.description) == shut)
    let byDay = closures.dates.flatMap { day, ids in ids.map { (day, $0.description) } }
    // Shut stores appear on no shut day; 마산점's 2nd Sunday before the as-of date (2026-11-08)
    // and its 2nd and 4th Sundays after its refit (2027-01-10 and 01-24) are listed as usual.
    #expect(
      byDay.filter { $0.1 == "lottemart-마산점" }.map(\.0).sorted() == ["2026-11-08", "2027-01-10", "2027-01-24"])
    #expect(!byDay.contains { shut.dropLast().contains($0.1) })
    #expect(closures.dates["2026-11-22"]?.contains { $0.description == "homeplus-595" } == true)
    // 세종도담점 closes for good on 2026-12-15: listed once on that day, never day by day after it.
    #expect(closures.closingForGood == ["2026-12-15": [BranchID(brand: .gsTheFresh, storeID: "10972")]])
    #expect(!byDay.contains { $0.1 == "gs-thefresh-10972" && $0.0 >= "2026-12-15" })
    #expect(byDay.contains { $0.1 == "gs-thefresh-10972" && $0.0 == "2026-12-13" })

    let index = try BundleJSON.decode(
      IndexFile.self, from: try Data(contentsOf: bundle.directory.appendingPathComponent("index.json")))
    let states = Dictionary(uniqueKeysWithValues: index.branches.map { ($0.id.description, $0.storeStatus.state) })
    #expect(states["homeplus-655"] == .closed)
    #expect(states["lottemart-마산점"] == .temporarilyClosed)
    #expect(states["homeplus-595"] == .trading)

    // 계룡점's calendar: one event from the as-of date to the window's end (DTEND exclusive: 2027-02-01).
    let calendar = try String(
      contentsOf: bundle.directory.appendingPathComponent("calendars/branches/homeplus-655.ics"), encoding: .utf8)
    #expect(calendar.components(separatedBy: "BEGIN:VEVENT").count - 1 == 1)
    #expect(calendar.contains("DTSTART;VALUE=DATE:20261120\r\nDTEND;VALUE=DATE:20270201\r\n"))
    #expect(calendar.contains("UID:homeplus-655-shut@mart-holiday"))
    // 마산점: the refit through 2026-12-31 as one event, then its two January Sundays.
    let masan = try String(
      contentsOf: bundle.directory.appendingPathComponent("calendars/branches/lottemart-마산점.ics"), encoding: .utf8)
    let starts = masan.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART") }
    #expect(
      starts == [
        "DTSTART;VALUE=DATE:20261108", "DTSTART;VALUE=DATE:20261120", "DTSTART;VALUE=DATE:20270110",
        "DTSTART;VALUE=DATE:20270124",
      ])
    #expect(masan.contains("DTEND;VALUE=DATE:20270101"))
    // 세종도담점: its closing days, then one all-day event on the day it closes for good.
    let sejong = try String(
      contentsOf: bundle.directory.appendingPathComponent("calendars/branches/gs-thefresh-10972.ics"), encoding: .utf8)
    let sejongStarts = sejong.components(separatedBy: "\r\n").filter { $0.hasPrefix("DTSTART") }
    #expect(
      sejongStarts == [
        "DTSTART;VALUE=DATE:20261108", "DTSTART;VALUE=DATE:20261122", "DTSTART;VALUE=DATE:20261213",
        "DTSTART;VALUE=DATE:20261215",
      ])
    #expect(sejong.contains("DTSTART;VALUE=DATE:20261215\r\nDTEND;VALUE=DATE:20261216\r\n"))
  }

  @Test func aCarriedOverStoreKeepsItsPublishedStatusForTheNewWindow() {
    let normalizer = BranchNormalizer(day: RunDay(asOf: asOf))
    var problems = RunProblems()
    let raw = RawBranch(
      id: BranchID(brand: .lottemart, storeID: "0100118"), name: "도봉점", statusText: "영업종료",
      sourceURL: "http://company.lottemart.com/")
    let (branch, _) = normalizer.normalize(raw, problems: &problems)
    // A month later the window is 2026-12-01 … 2027-02-28, and the store is shut from the new
    // as-of date, 2026-12-20.
    let later = CalendarDate(iso: "2026-12-20")!
    let refreshed = BranchNormalizer(day: RunDay(asOf: later)).refresh(branch)
    #expect(refreshed.storeStatus == StoreStatus(state: .closed, text: "영업종료"))
    #expect(refreshed.closing.dates.map(\.iso) == Self.days("2026-12-20", "2027-02-28"))

    // A trading store's carry-over invents no status and no shut days.
    let trading = RawBranch(
      id: BranchID(brand: .lottemart, storeID: "0100393"), name: "제주점", closingText: "매월 둘째주 금요일, 넷째주 토요일",
      sourceURL: "http://company.lottemart.com/")
    let (tradingBranch, _) = normalizer.normalize(trading, problems: &problems)
    let tradingRefreshed = BranchNormalizer(day: RunDay(asOf: later)).refresh(tradingBranch)
    #expect(tradingRefreshed.storeStatus == .trading)
    // The 2nd Friday and the 4th Saturday: December 2026 11, 26; January 2027 8, 23; February
    // 2027 12, 27.
    #expect(
      tradingRefreshed.closing.dates.map(\.iso)
        == ["2026-12-11", "2026-12-26", "2027-01-08", "2027-01-23", "2027-02-12", "2027-02-27"])
  }

  @Test func aStoreMissingFromItsSourceIsRemovedNotMarkedClosed() async throws {
    let output = try await publishedOutput()
    // The same sites, with 도봉점's row gone from the Lotte Mart page.
    let recordings = scratch("recordings")
    try FileManager.default.copyItem(at: FixturePaths.web, to: recordings)
    // It is gone from both of the site's lists.
    for name in ["shop_search_type-01", "shop_search-all"] {
      let page = recordings.appendingPathComponent("company.lottemart.com/\(name).body.html")
      let html = try String(contentsOf: page, encoding: .utf8)
      let rowStart = try #require(
        html.range(of: "<tr>", options: .backwards, range: html.startIndex..<html.range(of: "<td>도봉점</td>")!.lowerBound))
      let rowEnd = try #require(html.range(of: "</tr>", range: rowStart.upperBound..<html.endIndex))
      try String(html[..<rowStart.lowerBound] + html[rowEnd.upperBound...]).write(
        to: page, atomically: true, encoding: .utf8)
    }

    let report = try await run(recordings: recordings, output: output)
    #expect(report.outcome == .published)
    let branches = try #require(try BundleStore(outputDirectory: output).latest()).branches.branches
    #expect(!branches.contains { $0.id.description == "lottemart-도봉점" })
    #expect(!report.branchesNotTrading.contains { $0.id.description == "lottemart-도봉점" })
    #expect(branches.contains { $0.id.description == "lottemart-마산점" })
  }
}
