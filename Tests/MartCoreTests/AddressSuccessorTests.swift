import MartCore
import TestSupport
import Testing

/// Addresses in the spellings of 2026: a 특례시 written with its status, and a 구 of 인천 abolished
/// on 2026-07-01 written where the 동 or the road names its successor. Facts and sources are in
/// docs/addresses-and-geocoding.md.
@Suite("Korean address normalizer, 특례시 and successor 구")
struct AddressSuccessorTests {
  /// An input and the province and 시군구 it must give, and whether it warns.
  struct Placed: CustomTestStringConvertible, Sendable {
    var input: String
    var sido: String
    var sigungu: String
    var warns = false
    var testDescription: String { input }
  }

  /// 수원·고양·용인·창원 (2022-01-13) and 화성 (2025-01-01) are 특례시; the legal name keeps 시,
  /// and the city alone says its province.
  static let specialCities: [Placed] = [
    Placed(input: "화성특례시 만세구 향남읍 발안로 1", sido: "경기도", sigungu: "화성시 만세구"),
    Placed(input: "경기도 화성특례시 동탄구 동탄중앙로 376", sido: "경기도", sigungu: "화성시 동탄구"),
    Placed(input: "경기 수원특례시 영통구 광교중앙로 124", sido: "경기도", sigungu: "수원시 영통구"),
    Placed(input: "수원특례시 팔달구 효원로 1", sido: "경기도", sigungu: "수원시 팔달구"),
    Placed(input: "고양특례시 일산동구 중앙로 1275", sido: "경기도", sigungu: "고양시 일산동구"),
    Placed(input: "경기도 용인특례시 기흥구 구성로 1", sido: "경기도", sigungu: "용인시 기흥구"),
    Placed(input: "경남 창원특례시 성산구 중앙대로 1", sido: "경상남도", sigungu: "창원시 성산구"),
    Placed(input: "창원특례시 의창구 중앙대로 151", sido: "경상남도", sigungu: "창원시 의창구"),
    // Written without the status, the city alone places it as well.
    Placed(input: "화성시 병점구 병점3로 23", sido: "경기도", sigungu: "화성시 병점구"),
  ]

  /// 중구 and 동구 were abolished and 서구 split on 2026-07-01: the 동 in brackets or the road
  /// names the successor (운서동 and 공항로 are on 영종도; 신포동 and 항동 inland; 마전동 north of
  /// the 아라뱃길; 청라동 south of it). Without one, the 구 stays as published and warns.
  static let incheon: [Placed] = [
    Placed(input: "인천 중구 공항로 272 (운서동)", sido: "인천광역시", sigungu: "영종구"),
    Placed(input: "인천광역시 중구 영종대로 100", sido: "인천광역시", sigungu: "영종구"),
    Placed(input: "인천 중구 신포로 27 (신포동)", sido: "인천광역시", sigungu: "제물포구"),
    Placed(input: "인천광역시 중구 항동7가 1-1 (항동7가)", sido: "인천광역시", sigungu: "제물포구"),
    Placed(input: "인천광역시 동구 송림로 1", sido: "인천광역시", sigungu: "제물포구"),
    Placed(input: "인천 서구 완정로 10 (마전동)", sido: "인천광역시", sigungu: "검단구"),
    Placed(input: "인천 서구 청라대로 1 (청라동)", sido: "인천광역시", sigungu: "서해구"),
    Placed(input: "인천 서해구 청라대로 1", sido: "인천광역시", sigungu: "서해구"),
    Placed(input: "인천 중구 참외전로 1", sido: "인천광역시", sigungu: "중구", warns: true),
    Placed(input: "인천 서구 봉오대로 1", sido: "인천광역시", sigungu: "서구", warns: true),
    // Other cities' 중구 and 서구 stay.
    Placed(input: "서울 중구 세종대로 110", sido: "서울특별시", sigungu: "중구"),
    Placed(input: "부산 서구 구덕로 120 (토성동)", sido: "부산광역시", sigungu: "서구"),
  ]

  @Test("특례시 read as the legal 시, with its province", arguments: specialCities)
  func specialCity(_ example: Placed) {
    let address = KoreanAddress(parsing: example.input)
    #expect(address.province?.officialName == example.sido)
    #expect(address.sigungu == example.sigungu)
    #expect(address.raw == example.input)
    #expect(address.warnings.isEmpty)
  }

  @Test("an abolished 구 of 인천 becomes its successor where the 동 or road says which", arguments: incheon)
  func incheonSuccessor(_ example: Placed) {
    let address = KoreanAddress(parsing: example.input)
    #expect(address.province?.officialName == example.sido)
    #expect(address.sigungu == example.sigungu)
    #expect(address.warnings.isEmpty == !example.warns)
    #expect((address.roadAddress ?? address.jibunAddress)?.contains(" \(example.sigungu) ") == true)
  }

  @Test("the district of a successor-구 address is the successor")
  func districtOfSuccessor() {
    let written = ["인천 중구 공항로 272 (운서동)", "인천 영종구 공항로 272"].map { KoreanAddress(parsing: $0) }
    let districts = written.map { District(sido: $0.province!.officialName, sigungu: $0.sigungu!) }
    #expect(districts[0] == districts[1])
  }
}
