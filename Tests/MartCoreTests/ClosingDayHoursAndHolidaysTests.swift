import Testing

@testable import MartCore

/// Wordings of 2025–26 texts: hours shaped like a rule, weekly rules with the public holidays,
/// and a change notice that restates the day it keeps. Expected dates are worked out from the
/// calendar (`cal`, Python's `datetime`) and the 2027 월력요항, not from the engine; the
/// reasoning is beside each case.
@Suite("Closing-day hours, public holidays and restated days")
struct ClosingDayHoursAndHolidaysTests {
  static func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }
  static let asOf = day("2026-11-20")
  /// The 2nd and 4th Sundays of 2026-11 … 2027-01.
  static let secondAndFourthSundays = [
    "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24",
  ]

  /// A rule followed by opening times is the hours of those days: Lotte's `span.memo`
  /// (`둘째,넷째주 일요일: 11:00~19:00`), a cell saying the days trade shorter.
  @Test(
    "a rule followed by hours is never a closure",
    arguments: [
      "둘째,넷째주 일요일: 11:00~19:00", "매월 둘째·넷째 일요일 10시~20시 영업", "둘째, 넷째 일요일 단축 영업",
      "매월 2,4번째 일요일 단축영업", "매월 둘째·넷째 일요일 11:00~19:00",
    ])
  func hoursAfterARule(text: String) {
    let schedule = ClosingSchedule.parse(text, asOf: Self.asOf)
    let window = DateWindow.threeMonths(startingAt: Self.asOf)
    #expect(schedule.closedDates(from: window.from, through: window.through).isEmpty)
    #expect(schedule.status == .unknown)
    // Those Sundays are known trading days.
    for iso in Self.secondAndFourthSundays { #expect(schedule.exceptions.contains(Self.day(iso)), "\(iso)") }
  }

  @Test("hours of weekends and public holidays close nothing")
  func hoursOfHolidays() {
    for text in ["금~일,공휴일: 10:30~21:00", "주말: 10:00~22:00", "공휴일 10:00~20:00"] {
      let schedule = ClosingSchedule.parse(text, asOf: Self.asOf)
      #expect(schedule.status == .unknown, "\(text)")
      #expect(schedule.dates.isEmpty, "\(text)")
    }
  }

  @Test("a closing rule beside an hours note: only the closing rule closes")
  func closingRuleBesideHours() {
    // 2nd and 4th Wednesdays of 2026-11 … 2027-01: 11-11, 11-25, 12-09, 12-23, 01-13, 01-27.
    let schedule = ClosingSchedule.parse("매월 둘째, 넷째 수요일 휴무 / 둘째,넷째주 일요일: 11:00~19:00", asOf: Self.asOf)
    let window = DateWindow.threeMonths(startingAt: Self.asOf)
    #expect(
      schedule.closedDates(from: window.from, through: window.through).map(\.iso) == [
        "2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27",
      ])
  }

  /// From 2027-04-25 to 2027-05-15 (as of 2027-04-20): Sundays 04-25, 05-02, 05-09; Mondays
  /// 04-26, 05-03, 05-10; public holidays (2027 월력요항) 05-01 노동절 (Saturday), 05-03 its
  /// substitute, 05-05 어린이날, 05-13 부처님오신날.
  @Test(
    "every such weekday and every public holiday, substitutes included",
    arguments: [
      (
        "일요일·공휴일 휴무",
        ["2027-04-25", "2027-05-01", "2027-05-02", "2027-05-03", "2027-05-05", "2027-05-09", "2027-05-13"]
      ),
      (
        "일요일/공휴일 휴무",
        ["2027-04-25", "2027-05-01", "2027-05-02", "2027-05-03", "2027-05-05", "2027-05-09", "2027-05-13"]
      ),
      (
        "매주 일요일 및 공휴일 휴무",
        ["2027-04-25", "2027-05-01", "2027-05-02", "2027-05-03", "2027-05-05", "2027-05-09", "2027-05-13"]
      ),
      ("매주 월요일 및 공휴일 휴무", ["2027-04-26", "2027-05-01", "2027-05-03", "2027-05-05", "2027-05-10", "2027-05-13"]),
      ("공휴일 휴무", ["2027-05-01", "2027-05-03", "2027-05-05", "2027-05-13"]),
    ])
  func weeklyWithPublicHolidays(text: String, expected: [String]) {
    let schedule = ClosingSchedule.parse(text, asOf: Self.day("2027-04-20"))
    let from = Self.day("2027-04-25")
    let through = Self.day("2027-05-15")
    #expect(schedule.closedDates(from: from, through: through).map(\.iso) == expected)
    #expect(schedule.unknownRanges(from: from, through: through).isEmpty)
    #expect(schedule.warnings.contains { $0.contains("one-off days") })
  }

  @Test("past the holiday table the public holidays are unknown, never guessed")
  func holidaysBeyondTheTable() {
    let schedule = ClosingSchedule.parse("매주 일요일 및 공휴일 휴무", asOf: Self.day("2050-06-01"))
    // 2051 is past the table: its holidays, and so every day the text speaks of, are unknown;
    // nothing is closed there (the horizon ends 2051-12-31).
    let from = Self.day("2051-01-01")
    let through = Self.day("2051-01-31")
    #expect(schedule.closedDates(from: from, through: through).allSatisfy { $0.weekday == .sunday })
    #expect(!schedule.unknownRanges(from: from, through: through).isEmpty)
  }

  /// 12-13 (the 2nd Sunday) moves to Wednesday 12-16; 12-27 (the 4th Sunday) stays, as restated.
  @Test(
    "a change notice keeps the day it says stays as before",
    arguments: [
      "12월 휴무일 변경 안내 기존 12/13(일), 12/27(일) → 변경 12/16(수), 12/27(일)은 기존과 동일",
      "12월 의무휴업일 변경 안내: 12/13(일) → 12/16(수), 12/27(일)은 기존과 동일",
      "12/13(일)에서 12/16(수)로 변경, 12/27(일)은 변동없음",
      "12월 의무휴업일 변경: 둘째 일요일(12/13) → 12/16(수), 넷째 일요일(12/27)은 기존과 동일",
    ])
  func restatedDayStays(text: String) {
    let schedule = ClosingSchedule.parse(text, asOf: Self.asOf)
    let december = schedule.closedDates(from: Self.day("2026-12-01"), through: Self.day("2026-12-31"))
    #expect(december.map(\.iso) == ["2026-12-16", "2026-12-27"])
  }
}
