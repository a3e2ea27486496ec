import Foundation
import MartBrands
import MartCore
import MartFetch

/// Sample data for the bench: 홈플러스 (스페셜 among them) and 익스프레스 as `my.homeplus.co.kr` serves them: the store list and one page per store.
///
/// The same endpoints, keys, markup and quirks as the recorded fixtures, at any scale, with
/// seeded random names, places, phones and closing days.
public struct HomeplusSampleGenerator: SourceSampleGenerator {
  /// The source whose sites this writes.
  public static let source: any BrandSource.Type = HomeplusSource.self
  public let request: SampleRequest

  public init(_ request: SampleRequest) { self.request = request }

  // MARK: - Homeplus (홈플러스, 스페셜, 익스프레스)

  public func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names: [BrandSlug: NameBook] = [:]
    var rows: [String] = []
    var output: [(name: String, exchange: RecordedExchange)] = []
    let origin = HomeplusSource.origin
    var nextID = 500
    for brand in [BrandSlug.homeplus, .homeplusExpress] {
      for _ in 0..<mix.count(brand) {
        let id = nextID
        nextID += 1
        let place = PlaceSample.random(using: &random)
        let name = names[brand, default: NameBook()].name(near: place)
        let type = brand == .homeplusExpress ? "E" : (random.chance(0.1) ? "S" : "H")
        var phone = KoreanPlaces.phone(place.province, using: &random)
        if brand == .homeplusExpress && random.chance(0.03) { phone = "00-000-0000" }
        var hours = "10:00~24:00"
        var stopped = false
        if random.chance(0.01) {
          hours = random.chance(0.5) ? "마트 임시휴업. 몰영업시간 10:00~21:00" : "\(name) 영업종료로 단골매장을 변경해주세요."
          stopped = true
        }
        let next = nextClosingDay(place.closingWeekday)
        let dayOff = stopped ? "" : "\(Self.monthDay(next))(\(place.closingWeekday.koreanShortName))"
        func coordinate(_ value: Double) -> JSONText.Value {
          let digits = Int.random(in: 3...7, using: &random)
          return random.chance(0.5)
            ? .number(Self.coordinateText(value, digits: digits)) : .string(Self.coordinateText(value, digits: digits))
        }
        rows.append(
          JSONText.object([
            ("storId", .number(String(id))), ("storCd", .string(String(format: "%04d", id))),
            ("storKorNm", .string(name)), ("storDivCd", .string(type)), ("storAddr", .string(place.roadAddress)),
            ("storLat", coordinate(place.latitude)), ("storLon", coordinate(place.longitude)),
            ("storTphnNo", .string(phone)), ("storSlesTime", .string(hours)), ("storDayoffCntt", .string(dayOff)),
          ]))
        let months = closingDays(place.closingWeekday)
        let ruleDays = months[0].allSatisfy { $0 >= asOf } ? months[0] : [months[0][1], months[1][0]]
        let weekdayName = place.closingWeekday.koreanShortName + "요일"
        let closing = stopped ? "" : "매월 둘째, 넷째 \(weekdayName) (\(ruleDays.map(Self.monthDay).joined(separator: ", ")))"
        let page = """
          <!DOCTYPE html>
          <html lang="ko">
          <head>
          <meta charset="UTF-8">
          <title>홈플러스 \(name) | 매장안내 | 홈플러스</title>
          <link rel="stylesheet" href="/resources/css/store.css">
          </head>
          <body>
          <div id="wrap">
            <div class="store_detail">
              <div class="shop_tit">
                <span class="logo">\(brand == .homeplusExpress ? "홈플러스 익스프레스" : "홈플러스")</span>
                <a href=" /store " class="btn_list">목록</a>
              </div>
              <dl class="shop_detail_01">
                <dt>영업시간</dt><dd>\(brand == .homeplusExpress ? "10:00 ~ 24:00" : "10:00 ~ 24:00")</dd>
                <dt>휴점일</dt><dd>\(closing)</dd>
                <dt>전화번호</dt><dd>\(phone)</dd>
                <dt>주차</dt><dd>\(brand == .homeplusExpress ? "무료 1시간 (구매 고객)" : "무료 3시간 (구매 고객)")</dd>
                <dt>주소</dt><dd>\(HTMLText.escape(place.roadAddress)) <a href="#" class="btn_route">길 찾기</a></dd>
              </dl>
            </div>
          </div>
          </body>
          </html>

          """
        output.append(
          (
            "store_detail-\(id)",
            RecordedExchange(
              method: "GET", url: origin + HomeplusSource.detailPath(storeID: String(id)), status: 200,
              headers: Self.htmlHeaders,
              body: Data(page.utf8))
          ))
      }
    }
    let list =
      "{\"draw\": 1, \"recordsTotal\": \(rows.count), \"recordsFiltered\": \(rows.count), \"data\": [\(rows.joined(separator: ", "))]}"
    output.insert(
      (
        "get_list",
        RecordedExchange(
          method: "POST", url: origin + HomeplusSource.storeListPath,
          requestBody: FormEncoding.encode(HomeplusSource.storeListFields),
          status: 200, headers: Self.jsonHeaders, body: Data(list.utf8))
      ), at: 0)
    return output
  }
}
