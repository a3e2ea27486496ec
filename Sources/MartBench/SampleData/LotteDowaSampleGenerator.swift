import Foundation
import MartBrands
import MartCore
import MartFetch

/// Sample data for the bench: the Lotte Mart family (롯데마트 맥스, 토이저러스, 그랑그로서리,
/// 보틀벙커) as the 도와센터 store search lists it, one page per area, with 롯데마트 and Mealguru
/// rows among them (never exported), codes from detail links or `goClick('…')`, junk before
/// some pages, and two 보틀벙커 stores sharing a code.
public struct LotteDowaSampleGenerator: SourceSampleGenerator {
  /// The source whose sites this writes.
  public static let source: any BrandSource.Type = LotteDowaSource.self
  public let request: SampleRequest

  public init(_ request: SampleRequest) { self.request = request }

  /// The 도와센터 area a place belongs to (제주 and 세종 are listed under `기타`).
  static func area(of place: PlaceSample) -> String {
    let short = place.province.shortName
    return LotteDowaSource.areas.contains(short) ? short : "기타"
  }

  public func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    let prefixes: [(BrandSlug, String, Int)] = [
      (.lotteMaxx, "맥스", 2100), (.toysrus, "토이저러스", 23000), (.grandGrocery, "그랑그로서리", 2400),
      (.bottleBunker, "보틀벙커", 300),
    ]
    var rowsByArea: [String: [String]] = [:]
    var names = NameBook()
    var sharedCode: String?
    for (brand, prefix, firstCode) in prefixes {
      for index in 0..<mix.count(brand) {
        let place = PlaceSample.random(using: &random)
        var code = String(firstCode + index * 3 + 1)
        // Two 보틀벙커 stores link the same code, as 제타플렉스 and 서울역점 do.
        if brand == .bottleBunker {
          if index == 1, let shared = sharedCode { code = shared } else if index == 0 { sharedCode = code }
        }
        rowsByArea[Self.area(of: place), default: []].append(
          row(title: "\(prefix) \(names.name(near: place))", code: code, place: place, &random))
      }
    }
    // 롯데마트 and Mealguru rows share the pages; this source never exports them.
    let others = max(1, mix.count(.lotteMaxx) + mix.count(.toysrus))
    for index in 0..<others {
      let place = PlaceSample.random(using: &random)
      let title = index % 7 == 0 ? "Mealguru \(names.name(near: place))" : names.name(near: place)
      rowsByArea[Self.area(of: place), default: []].append(
        row(title: title, code: String(2800 + index), place: place, &random))
    }
    var output: [(name: String, exchange: RecordedExchange)] = []
    for (number, area) in LotteDowaSource.areas.enumerated() {
      let rows = rowsByArea[area] ?? []
      let junk = number % 5 == 0 ? "<-schWord<br>콜라\r\n" : ""
      let body =
        "\(junk)<section class=\"sub-wrap result-shop-list\"><ul class=\"list-result\">\n\(rows.joined())  </ul>\n</section>\n"
      output.append(
        (
          String(format: "mobiledowa-search_shop-%02d", number + 1),
          RecordedExchange(
            method: "POST", url: LotteDowaSource.origin + LotteDowaSource.searchPath,
            requestBody: FormEncoding.encode([("m_area", area)]), status: 200,
            headers: [
              HTTPHeader("Content-Type", "text/html; Charset=utf-8"),
              HTTPHeader("Set-Cookie", "ASPSESSIONIDQQBSCTAD=BENCHSESSION; path=/"),
            ],
            body: Data(body.utf8))
        ))
    }
    return output
  }

  /// One store row in the page's markup.
  private func row(title: String, code: String, place: PlaceSample, _ random: inout SeededRandom) -> String {
    let weekday = place.closingWeekday
    let closing: String =
      if random.chance(0.8) {
        closingDays(weekday)[0].map { String(format: "%02d/%02d", $0.month, $0.day) + "(\(weekday.koreanShortName))" }
          .joined(separator: ", ")
      } else {
        "매월 둘째, 넷째 \(weekday.koreanShortName)요일"
      }
    let phone = KoreanPlaces.phone(place.province, using: &random)
    let link =
      random.chance(0.1) ? "" : "<a class=\"link\" href=\"./detail_shop.asp?werks=\(code)\"><span>층별안내</span></a>"
    return """
          <li><div class="shop-tit">\(HTMLText.escape(title))</div>
            <div class="shop-desc"><ul>
              <li><span>영업시간 : </span> 10:00~23:00</li>
              <li><span>휴점일 : </span> \(closing)</li>
              <li><span>주소 : </span> \(HTMLText.escape(place.shortRoadAddress))</li>
              <li><span>상담전화 : </span><a href="tel:\(phone)" onclick="goClick('\(code)');">\(phone)</a></li>
            </ul></div>
            \(link)
          </li>

      """
  }
}
