import Foundation
import MartCharset
import TestSupport
import Testing

/// `CharsetDecoder.decodeToUTF8`, which `HTMLDocument` parses from, chooses what `decode` does
/// and gives the same text as bytes.
@Suite("Charset decoding to UTF-8 bytes")
struct CharsetBytesTests {
  struct Body: CustomTestStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var charset: String?
    var testDescription: String { name }
  }

  /// `이마트 휴무일` in EUC-KR.
  static let eucKR: [UInt8] = [0xC0, 0xCC, 0xB8, 0xB6, 0xC6, 0xAE, 0x20, 0xC8, 0xDE, 0xB9, 0xAB, 0xC0, 0xCF]
  static let korean = Array("<p>이마트 휴무일</p>".utf8)

  static let bodies: [Body] = [
    Body(name: "UTF-8 declared", bytes: korean, charset: "UTF-8"),
    Body(name: "UTF-8 declared in lower case, padded", bytes: korean, charset: " \"utf-8\" "),
    Body(name: "UTF-8 undeclared", bytes: korean, charset: nil),
    Body(name: "UTF-8 with a byte order mark", bytes: [0xEF, 0xBB, 0xBF] + korean, charset: "euc-kr"),
    Body(name: "UTF-8 declared, bytes EUC-KR", bytes: eucKR, charset: "utf-8"),
    Body(name: "EUC-KR declared", bytes: eucKR, charset: "EUC-KR"),
    Body(name: "EUC-KR in a meta tag", bytes: Array("<meta charset='euc-kr'>".utf8) + eucKR, charset: nil),
    Body(name: "unknown label", bytes: korean, charset: "x-no-such-charset"),
    Body(
      name: "UTF-16LE with a byte order mark", bytes: [0xFF, 0xFE, 0x3C, 0x00, 0x70, 0x00, 0x3E, 0x00], charset: nil),
    Body(name: "neither UTF-8 nor CP949", bytes: [0x3C, 0x70, 0x3E, 0xFF, 0xFE, 0xFD, 0x80], charset: nil),
    Body(name: "truncated UTF-8", bytes: Array(korean.dropLast(6)), charset: "UTF-8"),
    Body(name: "empty", bytes: [], charset: "UTF-8"),
  ]

  @Test func bytesAreTheDecodedText() {
    forEachCase(Self.bodies) { body, comment in
      let data = Data(body.bytes)
      let text = CharsetDecoder.decode(data, declaredCharset: body.charset)
      let bytes = CharsetDecoder.decodeToUTF8(data, declaredCharset: body.charset)
      #expect(bytes.utf8 == Data(text.text.utf8), comment)
      #expect(bytes.summary == DecodedText.Summary(text), comment)
    }
  }

  @Test func validUTF8IsCheckedInPlace() {
    #expect(CharsetDecoder.isValidUTF8(Data(Self.korean)))
    #expect(CharsetDecoder.isValidUTF8(Data()))
    #expect(!CharsetDecoder.isValidUTF8(Data(Self.eucKR)))
    // Overlong, surrogate, beyond U+10FFFF, truncated.
    for invalid: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x80]] {
      #expect(!CharsetDecoder.isValidUTF8(Data(invalid)), "\(invalid)")
    }
    // A slice that starts past the data's first byte.
    #expect(CharsetDecoder.isValidUTF8(Data([0xFF] + Self.korean).dropFirst()))
  }

  /// The validator agrees with the standard library's on every lead byte with every second
  /// byte (then valid or invalid tails), at every offset from an eight-byte ASCII run, and on
  /// random byte strings made mostly of ASCII, Hangul and stray bytes.
  @Test func theValidatorAgreesWithTheStandardLibrary() {
    // Under Swift Testing each ill-formed input costs `String(validating:)` a recorded backtrace
    // (some 10 µs: it throws inside), and most inputs here are ill-formed.
    func standard(_ bytes: ArraySlice<UInt8>) -> Bool { String(validating: bytes, as: UTF8.self) != nil }
    var disagreements: [[UInt8]] = []
    func check(_ bytes: ArraySlice<UInt8>, standard verdict: Bool) {
      if CharsetDecoder.isValidUTF8(Data(bytes)) != verdict { disagreements.append(Array(bytes)) }
    }
    // Each sequence is built once after eight ASCII bytes, and the validator, whose eight-byte
    // ASCII scan the offsets exercise, is given it at each of the nine offsets that leave 0 to 8
    // of them before it. ASCII bytes before a sequence do not change whether it is well-formed
    // (an ASCII byte is a code point of its own, never part of another), so the standard
    // library's verdict on the sequence is the verdict at every offset.
    let ascii: [UInt8] = Array(repeating: 0x61, count: 8)
    for lead in UInt8(0x80)...0xFF {
      for second in UInt8.min...UInt8.max {
        for tail: [UInt8] in [[], [0x80], [0xBF, 0xBF], [0x41, 0x80], [0x80, 0xC0]] {
          let padded = ascii + [lead, second] + tail + [0x62]
          let verdict = standard(padded[8...])
          for prefix in 0..<9 { check(padded[(8 - prefix)...], standard: verdict) }
        }
      }
    }
    var random = SystemRandomNumberGenerator()
    let pieces: [[UInt8]] = [
      Array("<div class=\"a\">".utf8), Array("홈플러스 ".utf8), [0xE2, 0x80], [0xF0, 0x9F, 0x98, 0x80], [0xC3],
      [0x80], [0xED, 0xB0, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0x00], Array("점".utf8.prefix(2)),
    ]
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...12, using: &random) { bytes += pieces.randomElement(using: &random)! }
      check(bytes[...], standard: standard(bytes[...]))
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
  }
}
