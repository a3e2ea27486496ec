import MartCore
import Testing

@Suite struct PhoneNumberTests {
  @Test(arguments: [
    ("055-211-1234", "055-211-1234"),
    ("064 798 2500", "064-798-2500"),
    ("0332402500", "033-240-2500"),
    ("054)278-1448~9", "054-278-1448"),
    ("+82-1899-9900", "1899-9900"),
    ("1899-9900", "1899-9900"),
    ("02-1234-4560", "02-1234-4560"),
    ("0212344560", "02-1234-4560"),
    ("031-000-0000", "031-000-0000"),
  ])
  func formats(published: String, expected: String) {
    #expect(PhoneNumber.format(published) == expected)
  }

  @Test(arguments: ["", "전화번호 없음", "12345", "055-211-12345-1"])
  func rejectsWhatIsNotAPhoneNumber(published: String) {
    #expect(PhoneNumber.format(published) == nil)
  }
}

@Suite struct TextCleanupTests {
  @Test func collapsesSpacesAndNormalizes() {
    // Conjoining jamo (ᄉ + ᅡ + ᆼ) become the precomposed syllable 상.
    #expect(TextCleanup.field("\u{1109}\u{1161}\u{11BC}") == "상")
    #expect(TextCleanup.field("  창원점\u{00A0}\u{00A0}이마트\n\t ") == "창원점 이마트")
    #expect(TextCleanup.field(" \u{3000} ") == nil)
    #expect(TextCleanup.field(nil) == nil)
  }
}
