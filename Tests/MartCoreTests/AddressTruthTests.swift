import MartCore
import TestSupport
import Testing

/// Addresses that must never come out with another road than the one written: spaced road names,
/// glued side-road numbers, cities without 시, roads named by a number, 인천 서구 by its road, a
/// wrong province word, and no road at all where the written one cannot be told.
@Suite("Korean address normalizer, the written road or none")
struct AddressTruthTests {
  /// An input and what it must give; `road` `nil` means no road address.
  struct Expected: CustomTestStringConvertible, Sendable {
    var input: String
    var sido: String?
    var sigungu: String?
    var road: String?
    var number: Int?
    var warns = false
    var testDescription: String { input }
  }

  static let cases: [Expected] = [
    // 신세계 센텀시티 (부산 해운대구 센텀남대로 35), the road written apart.
    Expected(input: "부산 해운대구 센텀 남대로 35", sido: "부산광역시", sigungu: "해운대구", road: "센텀남대로", number: 35),
    // 이마트 파주운정점 (경기도 파주시 와석순환로 415), the city without 시 and the road apart.
    Expected(input: "파주 와동동 와석 순환로 415", sido: "경기도", sigungu: "파주시", road: "와석순환로", number: 415),
    Expected(input: "김해 내동 김해대로 2232", sido: "경상남도", sigungu: "김해시", road: "김해대로", number: 2232),
    // 현대백화점 판교점 (경기 성남시 분당구 판교역로146번길 20): the side road 146번길, number 20.
    Expected(
      input: "경기 성남시 분당구 판교역로 146번길20", sido: "경기도", sigungu: "성남시 분당구", road: "판교역로146번길", number: 20),
    Expected(input: "서울 강남구 도산대로 45길12", sido: "서울특별시", sigungu: "강남구", road: "도산대로45길", number: 12),
    // 이마트 신제주점 (제주특별자치도 제주시 1100로 3348): a road named by its number.
    Expected(input: "제주특별자치도 제주시 1100로 3348", sido: "제주특별자치도", sigungu: "제주시", road: "1100로", number: 3348),
    // 인천 서구 after 2026-07-01, decided by the road: 검단신도시 roads are 검단구 (미디어인천신문
    // 2020-07-28: 이음대로, 서로1로, 검마루로 …).
    Expected(input: "인천 서구 서로1로 10", sido: "인천광역시", sigungu: "검단구", road: "서로1로", number: 10),
    Expected(input: "인천광역시 서구 이음대로 378", sido: "인천광역시", sigungu: "검단구", road: "이음대로", number: 378),
    // A province word that names no province gives no district, not `광역시`.
    Expected(input: "서울광역시 강남구 테헤란로 152", sido: nil, sigungu: "강남구", road: "테헤란로", number: 152),
    // Two roads and one number: which is written is not decided, so no road.
    Expected(input: "서울 중구 세종대로 을지로 12", sido: "서울특별시", sigungu: "중구", road: nil, number: nil, warns: true),
  ]

  @Test("the road is the one written, or none", arguments: cases)
  func road(_ example: Expected) {
    let address = KoreanAddress(parsing: example.input)
    #expect(address.province?.officialName == example.sido)
    #expect(address.sigungu == example.sigungu)
    #expect(address.roadName == example.road)
    #expect(address.buildingNumber?.main == example.number)
    #expect(address.warnings.isEmpty == !example.warns)
    #expect(address.sigungu != "광역시")
  }

  @Test func aWrongProvinceWordIsNoDistrict() {
    for input in ["서울광역시 테헤란로 152", "대구특별시 달서구 월배로 1"] {
      let address = KoreanAddress(parsing: input)
      #expect(address.sigungu != "광역시" && address.sigungu != "특별시", Comment(rawValue: input))
    }
  }
}
