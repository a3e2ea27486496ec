import Testing

@testable import MartCore

/// The address parser's readings by scalar agree with the readings by `Character` they replace,
/// on the text they are given.
@Suite struct AddressScalarReadingTests {
  /// `AddressParser.city(of:)` and the 특례시 check read every 시군구 the parser can make (Hangul
  /// syllables, with one space between a 시 and its 구) as `split(separator: " ").first` and
  /// `hasSuffix("특례시")` do.
  @Test func cityReadsAsCharactersDo() {
    let syllables: [String] = ["특", "례", "시", "수", "원", "구", "제", "주", "서", "귀", "포", "군", "위", "가"]
    var words: [String] = syllables
    for _ in 0..<2 { words += words.prefix(60).flatMap { word in syllables.map { word + $0 } } }
    var wrong: [String] = []
    for first in words {
      for sigungu in [first] + words.prefix(40).map({ first + " " + $0 }) {
        let old = sigungu.split(separator: " ").first
        let new = AddressParser.city(of: sigungu)
        let newSpecial = new.map { $0.unicodeScalars.reversed().starts(with: "특례시".unicodeScalars.reversed()) }
        if old.map(String.init) != new.map(String.init) || old.map({ $0.hasSuffix("특례시") }) != newSpecial {
          wrong.append(sigungu)
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }

  /// `has(scalar:at:)` answers as `has(_:at:)` does for a literal of that one scalar, at every
  /// index of a slice and one past either end.
  @Test func oneScalarReadsAsItsLiteral() {
    let text = Array("(주)길 12-3, 산B~b가\u{301}".unicodeScalars)
    var wrong: [String] = []
    for slice in [text[...], text[2..<9], text[5..<5]] {
      for index in (slice.startIndex - 1)...(slice.endIndex + 1) {
        for scalar in text where slice.has(scalar: scalar, at: index) != slice.has(String(scalar), at: index) {
          wrong.append("\(scalar) at \(index)")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }

  /// A 특례시 is written under its legal name, with its province when none is written.
  @Test func specialCitiesTakeTheirLegalNames() {
    let yongin = KoreanAddress(parsing: "용인특례시 기흥구 중부대로 242")
    #expect(yongin.sigungu == "용인시 기흥구")
    #expect(yongin.province == .gyeonggi)
    let changwon = KoreanAddress(parsing: "경남 창원특례시 의창구 원이대로 450")
    #expect(changwon.sigungu == "창원시 의창구")
    #expect(changwon.province == .gyeongnam)
    #expect(KoreanAddress(parsing: "서귀포시 중앙로 111-1").province == .jeju)
  }
}
