import Foundation
import MartBench
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

@testable import MartBrands

/// GS THE FRESH's pages, 롯데슈퍼's store and holiday lists and 메가마트's store array give the
/// same stores, dates and errors read by ``JSONRowReader`` as read by `JSONDecoder` alone.
@Suite struct JSONFeedReadingTests {
  /// What a parse gave: its values, or the error's wording.
  private enum Reading: Equatable {
    case values([AnyHashable])
    case error(String)
  }

  /// One JSON body and the parser of its source.
  private struct Feed: CustomTestStringConvertible {
    var name: String
    var body: Data
    var parse: @Sendable (Data) throws(SourceError) -> [AnyHashable]
    var testDescription: String { name }

    /// Read through the source's parser, with the row reader or without it.
    func reading(rowReader: Bool) -> Reading {
      JSONRowReader.$declinesEverything.withValue(!rowReader) {
        do throws(SourceError) {
          return .values(try parse(body))
        } catch {
          return .error(error.description)
        }
      }
    }

    /// Whether the row reader accepts the body (so the comparison is not of `JSONDecoder` with itself).
    var rowReaderAccepts: Bool {
      if JSONRowReader.rows(in: body) != nil { return true }
      guard let members = JSONRowReader.members(in: body, keys: ["results", "pagination", "storeInfo", "holidayList"])
      else { return false }
      return !members.isEmpty
    }
  }

  private static let url = "https://example.invalid/feed"

  private static func gsPage(_ name: String, _ body: Data) -> Feed {
    Feed(name: name, body: body) { data throws(SourceError) in
      let page = try GSTheFreshSource.parsePage(data, url: url)
      return [page.stores, page.pagination]
    }
  }

  private static func lotteStores(_ name: String, _ body: Data) -> Feed {
    Feed(name: name, body: body) { data throws(SourceError) in
      let list = try LotteSuperSource.parseStoreList(data, url: url)
      return [list.stores, list.withoutCode]
    }
  }

  private static func lotteHolidays(_ name: String, _ body: Data) -> Feed {
    Feed(name: name, body: body) { data throws(SourceError) in
      let list = try LotteSuperSource.parseHolidayList(data, url: url)
      return [list.dates, list.unreadable]
    }
  }

  private static func megamart(_ name: String, _ body: Data) -> Feed {
    Feed(name: name, body: body) { data throws(SourceError) in [try MegamartSource.parseStores(data, url: url)] }
  }

  /// The feed of `body`, by the URL it was served for.
  private static func feed(url: String, name: String, body: Data) -> Feed? {
    if url.contains("gsthefresh.gsretail.com") { return gsPage(name, body) }
    if url.contains("/lotteplus/holiday/") { return lotteHolidays(name, body) }
    if url.contains("/lotteplus/offlinestore/") { return lotteStores(name, body) }
    if url.contains("home.megamart.com") { return megamart(name, body) }
    return nil
  }

  private static func recordedFeeds() throws -> [Feed] {
    var feeds: [Feed] = []
    for host in ["gsthefresh.gsretail.com", "www.lotteon.com", "home.megamart.com"] {
      let folder = FixturePaths.web.appendingPathComponent(host)
      for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      where file.hasSuffix(".exchange.json") {
        let exchange = try #require(
          try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(file)))
            as? [String: [String: Any]], "\(file)")
        let url = try #require(exchange["request"]?["url"] as? String, "\(file)")
        let bodyFile = try #require(exchange["response"]?["bodyFile"] as? String, "\(file)")
        let body = try Data(contentsOf: folder.appendingPathComponent(bodyFile))
        feeds.append(try #require(feed(url: url, name: "\(host)/\(file)", body: body), "\(file)"))
      }
    }
    return feeds
  }

  private static func generatedFeeds(count: Int, seed: UInt64) -> [Feed] {
    let mix = BrandMix(counts: [.gsTheFresh: count, .lotteSuper: count, .megamart: count])
    var random = SeededRandom(seed: seed)
    var feeds: [Feed] = []
    let generators: [any SourceSampleGenerator.Type] = [
      GSTheFreshSampleGenerator.self, LotteSuperSampleGenerator.self, MegamartSampleGenerator.self,
    ]
    for generatorType in generators {
      let generator = generatorType.init(mix: mix, asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
      for (name, exchange) in generator.exchanges(&random) {
        if let feed = feed(url: exchange.url, name: "\(count)/\(seed)/\(name)", body: exchange.body) {
          feeds.append(feed)
        }
      }
    }
    return feeds
  }

  private static func expectSameReadings(_ feeds: [Feed], readerAccepts: Bool? = nil) {
    forEachCase(feeds) { feed, comment in
      let fast = feed.reading(rowReader: true)
      #expect(fast == feed.reading(rowReader: false), comment)
      if let readerAccepts { #expect(feed.rowReaderAccepts == readerAccepts, comment) }
    }
  }

  @Test func recordedFeeds() throws {
    let feeds = try Self.recordedFeeds()
    #expect(feeds.count == 6 + 10 + 1)
    Self.expectSameReadings(feeds, readerAccepts: true)
  }

  @Test(arguments: [(1, 1), (7, 42), (40, 7), (301, 20_261_120)])
  func generatedFeeds(count: Int, seed: UInt64) {
    let feeds = Self.generatedFeeds(count: count, seed: seed)
    for name in ["find-storelist", "selectStoreSearchList", "boardApi-query"] + (count > 1 ? ["selectHolidayList"] : [])
    {
      #expect(feeds.contains { $0.name.contains(name) }, "\(name)")
    }
    Self.expectSameReadings(feeds, readerAccepts: true)
  }

  /// A GS THE FRESH store with `fields` replaced or added (a `nil` value removes the key).
  private static func gsBody(store fields: [(String, String?)] = [], pagination: String? = nil) -> Data {
    var store: [(String, String)] = [
      ("phone", #""054)278-1448~9""#), ("shutDownDate", #""""#), ("timeSTH", #""10""#), ("timeSTM", #""00""#),
      ("timeEDH", #""23""#), ("timeEDM", #""00""#), ("longs", #""36.02490301""#), ("lat", #""129.36009447""#),
      ("closedDate1", #""11월 08일""#), ("closedDate2", #""11월 22일""#), ("closedDate3", #""""#),
      ("closedDate4", #""""#), ("shopCode", #""12021""#), ("shopType", #"{"code":"DIRECT","type":"SMShopTypeEnum"}"#),
      ("address", #""경북 포항시 북구 중흥로 244(죽도동 607-1)""#), ("shopName", #""포항죽도점""#), ("faxNumber", "null"),
    ]
    for (key, value) in fields {
      store.removeAll { $0.0 == key }
      if let value { store.append((key, value)) }
    }
    let object = "{" + store.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    let paging =
      pagination ?? #"{"sort":null,"pageSize":3,"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1}"#
    return Data(#"{"results":[\#(object)],"pagination":\#(paging),"sorts":null}"#.utf8)
  }

  @Test func hostileGSTheFreshPages() {
    let bodies: [(String, Data)] = [
      ("escapes", Self.gsBody(store: [("shopName", #""포항\"죽도\"점 \\ \/ \t""#)])),
      ("unicode escapes", Self.gsBody(store: [("shopName", #""\ud3ec\ud56d\uC8FD\uB3C4\uC810""#)])),
      ("surrogate pair", Self.gsBody(store: [("shopName", #""\uD83D\uDED2 포항점""#)])),
      ("lone surrogate", Self.gsBody(store: [("shopName", #""\uD83D 포항점""#)])),
      (
        "numbers as numbers", Self.gsBody(store: [("shopCode", "12021"), ("lat", "129.36009447"), ("longs", "36.025")])
      ),
      (
        "counters as strings",
        Self.gsBody(pagination: #"{"pageSize":"3","currentPage":"0","totalNumberOfResults":"1","numberOfPages":"1"}"#)
      ),
      (
        "counter not whole",
        Self.gsBody(pagination: #"{"pageSize":3.5,"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1}"#)
      ),
      (
        "counter null",
        Self.gsBody(pagination: #"{"pageSize":null,"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1}"#)
      ),
      ("counter missing", Self.gsBody(pagination: #"{"pageSize":3,"currentPage":0,"totalNumberOfResults":1}"#)),
      (
        "counter nested",
        Self.gsBody(pagination: #"{"pageSize":{"n":3},"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1}"#)
      ),
      ("pagination null", Self.gsBody(pagination: "null")),
      ("pagination an array", Self.gsBody(pagination: "[]")),
      (
        "pagination with extra keys",
        Self.gsBody(
          pagination:
            #"{"sort":{"by":["name",{"asc":true}]},"pageSize":3,"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1,"x":[]}"#
        )
      ),
      ("nulls in the store", Self.gsBody(store: [("phone", "null"), ("address", "null"), ("closedDate1", "null")])),
      ("no shopCode", Self.gsBody(store: [("shopCode", nil)])),
      ("blank shopName", Self.gsBody(store: [("shopName", #"" ""#)])),
      ("extra keys and nesting", Self.gsBody(store: [("extra", #"[[{"a":[null,true,false,-0.5e+2]}],{}]"#)])),
      ("duplicate key", Self.gsBody(store: [("phone", #""1""#), ("phone", #""2""#)])),
      (
        "no results",
        Data(#"{"pagination":{"pageSize":3,"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1}}"#.utf8)
      ),
      (
        "results null",
        Data(
          #"{"results":null,"pagination":{"pageSize":3,"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1}}"#
            .utf8)
      ),
      (
        "results an object",
        Data(
          #"{"results":{},"pagination":{"pageSize":3,"currentPage":0,"totalNumberOfResults":1,"numberOfPages":1}}"#.utf8
        )
      ),
      ("top-level array", Data("[]".utf8)),
      ("HTML", Data("<html><body>점검 중</body></html>".utf8)),
      ("empty", Data()),
    ]
    Self.expectSameReadings(bodies.map { Self.gsPage($0.0, $0.1) })
  }

  @Test func hostileLotteSuperLists() {
    let stores: [(String, String)] = [
      ("escapes", #"{"storeInfo":[{"sstrCd":"5010","strNm":"\"잠실\"\\점\/","strAddr":"서울\t송파구"}]}"#),
      ("unicode escapes", #"{"storeInfo":[{"sstrCd":"5010","strNm":"\uC7A0\uc2e4\uC810 \uD83D\uDED2"}]}"#),
      ("lone surrogate", #"{"storeInfo":[{"sstrCd":"5010","strNm":"\uDED2"}]}"#),
      ("numbers", #"{"storeInfo":[{"sstrCd":5010,"strNm":"잠실점","trNo":123,"lat":37.5,"lng":"127.1"}]}"#),
      ("nulls", #"{"storeInfo":[{"sstrCd":"5010","strNm":null,"trNo":null,"strAddr":null,"rprtTelNo":null}]}"#),
      ("no sstrCd", #"{"storeInfo":[{"strNm":"(가칭)송도점"},{}]}"#),
      ("extra keys", #"{"resultCode":"0000","storeInfo":[{"sstrCd":"1","x":{"y":[1,{"z":null}]}}],"paging":{"n":1}}"#),
      ("storeInfo null", #"{"storeInfo":null}"#), ("storeInfo missing", #"{"other":[]}"#),
      ("storeInfo an object", #"{"storeInfo":{"sstrCd":"1"}}"#), ("rows not objects", #"{"storeInfo":[1,2]}"#),
      ("duplicate storeInfo", #"{"storeInfo":[],"storeInfo":[{"sstrCd":"1"}]}"#),
      ("truncated", #"{"storeInfo":[{"sstrCd":"1","strNm":"잠"#), ("not JSON", "Service Unavailable"),
    ]
    let holidays: [(String, String)] = [
      ("escaped digits", #"{"holidayList":[{"holidayDate":"\u0032\u0030\u0032\u0036\u0031\u0031\u0030\u0038"}]}"#),
      ("a number", #"{"holidayList":[{"holidayDate":20261122},{"holidayDate":2.0261122e7}]}"#),
      ("nulls", #"{"holidayList":[{"holidayDate":null},{}]}"#), ("list null", #"{"holidayList":null}"#),
      ("list missing", "{}"), ("list a string", #"{"holidayList":"20261108"}"#),
      ("nested", #"{"holidayList":[{"holidayDate":["20261108"]},{"holidayDate":"20261108","x":{"y":1}}]}"#),
      ("truncated", #"{"holidayList":[{"holidayDate":"2026"#), ("empty", ""),
    ]
    Self.expectSameReadings(
      stores.map { Self.lotteStores($0.0, Data($0.1.utf8)) }
        + holidays.map { Self.lotteHolidays($0.0, Data($0.1.utf8)) })
  }

  @Test func hostileMegamartArrays() {
    let bodies: [(String, String)] = [
      ("escapes", #"[{"storeCode":"1001","storeName":"\"동래\"점\\\/","holiday":"매월\t둘째, 넷째 월요일\n"}]"#),
      ("unicode escapes", #"[{"storeCode":"1001","storeName":"\uB3D9\uB798\uC810\uD83D\uDED2"}]"#),
      ("lone surrogate", #"[{"storeCode":"1001","storeName":"\uD83D"}]"#),
      ("numbers", #"[{"storeCode":1001,"storeName":"동래점","lat":35.2043,"lon":"129.0780","telNumber":515509000}]"#),
      ("nulls", #"[{"storeCode":"1001","storeName":"동래점","lat":null,"lon":null,"holiday":null,"address":null}]"#),
      ("missing keys", #"[{"storeName":"동래점"},{"storeCode":"1002"},{"storeCode":"1003","storeName":"기장점"}]"#),
      ("extra keys and nesting", #"[{"storeCode":"1001","storeName":"동래점","x":{"y":[[],{"z":false}]}}]"#),
      ("duplicate key", #"[{"storeCode":"1001","storeCode":"1002","storeName":"동래점"}]"#),
      ("repeated code", #"[{"storeCode":"1001","storeName":"동래점"},{"storeCode":1001,"storeName":"덕천점"}]"#),
      ("empty array", "[]"), ("an object", #"{"error":"login"}"#), ("null elements", "[null]"),
      ("truncated", #"[{"storeCode":"1001","storeName":"동래"#),
      ("whitespace", " \n[ {\"storeCode\" : \"1\" , \"storeName\":\"점\"} ]\n"),
    ]
    Self.expectSameReadings(bodies.map { Self.megamart($0.0, Data($0.1.utf8)) })
  }

  /// Every prefix of each recorded feed is an error for both readings, the same error, and the
  /// error names the source, the URL and what was expected.
  @Test func truncatedFeedsAreClearErrors() throws {
    for feed in try Self.recordedFeeds() {
      let body = Data(String(decoding: feed.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
      for length in stride(from: 0, to: body.count, by: max(1, body.count / 97)) {
        let cut = Feed(name: "\(feed.name) cut at \(length)", body: body.prefix(length), parse: feed.parse)
        let reading = cut.reading(rowReader: true)
        #expect(reading == cut.reading(rowReader: false), "\(cut.name)")
        guard case .error(let message) = reading else {
          Issue.record("\(cut.name): read without an error")
          continue
        }
        #expect(message.contains(Self.url) && message.contains("unexpected content"), "\(cut.name)")
      }
    }
  }
}
