import Foundation
import TestSupport
import Testing

@testable import MartCore

/// Openings, ranges, lists and holiday words in the many ways staff write them, each with the
/// closed dates and the unknown ranges it gives. Expected dates are worked out from the calendar
/// in the comments (lunar dates from the `korean-lunar-calendar` package), not from this code.
@Suite("Closing-day wordings")
struct ClosingDayWordingTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let text: String
    let asOf: String
    let window: ClosedRange<String>
    let dates: [String]
    /// `from...through` of each unknown range.
    let unknown: [ClosedRange<String>]

    init(
      _ text: String, asOf: String = "2026-11-20", window: ClosedRange<String> = "2026-11-01"..."2027-01-31",
      dates: [String], unknown: [ClosedRange<String>] = []
    ) {
      self.text = text
      self.asOf = asOf
      self.window = window
      self.dates = dates
      self.unknown = unknown
    }

    var testDescription: String { "\"\(text)\"" }
  }

  // November 2026 starts on a Sunday, December 2026 on a Tuesday, January 2027 on a Friday.
  // Sundays: Nov 1 8 15 22 29, Dec 6 13 20 27, Jan 3 10 17 24 31.
  static let secondAndFourthSundays = [
    "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24",
  ]

  static let openingsCases: [Case] = [
    // 추석 2026 is 2026-09-25, a Friday. September 2026 starts on a Tuesday: Sundays 6 13 20 27;
    // October starts on a Thursday: Sundays 4 11 18 25. 추석 is open, not added as a closure.
    Case(
      "매월 2, 4번째 일요일 휴무 (단, 추석 당일 영업)", window: "2026-09-01"..."2026-10-31",
      dates: ["2026-09-13", "2026-09-27", "2026-10-11", "2026-10-25"]),
    // 설날 2023 is 2023-01-22, the fourth Sunday of January 2023 (Sundays 1 8 15 22 29): open.
    Case(
      "매월 2, 4번째 일요일 휴무 (단, 설 당일은 영업)", asOf: "2023-01-01", window: "2023-01-01"..."2023-01-31",
      dates: ["2023-01-08"]),
    Case(
      "매월 둘째·넷째 일요일 의무휴업 (설날 당일 정상영업)", asOf: "2023-01-01", window: "2023-01-01"..."2023-01-31",
      dates: ["2023-01-08"]),
    // 추석 연휴 2026 is 09-24…09-26; the day itself is open.
    Case(
      "추석 연휴 휴무 (단, 추석 당일 영업)", window: "2026-09-01"..."2026-09-30", dates: ["2026-09-24", "2026-09-26"]),
    // The verb decides, not the position: 단 adds closures here.
    Case("(단, 매월 2,4번째 일요일 휴점)", dates: secondAndFourthSundays),
    Case("연중무휴 (단, 매월 둘째, 넷째 일요일 휴무)", dates: secondAndFourthSundays),
    // 12/13 is the second Sunday of December 2026: open in every wording.
    Case("매월 둘째·넷째 일요일 (단, 12/13 영업)", dates: secondAndFourthSundays.filter { $0 != "2026-12-13" }),
    Case("매월 둘째·넷째 일요일, 12월 13일 정상 영업", dates: secondAndFourthSundays.filter { $0 != "2026-12-13" }),
    Case("매월 둘째·넷째 일요일 12/13(일)은 영업합니다", dates: secondAndFourthSundays.filter { $0 != "2026-12-13" }),
    Case("매월 둘째·넷째 일요일 휴무. 12/13 휴무 없음", dates: secondAndFourthSundays.filter { $0 != "2026-12-13" }),
    Case("매월 둘째·넷째 일요일 휴무. 12월 13일은 쉬지 않습니다", dates: secondAndFourthSundays.filter { $0 != "2026-12-13" }),
    // Openings on weekdays: the 4th Sunday is open, the 2nd closed.
    Case("매월 둘째, 넷째 일요일 휴무 (단, 넷째 일요일 정상영업)", dates: ["2026-11-08", "2026-12-13", "2027-01-10"]),
    // A list of dates with its verb: 11/22 open, 11/25 closed (Lotte 청주점).
    Case(
      "※11/11(수요일) 정기휴무!! 11월22일 일요일 정상영업, 11월25일 정기휴무",
      dates: ["2026-11-11", "2026-11-25"], unknown: ["2026-12-01"..."2027-01-31"]),
    // Opening hours are not a day off and not a closure.
    Case("매월 둘째 일요일 휴무, 영업시간 10:00~22:00", dates: ["2026-11-08", "2026-12-13", "2027-01-10"]),
  ]

  static let rangesCases: [Case] = [
    // A range stops at its last day: December only, the other months unknown.
    Case(
      "12/28~12/30 재고조사 휴점", dates: ["2026-12-28", "2026-12-29", "2026-12-30"],
      unknown: ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]),
    Case(
      "12월 28일~30일", dates: ["2026-12-28", "2026-12-29", "2026-12-30"],
      unknown: ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]),
    Case(
      "12/28-12/30 휴무", dates: ["2026-12-28", "2026-12-29", "2026-12-30"],
      unknown: ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]),
    Case(
      "12월 28일부터 30일까지 휴무", dates: ["2026-12-28", "2026-12-29", "2026-12-30"],
      unknown: ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]),
    Case(
      "12/28(월)부터 12/30(수)까지 재고조사", dates: ["2026-12-28", "2026-12-29", "2026-12-30"],
      unknown: ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]),
    // Across a month: 2026-11-30 is a Monday, 2026-12-02 a Wednesday.
    Case(
      "11/30(월)~12/2(수)", dates: ["2026-11-30", "2026-12-01", "2026-12-02"],
      unknown: ["2027-01-01"..."2027-01-31"]),
    // Across a year: 2026-12-30 is a Wednesday, 2027-01-02 a Saturday.
    Case(
      "12/30(수)~1/2(토) 휴점", dates: ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"],
      unknown: ["2026-11-01"..."2026-11-30"]),
    // Dates and a range in one list.
    Case(
      "12/13, 12/24~26", dates: ["2026-12-13", "2026-12-24", "2026-12-25", "2026-12-26"],
      unknown: ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]),
  ]

  static let listsCases: [Case] = [
    // Tuesdays: Nov 3 10 17 24, Dec 1 8 15 22 29, Jan 5 12 19 26.
    Case(
      "첫째 셋째 화요일",
      dates: ["2026-11-03", "2026-11-17", "2026-12-01", "2026-12-15", "2027-01-05", "2027-01-19"]),
    // Saturdays: Nov 7 14 21 28, Dec 5 12 19 26, Jan 2 9 16 23 30.
    Case(
      "1번째 3번째 토요일",
      dates: ["2026-11-07", "2026-11-21", "2026-12-05", "2026-12-19", "2027-01-02", "2027-01-16"]),
    Case("둘째 넷째 일요일", dates: secondAndFourthSundays),
    Case("둘째 및 넷째 일요일", dates: secondAndFourthSundays),
    Case("둘째와 넷째 일요일", dates: secondAndFourthSundays),
    Case("둘째/넷째 일요일", dates: secondAndFourthSundays),
    Case("2번째·4번째 일요일", dates: secondAndFourthSundays),
    // Mondays: Nov 2 9, Dec 7 14, Jan 4 11; Tuesdays: Nov 3 10, Dec 1 8, Jan 5 12.
    Case(
      "둘째 월·화요일",
      dates: ["2026-11-09", "2026-11-10", "2026-12-08", "2026-12-14", "2027-01-11", "2027-01-12"]),
    Case(
      "둘째 월, 화요일",
      dates: ["2026-11-09", "2026-11-10", "2026-12-08", "2026-12-14", "2027-01-11", "2027-01-12"]),
    // Wednesdays: Nov 4 11 18 25, Dec 2 9 16 23 30, Jan 6 13 20 27.
    Case(
      "둘째 수요일 및 일요일",
      dates: ["2026-11-08", "2026-11-11", "2026-12-09", "2026-12-13", "2027-01-10", "2027-01-13"]),
    // Not a cross product: the 2nd Wednesday and the 4th Sunday.
    Case(
      "둘째 수요일, 넷째 일요일",
      dates: ["2026-11-11", "2026-11-22", "2026-12-09", "2026-12-27", "2027-01-13", "2027-01-24"]),
    Case(
      "12/13과 12/27", dates: ["2026-12-13", "2026-12-27"],
      unknown: ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]),
    // Lotte 판교점: December only; November and January unknown.
    Case(
      "12/13,/27", dates: ["2026-12-13", "2026-12-27"],
      unknown: ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]),
    // Lotte: one month's dates from a 2022 page (2022-07-23 is a Saturday).
    Case(
      "07/23(토)", asOf: "2022-07-01", window: "2022-07-01"..."2022-09-30", dates: ["2022-07-23"],
      unknown: ["2022-08-01"..."2022-09-30"]),
  ]

  static let holidaysCases: [Case] = [
    // 설날 2026-02-17, 추석 2026-09-25, 설날 2027-02-07, 추석 2027-09-15.
    Case(
      "명절 당일 휴무", window: "2026-01-01"..."2027-12-31",
      dates: ["2026-02-17", "2026-09-25", "2027-02-07", "2027-09-15"]),
    Case(
      "설날과 추석 당일 휴무", window: "2026-01-01"..."2027-12-31",
      dates: ["2026-02-17", "2026-09-25", "2027-02-07", "2027-09-15"]),
    // 설 명절 is 설날 alone.
    Case("설 명절 당일 휴무", window: "2026-01-01"..."2027-12-31", dates: ["2026-02-17", "2027-02-07"]),
    // 1/1 alone is one date, the nearest to the as-of date.
    Case(
      "1/1", window: "2026-01-01"..."2027-12-31", dates: ["2027-01-01"],
      unknown: ["2026-01-01"..."2026-12-31", "2027-02-01"..."2027-12-31"]),
    Case(
      "1월 1일 휴무", window: "2026-01-01"..."2027-12-31", dates: ["2027-01-01"],
      unknown: ["2026-01-01"..."2026-12-31", "2027-02-01"..."2027-12-31"]),
    // In a list of holidays it is New Year's Day every year.
    Case(
      "*휴무일: 1/1, 설날, 추석", window: "2026-01-01"..."2027-12-31",
      dates: ["2026-01-01", "2026-02-17", "2026-09-25", "2027-01-01", "2027-02-07", "2027-09-15"]),
    Case(
      "설날, 추석, 1/1 휴무", window: "2026-01-01"..."2027-12-31",
      dates: ["2026-01-01", "2026-02-17", "2026-09-25", "2027-01-01", "2027-02-07", "2027-09-15"]),
    // A holiday right after a date labels it: 2026-09-25 is 추석 (a Friday).
    Case(
      "9/25(추석 당일) 휴무", asOf: "2026-09-01", window: "2026-09-01"..."2026-10-31", dates: ["2026-09-25"],
      unknown: ["2026-10-01"..."2026-10-31"]),
  ]

  /// Checks one case; `name` names it in failure messages.
  static func check(_ example: Case, _ name: Comment) throws {
    let asOf = try #require(CalendarDate(iso: example.asOf), name)
    let from = try #require(CalendarDate(iso: example.window.lowerBound), name)
    let through = try #require(CalendarDate(iso: example.window.upperBound), name)
    // The cases' date lists are read as from a source whose lists are whole months (E-mart's
    // `HOLIDAY_DAYn`); the default, a list known through its last date, is `ClosingDaySentenceTests`'.
    let schedule = ClosingSchedule.parse(example.text, asOf: asOf, coverage: .wholeMonths)
    #expect(schedule.closedDates(from: from, through: through).map(\.iso) == example.dates, name)
    #expect(
      schedule.unknownRanges(from: from, through: through).map { $0.from.iso...$0.through.iso } == example.unknown,
      name)
    #expect(schedule.status == .closures, name)
  }

  @Test func openings() { forEachCase(Self.openingsCases, Self.check) }
  @Test func ranges() { forEachCase(Self.rangesCases, Self.check) }
  @Test func lists() { forEachCase(Self.listsCases, Self.check) }
  @Test func holidays() { forEachCase(Self.holidaysCases, Self.check) }

  @Test("an opened lunar holiday is kept as a lunar exception")
  func lunarException() {
    let schedule = ClosingSchedule.parse(
      "매월 2, 4번째 일요일 휴무 (단, 추석 당일 영업)", asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
    #expect(schedule.lunar.isEmpty)
    #expect(schedule.lunarExceptions == [LunarClosing(holiday: .chuseok, offsets: [0])])
  }

  @Test("a bare 명절 is read with a warning")
  func festivalsWarn() {
    let schedule = ClosingSchedule.parse("명절 당일 휴무", asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
    #expect(schedule.warnings.contains { $0.contains("명절") })
  }

  @Test("a holiday after a date that is not that holiday is a warning")
  func holidayHintMismatch() {
    // 추석 is 2025-10-06, 2026-09-25 and 2027-09-15: 9/26 is 추석 in none of them.
    let schedule = ClosingSchedule.parse("9/26(추석)", asOf: CalendarDate(year: 2026, month: 9, day: 1)!)
    #expect(schedule.dates.map(\.iso) == ["2026-09-26"])
    #expect(schedule.warnings.count == 1)
  }

  @Test("a rule followed by 영업시간 and hours gives the hours of those days, not a closure")
  func hoursAreNotAClosure() {
    let schedule = ClosingSchedule.parse(
      "매월 둘째 일요일 영업시간 10:00~22:00", asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
    #expect(schedule.rules.isEmpty)
    #expect(schedule.status == .unknown)
    // The 2nd Sundays of November and December 2026 (cal: 11-08, 12-13) are known trading days.
    #expect(schedule.exceptions.contains(CalendarDate(year: 2026, month: 11, day: 8)!))
    #expect(schedule.exceptions.contains(CalendarDate(year: 2026, month: 12, day: 13)!))
  }

  @Test("a day with shortened hours is neither closed nor open")
  func shortenedHours() {
    let text = "12/24(목) 오후 6시까지 영업, 12/25 휴무"
    let schedule = ClosingSchedule.parse(text, asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
    #expect(schedule.dates.map(\.iso) == ["2026-12-25"])
    #expect(schedule.exceptions.isEmpty)
  }

  @Test("texts that say the store never closes")
  func neverCloses() {
    for text in ["연중무휴", "연중 무휴", "휴무 없음", "정기휴무 없음", "연중 쉬지 않습니다", "쉬지않습니다"] {
      let schedule = ClosingSchedule.parse(text, asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
      #expect(schedule.status == .openAllYear, "\(text)")
      let window = DateWindow.threeMonths(startingAt: CalendarDate(year: 2026, month: 11, day: 20)!)
      #expect(schedule.unknownRanges(from: window.from, through: window.through).isEmpty, "\(text)")
    }
  }
}
