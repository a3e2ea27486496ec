import Testing

@testable import MartCore

/// The readers that go by scalars but must read as `Character`s do (phone numbers, the status
/// pre-check) agree with a reading by `Character` on text with marks where they matter.
@Suite struct GraphemeReadingTests {
  /// `TextCleanup.breaksGrapheme` against the standard library for the left-hand scalars it
  /// is asked about: white space, ASCII, a Hangul syllable and a mark after one of them.
  @Test func breaksAsCharactersDo() {
    let lefts: [Unicode.Scalar] = [
      " ", "\t", "\r", "\n", "1", "~", "+", "가", "\u{3000}", "\u{A0}", "\u{301}", "\u{200D}",
    ]
    let rights =
      (0...0x3500).compactMap(Unicode.Scalar.init) + (0xAC00...0xAC20).compactMap(Unicode.Scalar.init)
      + (0xD7B0...0xD7FF).compactMap(Unicode.Scalar.init) + (0xFE00...0xFFFF).compactMap(Unicode.Scalar.init)
      + ["\u{1F600}", "\u{1F1F0}", "\u{E0020}", "\u{110BD}"]
    var wrong: [String] = []
    for left in lefts {
      for right in rights {
        var pair = String.UnicodeScalarView()
        pair.append(left)
        pair.append(right)
        if TextCleanup.breaksGrapheme(left, right) != (String(pair).count == 2) {
          wrong.append("U+\(String(left.value, radix: 16)) U+\(String(right.value, radix: 16))")
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }

  static let phones = [
    "055-211-1234", "055-211-1234\u{301}", "0\u{301}55-211-1234", "~\u{301}055-211-1234~9", "~~0552111234~9", "~",
    "+\u{301}82-1899-9900", " \u{301}+82 2 1234 5678", "  +82 2 1234 5678", "+8\u{301}2-1899-9900",
    "\u{600}055-211-1234",
    "055-211-1234 \u{301}~9", "02)1234-5678", "1588\u{20E3}-1234", "0\r\n55-211-1234", "1899 9900",
  ]

  @Test(arguments: phones) func phonesReadAsCharacters(published: String) {
    #expect(PhoneNumber.format(published) == Self.phoneByCharacters(published), "\(published.debugDescription)")
  }

  /// `PhoneNumber.format` as it read by `Character` before it read scalars.
  static func phoneByCharacters(_ published: String) -> String? {
    let main = published.split(separator: "~", maxSplits: 1).first.map(String.init) ?? ""
    var digits = main.filter { $0.isASCII && $0.isNumber }
    if main.drop(while: { $0 == " " }).hasPrefix("+82") {
      digits.removeFirst(2)
      if !digits.hasPrefix("0") && !national(digits) { digits = "0" + digits }
    }
    func national(_ digits: String) -> Bool {
      digits.count == 8 && digits.hasPrefix("1") && ["15", "16", "18"].contains(String(digits.prefix(2)))
    }
    if national(digits) { return "\(digits.prefix(4))-\(digits.suffix(4))" }
    guard digits.hasPrefix("0"), digits.dropFirst().first != "0" else { return nil }
    let areaLength = digits.hasPrefix("02") ? 2 : 3
    guard [7, 8].contains(digits.count - areaLength) else { return nil }
    let rest = digits.dropFirst(areaLength)
    return "\(digits.prefix(areaLength))-\(rest.dropLast(4))-\(rest.suffix(4))"
  }

  static let statusTexts = [
    "폐 \u{301}점", "폐\u{600} 점", "임시 휴업", "휴\r\n업", "영업 중\u{301}", "폐\u{3000}점", "10:00 ~ 22:00", "매월 둘째 일요일",
    "리 뉴 얼", "보 \u{20E3}수", "문\u{A0}닫", "영업중", "\u{301} 폐점",
  ]

  @Test(arguments: statusTexts) func statusWordsFoundAsByCharacters(text: String) {
    let compact = String(text.filter { !$0.isWhitespace })
    let words =
      StoreStatusText.closedWords + StoreStatusText.closedFromWords + StoreStatusText.temporaryWords
      + StoreStatusText.worksWords + StoreStatusText.shutWords + ["영업중"]
    #expect(
      StoreStatusText.mayTellAStatus(text) == words.contains(where: compact.containsText), "\(text.debugDescription)")
  }

  /// Hours with marks, as `OpeningHours.parse` read them when its scanner compared `Character`s
  /// (outputs of that reading, 2026-12-03): a digit with a mark is no digit, a mark on `오` or a
  /// separator breaks what it is on, jamo spell `시` as the syllable does.
  static let hours: [(String, String?)] = [
    ("10:00~22:00", "10:00-22:00"), ("1\u{301}0:00~22:00", nil), ("10:00 ~ 2\u{301}2:00", nil),
    ("오\u{301}후 1시 ~ 9시", "01:00-09:00"), ("10\u{1109}\u{1175} ~ 22\u{1109}\u{1175}", "10:00-22:00"),
    ("９:００～２２:００", "09:00-22:00"), ("10:00\u{301}~22:00", nil), ("10:00 ～\u{301} 22:00", nil),
    ("9\u{301}:00~22:00", nil), ("10:00 \u{212A}M ~ 10 PM", nil), ("10:00 A\u{301}M - 10:00 PM", "10:00-22:00"),
    ("10시 3\u{301}0분 ~ 22시", "10:00-22:00"), ("10:00 \u{3000}~ 22:00", "10:00-22:00"),
    ("\u{600}10:00~22:00", "00:00-22:00"),
  ]

  @Test(arguments: hours) func hoursReadAsCharacters(published: String, expected: String?) {
    let hours = OpeningHours.parse(published)
    #expect(hours.map { "\($0.open)-\($0.close)" } == expected, "\(published.debugDescription)")
  }
}
