import Foundation
import MartBrands
import MartCore
import MartFetch
import TestSupport
import Testing

/// The recorded E-mart holiday lists (`fixtures/web/store.emart.com/holidayList-YYYY-MM-<area>`),
/// one answer per area and month, and the all-area answer the older `GET` form gives.
enum EmartHolidayFixtures {
  /// The area letters, in the order the source requests them.
  static let areas = ["A", "C", "I", "F", "Q", "O", "N", "D", "K", "J", "G", "B", "M", "L", "E", "H", "P"]
  /// The recorded months, as in the exchange names.
  static let months = ["2026-11", "2026-12", "2027-01"]
  /// The `AREA` label of the rows recorded for each letter (fixtures/README.md).
  static let labels = [
    "A": "서울", "C": "인천", "I": "경기", "F": "대전", "Q": "세종", "O": "충북", "N": "충남", "D": "대구", "K": "경북",
    "J": "경남", "G": "울산", "B": "부산", "M": "전북", "L": "전남", "E": "광주", "H": "강원", "P": "제주",
  ]

  /// The body recorded for `area` in `month` (`YYYY-MM`).
  static func body(month: String, area: String) throws -> Data {
    try FixturePaths.data("web/store.emart.com/holidayList-\(month)-\(area).body.json")
  }

  /// The `dateList` rows recorded for `area` in `month`.
  static func rows(month: String, area: String) throws -> [[String: String]] {
    let object = try JSONSerialization.jsonObject(with: try body(month: month, area: area)) as? [String: Any]
    return try #require(object?["dateList"] as? [[String: String]], "\(month) \(area)")
  }

  /// `month`'s rows of every area in one `dateList`, as the older all-area `GET` form answers.
  static func allAreasBody(month: String) throws -> Data {
    var rows: [[String: String]] = []
    for area in areas {
      rows += try Self.rows(month: month, area: area)
    }
    return try JSONSerialization.data(withJSONObject: ["dateList": rows])
  }
}

/// Answers a request with `answer` when it gives a response, and from the recorded fixtures of
/// `store.emart.com` otherwise; keeps every request it saw.
actor ScriptedFetcher: HTTPFetching {
  private let fixtures: FixtureFetcher
  private let answer: @Sendable (HTTPRequest) -> HTTPResponse?
  private(set) var requests: [HTTPRequest] = []

  init(_ answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse?) throws {
    fixtures = try FixtureFetcher(hosts: ["store.emart.com"])
    self.answer = answer
  }

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    requests.append(request)
    if let response = answer(request) { return response }
    return try await fixtures.fetch(request)
  }

  /// `METHOD url body` of each request, in order.
  var described: [String] {
    requests.map { "\($0.method.rawValue) \($0.url) \($0.body.map { String(decoding: $0, as: UTF8.self) } ?? "")" }
  }
}

extension HTTPRequest {
  /// The decoded form fields of the body, in order.
  var formFields: [String] {
    FormEncoding.decode(String(decoding: body ?? Data(), as: UTF8.self)).map { "\($0.name)=\($0.value)" }
  }

  /// The value of the form field `name`, if sent.
  func formField(_ name: String) -> String? {
    FormEncoding.decode(String(decoding: body ?? Data(), as: UTF8.self)).first { $0.name == name }?.value
  }

  /// Whether this is the 2025 per-area holiday-list form.
  var isPerAreaHolidayList: Bool { method == .post && url.hasSuffix("/branch/holidayList.do") }
}

/// A response to `request` with `status` and a body of `contentType`.
func reply(
  to request: HTTPRequest, status: Int = 200, _ body: Data, contentType: String = "application/json;charset=UTF-8"
) -> HTTPResponse {
  HTTPResponse(
    requestURL: request.url, finalURL: request.url, status: status,
    headers: [HTTPHeader("Content-Type", contentType)], body: body)
}

@Suite("EmartSource holiday-list forms")
struct EmartHolidayListTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
  static let holidayURL = "https://store.emart.com/branch/holidayList.do"

  static func collect(_ fetcher: some HTTPFetching, brands: Set<BrandSlug>) async throws(SourceError)
    -> (branches: [RawBranch], warnings: [String])
  {
    let session = SourceSession(for: EmartSource.self, fetcher: fetcher, asOf: asOf, brands: brands)
    let branches = try await EmartSource().collect(session)
    return (branches, session.warnings.map(\.description))
  }

  /// The all-area bodies of the three recorded months, keyed by the old form's query.
  static func oldFormBodies() throws -> [String: Data] {
    var bodies: [String: Data] = [:]
    for month in EmartHolidayFixtures.months {
      let parts = month.split(separator: "-")
      bodies["year=\(parts[0])&month=\(parts[1])"] = try EmartHolidayFixtures.allAreasBody(month: month)
    }
    return bodies
  }

  // MARK: Recorded fixtures

  @Test func everyAreaHasARecordingEachMonthHoldingOnlyItsStores() throws {
    forEachCase(EmartHolidayFixtures.months, named: { $0 }) { month, comment in
      var storeIDs: [String] = []
      for area in EmartHolidayFixtures.areas {
        let rows = try EmartHolidayFixtures.rows(month: month, area: area)
        #expect(rows.allSatisfy { $0["AREA"] == EmartHolidayFixtures.labels[area] }, "\(comment.rawValue) \(area)")
        storeIDs += rows.compactMap { $0["JIJUM_ID"] }
      }
      // Every store of the feed, in exactly one area: 70 rows, the orphan 1035 and SSG 1700 included.
      #expect(storeIDs.count == 70, comment)
      #expect(Set(storeIDs).count == 70, comment)
      #expect(storeIDs.contains("1035") && storeIDs.contains("1700") && storeIDs.contains("4733"), comment)
    }
  }

  @Test func anAreaWithoutStoresAnswersAnEmptyList() throws {
    // 세종 (Q), 경북 (K) and 전남 (L) have no store in the fixtures.
    for area in ["Q", "K", "L"] {
      let body = try EmartHolidayFixtures.body(month: "2026-11", area: area)
      #expect(String(decoding: body, as: UTF8.self) == #"{"dateList":[]}"#)
      #expect(try EmartSource.parseHolidayListStores(body, url: Self.holidayURL).isEmpty)
    }
  }

  // MARK: The per-area form

  @Test func sendsThePerAreaFormWithTheExactFields() async throws {
    let fetcher = try ScriptedFetcher { _ in nil }
    let (branches, warnings) = try await Self.collect(fetcher, brands: [.everyday])
    let requests = await fetcher.requests.filter { $0.url.hasSuffix("/branch/holidayList.do") }
    #expect(requests.count == 51)
    #expect(requests.allSatisfy { $0.isPerAreaHolidayList })
    #expect(requests.allSatisfy { $0.headers.value(named: "Content-Type") == "application/x-www-form-urlencoded" })
    let expected = [("2026", "11"), ("2026", "12"), ("2027", "01")].flatMap { year, month in
      EmartHolidayFixtures.areas.map { ["areaCd=\($0)", "year=\(year)", "month=\(month)", "keyword="] }
    }
    // Sent side by side: every form once, in no fixed order.
    let sorted = { (forms: [[String]]) in forms.sorted { $0.joined(separator: "&") < $1.joined(separator: "&") } }
    #expect(sorted(requests.map(\.formFields)) == sorted(expected))
    #expect(branches.count == 17)
    #expect(warnings.isEmpty)
  }

  @Test func mergesTheRowsOfEveryArea() async throws {
    // 1000 is listed in 서울 and, by mistake, again in 경기 (with one more date); 1059 in 경남;
    // the 에브리데이 store 4733 in 서울 only; every other area answers an empty list.
    let fetcher = try ScriptedFetcher { request in
      guard request.isPerAreaHolidayList, let year = request.formField("year"),
        let month = request.formField("month"), let area = request.formField("areaCd")
      else { return nil }
      func row(_ id: String, _ name: String, _ days: [String]) -> String {
        let slots = (0..<3).map { $0 < days.count ? "\(year)\(month)\(days[$0])" : "\(year)\(month)" }
        return #"{"JIJUM_ID":"\#(id)","NAME":"\#(name)","HOLIDAY_DAY1_YMD":"\#(slots[0])","#
          + #""HOLIDAY_DAY2_YMD":"\#(slots[1])","HOLIDAY_DAY3_YMD":"\#(slots[2])"}"#
      }
      let rows: [String] =
        switch area {
        case "A": [row("1000", "창동점", ["08", "22"]), row("4733", "에브리데이 가락동점", ["09"])]
        case "I": [row("1000", "창동점", ["08", "22", "25"])]
        case "J": [row("1059", "창원점", ["10"])]
        default: []
        }
      return reply(to: request, Data(#"{"dateList":[\#(rows.joined(separator: ","))]}"#.utf8))
    }
    let (branches, warnings) = try await Self.collect(fetcher, brands: [.emart, .everyday])
    #expect(warnings.isEmpty)
    func dates(_ id: String) -> [String]? { branches.first { $0.id.description == id }?.closingDates.map(\.iso) }
    #expect(
      dates("emart-1000") == [
        "2026-11-08", "2026-11-22", "2026-11-25", "2026-12-08", "2026-12-22", "2026-12-25", "2027-01-08", "2027-01-22",
        "2027-01-25",
      ])
    #expect(dates("emart-1059") == ["2026-11-10", "2026-12-10", "2027-01-10"])
    #expect(dates("everyday-4733") == ["2026-11-09", "2026-12-09", "2027-01-09"])
    #expect(branches.filter { $0.id.brand == .everyday }.count == 1)
    // A master row without any holiday row has no date.
    #expect(dates("emart-1008") == [])
  }

  // MARK: Falling back to the older form

  @Test func fallsBackToTheAllAreaGetFormWithAWarning() async throws {
    let bodies = try Self.oldFormBodies()
    let refusals: [(name: String, status: Int, body: String, contentType: String)] = [
      ("404", 404, "Not Found", "text/html"),
      ("405", 405, "Method Not Allowed", "text/html"),
      ("JSON without dateList", 200, #"{"result":"fail","message":"invalid parameter"}"#, "application/json"),
      ("an HTML page", 200, "<html><body>점포 찾기</body></html>", "text/html;charset=UTF-8"),
      ("empty lists in every area", 200, #"{"dateList":[]}"#, "application/json;charset=UTF-8"),
    ]
    await forEachCase(refusals, named: \.name) { refusal, comment in
      let fetcher = try ScriptedFetcher { request in
        if request.isPerAreaHolidayList {
          return reply(to: request, status: refusal.status, Data(refusal.body.utf8), contentType: refusal.contentType)
        }
        guard request.method == .get, request.url.hasPrefix(Self.holidayURL + "?") else { return nil }
        return bodies[String(request.url.dropFirst(Self.holidayURL.count + 1))].map { reply(to: request, $0) }
      }
      let (branches, warnings) = try await Self.collect(fetcher, brands: [.emart, .everyday])
      let posts = refusal.name == "empty lists in every area" ? EmartHolidayFixtures.areas : ["A"]
      // The store pages of the 에브리데이 stores the all-format list does not place come last, in
      // feed order.
      let described = await fetcher.described
      let pages = described.filter { $0.contains("/branch/view.do") }
      #expect(
        Set(pages) == Set(["4744", "4764", "4781"].map { "GET https://store.emart.com/branch/view.do?id=\($0) " }))
      // The per-area POSTs are sent side by side, so only their set is fixed; the phases around
      // them come in order.
      let requests = described.filter { !$0.contains("/branch/view.do") }
      #expect(
        requests.first
          == "POST https://store.emart.com/branch/searchList.do "
          + "srchMode=jijum&year=2026&month=11&jMode=true&strConfirmYN=N&searchType=EM&keyword=",
        comment)
      let areaPosts = requests.dropFirst().prefix(posts.count)
      #expect(
        areaPosts.sorted() == posts.map { "POST \(Self.holidayURL) areaCd=\($0)&year=2026&month=11&keyword=" }.sorted(),
        comment)
      #expect(
        Array(requests.dropFirst(1 + posts.count))
          == ["year=2026&month=11", "year=2026&month=12", "year=2027&month=01"].map { "GET \(Self.holidayURL)?\($0) " }
          + [
            "POST https://store.emart.com/branch/searchList.do "
              + "srchMode=jijum&year=2026&month=11&areaId=&jMode=true&strConfirmYN=N"
          ],
        comment)
      #expect(warnings.count == 1, comment)
      #expect(warnings.first?.contains("GET ?year=YYYY&month=MM") == true, comment)
      #expect(warnings.first?.contains("per-area POST form") == true, comment)
      // The same dates as from the per-area form.
      let changwon = try #require(branches.first { $0.id.description == "emart-1059" }, comment)
      #expect(
        changwon.closingDates.map(\.iso)
          == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"], comment)
      #expect(branches.filter { $0.id.brand == .emart }.count == 16, comment)
      #expect(branches.filter { $0.id.brand == .everyday }.count == 17, comment)
    }
  }

  @Test func otherFailuresOfThePerAreaFormAreErrors() async throws {
    // Only the first request can show that the form is not served; a server error is not that.
    let failures: [(name: String, area: String, month: String, status: Int)] = [
      ("first request, 500", "A", "11", 500),
      ("a later area, 404", "C", "11", 404),
      ("a later month, 404", "A", "12", 404),
    ]
    await forEachCase(failures, named: \.name) { failure, comment in
      let fetcher = try ScriptedFetcher { request in
        guard request.isPerAreaHolidayList, request.formField("areaCd") == failure.area,
          request.formField("month") == failure.month
        else { return nil }
        return reply(to: request, status: failure.status, Data("busy".utf8), contentType: "text/plain")
      }
      let error = await #expect(throws: SourceError.self, comment) {
        try await Self.collect(fetcher, brands: [.everyday])
      }
      guard case .fetch(let fetchError) = error?.reason else {
        Issue.record("\(comment.rawValue): expected a fetch error, got \(String(describing: error))")
        return
      }
      #expect(fetchError.code == .httpStatus(failure.status), comment)
      #expect(error?.url == Self.holidayURL, comment)
      let requests = await fetcher.requests
      #expect(requests.allSatisfy { $0.isPerAreaHolidayList }, comment)
      // The areas of a month are asked for together: the failing one is among them. The next
      // two months are asked for only once the first has been read.
      #expect(
        requests.contains { $0.formField("areaCd") == failure.area && $0.formField("month") == failure.month },
        comment)
      if failure.month == "11" {
        #expect(requests.allSatisfy { $0.formField("month") == "11" }, comment)
      }
    }
  }

  @Test func aLaterMonthWithoutAnyStoreIsAnError() async throws {
    // The next month is required (2025–26 clients read the current and the next).
    let fetcher = try ScriptedFetcher { request in
      guard request.isPerAreaHolidayList, request.formField("month") == "12" else { return nil }
      return reply(to: request, Data(#"{"dateList":[]}"#.utf8))
    }
    let error = await #expect(throws: SourceError.self) { try await Self.collect(fetcher, brands: [.everyday]) }
    guard case .unexpectedContent(let detail) = error?.reason else {
      Issue.record("expected unexpectedContent, got \(String(describing: error))")
      return
    }
    #expect(detail.contains("2026-12"))

    // The month after is read when served: without any store, its days are unknown.
    let later = try ScriptedFetcher { request in
      guard request.isPerAreaHolidayList, request.formField("month") == "01" else { return nil }
      return reply(to: request, Data(#"{"dateList":[]}"#.utf8))
    }
    let (branches, warnings) = try await Self.collect(later, brands: [.everyday])
    #expect(!branches.isEmpty && branches.allSatisfy { $0.closingDates.allSatisfy { $0.year == 2026 } })
    #expect(warnings.contains { $0.contains("2027-01 not read") }, "\(warnings)")
    #expect(await fetcher.requests.count == 51)
  }

  @Test func whenTheOlderFormFailsTooItsErrorIsThrown() async throws {
    // Neither form is served: the error is the older form's, and the warning says it was tried.
    let fetcher = try ScriptedFetcher { request in
      request.url.contains("/branch/holidayList.do") ? reply(to: request, status: 404, Data()) : nil
    }
    let session = SourceSession(for: EmartSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.everyday])
    let error = await #expect(throws: SourceError.self) { try await EmartSource().collect(session) }
    #expect(error?.url == Self.holidayURL + "?year=2026&month=11")
    #expect(session.warnings.count == 1)
    #expect(await fetcher.requests.count == 2)
  }
}
