import Foundation
import MartBrands
import MartCore
import MartFetch

/// Sample data for the bench: 코스트코 as its OCC API answers (every warehouse on one page, the
/// closing rules in the HTML `warehouseInformation`) and as its store finder, the fallback,
/// answers (closing rules inside the HTML `storeContent`).
///
/// The same endpoints, keys, markup and quirks as the recorded fixtures, at any scale, with
/// seeded random names, places, phones and closing days.
public struct CostcoSampleGenerator: SourceSampleGenerator {
  /// The source whose sites this writes.
  public static let source: any BrandSource.Type = CostcoSource.self
  public let request: SampleRequest

  public init(_ request: SampleRequest) { self.request = request }

  // MARK: - Costco

  /// Romanized city names for warehouse `name`s.
  static let romanizedCities = [
    "Yangpyung", "Daejeon", "Daegu", "Ilsan", "Ulsan", "Busan", "Gwangmyeong", "Cheonan", "Uijeongbu", "Sangbong",
    "Yangjae", "Suwon", "Gimhae", "Hanam", "Songdo", "Sejong", "Pyeongtaek", "Cheongna", "Gongse", "Jeju",
  ]

  public func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var records: [String] = []
    var stores: [String] = []
    for index in 0..<mix.count(.costco) {
      let place = PlaceSample.random(using: &random)
      let displayName = names.name(near: place)
      let city = Self.romanizedCities[index % Self.romanizedCities.count]
      let englishName = index < Self.romanizedCities.count ? city : "\(city) \(index / Self.romanizedCities.count + 1)"
      let weekdayName = place.closingWeekday.koreanShortName + "요일"
      let rule = "매월 둘째, 넷째 \(weekdayName) 의무 휴무"
      let notice = random.chance(0.4) ? " ※ 일산점은 12월 23일 (수요일) 정상영업 합니다." : ""
      let content =
        random.chance(0.5)
        ? "<h3 class='headline'>영업시간</h3><p style='font-size: 20px;'>오전 10:00 - 오후 10:00</p><p style='padding-top:10px;'>정부시책에 의거 유통산업 발전법에 따라 <span style='color:red;'>\(rule)</span>합니다.<br />*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)</p> </body> </html>\(notice)"
        : "<h3 class='headline'>영업시간</h3><p><font>오전 10:00 - 오후 10:00</font></p><p>*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)</p><p>정부시책에 의거 유통산업 발전법에 따라 <span style='color:red;'>\(rule)</span>합니다.</p> </body> </html>\(notice)"
      let lot = place.lotAddress.split(separator: " ").suffix(2).joined(separator: " ")
      let openings = Weekday.allCases.map(\.koreanShortName).map {
        "\"\($0)\" : {\n      \"individual\" : \"오전 10:00 - 오후 10:00\"\n    }"
      }.joined(separator: ",\n    ")
      let fields: [(String, JSONText.Value)] = [
        ("displayName", .string(displayName)), ("warehouseCode", .string("costcoKoreaWarehouse")),
        ("name", .string(englishName)),
        (
          "url",
          .string(
            "/store/\(englishName.replacingOccurrences(of: " ", with: "%20"))?lat=35.907757&long=127.766922&q=Korea, Republic of"
          )
        ),
        ("phone", .string(random.chance(0.05) ? "" : "+82-1899-9900")), ("formattedDistance", .string("56.6 Km")),
        ("line1", .string(place.roadAddress)), ("line2", .string("(\(lot))")), ("town", .string("")),
        ("postalCode", .string("")), ("email", .string("member@costcokr.com")),
        ("latitude", .string(Self.coordinateText(place.latitude, digits: 6))),
        ("longitude", .string(Self.coordinateText(place.longitude, digits: 6))),
        ("storeContent", .string(content)),
      ]
      let body = fields.map { "  \"\($0.0)\" : \(JSONText.costcoEscaped($0.1))" }.joined(separator: ",\n")
      // The OCC API's form of the same warehouse: nested address and point, the fragment in
      // warehouseInformation, the rule's next closures as named special days.
      let path = "/store/\(englishName.replacingOccurrences(of: " ", with: "%20"))"
      let apiFields: [(String, JSONText.Value)] = [
        ("warehouseCode", .string("costcoKoreaWarehouse\(String(format: "%03d", 50 + index))")),
        ("name", .string(englishName)), ("displayName", .string(displayName)), ("url", .string(path)),
        ("warehouseInformation", .string(content)),
      ]
      let apiBody = apiFields.map { "\"\($0.0)\":\(JSONText.costcoEscaped($0.1))" }.joined(separator: ",")
      stores.append(
        "{\(apiBody),\"address\":{\"line1\":\(JSONText.costcoEscaped(.string(place.roadAddress))),\"line2\":\(JSONText.costcoEscaped(.string("(\(lot))"))),\"phone\":\"+82-1899-9900\"},\"geoPoint\":{\"latitude\":\(Self.coordinateText(place.latitude, digits: 6)),\"longitude\":\(Self.coordinateText(place.longitude, digits: 6))},\"openingHours\":{\"specialDayOpeningList\":[],\"weekDayOpeningList\":[]}}"
      )
      records.append(
        "{\n\(body),\n  \"openings\" : {\n    \(openings)\n  },\n  \"features\" : [ \"서비스 델리\", \"휠체어 이용가능\", \"타이어 센터\", \"ATM\", \"푸드 코트\", \"후레쉬 베이커리\" ],\n  \"image\" : \"\\/medias\\/sys_master\\/images\\/h76\\/hd7\\/10276309139486.jpg\"\n}"
      )
    }
    return [
      (
        "occ-stores-0",
        RecordedExchange(
          method: "GET", url: CostcoSource.origin + CostcoSource.storesPath(page: 0),
          status: 200, headers: Self.jsonHeaders,
          body: Data(
            "{\"pagination\":{\"currentPage\":0,\"totalPages\":1},\"stores\":[\(stores.joined(separator: ","))]}".utf8))
      ),
      (
        "store-finder-search",
        RecordedExchange(
          method: "GET", url: CostcoSource.origin + CostcoSource.storeFinderPath, status: 200,
          headers: Self.jsonHeaders, body: Data("{\"data\":[\(records.joined(separator: ","))]}".utf8))
      ),
    ]
  }
}
