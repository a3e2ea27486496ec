import Foundation
import MartFetch
import Testing

/// `FormEncoding.escape` against Foundation's percent-encoding with the same unreserved set
/// (spaces as `+`), over fixed cases and generated texts of ASCII, Hangul, emoji and controls.
@Suite struct FormEncodingTests {
  /// The reference: Foundation encodes every byte outside the unreserved set, spaces first made
  /// `+`'s placeholder. `+` itself is escaped, so the two cannot be confused.
  private static func reference(_ text: String) -> String {
    let unreserved = CharacterSet(
      charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")
    return text.split(separator: " ", omittingEmptySubsequences: false)
      .map { String($0).addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }
      .joined(separator: "+")
  }

  @Test(arguments: [
    ("", ""), ("abc-XYZ_09.*", "abc-XYZ_09.*"), ("a b", "a+b"), ("한", "%ED%95%9C"),
    ("a+b&c=d", "a%2Bb%26c%3Dd"), ("~!/?", "%7E%21%2F%3F"), ("\u{0}\n", "%00%0A"),
  ])
  func escapesFixedCases(text: String, expected: String) {
    #expect(FormEncoding.escape(text) == expected)
  }

  @Test func matchesFoundationOnGeneratedTexts() {
    let pieces = ["a", "Z", "5", " ", "-", ".", "_", "*", "~", "+", "%", "&", "=", "/", "롯데", "점", "é", "😀", "\t"]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let text = (0..<Int.random(in: 0...12, using: &generator))
        .map { _ in pieces.randomElement(using: &generator)! }.joined()
      #expect(FormEncoding.escape(text) == Self.reference(text), "\(text.debugDescription)")
    }
  }

  @Test func decodeReadsWhatEscapeWrote() {
    let fields = [("name", "롯데 마트 +1"), ("q", "a&b=c")]
    let decoded = FormEncoding.decode(FormEncoding.encode(fields))
    #expect(decoded.map(\.name) == fields.map(\.0))
    #expect(decoded.map(\.value) == fields.map(\.1))
  }
}
