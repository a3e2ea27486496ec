import Foundation
import MartBrands
import MartCore
import MartFetch

/// Sample data for the bench: GS THE FRESH as its paginated store search answers, three stores a page.
///
/// The same endpoints, keys, markup and quirks as the recorded fixtures, at any scale, with
/// seeded random names, places, phones and closing days.
public struct GSTheFreshSampleGenerator: SourceSampleGenerator {
  /// The source whose sites this writes.
  public static let source: any BrandSource.Type = GSTheFreshSource.self
  public let request: SampleRequest

  public init(_ request: SampleRequest) { self.request = request }

  /// Most stores a run reads: three a page, at most `GSTheFreshSource.maximumPages` pages.
  public static var maximumBranches: [BrandSlug: Int] {
    [.gsTheFresh: GSTheFreshSource.pageSize * GSTheFreshSource.maximumPages]
  }

  // MARK: - GS THE FRESH

  public func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var stores: [String] = []
    for index in 0..<mix.count(.gsTheFresh) {
      let place = PlaceSample.random(using: &random)
      let name =
        String(place.district.split(separator: " ").first.map { $0.dropLast() } ?? "") + names.name(near: place)
      let phoneDigits = KoreanPlaces.phone(place.province, using: &random).split(separator: "-")
      let phone: String =
        switch Int.random(in: 0..<10, using: &random) {
        case 0: "\(phoneDigits[0]) \(phoneDigits[1]) \(phoneDigits[2])"
        case 1: phoneDigits.joined()
        case 2: "\(phoneDigits[0]))\(phoneDigits[1])-\(phoneDigits[2])~\(Int.random(in: 1...9, using: &random))"
        default: "\(phoneDigits[0]))\(phoneDigits[1])-\(phoneDigits[2])"
        }
      var days = closingDays(place.closingWeekday).prefix(2).joined().filter { $0 >= asOf.firstOfMonth() }.prefix(4)
        .map { date in
          let month = date.month < 10 ? "0\(date.month)" : "\(date.month)"
          let day = date.day < 10 ? "0\(date.day)" : "\(date.day)"
          return "\(month)월 \(day)일"
        }
      if random.chance(0.05) { days = days.map { $0.replacingOccurrences(of: " ", with: "") } }
      while days.count < 4 { days.append("") }
      let swapped = !random.chance(0.1)
      let latitude = Self.coordinateText(place.latitude, digits: 8)
      let longitude = Self.coordinateText(place.longitude, digits: 8)
      let code = String(10_000 + index * 3 + Int.random(in: 0...2, using: &random))
      stores.append(
        JSONText.object([
          ("phone", .string(phone)), ("shutDownDate", .string("")), ("parkingFacility", .string("점내 무료주차장")),
          ("timeSTH", .string("10")), ("faxNumber", .null),
          ("deliverySystem", .string("※ 무료배송 금액/지역/시간은 점포 전화 문의 요망")),
          ("longs", .string(swapped ? latitude : longitude)), ("alt1", .string("\(name)_매장전경 이미지_1")),
          ("alt2", .string("\(name)_매장내부 이미지_1")), ("alt3", .string("\(name)_매장내부 이미지_2")),
          ("timeSTM", .string("00")), ("mobileLeaflet", .string("http://asp3.rise7.co.kr/Viewer/m1")),
          ("timeEDH", .string(random.chance(0.2) ? "24" : "23")), ("openDate", .number("2050326000000")),
          ("lat", .string(swapped ? longitude : latitude)),
          ("smUrl", .string("http://www.gsfresh.com/eretail.main.dev?mallId=335")),
          (
            "file2",
            .string("https://hpsimg.gsretail.com/medias/sys_master/images/images/h46/h5e/8807923515422.jpg")
          ),
          ("timeEDM", .string("00")),
          (
            "file3",
            .string("https://hpsimg.gsretail.com/medias/sys_master/images/images/h1d/h87/8807923580958.jpg")
          ),
          (
            "file1",
            .string("https://hpsimg.gsretail.com/medias/sys_master/images/images/h74/hea/8807923449886.jpg")
          ),
          ("pcLeaflet", .string("http://www.publishchanger.com/Viewer/p1")),
          ("wayToVisit", .string("버스노선: 시내버스 정류장 하차")), ("closedDate2", .string(days[1])),
          ("closedDate3", .string(days[2])), ("shopCode", .string(code)), ("closedDate4", .string(days[3])),
          ("shopType", .raw("{\"code\": \"DIRECT\", \"type\": \"SMShopTypeEnum\"}")),
          ("kakaoYellowId", .string("https://pf.kakao.com/_Kxczeu")),
          (
            "address",
            .string(
              "\(place.shortRoadAddress.split(separator: "(").first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "")(\(place.dong) \(place.lotAddress.split(separator: " ").last ?? ""))"
            )
          ),
          ("shopName", .string(name)), ("closedDate1", .string(days[0])),
        ]))
    }
    let pageSize = GSTheFreshSource.pageSize
    let pages = max(1, (stores.count + pageSize - 1) / pageSize)
    var output: [(name: String, exchange: RecordedExchange)] = []
    for page in 0..<pages {
      let slice = stores[min(stores.count, page * pageSize)..<min(stores.count, (page + 1) * pageSize)]
      let body =
        "{\"results\": [\(slice.joined(separator: ", "))], \"pagination\": {\"sort\": null, \"pageSize\": \(pageSize), \"currentPage\": \(page), \"totalNumberOfResults\": \(stores.count), \"numberOfPages\": \(pages)}, \"sorts\": []}"
      output.append(
        (
          "find-storelist-page-\(page + 1)",
          RecordedExchange(
            method: "GET", url: GSTheFreshSource.origin + GSTheFreshSource.listPath(pageNumber: page + 1), status: 200, headers: Self.jsonHeaders, body: Data(body.utf8))
        ))
    }
    return output
  }
}
