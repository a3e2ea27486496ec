import Foundation
import MartCore
import TestSupport
import Testing

@testable import MartBrands

/// Costco's closing-text reader works in time linear in the fragment, whatever repeats in it.
@Suite("Brand parsers' work on pathological inputs")
struct BrandLinearWorkTests {
  static let url = "https://www.costco.co.kr/store-finder/search"

  static func content(_ text: String) -> StoreContent {
    StoreContent(html: "<div>\(text)</div>", url: url)
  }

  @Test("Costco's closing text: the monthly rule, the holiday line and other warehouses' notices")
  func costcoClosingText() {
    let content = Self.content("매월 둘째, 넷째 일요일 의무휴무. 영업시간 *  휴무일 : 1월 1일, 설날 당일 ※ 일산점은 12/31 휴무")
    // The rule runs from 매월 to its first 휴무; the holiday line from its `*` to the notice.
    #expect(
      content.closingText(forWarehouse: "양재점") == "매월 둘째, 넷째 일요일 의무휴무, *  휴무일 : 1월 1일, 설날 당일")
    #expect(Self.content("매월 정상영업. 휴무 없음").closingText(forWarehouse: "양재점") == nil)
  }

  @Test("Costco's closing-text reader's work grows linearly")
  func costcoClosingTextGrowth() {
    let inputs: [(name: String, make: (Int) -> String)] = [
      ("monthly words without a closure", { String(repeating: "매월 ", count: $0 * 10) }),
      ("spaces before a holiday line", { "영업시간" + String(repeating: " ", count: $0 * 40) + "휴무" }),
      ("holiday words without a colon", { String(repeating: "휴무일 ", count: $0 * 10) }),
      ("notices", { String(repeating: "※ 일산점은 12/31 휴무 ", count: $0) }),
    ]
    forEachCase(inputs, named: \.name) { input, comment in
      expectLinearGrowth(comment, base: 100) {
        _ = Self.content(input.make($0)).closingText(forWarehouse: "양재점")
      }
    }
  }
}
