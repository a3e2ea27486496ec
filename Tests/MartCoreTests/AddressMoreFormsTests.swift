import MartCore
import TestSupport
import Testing

/// Addresses with a comma where the address goes on after it: the legal 동 after the building
/// number, and the road-name address after the lot number. Each must read like the same address
/// written without the comma (and, for the 동, like it in parentheses).
@Suite("Korean address normalizer, more forms")
struct AddressMoreFormsTests {
  /// A written form and the forms it must read like, apart from `raw`.
  struct Equivalent: CustomTestStringConvertible, Sendable {
    var written: String
    var sameAs: [String]
    var testDescription: String { written }
  }

  static let equivalents: [Equivalent] = [
    Equivalent(
      written: "제주특별자치도 제주시 연북로 1, 노형동",
      sameAs: ["제주특별자치도 제주시 연북로 1 (노형동)", "제주특별자치도 제주시 연북로 1 노형동"]),
    Equivalent(
      written: "경북 포항시 북구 중흥로 244, 죽도동 607-1",
      sameAs: ["경북 포항시 북구 중흥로 244(죽도동 607-1)", "경북 포항시 북구 중흥로 244 죽도동 607-1"]),
    Equivalent(written: "부천시 원미구 중동 1129, 길주로 100", sameAs: ["부천시 원미구 중동 1129 길주로 100"]),
    Equivalent(
      written: "경기 부천시 원미구 중동 1129, 길주로 100 롯데백화점",
      sameAs: ["경기 부천시 원미구 중동 1129 길주로 100 롯데백화점"]),
  ]

  @Test("a comma before the rest of the address reads as a space")
  func commaBeforeTheRest() {
    forEachCase(Self.equivalents) { example, name in
      for other in example.sameAs {
        var address = KoreanAddress(parsing: example.written)
        address.raw = other
        #expect(address == KoreanAddress(parsing: other), name)
        #expect(address.isFullyParsed, name)
      }
    }
  }

  /// An input and the parts it must give.
  struct Form: CustomTestStringConvertible, Sendable {
    var input: String
    var road: String?
    var jibun: String?
    var dongRi: String?
    var detail: String?
    var reference: String?
    var testDescription: String { input }
  }

  static let forms: [Form] = [
    Form(
      input: "제주특별자치도 제주시 연북로 1, 노형동", road: "제주특별자치도 제주시 연북로 1", jibun: nil, dongRi: "노형동",
      detail: nil, reference: "노형동"),
    Form(
      input: "제주특별자치도 제주시 연북로 1, 노형동 롯데마트, 3층", road: "제주특별자치도 제주시 연북로 1", jibun: nil,
      dongRi: "노형동", detail: "롯데마트 3층", reference: "노형동"),
    Form(
      input: "부천시 원미구 중동 1129, 길주로 100", road: "부천시 원미구 길주로 100", jibun: "부천시 원미구 중동 1129",
      dongRi: "중동", detail: nil, reference: nil),
    // After the comma: a unit, a floor, a building name, which stay the detail.
    Form(
      input: "서울특별시 금천구 가산로 106, 112", road: "서울특별시 금천구 가산로 106", jibun: nil, dongRi: nil, detail: "112",
      reference: nil),
    Form(
      input: "경기도 의정부시 민락로 220, 2층", road: "경기도 의정부시 민락로 220", jibun: nil, dongRi: nil, detail: "2층",
      reference: nil),
    Form(
      input: "서울특별시 중구 한강대로 405, 서울역 2층 (봉래동2가)", road: "서울특별시 중구 한강대로 405", jibun: nil,
      dongRi: "봉래동2가", detail: "서울역 2층", reference: "봉래동2가"),
  ]

  @Test("parts of addresses with a comma")
  func parts() {
    forEachCase(Self.forms) { example, name in
      let address = KoreanAddress(parsing: example.input)
      #expect(address.roadAddress == example.road, name)
      #expect(address.jibunAddress == example.jibun, name)
      #expect(address.dongRi == example.dongRi, name)
      #expect(address.detail == example.detail, name)
      #expect(address.reference == example.reference, name)
      #expect(address.raw == example.input, name)
    }
  }
}
