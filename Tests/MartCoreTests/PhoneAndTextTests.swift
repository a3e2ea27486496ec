import Foundation
import Testing

@testable import MartCore

@Suite struct PhoneNumberTests {
  @Test func formats() {
    let table = [
      ("055-211-1234", "055-211-1234"),
      ("064 798 2500", "064-798-2500"),
      ("0332402500", "033-240-2500"),
      ("054)278-1448~9", "054-278-1448"),
      ("+82-1899-9900", "1899-9900"),
      ("1899-9900", "1899-9900"),
      ("02-1234-4560", "02-1234-4560"),
      ("0212344560", "02-1234-4560"),
      ("031-000-0000", "031-000-0000"),
    ]
    for (published, expected) in table {
      #expect(PhoneNumber.format(published) == expected, "\(published)")
    }
  }

  @Test func rejectsWhatIsNotAPhoneNumber() {
    for published in ["", "전화번호 없음", "12345", "055-211-12345-1"] {
      #expect(PhoneNumber.format(published) == nil, "\(published.debugDescription)")
    }
  }
}

@Suite struct TextCleanupTests {
  @Test func collapsesSpacesAndNormalizes() {
    // Conjoining jamo (ᄉ + ᅡ + ᆼ) become the precomposed syllable 상.
    #expect(TextCleanup.field("\u{1109}\u{1161}\u{11BC}") == "상")
    #expect(TextCleanup.field("  창원점\u{00A0}\u{00A0}이마트\n\t ") == "창원점 이마트")
    #expect(TextCleanup.field(" \u{3000} ") == nil)
    #expect(TextCleanup.field(nil) == nil)
    // A syllable followed by a trailing jamo composes; so do a letter and a combining accent.
    #expect(TextCleanup.field("\u{AC00}\u{11A8}") == "\u{AC01}")
    #expect(TextCleanup.field("e\u{0301}") == "\u{00E9}")
    #expect(TextCleanup.field("\u{2126}") == "\u{03A9}")
  }

  /// The quick NFC test may only say yes to text that normalization leaves as it is; checked
  /// on every scalar it accepts, alone and after each kind of base character.
  @Test func quickNFCTestAcceptsOnlyNormalizedText() {
    var accepted: [Unicode.Scalar] = []
    for value in UInt32(0)...0x10FFFF {
      guard let scalar = Unicode.Scalar(value), TextCleanup.isNFC(String(scalar)) else { continue }
      accepted.append(scalar)
    }
    #expect(accepted.count > 10_000)
    let bases: [String] = ["", "a", "e", "\u{AC00}", "\u{1100}", "\u{3131}", "\u{00C5}"]
    var wrong: [String] = []
    for scalar in accepted {
      for base in bases {
        for text in [base + String(scalar), String(scalar) + base] where TextCleanup.isNFC(text) {
          if text.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual(text.unicodeScalars) == false {
            wrong.append(text.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
          }
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    // And the whitespace it folds is Unicode's, plus controls and the byte order mark.
    for value in UInt32(0)...0xFFFF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let expected =
        scalar.properties.isWhitespace || scalar == "\u{FEFF}" || scalar.properties.generalCategory == .control
      #expect(TextCleanup.isSpace(scalar) == expected, "U+\(String(value, radix: 16))")
    }
  }
}

@Suite struct PublishedPhoneTableTests {
  @Test func formats() {
    let table = [
      ("054)278-1448~9", "054-278-1448"),
      ("02)3478-0123", "02-3478-0123"),
      ("031)711-9925~6", "031-711-9925"),
      ("0424823300", "042-482-3300"),
      ("033 745 0071", "033-745-0071"),
      ("1588-1234", "1588-1234"),
      ("1644-5678", "1644-5678"),
      ("+82-2-1234-5678", "02-1234-5678"),
    ]
    for (published, expected) in table {
      #expect(PhoneNumber.format(published) == expected, "\(published)")
    }
  }

  @Test func placeholdersAreNotNumbers() {
    for published in ["00-000-0000", "000-000-0000", "02-123", "1234-5678"] {
      #expect(PhoneNumber.format(published) == nil, "\(published)")
    }
  }
}

@Suite struct OpeningHoursTests {
  @Test func readsARange() {
    let table = [
      ("오전 10:00 - 오후 10:00", "10:00", "22:00"),
      ("10:00~24:00", "10:00", "24:00"),
      ("10:00 ~ 23:00", "10:00", "23:00"),
      ("오전 10:00 ~ 오후 23:00", "10:00", "23:00"),
      ("08:00 ~ 01:00", "08:00", "01:00"),
      ("오전 9시 ~ 오후 11시", "09:00", "23:00"),
      ("오전 10시 30분부터 오후 10시까지", "10:30", "22:00"),
      ("10:00 AM - 10:00 PM", "10:00", "22:00"),
      ("10:00am ~ 9:30pm", "10:00", "21:30"),
      ("am 10:00 ~ Pm 11:00", "10:00", "23:00"),
      ("영업시간 １０：００～２３：００", "10:00", "23:00"),
      ("오전 10:00 - 오전 12:00", "10:00", "24:00"),
    ]
    for (text, open, close) in table {
      #expect(OpeningHours.parse(text) == OpeningHours(open: open, close: close), "\(text)")
    }
  }

  @Test func sentencesThatAreNotHours() {
    let table = [
      "연중무휴", "전일은 오후 7시까지 영업", "영업시간은 매장에 문의하세요", "", "25:00 ~ 26:00", "10:00 ~ 10:00",
      "2026-11-08 ~ 2026-11-09",
    ]
    for text in table {
      #expect(OpeningHours.parse(text) == nil, "\(text.debugDescription)")
    }
  }

  @Test func encodedAsAnObject() throws {
    let data = try JSONEncoder().encode(OpeningHours(open: "10:00", close: "24:00"))
    #expect(String(decoding: data, as: UTF8.self).contains(#""close":"24:00""#))
  }
}

@Suite struct NearestDateTests {
  static let november20 = CalendarDate(year: 2026, month: 11, day: 20)!

  @Test func picksTheNearestYear() {
    let table = [
      (11, 8, "2026-11-08"),  // earlier this month
      (12, 27, "2026-12-27"),
      (1, 10, "2027-01-10"),  // January seen in November is next January
      (3, 8, "2027-03-08"),  // 108 days ahead, 257 days back
      (5, 20, "2027-05-20"),  // 181 days ahead against 184 days back
    ]
    for (month, day, expected) in table {
      #expect(CalendarDate.nearest(month: month, day: day, to: Self.november20)?.iso == expected, "\(month)/\(day)")
    }
  }

  @Test func leapDayAndNonsense() {
    // 2028 is the nearest leap year to 2027-12-01 with a February 29.
    #expect(
      CalendarDate.nearest(month: 2, day: 29, to: CalendarDate(year: 2027, month: 12, day: 1)!)?.iso == "2028-02-29")
    #expect(CalendarDate.nearest(month: 2, day: 30, to: Self.november20) == nil)
    #expect(CalendarDate.nearest(month: 13, day: 1, to: Self.november20) == nil)
  }
}
