import MartCore

/// How dates, day ranges and counts read in what people read: the diff's text and Markdown and
/// the report page share these, so the same day is written the same way everywhere.
public enum DisplayText {
  /// `11-22(일)`: month, day and the Korean weekday.
  public static func short(_ date: CalendarDate) -> String {
    String(date.iso.dropFirst(5)) + "(\(date.weekday.koreanShortName))"
  }

  /// `2026-11-22(일)`: its bytes written in place (a short string, made without building `iso`
  /// first), the year in four digits as `iso` writes it; a year beyond them through `iso`.
  public static func long(_ date: CalendarDate) -> String {
    let weekday = date.weekday.koreanShortName
    guard (0...9999).contains(date.year) else { return date.iso + "(\(weekday))" }
    return String(unsafeUninitializedCapacity: 12 + weekday.utf8.count) { text in
      var year = date.year
      for index in (0..<4).reversed() {
        text[index] = 0x30 + UInt8(year % 10)
        year /= 10
      }
      text[4] = UInt8(ascii: "-")
      text[5] = 0x30 + UInt8(date.month / 10)
      text[6] = 0x30 + UInt8(date.month % 10)
      text[7] = UInt8(ascii: "-")
      text[8] = 0x30 + UInt8(date.day / 10)
      text[9] = 0x30 + UInt8(date.day % 10)
      text[10] = UInt8(ascii: "(")
      var end = 11
      for byte in weekday.utf8 {
        text[end] = byte
        end += 1
      }
      text[end] = UInt8(ascii: ")")
      return end + 1
    }
  }

  /// `02-01(일)~02-28(토)`, or one day.
  public static func range(_ range: DateWindow, long useYear: Bool = false) -> String {
    let format = useYear ? long : short
    return range.from == range.through ? format(range.from) : "\(format(range.from))~\(format(range.through))"
  }

  /// `1 branch`, `12 branches`.
  public static func branches(_ count: Int) -> String { Self.count(count, "branch", plural: "branches") }

  /// `1 warning`, `0 warnings`, `2 retries`: a count and its noun, singular for exactly one;
  /// the plural is the noun with `s` unless given.
  public static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
  }

  /// `3 added, 1 removed, 12 changed`.
  public static func counts(added: Int, removed: Int, changed: Int) -> String {
    "\(added) added, \(removed) removed, \(changed) changed"
  }

  /// A published text on one line, at most 160 characters.
  public static func oneLine(_ text: String) -> String {
    let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    return flat.count > 160 ? String(flat.prefix(159)) + "…" : flat
  }
}
