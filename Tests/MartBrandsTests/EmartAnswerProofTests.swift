import Foundation
@testable import MartBrands
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Synchronization
import Testing

/// E-mart's holiday lists checked by what they contain, through a real libcurl client from a
/// loopback server: an area answered with another region's list, a row of another month, the
/// month after next missing, and the all-format store list failing.
@Suite(.serialized)
struct EmartAnswerProofTests {
  static let holidayPath = "/branch/holidayList.do"

  /// The E-mart recordings, with `rewrite` changing a request before it is looked up (another
  /// area's form) and `answer` replacing what a request is answered with.
  static func server(
    rewrite: @escaping @Sendable (ServerRequest) -> ServerRequest = { $0 },
    answer: @escaping @Sendable (ServerRequest, ServerResponse) -> ServerResponse = { $1 }
  ) throws -> LocalHTTPServer {
    let index = RecordingIndex(try ReplayArchive.load(from: FixturePaths.web).restricted(toHosts: ["store.emart.com"]))
    return try LocalHTTPServer { request in
      guard let exchange = index.match(rewrite(request), host: "store.emart.com") else {
        return .text("no recording\n", status: 404)
      }
      return answer(
        request,
        ServerResponse(
          status: exchange.status, headers: exchange.headers.filter { $0.name.lowercased() != "content-encoding" },
          body: exchange.body))
    }
  }

  static func form(_ request: ServerRequest) -> String { String(decoding: request.body, as: UTF8.self) }

  static func read(_ server: LocalHTTPServer) async -> (branches: Result<[RawBranch], SourceError>, warnings: [String]) {
    await PagedAnswerProofTests.collect(EmartSource(), brands: Set(EmartSource.brands), from: server)
  }

  static func clean() async throws -> [RawBranch] {
    let server = try Self.server()
    defer { server.stop() }
    return try await read(server).branches.get()
  }

  @Test func anAreaAnsweredWithAnotherRegionsListCostsThatAreasStoresOnly() async throws {
    let cleanBranches = try await Self.clean()
    // 광주 (E) answered with 전북's (M) list, every time it is asked.
    let server = try Self.server(rewrite: { request in
      guard request.path == Self.holidayPath, Self.form(request).hasPrefix("areaCd=E&") else { return request }
      var other = request
      other.body = Data(Self.form(request).replacingOccurrences(of: "areaCd=E&", with: "areaCd=M&").utf8)
      return other
    })
    defer { server.stop() }
    let (result, warnings) = await Self.read(server)
    let branches = try result.get()
    // 광주점 (1054), 노브랜드 광주상무점 (4544), 에브리데이 광주첨단점 (4764) are left out; every
    // other branch is exactly the clean read's.
    let gwangju: Set<String> = ["1054", "4544", "4764"]
    #expect(Set(cleanBranches.map(\.id.storeID)).isSuperset(of: gwangju))
    #expect(branches == cleanBranches.filter { !gwangju.contains($0.id.storeID) })
    #expect(warnings.contains { $0.contains("area E was not believed") }, "\(warnings)")
  }

  @Test func aRowOfAnotherMonthCostsThatRowNotTheSource() async throws {
    let cleanBranches = try await Self.clean()
    // 광주점's November row dated in December.
    let server = try Self.server(answer: { request, response in
      guard request.path == Self.holidayPath, Self.form(request) == "areaCd=E&year=2026&month=11&keyword=" else {
        return response
      }
      let text = String(decoding: response.body, as: UTF8.self).replacingOccurrences(
        of: #""JIJUM_ID":"1054","NAME":"광주점","AREA":"광주","TEL":"062-360-1234","HOLIDAY_DAY1_YMD":"20261108""#,
        with: #""JIJUM_ID":"1054","NAME":"광주점","AREA":"광주","TEL":"062-360-1234","HOLIDAY_DAY1_YMD":"20261208""#)
      return ServerResponse(status: response.status, headers: response.headers, body: Data(text.utf8))
    })
    defer { server.stop() }
    let (result, warnings) = await Self.read(server)
    let branches = try result.get()
    #expect(warnings.contains { $0.contains("store 1054 has the day 20261208") && $0.contains("left out") }, "\(warnings)")
    // The other stores of the list keep their days; 광주점 has no November days from it.
    #expect(branches.filter { $0.id.storeID != "1054" } == cleanBranches.filter { $0.id.storeID != "1054" })
    let gwangju = try #require(branches.first { $0.id.storeID == "1054" })
    #expect(!gwangju.closingDates.contains { $0.month == 11 })
    #expect(gwangju.closingDates.contains(CalendarDate(year: 2026, month: 12, day: 13)!))
  }

  @Test func theMonthAfterNextMissingIsNotASourceFailure() async throws {
    let server = try Self.server(answer: { request, response in
      guard request.path == Self.holidayPath, Self.form(request).contains("year=2027&month=01") else { return response }
      return .text("busy\n", status: 503)
    })
    defer { server.stop() }
    let (result, warnings) = await Self.read(server)
    let branches = try result.get()
    #expect(!branches.isEmpty)
    #expect(branches.allSatisfy { $0.closingDates.allSatisfy { $0.year == 2026 } })
    #expect(warnings.contains { $0.contains("2027-01 not read") }, "\(warnings)")
  }

  @Test func everydayStoresAreNeverPlacedAtALabel() async throws {
    // The all-format list fails: the store pages place 에브리데이 stores.
    let server = try Self.server(answer: { request, response in
      guard request.path == "/branch/searchList.do", Self.form(request).contains("areaId=") else { return response }
      return .text("error\n", status: 500)
    })
    defer { server.stop() }
    let (result, _) = await Self.read(server)
    let everyday = try result.get().filter { $0.id.brand == .everyday }
    #expect(!everyday.isEmpty)
    for branch in everyday {
      #expect(branch.address != nil && branch.address != "도로명" && branch.lotAddress != "지번", "\(branch)")
    }
  }

  /// The all-format list answered first with another request's answer (a holiday list, as a
  /// leftover on a kept-alive connection would be): it is not a store list, so it is asked again
  /// on a fresh connection, and the 에브리데이 stores are placed from the list, not their pages.
  @Test func anAllFormatListAnsweredWithAnotherAnswerIsAskedAgainOnce() async throws {
    let holidayList = try Data(
      contentsOf: FixturePaths.web.appendingPathComponent("store.emart.com/holidayList-2026-11-A.body.json"))
    let allFormatAsks = Mutex(0)
    let pageAsks = Mutex(0)
    let server = try Self.server(answer: { request, response in
      if request.path.hasPrefix("/branch/view.do") { pageAsks.withLock { $0 += 1 } }
      guard request.path == "/branch/searchList.do", Self.form(request).contains("areaId=") else { return response }
      let ask = allFormatAsks.withLock { count in
        count += 1
        return count
      }
      return ask == 1 ? ServerResponse(status: 200, headers: response.headers, body: holidayList) : response
    })
    defer { server.stop() }
    let (result, warnings) = await Self.read(server)
    let everyday = try result.get().filter { $0.id.brand == .everyday }
    #expect(allFormatAsks.withLock { $0 } == 2)
    #expect(warnings.contains { $0.contains("not a store list") }, "\(warnings)")
    #expect(!warnings.contains { $0.contains("not placed from the all-format store list") }, "\(warnings)")
    // Every 에브리데이 store of the holiday lists is placed from the list: the recordings hold
    // pages for three of them only, and the run publishes every one.
    #expect(everyday.count > 3)
    #expect(everyday.allSatisfy { $0.address != nil })
  }

  @Test func aLabelIsNeverAnAddressAndAClassOnTheLabelReadsItsValue() throws {
    let url = "https://store.emart.com/branch/view.do?id=4733"
    let labelled = """
      <html><body><dl><dt class="road-name">도로명</dt><dd class="data">서울특별시 송파구 동남로 1</dd>
      <dt class="lot-number">지번</dt><dd class="data">서울특별시 송파구 가락동 1</dd>
      <dt>영업시간</dt><dd>10:00 ~ 23:00</dd></dl></body></html>
      """
    let place = try EmartSource.parseStorePlace(Data(labelled.utf8), url: url)
    #expect(place.address == "서울특별시 송파구 동남로 1" && place.lotAddress == "서울특별시 송파구 가락동 1")
    let bare = """
      <html><body><span class="road-name">도로명</span><span class="lot-number">지번</span></body></html>
      """
    let none = try EmartSource.parseStorePlace(Data(bare.utf8), url: url)
    #expect(none.address == nil && none.lotAddress == nil)
  }

  // MARK: Area checks

  /// A holiday list answer of `rows`, read as the checks read it.
  static func answer(_ rows: [(area: String, id: String)]) -> EmartSource.HolidayListReading {
    let body = rows.map { #"{"JIJUM_ID":"\#($0.id)","AREA":"\#($0.area)","HOLIDAY_DAY1_YMD":"20261108"}"# }
    return EmartSource.HolidayListReading(
      HTTPResponse(
        requestURL: "https://store.emart.com/branch/holidayList.do", finalURL: "", status: 200, headers: [],
        body: Data(#"{"dateList":[\#(body.joined(separator: ","))]}"#.utf8)))
  }

  @Test(arguments: ["O", "N"]) func aPairOfLettersStandsForARegion(letter: String) {
    #expect(EmartSource.holidayListMismatch(Self.answer([("충북", "1"), ("충남", "2")]), area: letter) == nil)
    #expect(EmartSource.holidayListMismatch(Self.answer([("경북", "1")]), area: letter) != nil)
  }

  @Test func everyLetterIsChecked() {
    for letter in ["K", "J"] {
      #expect(EmartSource.holidayListMismatch(Self.answer([("경북", "1"), ("경남", "2")]), area: letter) == nil)
      #expect(EmartSource.holidayListMismatch(Self.answer([("전북", "1")]), area: letter) != nil)
    }
    for letter in ["L", "M"] {
      #expect(EmartSource.holidayListMismatch(Self.answer([("전북", "1"), ("전남", "2")]), area: letter) == nil)
      #expect(EmartSource.holidayListMismatch(Self.answer([("충남", "1")]), area: letter) != nil)
    }
    #expect(EmartSource.holidayListMismatch(Self.answer([("세종", "1")]), area: "Q") == nil)
    #expect(EmartSource.holidayListMismatch(Self.answer([("대전", "1")]), area: "Q") != nil)
  }

  @Test func gwangjuRejectsJeonnamsListAndAcceptsTheMergedProvince() {
    // 광주 and 전남 are one province since 2026-07-01, two areas of the list.
    #expect(EmartSource.holidayListMismatch(Self.answer([("전남", "1")]), area: "E") != nil)
    #expect(EmartSource.holidayListMismatch(Self.answer([("전라남도", "1")]), area: "E") != nil)
    #expect(EmartSource.holidayListMismatch(Self.answer([("광주", "1")]), area: "E") == nil)
    #expect(EmartSource.holidayListMismatch(Self.answer([("전남광주통합특별시", "1")]), area: "E") == nil)
  }

  @Test func theAllAreaFormIsOneAreasListWhenEveryRowIsInOneProvince() {
    #expect(EmartSource.allAreasMismatch(Self.answer([("서울", "1"), ("서울", "2")])) != nil)
    #expect(EmartSource.allAreasMismatch(Self.answer([("서울", "1"), ("부산", "2")])) == nil)
  }

  @Test func dowaCentreAcceptsAGwangjuStoreWrittenWithTheMergedProvince() {
    #expect(LotteDowaSource.region("전남광주통합특별시") == nil)
    #expect(LotteDowaSource.region("광주광역시") == "광주")
    #expect(LotteDowaSource.region("전라남도") == "전남")
  }
}
