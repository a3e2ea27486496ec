import Foundation
import Testing
import TestSupport

@testable import MartCore

/// The public-holiday table and the closing-day conditions that read it. Expected dates are
/// worked out from the calendar and the law (weekdays from `cal`, lunar dates from the KASI
/// list in ``LunarHolidayTests``), not taken from the table; the reasoning is beside each case.
@Suite("Korean public holidays")
struct PublicHolidayTests {
  static func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }

  /// The name and kind of the holiday on `iso`, or `nil` when it is none.
  static func holiday(_ iso: String) -> (name: String, kind: PublicHoliday.Kind)? {
    KoreanPublicHolidays.holiday(on: day(iso)).map { ($0.name, $0.kind) }
  }

  static func isHoliday(_ iso: String) -> Bool { KoreanPublicHolidays.holiday(on: day(iso)) != nil }

  @Test("설날 2026 is 2026-02-17: the three days are 02-16…02-18, and nothing moves (Mon–Wed)")
  func seollal2026() {
    #expect(Self.holiday("2026-02-16")?.name == "설날 전날")
    #expect(Self.holiday("2026-02-17")?.name == "설날")
    #expect(Self.holiday("2026-02-18")?.name == "설날 다음날")
    #expect(Self.holiday("2026-02-17")?.kind == .lunar)
    // 02-15 is a Sunday before the holiday, 02-19 a Thursday after it: neither is a holiday.
    #expect(!Self.isHoliday("2026-02-15"))
    #expect(!Self.isHoliday("2026-02-19"))
  }

  @Test("추석 2025 (10-06): 10-05 is a Sunday, so the first free weekday after 10-07 (10-08) is a substitute")
  func chuseok2025() throws {
    #expect(Self.holiday("2025-10-03")?.name == "개천절")  // a Friday
    #expect(Self.holiday("2025-10-05")?.name == "추석 전날")
    #expect(Self.holiday("2025-10-07")?.name == "추석 다음날")
    let substitute = try #require(KoreanPublicHolidays.holiday(on: Self.day("2025-10-08")))
    #expect(substitute.kind == .substitute)
    #expect(substitute.substituteFor?.date == Self.day("2025-10-05"))
    #expect(Self.holiday("2025-10-09")?.name == "한글날")  // a Thursday: no substitute
    #expect(!Self.isHoliday("2025-10-10"))
  }

  @Test("추석 2028 (10-03) falls on 개천절: 10-02…10-04 are Mon–Wed, so one substitute on Thursday 10-05")
  func chuseokOnNationalFoundationDay() {
    #expect(Self.holiday("2028-10-05")?.kind == .substitute)
    #expect(!Self.isHoliday("2028-10-06"))
  }

  @Test("어린이날: 2024-05-05 a Sunday → 05-06; 2025-05-05 also 부처님오신날 → one substitute, 05-06")
  func childrensDay() {
    #expect(Self.holiday("2024-05-06")?.kind == .substitute)
    #expect(Self.holiday("2025-05-06")?.kind == .substitute)
    #expect(!Self.isHoliday("2025-05-07"))
  }

  @Test("부처님오신날 gets substitutes from 2023-05-04: 2023-05-27 (Sat) → 05-29; 2019-05-12 (Sun) → none")
  func buddhasBirthday() {
    #expect(Self.holiday("2023-05-27")?.name == "부처님오신날")
    #expect(Self.holiday("2023-05-29")?.kind == .substitute)
    #expect(!Self.isHoliday("2023-05-28"))
    #expect(Self.holiday("2019-05-12")?.name == "부처님오신날")
    #expect(!Self.isHoliday("2019-05-13"))
    // 2026-05-24 is a Sunday: Monday 05-25 is its substitute.
    #expect(Self.holiday("2026-05-25")?.kind == .substitute)
  }

  @Test("성탄절 2027-12-25 is a Saturday: Monday 12-27 is a substitute (rule of 2023)")
  func christmas2027() {
    #expect(Self.holiday("2027-12-25")?.name == "기독탄신일")
    #expect(Self.holiday("2027-12-27")?.kind == .substitute)
    #expect(!Self.isHoliday("2027-12-26"))
  }

  @Test("national days get substitutes from 2021-08-04: 2021-08-16 yes, 2020-08-15 (Sat) no substitute")
  func nationalDays() {
    #expect(Self.holiday("2021-08-16")?.kind == .substitute)
    // 2020-08-17 is a holiday, but a one-off proclaimed one, not a substitute.
    #expect(Self.holiday("2020-08-17")?.kind == .oneOff)
    // 2026-03-01 is a Sunday → 03-02; 2026-08-15 and 10-03 are Saturdays → Mondays 08-17, 10-05.
    #expect(Self.holiday("2026-03-02")?.kind == .substitute)
    #expect(Self.holiday("2026-08-17")?.kind == .substitute)
    #expect(Self.holiday("2026-10-05")?.kind == .substitute)
  }

  @Test("holidays added, removed and restored: 한글날 from 2013, 제헌절 to 2007 and from 2026, 노동절 from 2026")
  func changesInLaw() throws {
    #expect(!Self.isHoliday("2012-10-09"))
    #expect(Self.holiday("2013-10-09")?.name == "한글날")
    #expect(Self.holiday("2007-07-17")?.name == "제헌절")
    #expect(!Self.isHoliday("2008-07-17"))
    #expect(!Self.isHoliday("2025-07-17"))
    #expect(Self.holiday("2026-07-17")?.name == "제헌절")
    // 2027-07-17 is a Saturday: Monday 07-19 is its substitute.
    #expect(Self.holiday("2027-07-19")?.kind == .substitute)
    #expect(Self.holiday("2005-04-05")?.name == "식목일")
    #expect(!Self.isHoliday("2006-04-05"))
    #expect(!Self.isHoliday("2025-05-01"))
    #expect(Self.holiday("2026-05-01")?.name == "노동절")
  }

  /// 노동절 (5/1) and 제헌절 (7/17) get a substitute from 2026-05-11 (규정 제3조 as amended by
  /// 대통령령 제36290호): the first day after that is neither a Saturday, a Sunday nor a holiday.
  /// Weekdays from `cal`: 5/1 is a Saturday in 2027, 2032, 2038, 2049 (→ Monday 05-03) and a Sunday
  /// in 2033, 2044, 2050 (→ Monday 05-02); in 2039 it is a Sunday and Monday 05-02 is already the
  /// substitute of 부처님오신날 (Saturday 04-30), so 노동절's is Tuesday 05-03.
  @Test(
    "노동절 on a weekend gets a substitute from 2027",
    arguments: [
      ("2027-05-01", "2027-05-03"), ("2032-05-01", "2032-05-03"), ("2033-05-01", "2033-05-02"),
      ("2038-05-01", "2038-05-03"), ("2039-05-01", "2039-05-03"), ("2044-05-01", "2044-05-02"),
      ("2049-05-01", "2049-05-03"), ("2050-05-01", "2050-05-02"),
    ])
  func laborDaySubstitute(labor: String, substitute: String) throws {
    #expect(Self.holiday(labor)?.name == "노동절")
    let holiday = try #require(KoreanPublicHolidays.holiday(on: Self.day(substitute)))
    #expect(holiday.kind == .substitute)
    #expect(holiday.substituteFor?.name == "노동절")
    #expect(holiday.substituteFor?.date == Self.day(labor))
    #expect(holiday.source.text.contains("36290"))
    #expect(KoreanPublicHolidays.unknownDates(from: Self.day(labor), through: Self.day(substitute)).isEmpty)
  }

  /// The cross-check: the 2027 월력요항 (우주항공청, the reference for calendars under 천문법),
  /// transcribed in `fixtures/holidays/wollyeok-yohang-2027.json`, lists the same days as the table.
  @Test("2027 agrees day for day with the 월력요항")
  func agreesWithTheAlmanac() throws {
    struct Almanac: Decodable { let holidays: [String: String] }
    let almanac = try JSONDecoder().decode(Almanac.self, from: FixturePaths.data("holidays/wollyeok-yohang-2027.json"))
    let published = Set(almanac.holidays.keys)
    let table = Set(KoreanPublicHolidays.holidays(inYear: 2027).map(\.date.iso))
    #expect(published.count == 24)
    #expect(table == published)
    for (iso, name) in almanac.holidays where name.hasPrefix("대체공휴일") {
      #expect(KoreanPublicHolidays.holiday(on: Self.day(iso))?.kind == .substitute, "\(iso) \(name)")
    }
  }

  @Test(
    "one-off days proclaimed so far, each with its source",
    arguments: [
      "2015-08-14", "2016-05-06", "2017-05-09", "2017-10-02", "2020-08-17", "2023-10-02", "2024-10-01", "2025-01-27",
      "2025-06-03", "2026-06-03", "2024-04-10", "2022-03-09", "2022-06-01",
    ])
  func oneOffs(iso: String) throws {
    let holiday = try #require(KoreanPublicHolidays.holiday(on: Self.day(iso)))
    #expect(holiday.kind == .oneOff)
    #expect(!holiday.source.text.isEmpty)
    #expect(holiday.explanation.contains(holiday.source.text))
  }

  @Test("the table covers 2000–2050, and one-off days as proclaimed up to 2026-11-25")
  func coverage() {
    #expect(KoreanPublicHolidays.years == 2000...2050)
    #expect(KoreanPublicHolidays.oneOffsKnownThrough == Self.day("2026-11-25"))
    #expect(KoreanPublicHolidays.holidays(inYear: 1999).isEmpty)
    if case .unknown = KoreanPublicHolidays.status(of: Self.day("2051-01-01")) {} else {
      Issue.record("2051-01-01 should be unknown")
    }
    // Every year has its fixed days, its lunar days and no Sunday-only entries.
    for year in 2000...2050 {
      let days = KoreanPublicHolidays.holidays(inYear: year)
      #expect(days.contains { $0.date == CalendarDate(year: year, month: 1, day: 1) }, "\(year)")
      #expect(days.filter { $0.kind == .lunar }.count == 7, "\(year)")
      #expect(days.allSatisfy { $0.kind != .substitute || $0.date.weekday != .saturday }, "\(year)")
      #expect(days.allSatisfy { $0.kind != .substitute || $0.date.weekday != .sunday }, "\(year)")
    }
  }

  // MARK: - The closing-day engine

  static let asOf = day("2026-11-25")

  @Test("매주 금요일 휴무 (공휴일인 경우 익일 휴무): 한글날 2026-10-09 (Fri) → Saturday 10-10; 추석 09-25 is uncertain")
  func fridayMovesToSaturday() throws {
    let schedule = ClosingSchedule.parse("매주 금요일 휴무 (공휴일인 경우 익일 휴무)", asOf: Self.asOf)
    let from = Self.day("2026-09-01")
    let through = Self.day("2026-10-31")
    // Fridays: 09-04, 11, 18, 25; 10-02, 09, 16, 23, 30. 09-25 is 추석 and its next day 09-26
    // is 추석 다음날: the text does not say whether the closure moves on, so both are unknown.
    #expect(
      schedule.closedDates(from: from, through: through).map(\.iso) == [
        "2026-09-04", "2026-09-11", "2026-09-18", "2026-10-02", "2026-10-10", "2026-10-16", "2026-10-23",
        "2026-10-30",
      ])
    #expect(
      schedule.unknownRanges(from: from, through: through)
        == [DateWindow(from: Self.day("2026-09-25"), through: Self.day("2026-09-26"))])
    let move = try #require(schedule.holidayMoves.first { $0.from == Self.day("2026-10-09") })
    #expect(move.explanation == "2026-10-09 is 한글날 (public holiday) → closed 2026-10-10 instead")
    // 제헌절 2026-07-17 is a Friday too: Saturday 07-18 closes instead.
    #expect(schedule.holidayMoves.contains { $0.from == Self.day("2026-07-17") && $0.to == Self.day("2026-07-18") })
    #expect(schedule.warnings.contains { $0.contains("2026-11-25") })
  }

  @Test("공휴일인 경우 전일 휴무: the 4th Sunday of May 2026 (05-24) is 부처님오신날 → Saturday 05-23")
  func sundayMovesToSaturday() {
    // May 2026 starts on a Friday: Sundays 03, 10, 17, 24, 31.
    let schedule = ClosingSchedule.parse("매월 둘째, 넷째 일요일 휴무 (공휴일인 경우 전일 휴무)", asOf: Self.asOf)
    let may = schedule.closedDates(from: Self.day("2026-05-01"), through: Self.day("2026-05-31"))
    #expect(may.map(\.iso) == ["2026-05-10", "2026-05-23"])
    #expect(schedule.unknownRanges(from: Self.day("2026-05-01"), through: Self.day("2026-05-31")).isEmpty)
  }

  @Test("공휴일 정상영업: the rule's days on public holidays are open, and known")
  func openOnHolidays() {
    let schedule = ClosingSchedule.parse("매월 둘째·넷째 일요일 휴무, 공휴일 정상영업", asOf: Self.asOf)
    let may = schedule.closedDates(from: Self.day("2026-05-01"), through: Self.day("2026-05-31"))
    #expect(may.map(\.iso) == ["2026-05-10"])
    #expect(schedule.unknownRanges(from: Self.day("2026-05-01"), through: Self.day("2026-05-31")).isEmpty)
    #expect(schedule.holidayMoves.contains { $0.from == Self.day("2026-05-24") && $0.to == nil })
  }

  @Test("a substitute holiday moves a closing day too: Monday 2026-08-17 (광복절 substitute) → 08-18")
  func substituteMoves() {
    // August 2026 Mondays: 03, 10, 17, 24, 31.
    let schedule = ClosingSchedule.parse("매주 월요일 휴무 (공휴일인 경우 익일 휴무)", asOf: Self.asOf)
    let august = schedule.closedDates(from: Self.day("2026-08-01"), through: Self.day("2026-08-31"))
    #expect(august.map(\.iso) == ["2026-08-03", "2026-08-10", "2026-08-18", "2026-08-24", "2026-08-31"])
  }

  @Test("beyond the table (2051) the holiday days are unknown, never guessed")
  func beyondTheTable() {
    let schedule = ClosingSchedule.parse("매주 월요일 휴무 (공휴일인 경우 익일 휴무)", asOf: Self.day("2050-06-01"))
    // January 2051: 01-01 is a Sunday, so Mondays are 02, 09, 16, 23, 30; none is known.
    let january = schedule.closedDates(from: Self.day("2051-01-01"), through: Self.day("2051-01-31"))
    #expect(january.isEmpty)
    #expect(schedule.warnings.contains { $0.contains("2000–2050") })
  }
}
