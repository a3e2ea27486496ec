import MartCore
import TestSupport
import Testing

/// Road names and 법정동 written with an inner space (`3공단 6로`, `양평동 3가`) are one name; words
/// that only look like the two halves of one are left apart.
@Suite("Korean address normalizer, names written with an inner space")
struct AddressInnerSpaceTests {
  /// A form written with an inner space and the same address written without it.
  struct Spaced: CustomTestStringConvertible, Sendable {
    var written: String
    var joined: String
    var testDescription: String { written }
  }

  static let spaced: [Spaced] = [
    Spaced(written: "경북 구미시 산동읍 3공단 6로 10", joined: "경북 구미시 산동읍 3공단6로 10"),
    Spaced(written: "경기 성남시 중원구 종합운동장 1로 5", joined: "경기 성남시 중원구 종합운동장1로 5"),
    Spaced(written: "부산 해운대구 중동 2로 11", joined: "부산 해운대구 중동2로 11"),
    Spaced(written: "부산광역시 강서구 명지국제 8로 10", joined: "부산광역시 강서구 명지국제8로 10"),
    Spaced(written: "경기 성남시 중원구 종합운동장 1번길 5", joined: "경기 성남시 중원구 종합운동장1번길 5"),
    Spaced(written: "서울 영등포구 양평동 3가 15", joined: "서울 영등포구 양평동3가 15"),
    Spaced(written: "서울특별시 중구 충무로 1가 24-1 번지", joined: "서울특별시 중구 충무로1가 24-1 번지"),
    Spaced(written: "서울 종로구 종로 3가 10", joined: "서울 종로구 종로3가 10"),
    // After the building number, in parentheses and after a comma: the 동 is the reference.
    Spaced(written: "서울 영등포구 선유로 156 양평동 3가", joined: "서울 영등포구 선유로 156 양평동3가"),
    Spaced(written: "서울 중구 세종대로 지하 2 태평로 1가 31", joined: "서울 중구 세종대로 지하 2 태평로1가 31"),
    Spaced(written: "서울 영등포구 선유로 156, 양평동 3가", joined: "서울 영등포구 선유로 156, 양평동3가"),
    // A lot number before the road-name address.
    Spaced(written: "울산 울주군 온산읍 화산리 1 3공단 6로 10", joined: "울산 울주군 온산읍 화산리 1 3공단6로 10"),
  ]

  @Test("a name written with an inner space reads as the name written whole")
  func joined() {
    forEachCase(Self.spaced) { example, name in
      var address = KoreanAddress(parsing: example.written)
      address.raw = example.joined
      #expect(address == KoreanAddress(parsing: example.joined), name)
      #expect(address.isFullyParsed, name)
    }
  }

  @Test("parts of names written with an inner space")
  func parts() {
    let road = KoreanAddress(parsing: "경북 구미시 산동읍 3공단 6로 10")
    #expect(road.roadName == "3공단6로")
    #expect(road.buildingNumber == BuildingNumber(main: 10))
    #expect(road.roadAddress == "경상북도 구미시 산동읍 3공단6로 10")
    let dong = KoreanAddress(parsing: "서울 영등포구 양평동 3가 15")
    #expect(dong.dongRi == "양평동3가")
    #expect(dong.lotNumber == LotNumber(main: 15))
    #expect(dong.jibunAddress == "서울특별시 영등포구 양평동3가 15")
    let reference = KoreanAddress(parsing: "서울 영등포구 선유로 156 (양평동 3가 15)")
    #expect(reference.dongRi == "양평동3가")
    #expect(reference.jibunAddress == "서울특별시 영등포구 양평동3가 15")
    #expect(reference.reference == "양평동 3가 15")
  }

  /// Words that are not one name, and what they must stay.
  struct Apart: CustomTestStringConvertible, Sendable {
    var input: String
    var road: String?
    var jibun: String?
    var detail: String?
    var testDescription: String { input }
  }

  static let apart: [Apart] = [
    // A 동 followed by its lot number, and a 동 and lot number before the road-name address.
    Apart(input: "서울 영등포구 양평동 3", road: nil, jibun: "서울특별시 영등포구 양평동 3", detail: nil),
    Apart(
      input: "부천시 원미구 중동 1129 길주로 100", road: "부천시 원미구 길주로 100", jibun: "부천시 원미구 중동 1129",
      detail: nil),
    Apart(input: "서울 영등포구 양평동 3번지", road: nil, jibun: "서울특별시 영등포구 양평동 3", detail: nil),
    // A road name followed by its building number.
    Apart(input: "서울 종로구 종로 3", road: "서울특별시 종로구 종로 3", jibun: nil, detail: nil),
    // A building name after the address stays the detail, as written.
    Apart(
      input: "부산광역시 해운대구 센텀남대로 35 신세계 1로", road: "부산광역시 해운대구 센텀남대로 35", jibun: nil,
      detail: "신세계 1로"),
    Apart(
      input: "서울특별시 송파구 올림픽로 300 롯데월드 3가", road: "서울특별시 송파구 올림픽로 300", jibun: nil,
      detail: "롯데월드 3가"),
    // A floor and a unit after the road name are not part of it.
    Apart(
      input: "서울특별시 송파구 올림픽로 300 3층 2호", road: "서울특별시 송파구 올림픽로 300", jibun: nil, detail: "3층 2호"),
    // A district, a 읍 or a province before a number is not a road name.
    Apart(input: "경기도 성남시 분당구 1로", road: nil, jibun: nil, detail: nil),
  ]

  @Test("words that are not one name stay apart")
  func apartWords() {
    forEachCase(Self.apart) { example, name in
      let address = KoreanAddress(parsing: example.input)
      #expect(address.roadAddress == example.road, name)
      #expect(address.jibunAddress == example.jibun, name)
      #expect(address.detail == example.detail, name)
    }
    #expect(KoreanAddress(parsing: "경기도 성남시 분당구 1로").unparsed == ["1로"])
  }
}
