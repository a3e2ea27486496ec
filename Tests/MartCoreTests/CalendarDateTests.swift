import MartCore
import Testing

@Suite struct CalendarDateTests {
  @Test func weekdaysMatchTheCalendar() throws {
    // 2026-11-22 is a Sunday; 2000-01-01 was a Saturday; 2024-02-29 a Thursday.
    #expect(try #require(CalendarDate(iso: "2026-11-22")).weekday == .sunday)
    #expect(try #require(CalendarDate(iso: "2000-01-01")).weekday == .saturday)
    #expect(try #require(CalendarDate(iso: "2024-02-29")).weekday == .thursday)
  }

  @Test func dayNumbersRoundTrip() {
    for number in stride(from: -800_000, through: 800_000, by: 997) {
      #expect(CalendarDate(dayNumber: number).dayNumber == number)
    }
    #expect(CalendarDate(iso: "1970-01-01")?.dayNumber == 0)
  }

  @Test func rejectsImpossibleDates() {
    #expect(CalendarDate(year: 2026, month: 2, day: 29) == nil)
    #expect(CalendarDate(year: 2024, month: 2, day: 29) != nil)
    #expect(CalendarDate(iso: "2026-13-01") == nil)
    #expect(CalendarDate(compact: "202611") == nil)
    #expect(CalendarDate(compact: "20261108")?.iso == "2026-11-08")
    // Eight ASCII digits and nothing else; a real day.
    for text in ["202611080", "2026110", "2026110８", "２０２６１１０８", "2026 1108", "20261131", "2026-1-8", ""] {
      #expect(CalendarDate(compact: text) == nil, "\(text)")
    }
    #expect(CalendarDate(compact: "x20261108".dropFirst())?.iso == "2026-11-08")
    // YYYY-MM-DD exactly, with ASCII digits; a real day.
    #expect(CalendarDate(iso: "2026-11-08") == CalendarDate(year: 2026, month: 11, day: 8))
    #expect(CalendarDate(iso: "x2026-12-31".dropFirst()) == CalendarDate(year: 2026, month: 12, day: 31))
    for text in [
      "2026-11-080", "2026-11-8", "2026-1-08", "26-11-08", "2026/11/08", "2026-11-0８", "２０２６-11-08", "2026-+1-08",
      "2026-11-31", "2026-00-10", "0000-01-01", "2026-11-08 ", "", "2026--11-8",
    ] {
      #expect(CalendarDate(iso: text) == nil, "\(text)")
    }
  }

  @Test func monthArithmetic() throws {
    let date = try #require(CalendarDate(iso: "2026-11-22"))
    #expect(date.firstOfMonth(addingMonths: 2).iso == "2027-01-01")
    #expect(date.firstOfMonth(addingMonths: -11).iso == "2025-12-01")
    #expect(date.lastOfMonth.iso == "2026-11-30")
    #expect(date.adding(days: 10).iso == "2026-12-02")
  }
}
