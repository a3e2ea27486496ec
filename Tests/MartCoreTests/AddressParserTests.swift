import Foundation
import MartCore
import TestSupport
import Testing

/// An input and the canonical forms it must produce.
struct AddressCase: CustomTestStringConvertible, Sendable {
  var input: String
  var sido: String?
  var sigungu: String?
  var road: String?
  var jibun: String?
  var queries: [String]

  var testDescription: String { input }
}

/// A form in which store pages publish an address, and the parts it must produce.
struct AddressFormCase: CustomTestStringConvertible, Sendable {
  var input: String
  var lotAddress: String? = nil
  var road: String?
  var jibun: String?
  var dongRi: String?
  var detail: String?
  var reference: String?

  var testDescription: String { input + (lotAddress.map { " + " + $0 } ?? "") }
}

@Suite("Korean address normalizer")
struct AddressParserTests {
  /// Real store addresses from the brand sources, and the variants store pages produce.
  static let cases: [AddressCase] = [
    AddressCase(
      input: "서울 송파구 신천동 올림픽로 300", sido: "서울특별시", sigungu: "송파구",
      road: "서울특별시 송파구 올림픽로 300", jibun: nil,
      queries: ["서울특별시 송파구 올림픽로 300", "서울특별시 송파구 신천동"]),
    AddressCase(
      input: "경북 포항시 북구 중흥로 244(죽도동 607-1)", sido: "경상북도", sigungu: "포항시 북구",
      road: "경상북도 포항시 북구 중흥로 244", jibun: "경상북도 포항시 북구 죽도동 607-1",
      queries: [
        "경상북도 포항시 북구 중흥로 244", "경상북도 포항시 북구 죽도동 607-1", "경상북도 포항시 북구 죽도동",
      ]),
    AddressCase(
      input: "제주특별자치도 제주시 연북로 1 (노형동)", sido: "제주특별자치도", sigungu: "제주시",
      road: "제주특별자치도 제주시 연북로 1", jibun: nil,
      queries: ["제주특별자치도 제주시 연북로 1", "제주특별자치도 제주시 노형동"]),
    AddressCase(
      input: "강원도 춘천시 방송길 84 (온의동)", sido: "강원특별자치도", sigungu: "춘천시",
      road: "강원특별자치도 춘천시 방송길 84", jibun: nil,
      queries: ["강원특별자치도 춘천시 방송길 84", "강원특별자치도 춘천시 온의동"]),
    AddressCase(
      input: "강원도 춘천시 세실로 108 (석사동)", sido: "강원특별자치도", sigungu: "춘천시",
      road: "강원특별자치도 춘천시 세실로 108", jibun: nil,
      queries: ["강원특별자치도 춘천시 세실로 108", "강원특별자치도 춘천시 석사동"]),
    AddressCase(
      input: "대전광역시 중구 오류로 41", sido: "대전광역시", sigungu: "중구",
      road: "대전광역시 중구 오류로 41", jibun: nil, queries: ["대전광역시 중구 오류로 41"]),
    AddressCase(
      input: "충청북도 청주시 서원구 2순환로 1181", sido: "충청북도", sigungu: "청주시 서원구",
      road: "충청북도 청주시 서원구 2순환로 1181", jibun: nil,
      queries: ["충청북도 청주시 서원구 2순환로 1181"]),
    AddressCase(
      input: "부산광역시 부산진구 가야대로 506", sido: "부산광역시", sigungu: "부산진구",
      road: "부산광역시 부산진구 가야대로 506", jibun: nil, queries: ["부산광역시 부산진구 가야대로 506"]),
    AddressCase(
      input: "경남 창원시 성산구 중앙동 92", sido: "경상남도", sigungu: "창원시 성산구",
      road: nil, jibun: "경상남도 창원시 성산구 중앙동 92",
      queries: ["경상남도 창원시 성산구 중앙동 92", "경상남도 창원시 성산구 중앙동"]),
    AddressCase(
      input: "경남 창원시 성산구 중앙대로 123", sido: "경상남도", sigungu: "창원시 성산구",
      road: "경상남도 창원시 성산구 중앙대로 123", jibun: nil, queries: ["경상남도 창원시 성산구 중앙대로 123"]),
    AddressCase(
      input: "경남 창원시 진해구 석동 543-5", sido: "경상남도", sigungu: "창원시 진해구",
      road: nil, jibun: "경상남도 창원시 진해구 석동 543-5",
      queries: ["경상남도 창원시 진해구 석동 543-5", "경상남도 창원시 진해구 석동"]),
    AddressCase(
      input: "서울특별시 금천구 가산로 106, 112", sido: "서울특별시", sigungu: "금천구",
      road: "서울특별시 금천구 가산로 106", jibun: nil, queries: ["서울특별시 금천구 가산로 106"]),
    // 경기 광주시 is a city in Gyeonggi, not the metropolitan city of Gwangju.
    AddressCase(
      input: "경기 광주시 오포읍 신현로 17", sido: "경기도", sigungu: "광주시",
      road: "경기도 광주시 오포읍 신현로 17", jibun: nil,
      queries: ["경기도 광주시 오포읍 신현로 17", "경기도 광주시 오포읍"]),
    // 광주 is part of 전남광주통합특별시 since 2026-07-01; each query is also asked under the former
    // name of its 구, which geocoders may still know alone.
    AddressCase(
      input: "광주 광산구 임방울대로 330", sido: "전남광주통합특별시", sigungu: "광산구",
      road: "전남광주통합특별시 광산구 임방울대로 330", jibun: nil,
      queries: ["전남광주통합특별시 광산구 임방울대로 330", "광주광역시 광산구 임방울대로 330"]),
    AddressCase(
      input: "광주시 경안로 33", sido: "경기도", sigungu: "광주시",
      road: "경기도 광주시 경안로 33", jibun: nil, queries: ["경기도 광주시 경안로 33"]),
    // Short and old province names.
    AddressCase(
      input: "전라북도 전주시 완산구 효자로 225", sido: "전북특별자치도", sigungu: "전주시 완산구",
      road: "전북특별자치도 전주시 완산구 효자로 225", jibun: nil, queries: ["전북특별자치도 전주시 완산구 효자로 225"]),
    AddressCase(
      input: "충남 천안시 서북구 불당대로 180", sido: "충청남도", sigungu: "천안시 서북구",
      road: "충청남도 천안시 서북구 불당대로 180", jibun: nil, queries: ["충청남도 천안시 서북구 불당대로 180"]),
    AddressCase(
      input: "세종시 한누리대로 2130", sido: "세종특별자치시", sigungu: nil,
      road: "세종특별자치시 한누리대로 2130", jibun: nil, queries: ["세종특별자치시 한누리대로 2130"]),
    AddressCase(
      input: "제주도 서귀포시 중앙로 111-1", sido: "제주특별자치도", sigungu: "서귀포시",
      road: "제주특별자치도 서귀포시 중앙로 111-1", jibun: nil, queries: ["제주특별자치도 서귀포시 중앙로 111-1"]),
    AddressCase(
      input: "경기도 성남시 분당구 황새울로360번길 42", sido: "경기도", sigungu: "성남시 분당구",
      road: "경기도 성남시 분당구 황새울로360번길 42", jibun: nil,
      queries: ["경기도 성남시 분당구 황새울로360번길 42"]),
    // Real addresses from the E-mart store master (fixtures/web).
    AddressCase(
      input: "서울특별시 서초구 매헌로 16, 하이브랜드 B1층", sido: "서울특별시", sigungu: "서초구",
      road: "서울특별시 서초구 매헌로 16", jibun: nil, queries: ["서울특별시 서초구 매헌로 16"]),
    AddressCase(
      input: "대구광역시 수성구 동원로 136 (만촌동)", sido: "대구광역시", sigungu: "수성구",
      road: "대구광역시 수성구 동원로 136", jibun: nil,
      queries: ["대구광역시 수성구 동원로 136", "대구광역시 수성구 만촌동"]),
    AddressCase(
      input: "경기도 남양주시 다산중앙로 123번길 20", sido: "경기도", sigungu: "남양주시",
      road: "경기도 남양주시 다산중앙로123번길 20", jibun: nil, queries: ["경기도 남양주시 다산중앙로123번길 20"]),
    AddressCase(
      input: "부산광역시 강서구 명지국제8로 10", sido: "부산광역시", sigungu: "강서구",
      road: "부산광역시 강서구 명지국제8로 10", jibun: nil, queries: ["부산광역시 강서구 명지국제8로 10"]),
    AddressCase(
      input: "서울특별시 도봉구 창동 1-15", sido: "서울특별시", sigungu: "도봉구",
      road: nil, jibun: "서울특별시 도봉구 창동 1-15", queries: ["서울특별시 도봉구 창동 1-15", "서울특별시 도봉구 창동"]),
    // Real addresses from the Lotte Mart store search (fixtures/web).
    AddressCase(
      input: "충북 청주시 흥덕구 비하로12번길 52 (비하동 332-1)", sido: "충청북도", sigungu: "청주시 흥덕구",
      road: "충청북도 청주시 흥덕구 비하로12번길 52", jibun: "충청북도 청주시 흥덕구 비하동 332-1",
      queries: [
        "충청북도 청주시 흥덕구 비하로12번길 52", "충청북도 청주시 흥덕구 비하동 332-1", "충청북도 청주시 흥덕구 비하동",
      ]),
    AddressCase(
      input: "서울특별시 중구 한강대로 405, 서울역 2층 (봉래동2가)", sido: "서울특별시", sigungu: "중구",
      road: "서울특별시 중구 한강대로 405", jibun: nil,
      queries: ["서울특별시 중구 한강대로 405", "서울특별시 중구 봉래동2가"]),
    AddressCase(
      input: "경기도 성남시 분당구 판교역로146번길 20, 현대백화점 지하2층 (백현동)", sido: "경기도", sigungu: "성남시 분당구",
      road: "경기도 성남시 분당구 판교역로146번길 20", jibun: nil,
      queries: ["경기도 성남시 분당구 판교역로146번길 20", "경기도 성남시 분당구 백현동"]),
    // Road names with digits before 로/길.
    AddressCase(
      input: "전남 무안군 삼향읍 오룡3길 2", sido: "전남광주통합특별시", sigungu: "무안군",
      road: "전남광주통합특별시 무안군 삼향읍 오룡3길 2", jibun: nil,
      queries: [
        "전남광주통합특별시 무안군 삼향읍 오룡3길 2", "전라남도 무안군 삼향읍 오룡3길 2", "전남광주통합특별시 무안군 삼향읍",
        "전라남도 무안군 삼향읍",
      ]),
    AddressCase(
      input: "서울특별시 용산구 한강대로23길 55 (한강로3가, 현대아이파크몰)", sido: "서울특별시", sigungu: "용산구",
      road: "서울특별시 용산구 한강대로23길 55", jibun: nil,
      queries: ["서울특별시 용산구 한강대로23길 55", "서울특별시 용산구 한강로3가"]),
    // 광주시 followed by a 구 is the former metropolitan city.
    AddressCase(
      input: "광주시 북구 서양로 63", sido: "전남광주통합특별시", sigungu: "북구",
      road: "전남광주통합특별시 북구 서양로 63", jibun: nil,
      queries: ["전남광주통합특별시 북구 서양로 63", "광주광역시 북구 서양로 63"]),
    // Road names written with an inner space.
    AddressCase(
      input: "대구 중구 칠성로 56길 7", sido: "대구광역시", sigungu: "중구",
      road: "대구광역시 중구 칠성로56길 7", jibun: nil, queries: ["대구광역시 중구 칠성로56길 7"]),
    // Floors, B1 and building names are details; 지하 before a number is part of the number.
    AddressCase(
      input: "서울특별시 송파구 올림픽로 240 롯데월드몰 지하1층", sido: "서울특별시", sigungu: "송파구",
      road: "서울특별시 송파구 올림픽로 240", jibun: nil, queries: ["서울특별시 송파구 올림픽로 240"]),
    AddressCase(
      input: "서울 중구 세종대로 지하 2, B1", sido: "서울특별시", sigungu: "중구",
      road: "서울특별시 중구 세종대로 지하 2", jibun: nil, queries: ["서울특별시 중구 세종대로 지하 2"]),
    AddressCase(
      input: "인천광역시 연수구 컨벤시아대로 3층 301호", sido: "인천광역시", sigungu: "연수구",
      road: nil, jibun: nil, queries: []),
    AddressCase(
      input: "인천광역시 연수구 컨벤시아대로 165", sido: "인천광역시", sigungu: "연수구",
      road: "인천광역시 연수구 컨벤시아대로 165", jibun: nil, queries: ["인천광역시 연수구 컨벤시아대로 165"]),
    AddressCase(
      input: "인천광역시 연수구 송도동 3-2번지 3층 301호", sido: "인천광역시", sigungu: "연수구",
      road: nil, jibun: "인천광역시 연수구 송도동 3-2",
      queries: ["인천광역시 연수구 송도동 3-2", "인천광역시 연수구 송도동"]),
    // Lot numbers: 산, 번지, 읍/면 and 리.
    AddressCase(
      input: "경기도 여주시 가남읍 태평리 산 12-3번지", sido: "경기도", sigungu: "여주시",
      road: nil, jibun: "경기도 여주시 가남읍 태평리 산12-3",
      queries: ["경기도 여주시 가남읍 태평리 산12-3", "경기도 여주시 가남읍 태평리"]),
    AddressCase(
      input: "서울특별시 중구 충무로1가 24-1 번지", sido: "서울특별시", sigungu: "중구",
      road: nil, jibun: "서울특별시 중구 충무로1가 24-1",
      queries: ["서울특별시 중구 충무로1가 24-1", "서울특별시 중구 충무로1가"]),
    // Full-width characters, NBSP, repeated spaces, link text, company names, nested parentheses.
    AddressCase(
      input: "서울특별시　금천구　가산로　１０６", sido: "서울특별시", sigungu: "금천구",
      road: "서울특별시 금천구 가산로 106", jibun: nil, queries: ["서울특별시 금천구 가산로 106"]),
    AddressCase(
      input: "대전광역시\u{00A0}중구   오류로\u{00A0}41 길 찾기", sido: "대전광역시", sigungu: "중구",
      road: "대전광역시 중구 오류로 41", jibun: nil, queries: ["대전광역시 중구 오류로 41"]),
    AddressCase(
      input: "경상남도 창원시 의창구 원이대로 450 (주)롯데쇼핑 창원점", sido: "경상남도", sigungu: "창원시 의창구",
      road: "경상남도 창원시 의창구 원이대로 450", jibun: nil, queries: ["경상남도 창원시 의창구 원이대로 450"]),
    AddressCase(
      input: "제주특별자치도 제주시 연북로 1 (노형동 (롯데마트 제주점))", sido: "제주특별자치도", sigungu: "제주시",
      road: "제주특별자치도 제주시 연북로 1", jibun: nil,
      queries: ["제주특별자치도 제주시 연북로 1", "제주특별자치도 제주시 노형동"]),
    // Spaces dropped.
    AddressCase(
      input: "서울송파구올림픽로300", sido: "서울특별시", sigungu: "송파구",
      road: "서울특별시 송파구 올림픽로 300", jibun: nil, queries: ["서울특별시 송파구 올림픽로 300"]),
    AddressCase(
      input: "경남창원시성산구중앙동92", sido: "경상남도", sigungu: "창원시 성산구",
      road: nil, jibun: "경상남도 창원시 성산구 중앙동 92",
      queries: ["경상남도 창원시 성산구 중앙동 92", "경상남도 창원시 성산구 중앙동"]),
  ]

  @Test("canonical forms")
  func canonicalForms() {
    forEachCase(Self.cases) { example, name in
      let address = KoreanAddress(parsing: example.input)
      #expect(address.province?.officialName == example.sido, name)
      #expect(address.sigungu == example.sigungu, name)
      #expect(address.roadAddress == example.road, name)
      #expect(address.jibunAddress == example.jibun, name)
      #expect(address.queries == example.queries, name)
      #expect(address.raw == example.input, name)
    }
  }

  /// Short and old province names, and the official name each maps to.
  static let provinceNames = [
    ("서울", "서울특별시"), ("서울시", "서울특별시"), ("부산", "부산광역시"), ("대구시", "대구광역시"),
    ("인천", "인천광역시"), ("광주", "전남광주통합특별시"), ("대전", "대전광역시"), ("울산", "울산광역시"),
    ("세종", "세종특별자치시"), ("세종시", "세종특별자치시"), ("경기", "경기도"), ("강원", "강원특별자치도"),
    ("강원도", "강원특별자치도"), ("충북", "충청북도"), ("충남", "충청남도"), ("전북", "전북특별자치도"),
    ("전라북도", "전북특별자치도"), ("전남", "전남광주통합특별시"), ("경북", "경상북도"), ("경남", "경상남도"),
    ("제주", "제주특별자치도"), ("제주도", "제주특별자치도"),
  ]

  @Test("every short and old province name maps to the official name")
  func provinceAliases() {
    for (alias, official) in Self.provinceNames {
      #expect(Province(alias: alias)?.officialName == official, "\(alias)")
      #expect(KoreanAddress(parsing: "\(alias) 가나구 다라로 1").province?.officialName == official, "\(alias)")
    }
  }

  /// The mixed forms real brand sources publish.
  static let forms: [AddressFormCase] = [
    // The legal 동 after the building number is the reference, not the detail.
    AddressFormCase(
      input: "제주특별자치도 제주시 연북로 1 노형동", road: "제주특별자치도 제주시 연북로 1", jibun: nil,
      dongRi: "노형동", detail: nil, reference: "노형동"),
    AddressFormCase(
      input: "제주특별자치도 제주시 연북로 1 노형동 롯데마트 제주점", road: "제주특별자치도 제주시 연북로 1", jibun: nil,
      dongRi: "노형동", detail: "롯데마트 제주점", reference: "노형동"),
    AddressFormCase(
      input: "경북 포항시 북구 중흥로 244 죽도동 607-1", road: "경상북도 포항시 북구 중흥로 244",
      jibun: "경상북도 포항시 북구 죽도동 607-1", dongRi: "죽도동", detail: nil, reference: "죽도동 607-1"),
    AddressFormCase(
      input: "서울특별시 중구 한강대로 405 봉래동2가, 서울역 2층", road: "서울특별시 중구 한강대로 405", jibun: nil,
      dongRi: "봉래동2가", detail: "서울역 2층", reference: "봉래동2가"),
    AddressFormCase(
      input: "전라남도 무안군 삼향읍 오룡3길 2 남악리", road: "전남광주통합특별시 무안군 삼향읍 오룡3길 2", jibun: nil,
      dongRi: "남악리", detail: nil, reference: "남악리"),
    // Road-name address with the lot-number address in parentheses.
    AddressFormCase(
      input: "경북 포항시 북구 중흥로 244(죽도동 607-1)", road: "경상북도 포항시 북구 중흥로 244",
      jibun: "경상북도 포항시 북구 죽도동 607-1", dongRi: "죽도동", detail: nil, reference: "죽도동 607-1"),
    // The lot number first, then the road-name address: both are kept.
    AddressFormCase(
      input: "부천시 원미구 중동 1129 길주로 100", road: "부천시 원미구 길주로 100", jibun: "부천시 원미구 중동 1129",
      dongRi: "중동", detail: nil, reference: nil),
    AddressFormCase(
      input: "경기 부천시 원미구 중동 1129 길주로 100 롯데백화점", road: "경기도 부천시 원미구 길주로 100",
      jibun: "경기도 부천시 원미구 중동 1129", dongRi: "중동", detail: "롯데백화점", reference: nil),
    AddressFormCase(
      input: "경남 김해시 장유면 대청리 산 44 계동로 75", road: "경상남도 김해시 장유면 계동로 75",
      jibun: "경상남도 김해시 장유면 대청리 산44", dongRi: "대청리", detail: nil, reference: nil),
    AddressFormCase(
      input: "서울 중구 태평로1가 31 세종대로 지하 2", road: "서울특별시 중구 세종대로 지하 2",
      jibun: "서울특별시 중구 태평로1가 31", dongRi: "태평로1가", detail: nil, reference: nil),
    // An address run on into the next text: the building number ends at its last digit.
    AddressFormCase(
      input: "서울특별시 노원구 마들로3길 15SFM 월계점", road: "서울특별시 노원구 마들로3길 15", jibun: nil,
      dongRi: nil, detail: "SFM 월계점", reference: nil),
    AddressFormCase(
      input: "대구 중구 칠성로 56지하1층", road: "대구광역시 중구 칠성로 56", jibun: nil, dongRi: nil,
      detail: "지하1층", reference: nil),
    AddressFormCase(
      input: "제주도 서귀포시 중앙로 111-1롯데마트", road: "제주특별자치도 서귀포시 중앙로 111-1", jibun: nil,
      dongRi: nil, detail: "롯데마트", reference: nil),
    AddressFormCase(
      input: "제주특별자치도 제주시 연북로 1노형동", road: "제주특별자치도 제주시 연북로 1", jibun: nil,
      dongRi: "노형동", detail: nil, reference: "노형동"),
    // A separately published lot-number line, in parentheses as Homeplus writes it.
    AddressFormCase(
      input: "대전광역시 중구 오류로 41", lotAddress: "(오류동 116-3)", road: "대전광역시 중구 오류로 41",
      jibun: "대전광역시 중구 오류동 116-3", dongRi: "오류동", detail: nil, reference: nil),
    // The map button's text after the address.
    AddressFormCase(
      input: "경상남도 창원시 의창구 원이대로 450 길 찾기", road: "경상남도 창원시 의창구 원이대로 450", jibun: nil,
      dongRi: nil, detail: nil, reference: nil),
  ]

  @Test("mixed forms from the brand sources")
  func mixedForms() {
    forEachCase(Self.forms) { example, name in
      let address = KoreanAddress(parsing: example.input, lotAddress: example.lotAddress)
      #expect(address.roadAddress == example.road, name)
      #expect(address.jibunAddress == example.jibun, name)
      #expect(address.dongRi == example.dongRi, name)
      #expect(address.detail == example.detail, name)
      #expect(address.reference == example.reference, name)
      #expect(address.isFullyParsed, name)
      #expect(address.raw == example.input, name)
    }
  }

  /// Addresses with a 동, 가 or 리 written after the building number, and the same address with
  /// it in parentheses.
  static let trailingDongs = [
    ("제주특별자치도 제주시 연북로 1 노형동", "제주특별자치도 제주시 연북로 1 (노형동)"),
    ("제주특별자치도 제주시 연북로 1노형동", "제주특별자치도 제주시 연북로 1 (노형동)"),
    ("경북 포항시 북구 중흥로 244 죽도동 607-1", "경북 포항시 북구 중흥로 244(죽도동 607-1)"),
    ("서울특별시 중구 한강대로 405 봉래동2가, 서울역 2층", "서울특별시 중구 한강대로 405, 서울역 2층 (봉래동2가)"),
    ("경기 광주시 오포읍 신현로 17 신현리", "경기 광주시 오포읍 신현로 17 (신현리)"),
    ("서울 중구 세종대로 지하 2 태평로1가 31", "서울 중구 세종대로 지하 2 (태평로1가 31)"),
    ("경남 김해시 장유면 계동로 75 대청리 산 44", "경남 김해시 장유면 계동로 75 (대청리 산 44)"),
  ]

  @Test("a 동, 가 or 리 after the building number reads as if it were in parentheses")
  func trailingDongAsReference() {
    for (written, parenthesized) in Self.trailingDongs {
      var address = KoreanAddress(parsing: written)
      address.raw = parenthesized
      #expect(address == KoreanAddress(parsing: parenthesized), "\(written)")
      #expect(address.dongRi != nil, "\(written)")
      #expect(address.detail?.contains(address.dongRi ?? "?") != true, "\(written)")
    }
  }

  @Test("a time after a road name is not a building number")
  func timeAfterRoadName() {
    let address = KoreanAddress(parsing: "서울특별시 송파구 올림픽로 10:00~23:00")
    #expect(address.buildingNumber == nil)
    #expect(address.roadAddress == nil)
    #expect(address.unparsed == ["10:00~23:00"])
  }

  @Test("parts of a mixed address with a parenthesized lot number")
  func mixedAddressParts() {
    let address = KoreanAddress(parsing: "경북 포항시 북구 중흥로 244(죽도동 607-1)")
    #expect(address.roadName == "중흥로")
    #expect(address.buildingNumber == BuildingNumber(main: 244))
    #expect(address.dongRi == "죽도동")
    #expect(address.lotNumber == LotNumber(main: 607, sub: 1))
    #expect(address.reference == "죽도동 607-1")
    #expect(address.detail == nil)
    #expect(address.isFullyParsed)
  }

  @Test("a separately published lot-number address completes the road-name address")
  func withLotAddress() {
    let table = [
      ("서울특별시 도봉구 노해로 65", "서울특별시 도봉구 창동 1-15", "서울특별시 도봉구 창동 1-15"),
      ("경남 창원시 성산구 중앙대로 123", "경남 창원시 성산구 중앙동 92", "경상남도 창원시 성산구 중앙동 92"),
      ("경기도 의정부시 민락로 220, 2층", "경기도 의정부시 민락동 846", "경기도 의정부시 민락동 846"),
    ]
    for (road, lot, jibun) in table {
      let address = KoreanAddress(parsing: road, lotAddress: lot)
      #expect(address.roadAddress == KoreanAddress(parsing: road).roadAddress, "\(road)")
      #expect(address.roadAddress != nil, "\(road)")
      #expect(address.jibunAddress == jibun, "\(road)")
      #expect(address.queries.count == 3, "\(road)")
      #expect(address.raw == road, "\(road)")
    }
  }

  @Test("a lot-number address of another district is ignored")
  func lotAddressElsewhere() {
    let address = KoreanAddress(parsing: "서울특별시 도봉구 노해로 65", lotAddress: "서울특별시 서초구 양재동 215")
    #expect(address.jibunAddress == nil)
    #expect(address.dongRi == nil)
  }

  @Test("details keep floors, units and building names out of the canonical forms")
  func details() {
    let address = KoreanAddress(parsing: "서울특별시 금천구 가산로 106, 112")
    #expect(address.detail == "112")
    let mall = KoreanAddress(parsing: "서울특별시 송파구 올림픽로 240 롯데월드몰 지하1층")
    #expect(mall.detail == "롯데월드몰 지하1층")
    let underground = KoreanAddress(parsing: "서울 중구 세종대로 지하 2, B1")
    #expect(underground.buildingNumber == BuildingNumber(main: 2, isUnderground: true))
    #expect(underground.detail == "B1")
  }

  @Test("the text is normalized to NFC")
  func decomposedInput() {
    let decomposed = "대전광역시 중구 오류로 41".decomposedStringWithCanonicalMapping
    #expect(decomposed.unicodeScalars.count > "대전광역시 중구 오류로 41".unicodeScalars.count)
    let address = KoreanAddress(parsing: decomposed)
    #expect(address.roadAddress?.unicodeScalars.elementsEqual("대전광역시 중구 오류로 41".unicodeScalars) == true)
  }

  @Test("text that is not an address is reported, not guessed")
  func garbage() {
    let table = [
      ("", [String]()), ("영업시간 10:00~23:00", ["영업시간", "10:00~23:00"]), ("asdf 1234 ((", ["asdf", "1234"]),
      ("롯데마트 서울 송파구 올림픽로 300", ["롯데마트"]),
    ]
    for (input, unparsed) in table {
      let address = KoreanAddress(parsing: input)
      #expect(address.unparsed == unparsed, "\(input.debugDescription)")
      if input != "롯데마트 서울 송파구 올림픽로 300" {
        #expect(address.roadAddress == nil, "\(input.debugDescription)")
        #expect(address.queries.isEmpty, "\(input.debugDescription)")
      }
    }
  }

  /// Fragments of store-page addresses, glued in every order by a fixed pseudo-random sequence.
  @Test("any mix of fragments parses without failing, and canonical forms stay clean")
  func fragmentsInAnyOrder() {
    let fragments = [
      "서울", "경기 광주시", "성남시", "분당구", "신천동", "올림픽로", "56길", "300", "지하", "산", "12-3", "번지", "(", ")",
      "광주특별시", "전남광주", "광산구", "군위군", "3공단", "6로", "양평동", "3가", "종로", "2번길",
      "((주)롯데쇼핑)", ",", "B1", "3층", "301호", "길 찾기", "\u{00A0}", "　", "１０６", "(죽도동 607-1)", "가남읍", "태평리",
      "-", "~", "점", "롯데마트", "\u{1100}\u{1161}", "",
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<500 {
      let text = (0..<(1 + next(9))).map { _ in fragments[next(fragments.count)] }
        .joined(separator: next(3) == 0 ? "" : " ")
      let address = KoreanAddress(parsing: text)
      for form in [address.roadAddress, address.jibunAddress].compactMap({ $0 }) + address.queries {
        #expect(!form.contains { "(),~".contains($0) }, "\(text) → \(form)")
        #expect(!form.contains("  ") && !form.hasPrefix(" ") && !form.hasSuffix(" "), "\(text) → \(form)")
        #expect(!form.contains("층") && !form.contains("번지") && !form.contains("찾기"), "\(text) → \(form)")
        #expect(form.unicodeScalars.elementsEqual(form.precomposedStringWithCanonicalMapping.unicodeScalars))
      }
    }
  }

  @Test("JSON carries the parts, the canonical forms and nulls for absent forms")
  func json() throws {
    let address = KoreanAddress(parsing: "경남 창원시 성산구 중앙동 92")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(address)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["sido"] as? String == "경상남도")
    #expect(object["sigungu"] as? String == "창원시 성산구")
    #expect(object["roadAddress"] is NSNull)
    #expect(object["jibunAddress"] as? String == "경상남도 창원시 성산구 중앙동 92")
    #expect(object["queries"] as? [String] == ["경상남도 창원시 성산구 중앙동 92", "경상남도 창원시 성산구 중앙동"])
    let decoded = try JSONDecoder().decode(KoreanAddress.self, from: data)
    #expect(decoded == address)
  }
}
