import MartCore
import TestSupport
import Testing

/// The administrative map as it is since 2026-07-01, and the names store pages still write for it.
/// The dates and sources are listed in docs/addresses-and-geocoding.md.
@Suite("Korean address normalizer, the map of 2026")
struct AddressMapChangesTests {
  /// An input and the province, 시군구 and road-name address it must give.
  struct Placed: CustomTestStringConvertible, Sendable {
    var input: String
    var sido: String?
    var sigungu: String?
    var road: String?
    var testDescription: String { input }
  }

  // MARK: 전남광주통합특별시

  /// 광주광역시 and 전라남도 became 전남광주통합특별시 on 2026-07-01; the 시·군·구 kept their names.
  /// Every name the area is written with: the official one, the informal ones, and the former full
  /// and short names of both halves.
  static let jeonnamGwangju: [Placed] = [
    Placed(
      input: "전남광주통합특별시 광산구 임방울대로 330", sido: "전남광주통합특별시", sigungu: "광산구",
      road: "전남광주통합특별시 광산구 임방울대로 330"),
    Placed(
      input: "전남광주특별시 광산구 임방울대로 330", sido: "전남광주통합특별시", sigungu: "광산구",
      road: "전남광주통합특별시 광산구 임방울대로 330"),
    Placed(
      input: "광주특별시 광산구 임방울대로 330", sido: "전남광주통합특별시", sigungu: "광산구",
      road: "전남광주통합특별시 광산구 임방울대로 330"),
    Placed(
      input: "전남광주 서구 상무중앙로 52", sido: "전남광주통합특별시", sigungu: "서구",
      road: "전남광주통합특별시 서구 상무중앙로 52"),
    Placed(
      input: "광주광역시 광산구 장신로 98 (장덕동)", sido: "전남광주통합특별시", sigungu: "광산구",
      road: "전남광주통합특별시 광산구 장신로 98"),
    Placed(
      input: "광주 서구 상무중앙로 52", sido: "전남광주통합특별시", sigungu: "서구",
      road: "전남광주통합특별시 서구 상무중앙로 52"),
    Placed(
      input: "광주시 남구 봉선로 154", sido: "전남광주통합특별시", sigungu: "남구",
      road: "전남광주통합특별시 남구 봉선로 154"),
    Placed(
      input: "전라남도 순천시 장명로 30", sido: "전남광주통합특별시", sigungu: "순천시",
      road: "전남광주통합특별시 순천시 장명로 30"),
    Placed(
      input: "전남 목포시 영산로 615", sido: "전남광주통합특별시", sigungu: "목포시",
      road: "전남광주통합특별시 목포시 영산로 615"),
    Placed(
      input: "전남 무안군 삼향읍 오룡3길 2", sido: "전남광주통합특별시", sigungu: "무안군",
      road: "전남광주통합특별시 무안군 삼향읍 오룡3길 2"),
    // Written without spaces, and with both halves named.
    Placed(
      input: "광주특별시광산구장신로98", sido: "전남광주통합특별시", sigungu: "광산구",
      road: "전남광주통합특별시 광산구 장신로 98"),
    Placed(
      input: "전남광주통합특별시순천시장명로30", sido: "전남광주통합특별시", sigungu: "순천시",
      road: "전남광주통합특별시 순천시 장명로 30"),
    Placed(
      input: "전남 광주 광산구 장신로 98", sido: "전남광주통합특별시", sigungu: "광산구",
      road: "전남광주통합특별시 광산구 장신로 98"),
    // 경기도 광주시 is another city: it has no 구, and stays in 경기도.
    Placed(input: "경기 광주시 오포읍 신현로 17", sido: "경기도", sigungu: "광주시", road: "경기도 광주시 오포읍 신현로 17"),
    Placed(input: "경기도 광주시 경안로 33", sido: "경기도", sigungu: "광주시", road: "경기도 광주시 경안로 33"),
    Placed(input: "광주시 경안로 33", sido: "경기도", sigungu: "광주시", road: "경기도 광주시 경안로 33"),
    Placed(input: "광주시 오포읍 신현로 17", sido: "경기도", sigungu: "광주시", road: "경기도 광주시 오포읍 신현로 17"),
  ]

  @Test("every name of 광주 and 전남 is 전남광주통합특별시, and 경기도 광주시 stays in 경기도")
  func jeonnamGwangjuNames() {
    forEachCase(Self.jeonnamGwangju) { example, name in
      let address = KoreanAddress(parsing: example.input)
      #expect(address.province?.officialName == example.sido, name)
      #expect(address.sigungu == example.sigungu, name)
      #expect(address.roadAddress == example.road, name)
      #expect(address.isFullyParsed, name)
    }
  }

  @Test("the aliases of 전남광주통합특별시 name it and no other province")
  func jeonnamGwangjuAliases() {
    let aliases = ["전남광주통합특별시", "전남광주특별시", "광주특별시", "전남광주", "광주광역시", "광주", "전라남도", "전남"]
    for alias in aliases {
      #expect(Province(alias: alias) == .jeonnamGwangju, "\(alias)")
    }
    #expect(Province(alias: "광주시") == nil)
    #expect(Province.jeonnamGwangju.officialName == "전남광주통합특별시")
    // Sixteen provinces since the merger: 17 before it, two of them now one.
    #expect(Province.allCases.count == 16)
    #expect(!Province.allCases.map(\.officialName).contains("광주광역시"))
    #expect(!Province.allCases.map(\.officialName).contains("전라남도"))
  }

  /// The former name of each part: the five 구 were 광주광역시, the 시 and 군 전라남도.
  static let formerNames: [(sigungu: String?, former: String?)] = [
    ("동구", "광주광역시"), ("서구", "광주광역시"), ("남구", "광주광역시"), ("북구", "광주광역시"), ("광산구", "광주광역시"),
    ("목포시", "전라남도"), ("순천시", "전라남도"), ("무안군", "전라남도"), ("신안군", "전라남도"), (nil, nil),
  ]

  @Test("the former name of the merged province follows from the 시군구")
  func formerNames() {
    for (sigungu, former) in Self.formerNames {
      #expect(Province.jeonnamGwangju.formerName(sigungu: sigungu) == former, "\(sigungu ?? "nil")")
    }
    // Only the merger of 2026 has a former name for geocoders: older renames are long known.
    for province in Province.allCases where province != .jeonnamGwangju {
      #expect(province.formerName(sigungu: "중구") == nil, "\(province)")
    }
  }

  @Test("queries give each form under the official name, then under the former one")
  func queriesWithFormerNames() {
    let gwangju = KoreanAddress(parsing: "광주 광산구 장신로 98 (장덕동 1514)")
    #expect(
      gwangju.queries == [
        "전남광주통합특별시 광산구 장신로 98", "광주광역시 광산구 장신로 98",
        "전남광주통합특별시 광산구 장덕동 1514", "광주광역시 광산구 장덕동 1514",
        "전남광주통합특별시 광산구 장덕동", "광주광역시 광산구 장덕동",
      ])
    #expect(gwangju.queryCandidates.map(\.form) == [.road, .road, .lot, .lot, .district, .district])
    let jeonnam = KoreanAddress(parsing: "전남 순천시 장명로 30")
    #expect(jeonnam.queries == ["전남광주통합특별시 순천시 장명로 30", "전라남도 순천시 장명로 30"])
    // Without a 시군구 the former name is unknown (광주광역시 or 전라남도): only the official one.
    let noDistrict = KoreanAddress(parsing: "전남광주통합특별시 장명로 30")
    #expect(noDistrict.queries == ["전남광주통합특별시 장명로 30"])
    // Elsewhere the queries are the official forms alone.
    #expect(KoreanAddress(parsing: "경기 광주시 경안로 33").queries == ["경기도 광주시 경안로 33"])
  }

  @Test("a separately published lot address under the former name completes one under the new name")
  func lotAddressUnderFormerName() {
    let address = KoreanAddress(parsing: "전남광주통합특별시 광산구 장신로 98", lotAddress: "광주광역시 광산구 장덕동 1514")
    #expect(address.jibunAddress == "전남광주통합특별시 광산구 장덕동 1514")
  }

  // MARK: New and moved 구 and 군

  /// 인천 gained 제물포구, 영종구 and 검단구 on 2026-07-01 (서구 split, 중구 and 동구 abolished); 2026
  /// store lists write 서해구, the name 서구 chose for itself. 화성시 has had four 구 since
  /// 2026-02-01. 군위군 moved from 경상북도 to 대구광역시 on 2023-07-01.
  static let districts: [Placed] = [
    Placed(
      input: "인천광역시 제물포구 참외전로 245", sido: "인천광역시", sigungu: "제물포구",
      road: "인천광역시 제물포구 참외전로 245"),
    Placed(input: "인천 영종구 영종대로 100", sido: "인천광역시", sigungu: "영종구", road: "인천광역시 영종구 영종대로 100"),
    Placed(input: "인천 검단구 검단로 100", sido: "인천광역시", sigungu: "검단구", road: "인천광역시 검단구 검단로 100"),
    Placed(input: "인천 서해구 청라대로 100", sido: "인천광역시", sigungu: "서해구", road: "인천광역시 서해구 청라대로 100"),
    Placed(input: "인천서해구청라대로100", sido: "인천광역시", sigungu: "서해구", road: "인천광역시 서해구 청라대로 100"),
    Placed(input: "인천영종구영종대로100", sido: "인천광역시", sigungu: "영종구", road: "인천광역시 영종구 영종대로 100"),
    Placed(
      input: "경기도 화성시 동탄구 동탄중앙로 376", sido: "경기도", sigungu: "화성시 동탄구",
      road: "경기도 화성시 동탄구 동탄중앙로 376"),
    Placed(
      input: "경기 화성시 만세구 향남읍 발안로 1", sido: "경기도", sigungu: "화성시 만세구",
      road: "경기도 화성시 만세구 향남읍 발안로 1"),
    Placed(
      input: "경기도 화성시 효행구 봉담읍 최루백로 1", sido: "경기도", sigungu: "화성시 효행구",
      road: "경기도 화성시 효행구 봉담읍 최루백로 1"),
    Placed(input: "경기화성시병점구병점3로23", sido: "경기도", sigungu: "화성시 병점구", road: "경기도 화성시 병점구 병점3로 23"),
    Placed(
      input: "경북 군위군 군위읍 중앙길 1", sido: "대구광역시", sigungu: "군위군", road: "대구광역시 군위군 군위읍 중앙길 1"),
    Placed(
      input: "경상북도 군위군 군위읍 중앙길 1", sido: "대구광역시", sigungu: "군위군", road: "대구광역시 군위군 군위읍 중앙길 1"),
    Placed(input: "대구 군위군 군위읍 중앙길 1", sido: "대구광역시", sigungu: "군위군", road: "대구광역시 군위군 군위읍 중앙길 1"),
    Placed(input: "군위군 군위읍 중앙길 1", sido: "대구광역시", sigungu: "군위군", road: "대구광역시 군위군 군위읍 중앙길 1"),
    Placed(input: "경북군위군 군위읍 중앙길 1", sido: "대구광역시", sigungu: "군위군", road: "대구광역시 군위군 군위읍 중앙길 1"),
    // The rest of 경상북도 stays.
    Placed(input: "경북 구미시 송정대로 55", sido: "경상북도", sigungu: "구미시", road: "경상북도 구미시 송정대로 55"),
  ]

  @Test("new and moved 구 and 군")
  func newAndMovedDistricts() {
    forEachCase(Self.districts) { example, name in
      let address = KoreanAddress(parsing: example.input)
      #expect(address.province?.officialName == example.sido, name)
      #expect(address.sigungu == example.sigungu, name)
      #expect(address.roadAddress == example.road, name)
      #expect(address.isFullyParsed, name)
    }
  }
}
