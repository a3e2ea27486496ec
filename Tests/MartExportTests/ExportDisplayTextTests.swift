import MartCore
import Testing

@testable import MartExport

/// How the diff and the report write a day.
@Suite struct ExportDisplayTextTests {
  /// Weekdays from python3's `calendar.weekday` (proleptic Gregorian, Monday = 0):
  /// 2026-11-22 is 6 (Sunday), 2027-02-01 is 0 (Monday), 0005-01-02 is 6 (Sunday).
  @Test func aLongDayIsItsISODateAndKoreanWeekday() throws {
    let sunday = try #require(CalendarDate(year: 2026, month: 11, day: 22))
    #expect(DisplayText.long(sunday) == "2026-11-22(일)")
    #expect(DisplayText.long(sunday) == sunday.iso + "(일)")
    #expect(DisplayText.long(try #require(CalendarDate(year: 2027, month: 2, day: 1))) == "2027-02-01(월)")
    // A year of fewer digits is padded, as `iso` pads it.
    #expect(DisplayText.long(try #require(CalendarDate(year: 5, month: 1, day: 2))) == "0005-01-02(일)")
  }
}
