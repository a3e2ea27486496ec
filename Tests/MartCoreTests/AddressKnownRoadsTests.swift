import MartCore
import Testing

/// A road name written apart is joined only when the joined name is a road the normalizer knows
/// (`KnownRoads`) or its last word cannot be a road on its own; a place, 동 or building word before
/// a road is never taken into its name, and where the road cannot be told there is none, with a
/// warning.
@Suite("Korean address normalizer, known roads")
struct AddressKnownRoadsTests {
  /// An input and what it must give (the `sido` is not checked here).
  typealias Expected = AddressTruthTests.Expected

  static let cases: [Expected] = [
    // 보틀벙커 청라점, 인천 서구 청라커낼로 252 (its recorded Lotte page), written apart: a road
    // the bundled data knows; a 청라 road, so 서해구 since 2026-07-01.
    Expected(input: "인천 서구 청라 커낼로 252", sigungu: "서해구", road: "청라커낼로", number: 252),
    // 인천 서구 after 2026-07-01 by the road alone: 청라's roads are 서해구 (the 인천경제청's 청라
    // office, 청라대로 46; 청라's zone roads, 경인일보 2018-08-07).
    Expected(input: "인천광역시 서구 청라커낼로 252", sigungu: "서해구", road: "청라커낼로", number: 252),
    Expected(input: "인천 서구 청라대로 46", sigungu: "서해구", road: "청라대로", number: 46),
    Expected(input: "인천 서구 청라루비로 99", sigungu: "서해구", road: "청라루비로", number: 99),
    // 이마트 해운대점, 부산 해운대구 좌동순환로 511: `순환로` is no road on its own, so the word
    // before it is the name's first part even though it reads as a 동 (좌동).
    Expected(input: "부산 해운대구 좌동 순환로 511", sigungu: "해운대구", road: "좌동순환로", number: 511),
    // 롯데마트 월드타워점, 서울 송파구 올림픽로 240 (its recorded page): 잠실 is a place word,
    // not part of the road; `잠실올림픽로` is no road, so the road is not guessed.
    Expected(input: "서울 송파구 잠실 올림픽로 240", sigungu: "송파구", road: nil, number: nil, warns: true),
    // 코엑스, 서울 강남구 영동대로 513: a building word before the road.
    Expected(input: "서울 강남구 코엑스 영동대로 513", sigungu: "강남구", road: nil, number: nil, warns: true),
    // The same with the legal 동 before the road: a 동 and its road, the road as written.
    Expected(input: "서울 송파구 잠실동 올림픽로 240", sigungu: "송파구", road: "올림픽로", number: 240),
    Expected(input: "서울특별시 강남구 삼성동 영동대로 513", sigungu: "강남구", road: "영동대로", number: 513),
    // A last word that is no road on its own, with nothing before it to complete it.
    Expected(input: "경기 파주시 순환로 415", sigungu: "파주시", road: nil, number: nil, warns: true),
    Expected(input: "서울 강남구 대로 12", sigungu: "강남구", road: nil, number: nil, warns: true),
  ]

  @Test("the written road or none", arguments: cases)
  func road(_ example: Expected) {
    let address = KoreanAddress(parsing: example.input)
    #expect(address.sigungu == example.sigungu)
    #expect(address.roadName == example.road)
    #expect(address.buildingNumber?.main == example.number)
    #expect(address.warnings.contains { $0.hasPrefix("road name not decided") } == example.warns)
    if example.road == nil { #expect(address.roadAddress == nil) }
  }

  @Test func aRoadNameWrittenApartIsJoinedOnlyWhenKnown() {
    let text = "부산 해운대구 센텀 남대로 35"
    let unknown = KoreanAddress(parsing: text, knownRoads: .none)
    #expect(unknown.roadName == nil)
    #expect(unknown.roadAddress == nil)
    #expect(unknown.warnings == ["road name not decided (\"센텀 남대로\"): no road address given"])
    let known = KoreanAddress(parsing: text, knownRoads: KnownRoads(["센텀남대로"]))
    #expect(known.roadAddress == "부산광역시 해운대구 센텀남대로 35")
    #expect(known.warnings.isEmpty)
  }

  @Test func knownRoadsAreReadFromAddressesWrittenAsOneWord() {
    let roads = KnownRoads.reading(["인천광역시 서구 청라커낼로 252", "서울 송파구 잠실 올림픽로 240"])
    #expect(roads.contains("청라커낼로"))
    #expect(!roads.contains("올림픽로") && !roads.contains("잠실올림픽로"))
    #expect(KnownRoads.bundled.contains("센텀남대로"))
  }
}
