import Testing

@testable import MartCore

/// The generated lunar table against KASI dates listed here as literals. The list was
/// computed separately with the `korean-lunar-calendar` package (lunar 1/1 and 8/15,
/// non-leap month), not by the Swift code under test.
@Suite("Korean lunar holidays")
struct LunarHolidayTests {
  static let kasiDates: [(year: Int, seollal: String, chuseok: String)] = [
    (2020, "2020-01-25", "2020-10-01"),
    (2021, "2021-02-12", "2021-09-21"),
    (2022, "2022-02-01", "2022-09-10"),
    (2023, "2023-01-22", "2023-09-29"),
    (2024, "2024-02-10", "2024-09-17"),
    (2025, "2025-01-29", "2025-10-06"),
    (2026, "2026-02-17", "2026-09-25"),
    (2027, "2027-02-07", "2027-09-15"),
    (2028, "2028-01-27", "2028-10-03"),
    (2029, "2029-02-13", "2029-09-22"),
    (2030, "2030-02-03", "2030-09-12"),
    (2031, "2031-01-23", "2031-10-01"),
    (2032, "2032-02-11", "2032-09-19"),
    (2033, "2033-01-31", "2033-09-08"),
    (2034, "2034-02-19", "2034-09-27"),
    (2035, "2035-02-08", "2035-09-16"),
    (2036, "2036-01-28", "2036-10-04"),
    (2037, "2037-02-15", "2037-09-24"),
    (2038, "2038-02-04", "2038-09-13"),
    (2039, "2039-01-24", "2039-10-02"),
    (2040, "2040-02-12", "2040-09-21"),
  ]

  @Test("every year of the KASI table")
  func matchesKASI() {
    for expected in Self.kasiDates {
      let year = expected.year
      #expect(KoreanLunarHolidays.date(of: .seollal, inYear: year)?.iso == expected.seollal, "\(year)")
      #expect(KoreanLunarHolidays.date(of: .chuseok, inYear: year)?.iso == expected.chuseok, "\(year)")
    }
  }

  @Test("dates known by heart: 설날 2026-02-17, 추석 2026-09-25, 설날 2025-01-29, 추석 2025-10-06")
  func knownDates() {
    #expect(KoreanLunarHolidays.date(of: .seollal, inYear: 2026) == CalendarDate(year: 2026, month: 2, day: 17))
    #expect(KoreanLunarHolidays.date(of: .chuseok, inYear: 2026) == CalendarDate(year: 2026, month: 9, day: 25))
    #expect(KoreanLunarHolidays.date(of: .seollal, inYear: 2025) == CalendarDate(year: 2025, month: 1, day: 29))
    #expect(KoreanLunarHolidays.date(of: .chuseok, inYear: 2025) == CalendarDate(year: 2025, month: 10, day: 6))
  }

  @Test("the table covers 2000 to 2050 and nothing else")
  func coverage() {
    #expect(KoreanLunarHolidays.years == 2000...2050)
    for year in 2000...2050 {
      #expect(KoreanLunarHolidays.date(of: .seollal, inYear: year)?.year == year)
      #expect(KoreanLunarHolidays.date(of: .chuseok, inYear: year)?.year == year)
    }
    #expect(KoreanLunarHolidays.date(of: .seollal, inYear: 1999) == nil)
    #expect(KoreanLunarHolidays.date(of: .chuseok, inYear: 2051) == nil)
  }

  @Test("설날 연휴 spans the day before to the day after, every year of the KASI table")
  func seollalHolidays() throws {
    for expected in Self.kasiDates {
      let year = expected.year
      let day = try #require(CalendarDate(iso: expected.seollal))
      let schedule = ClosingSchedule.parse("설날 연휴 휴무", asOf: CalendarDate(year: year, month: 1, day: 1)!)
      let closed = schedule.closedDates(
        from: CalendarDate(year: year, month: 1, day: 1)!, through: CalendarDate(year: year, month: 12, day: 31)!)
      #expect(closed == [day.adding(days: -1), day, day.adding(days: 1)], "\(year)")
    }
  }

  @Test("추석 당일 only, every year of the KASI table")
  func chuseokDay() {
    for expected in Self.kasiDates {
      let year = expected.year
      let schedule = ClosingSchedule.parse("추석당일 휴무", asOf: CalendarDate(year: year, month: 1, day: 1)!)
      let closed = schedule.closedDates(
        from: CalendarDate(year: year, month: 1, day: 1)!, through: CalendarDate(year: year, month: 12, day: 31)!)
      #expect(closed.map(\.iso) == [expected.chuseok], "\(year)")
    }
  }
}
