import Foundation
import Testing

@testable import MartBrands

@Suite("HomeplusSource names")
struct HomeplusNameTests {
  @Test(arguments: [
    ("홈플러스 익스프레스 망원점", "망원점"),
    ("홈플러스 스페셜 계산점", "계산점"),
    ("홈플러스\u{3000}강서점", "강서점"),
    ("익스프레스  역삼점 ", "역삼점"),
    // No whitespace after the prefix, nothing after it, or a mark that joins its last syllable.
    ("홈플러스강서점", "홈플러스강서점"),
    ("홈플러스 ", "홈플러스 "),
    ("홈플러스\u{0301} 강서점", "홈플러스\u{0301} 강서점"),
    ("가좌점", "가좌점"),
  ])
  func strippingBrandPrefix(name: String, expected: String) {
    #expect(HomeplusSource.strippingBrandPrefix(name) == expected)
  }

  @Test func decomposedHangulReadsAsItsSyllables() {
    let name = "홈플러스 익스프레스 망원점".decomposedStringWithCanonicalMapping
    #expect(name.containsConjoiningJamo)
    let stripped = HomeplusSource.strippingBrandPrefix(name)
    #expect(stripped == "망원점")
    #expect(stripped.utf8.count == "망원점".decomposedStringWithCanonicalMapping.utf8.count)
  }
}
