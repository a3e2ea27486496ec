import Foundation
import MartBrands
import MartCore
import MartFetch
import TestSupport
import Testing

/// 에브리데이 stores, which the holiday lists name without a place, get their address, phone,
/// hours and coordinates from the all-format store list, or else from their store page.
@Suite("EmartSource 에브리데이 places")
struct EmartEverydayPlaceTests {
  static let storeListURL = "https://store.emart.com/branch/searchList.do"

  @Test func everyStoreIsPlacedFromTheListOrItsPage() async throws {
    let fetcher = try ScriptedFetcher { _ in nil }
    let (branches, warnings) = try await EmartHolidayListTests.collect(fetcher, brands: [.everyday])
    #expect(warnings.isEmpty, "\(warnings)")
    #expect(branches.count == 17)
    #expect(branches.allSatisfy { $0.id.brand == .everyday && $0.address != nil && $0.coordinate != nil })

    // 가락동점 (4733) is in the all-format list: its row's place, the list as its source.
    let garak = try #require(branches.first { $0.id.storeID == "4733" })
    #expect(garak.address == "서울특별시 송파구 송파대로 260")
    #expect(garak.lotAddress == "서울특별시 송파구 가락동 99-5")
    #expect(garak.openingHours == "10:00 ~ 24:00")
    #expect(garak.coordinate == GeoPoint(latitude: 37.496502, longitude: 127.118041, fractionDigits: 7))
    #expect(garak.sourceURL == Self.storeListURL)
    #expect(garak.pageURL == "https://store.emart.com/branch/view.do?id=4733")
    #expect(garak.closingDates.map(\.iso).prefix(2) == ["2026-11-08", "2026-11-22"])

    // 부평점 (4726) is filed under STORE_TP "E" in that list: its banner makes it 에브리데이.
    #expect(branches.first { $0.id.storeID == "4726" }?.address == "인천광역시 부평구 부평대로 168")
    // 상계점 (4712) has a blank TEL in the list: the holiday list's stays.
    #expect(branches.first { $0.id.storeID == "4712" }?.phone == "02-951-4712")

    // 청주율량점 (4744) is not in the list: its page places it, with three published decimals.
    let cheongju = try #require(branches.first { $0.id.storeID == "4744" })
    #expect(cheongju.address == "충청북도 청주시 청원구 율량로 170")
    #expect(cheongju.lotAddress == "충청북도 청주시 청원구 율량동 842")
    #expect(cheongju.coordinate == GeoPoint(latitude: 36.662, longitude: 127.491, fractionDigits: 3))
    #expect(cheongju.sourceURL == "https://store.emart.com/branch/view.do?id=4744")

    // No store page is read for a store the list places.
    let pages = await fetcher.requests.filter { $0.url.contains("/branch/view.do") }.map(\.url)
    #expect(
      Set(pages) == Set(["4744", "4764", "4781"].map { "https://store.emart.com/branch/view.do?id=\($0)" }))
    // The all-format request is the 2026 form: no searchType, the month not zero-padded.
    let list = await fetcher.requests.filter { $0.url == Self.storeListURL }
    #expect(
      list.map(\.formFields) == [
        ["srchMode=jijum", "year=2026", "month=11", "areaId=", "jMode=true", "strConfirmYN=N"]
      ])
  }

  @Test func aSiteWithoutTheAllFormatListPlacesEveryStoreFromItsPageOrLeavesItOut() async throws {
    let fetcher = try ScriptedFetcher { request in
      request.url == Self.storeListURL && request.formField("searchType") == nil
        ? reply(to: request, status: 404, Data("not found".utf8), contentType: "text/html") : nil
    }
    let (branches, warnings) = try await EmartHolidayListTests.collect(fetcher, brands: [.everyday])
    // Only the three stores with a recorded page are placed, and only they are published: a
    // branch without an address is not published from this run (its last data stays).
    #expect(Set(branches.map(\.id.storeID)) == ["4744", "4764", "4781"])
    #expect(branches.allSatisfy { $0.address != nil && $0.lotAddress != nil })
    #expect(warnings.contains { $0.contains("not placed from the all-format store list") })
    // The others' pages answered 404: each is named, with no place made up, and left out.
    #expect(warnings.filter { $0.contains("no place for this store") }.count == 14)
    #expect(warnings.filter { $0.contains("not published from this run") }.count == 14)
  }

  /// A store page and the place read from it, named in the test log.
  struct PageCase: Sendable {
    var html: String
    var road: String?
    var lot: String?
    var point: GeoPoint?
    var phone: String?
  }

  @Test func storePagesInTheirForms() throws {
    let cases: [(String, PageCase)] = [
      (
        "dl.road-name with dd.data",
        PageCase(
          html: #"<dl class="road-name"><dt>도로명</dt><dd class="data">서울 중구 a로 1</dd></dl>"#
            + #"<dl class="lot-number"><dd class="data">서울 중구 b동 2</dd></dl><div data-x="37.5" data-y="127.01"></div>"#,
          road: "서울 중구 a로 1", lot: "서울 중구 b동 2", point: GeoPoint(latitude: 37.5, longitude: 127.01, fractionDigits: 1),
          phone: nil)
      ),
      (
        "the class on the dd itself",
        PageCase(
          html: #"<dl><dt>주소</dt><dd class="data road-name">부산 a로 3</dd></dl>"#,
          road: "부산 a로 3", lot: nil, point: nil, phone: nil)
      ),
      (
        "only the phone in the intro list",
        PageCase(
          html:
            #"<div class="intro-wrap"><ul><li><p>a</p></li><li><p>b</p></li><li><p>02-1234-5678</p></li></ul></div>"#,
          road: nil, lot: nil, point: nil, phone: "02-1234-5678")
      ),
      ("nothing", PageCase(html: "<p>준비중</p>", road: nil, lot: nil, point: nil, phone: nil)),
      (
        "a blank road cell and a point that is not a number",
        PageCase(
          html: #"<dl class="road-name"><dd class="data"> </dd></dl><i data-x="" data-y="127.0"></i>"#,
          road: nil, lot: nil, point: nil, phone: nil)
      ),
    ]
    forEachCase(cases, named: \.0) { named, comment in
      let example = named.1
      let page = "<html><body>\(example.html)</body></html>"
      let place = try EmartSource.parseStorePlace(Data(page.utf8), url: "https://store.emart.com/branch/view.do?id=1")
      #expect(place.address == example.road, comment)
      #expect(place.lotAddress == example.lot, comment)
      #expect(place.coordinate == example.point, comment)
      #expect(place.phone == example.phone, comment)
    }
  }
}
