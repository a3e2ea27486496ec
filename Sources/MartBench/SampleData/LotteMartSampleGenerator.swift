import Foundation
import MartBrands
import MartCore
import MartFetch

/// Sample data for the bench: 롯데마트 as its store search page lists it: every store on one page, day-off texts in the wordings store staff type, phones in several formats.
///
/// The same endpoints, keys, markup and quirks as the recorded fixtures, at any scale, with
/// seeded random names, places, phones and closing days.
public struct LotteMartSampleGenerator: SourceSampleGenerator {
  /// The source whose sites this writes.
  public static let source: any BrandSource.Type = LotteMartSource.self
  public let request: SampleRequest

  public init(_ request: SampleRequest) { self.request = request }

  // MARK: - Lotte Mart

  public func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var rows: [String] = []
    var listed: [String] = []
    for index in 0..<mix.count(.lottemart) {
      let place = PlaceSample.random(using: &random)
      let name = names.name(near: place)
      let code = "01" + String(format: "%05d", 100 + index)
      let phone = KoreanPlaces.phone(place.province, using: &random)
      let publishedPhone: String =
        switch Int.random(in: 0..<10, using: &random) {
        case 0: phone.replacingOccurrences(of: "-", with: " ")
        case 1: phone.replacingOccurrences(of: "-", with: "")
        default: phone
        }
      let weekday = place.closingWeekday
      let months = closingDays(weekday)
      let next = nextClosingDay(weekday)
      let ruleDays = months[0].allSatisfy { $0 >= asOf } ? months[0] : [months[0][1], months[1][0]]
      let weekdayName = weekday.koreanShortName + "요일"
      var dayOff: String
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1, 2:
        dayOff =
          "<img src=\"/images/shop/ico_dayoff.png\" alt=\"\"> \(Self.monthDay(next))(\(weekday.koreanShortName))"
      case 3, 4:
        dayOff = "매월 둘째, 넷째주 \(weekdayName) ( \(ruleDays.map(Self.monthDay).joined(separator: ", ")) )"
      case 5, 6:
        dayOff = "매월 둘째, 넷째주 \(weekdayName) (\(ruleDays.map(Self.monthDay).joined(separator: ", ")))"
      case 7:
        dayOff = "\(months[1][0].month)/\(months[1][0].day),/\(months[1][1].day)"
      case 8:
        dayOff =
          "\(months[0][0].month)월 의무휴업안내(\(Self.monthDay(months[0][0]))(\(weekdayName)),\(Self.monthDay(months[0][1]))(\(weekdayName))"
      default:
        dayOff = "매월 둘째, 넷째주 \(weekdayName)"
      }
      var state = "영업중"
      var hours = "10:00~23:00"
      if random.chance(0.01) {
        state = random.pick(["임시휴업", "영업종료"])
        hours = ""
        dayOff = ""
      }
      let linked = !random.chance(0.03)
      let nameMarkup = linked ? "<a href=\"/shop/shop_view.asp?brnchCd=\(code)\">\(name)</a>" : name
      let address = random.chance(0.3) ? place.shortRoadAddress : place.roadAddress
      let row = """
              <li>
                <span class="logo"><img src="/images/shop/logo_lottemart.png" alt="LOTTE Mart"></span>
                <strong class="name">\(nameMarkup)</strong>
                <span class="state">\(state)</span>
                <div class="info">
                  <span class="time">\(hours)</span>
                  <span class="call">\(publishedPhone)</span>
                  <span class="day-off">\(dayOff)</span>
                </div>
                <div class="address">\(HTMLText.escape(address))</div>
              </li>

        """
      rows.append(row)
      listed.append(row)
      // A store listed under a second region appears twice on the page.
      if random.chance(0.02) { rows.append(row) }
    }
    rows.append(
      """
              <li>
                <span class="logo"><img src="/images/shop/logo_lottemart.png" alt="LOTTE Mart"></span>
                <strong class="name">(가칭)신도시점</strong>
                <span class="state">오픈예정</span>
                <div class="info">
                  <span class="time"></span>
                  <span class="call"></span>
                  <span class="day-off"></span>
                </div>
                <div class="address">경기도 화성시 동탄대로 1</div>
              </li>

      """)
    let page = """
      <!DOCTYPE html>
      <html lang="ko">
      <head>
      <meta http-equiv="Content-Type" content="text/html; charset=utf-8">
      <meta http-equiv="X-UA-Compatible" content="IE=edge">
      <title>롯데마트 - 매장찾기</title>
      <link rel="stylesheet" type="text/css" href="/css/shop.css">
      <script type="text/javascript" src="/js/jquery-1.12.4.min.js"></script>
      </head>
      <body>
      <div id="wrap">
        <div id="header"><h1><a href="/"><img src="/images/common/logo.png" alt="롯데마트"></a></h1></div>
        <div id="container" class="shop-search">
          <h2 class="tit">매장찾기</h2>
          <p class="txt-notice">* 매장별 자세한 사항은 지점별 도와센터를 통해 확인 부탁드립니다.</p>
          <div class="result">
            <p class="count">검색결과 <em>\(rows.count)</em>건</p>
            <ul class="shop-list">
      \(rows.joined())      </ul>
          </div>
        </div>
      </div>
      </body>
      </html>

      """
    return [
      (
        "shop_search_type-01",
        RecordedExchange(
          method: "POST", url: LotteMartSource.origin + LotteMartSource.storeListPath,
          status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=UTF-8")], body: Data(page.utf8))
      ),
      // The all-format list holds the same 롯데마트 rows, on a page of its own.
      (
        "shop_search-all",
        RecordedExchange(
          method: "GET", url: LotteMartSource.origin + LotteMartSource.allFormatsPath,
          status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=UTF-8")],
          body: Data(page.replacingOccurrences(of: "<title>롯데마트 - 매장찾기</title>", with: "<title>롯데마트 - 전체 매장</title>").utf8))
      ),
    ]
  }
}
