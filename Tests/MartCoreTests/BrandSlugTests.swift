import Testing

@testable import MartCore

/// What a brand slug may be: lower-case ASCII letters in words joined by single hyphens.
@Suite("Brand slug form")
struct BrandSlugTests {
  @Test(
    arguments: [
      ("emart", true), ("homeplus-express", true), ("gs-the-fresh", true), ("a", true), ("", false), ("-", false),
      ("-emart", false), ("emart-", false), ("lotte--mart", false), ("Emart", false), ("e mart", false),
      ("emart2", false), ("lotte_mart", false), ("이마트", false), ("lotte-\u{301}mart", false), ("e\u{301}mart", false),
      ("emart\n", false),
    ] as [(String, Bool)])
  func aSlugIsLowerCaseWordsJoinedBySingleHyphens(text: String, wellFormed: Bool) {
    #expect(BrandSlug.isWellFormed(text) == wellFormed, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
  }
}
