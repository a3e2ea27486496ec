import MartCore
import Testing

/// A written date whose weekday fits no year near the as-of date names no closing day: its day
/// is unknown, never closed on a weekday the text did not mean. Expected weekdays from the
/// calendar: 11/13 is a Thursday in 2025, a Friday in 2026 and a Saturday in 2027; 11/22 is a
/// Sunday in 2026.
@Suite struct MisplacedWeekdayTests {
  let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
  let november13 = CalendarDate(year: 2026, month: 11, day: 13)!
  let november22 = CalendarDate(year: 2026, month: 11, day: 22)!

  @Test func aWeekdayThatFitsNoNearbyYearLeavesTheDayUnknown() {
    let schedule = ClosingSchedule.parse("11/13(일), 11/22(일) 휴무", asOf: asOf)
    // The date that fits closes; the one that does not is neither closed nor open.
    #expect(schedule.dates == [november22])
    let month = (
      from: CalendarDate(year: 2026, month: 11, day: 1)!, through: CalendarDate(year: 2026, month: 11, day: 30)!
    )
    #expect(schedule.closedDates(from: month.from, through: month.through) == [november22])
    let unknown = schedule.unknownRanges(from: month.from, through: month.through)
    #expect(unknown.contains { $0.contains(november13) })
    #expect(!unknown.contains { $0.contains(november22) })
    #expect(schedule.warnings.contains { $0.contains("2026-11-13 is left unknown") })
  }

  @Test func aWeekdayThatFitsAnotherYearStillPicksThatYear() {
    // 2025-11-16 is a Sunday: `11/16(일)` as of 2026-11-20 is that day, nearer years not fitting.
    let schedule = ClosingSchedule.parse("11/16(일) 휴무", asOf: asOf)
    #expect(schedule.dates == [CalendarDate(year: 2025, month: 11, day: 16)!])
  }
}
