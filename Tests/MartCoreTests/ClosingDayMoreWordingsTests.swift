import TestSupport
import Testing

@testable import MartCore

/// More wordings found on store pages: bare days after a date, `제` before ordinals, ordinals and
/// weekdays in other orders, days under a month named once, opening hours, holidays labelling
/// dates in brackets, substitutions, month-scoped rules and a rule's own dates in brackets.
///
/// Expected dates are worked out from the calendar, not from this code: weekdays and the n-th
/// weekday of a month with Python's `datetime` and `calendar` (`calendar.monthrange`,
/// `date.weekday()`), lunar holidays with the `korean-lunar-calendar` package
/// (`KoreanLunarCalendar.setLunarDate(year, 1, 1, False)` for 설날, `(year, 8, 15)` for 추석).
@Suite("Closing-day wordings, more")
struct ClosingDayMoreWordingsTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let text: String
    let asOf: String
    let window: ClosedRange<String>
    let status: ClosingStatus
    let dates: [String]
    /// `from...through` of each unknown range.
    let unknown: [ClosedRange<String>]

    init(
      _ text: String, asOf: String = "2026-11-20", window: ClosedRange<String> = "2026-11-01"..."2027-01-31",
      status: ClosingStatus = .closures, dates: [String], unknown: [ClosedRange<String>] = []
    ) {
      self.text = text
      self.asOf = asOf
      self.window = window
      self.status = status
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
  /// November and January, the months a list of December dates says nothing about.
  static let outsideDecember: [ClosedRange<String>] = ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]
  /// The whole default window, for texts that name no closure.
  static let wholeWindow: [ClosedRange<String>] = ["2026-11-01"..."2027-01-31"]

  static let bareDayCases: [Case] = [
    // A day alone after a date is in the date's month: 12/13 and 12/27 (both Sundays).
    Case("12/13, 27 휴무", dates: ["2026-12-13", "2026-12-27"], unknown: outsideDecember),
    Case("12/13,27 휴무", dates: ["2026-12-13", "2026-12-27"], unknown: outsideDecember),
    Case("12/13·27 휴무", dates: ["2026-12-13", "2026-12-27"], unknown: outsideDecember),
    Case("12.13, 27 휴무", dates: ["2026-12-13", "2026-12-27"], unknown: outsideDecember),
    Case("12/13(일)·27(일) 휴무", dates: ["2026-12-13", "2026-12-27"], unknown: outsideDecember),
    Case("12/13,/27 휴무", dates: ["2026-12-13", "2026-12-27"], unknown: outsideDecember),
    // Inside an opening both Sundays are open; the rule keeps the others.
    Case(
      "매월 둘째·넷째 일요일 (12/13·27 정상영업)",
      dates: ["2026-11-08", "2026-11-22", "2027-01-10", "2027-01-24"]),
    // Not a day: a price, and ordinals with 번째 (the 2nd and 4th Sundays).
    Case("12/13, 3,000원 쿠폰 증정", dates: ["2026-12-13"], unknown: outsideDecember),
    Case("12/13, 2,4번째 일요일", dates: secondAndFourthSundays),
  ]

  static let ordinalCases: [Case] = [
    Case("매월 제2·제4 일요일", dates: secondAndFourthSundays),
    Case("제2, 제4 일요일", dates: secondAndFourthSundays),
    Case("매월 제2,4 일요일", dates: secondAndFourthSundays),
    Case("제2 제4 일요일", dates: secondAndFourthSundays),
    Case("매월 2주차, 4주차 일요일", dates: secondAndFourthSundays),
    Case("매월 2,4 일요일", dates: secondAndFourthSundays),
    Case("매월 2ㆍ4 일요일", dates: secondAndFourthSundays),
    Case("일요일(둘째,넷째)", dates: secondAndFourthSundays),
    Case("일요일 (2·4주)", dates: secondAndFourthSundays),
    Case("매월 둘째, 넷째 (일요일)", dates: secondAndFourthSundays),
    Case("매월 2,4번째 (일)", dates: secondAndFourthSundays),
    // 2/4 is a Wednesday in 2026, a Thursday in 2027 and a Tuesday in 2025, never a Sunday:
    // ordinals, with or without 매월.
    Case("매월 2/4 일요일 휴무", dates: secondAndFourthSundays),
    Case("2/4 일요일 휴무", dates: secondAndFourthSundays),
    // 1/4 is a Sunday in 2026 (2026-01-04): a date, outside the window.
    Case("1/4 일요일 휴무", dates: [], unknown: wholeWindow),
    // Mondays: Nov 2 9 16 23 30, Dec 7 14 21 28, Jan 4 11 18 25; Tuesdays the day after each.
    Case(
      "매주 월/화 휴무",
      dates: [
        "2026-11-02", "2026-11-03", "2026-11-09", "2026-11-10", "2026-11-16", "2026-11-17", "2026-11-23",
        "2026-11-24", "2026-11-30", "2026-12-01", "2026-12-07", "2026-12-08", "2026-12-14", "2026-12-15",
        "2026-12-21", "2026-12-22", "2026-12-28", "2026-12-29", "2027-01-04", "2027-01-05", "2027-01-11",
        "2027-01-12", "2027-01-18", "2027-01-19", "2027-01-25", "2027-01-26",
      ]),
  ]

  static let namedMonthCases: [Case] = [
    // November 2026 is the nearest November to the as-of date.
    Case(
      "11월 휴무일 : 8일, 22일", dates: ["2026-11-08", "2026-11-22"], unknown: ["2026-12-01"..."2027-01-31"]),
    Case("12월 휴무일 13일, 27일", dates: ["2026-12-13", "2026-12-27"], unknown: outsideDecember),
    Case("2026년 12월 휴점일: 13일(일), 27일(일)", dates: ["2026-12-13", "2026-12-27"], unknown: outsideDecember),
    // January 2027 (51 days after the as-of date) is nearer than January 2026.
    Case(
      "12월: 13일, 27일 / 1월: 10일, 24일", dates: ["2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"],
      unknown: ["2026-11-01"..."2026-11-30"]),
    // A day far from the month named is not in it.
    Case("12월 정기휴무 안내. 매월 둘째 일요일 휴무. 31일까지 전 품목 세일", dates: ["2026-11-08", "2026-12-13", "2027-01-10"]),
  ]

  static let hoursCases: [Case] = [
    // A day with opening hours does not take the rule away, and is not closed.
    Case("매월 둘째·넷째 일요일, 12/24 오후 6시까지 영업", dates: secondAndFourthSundays),
    Case("매월 둘째·넷째 일요일 12/24 오후 6시까지 영업", dates: secondAndFourthSundays),
    Case("매월 둘째·넷째 일요일, 12/31 10:00~18:00 단축영업", dates: secondAndFourthSundays),
    Case("매월 둘째·넷째 일요일, 설 전날 오후 5시까지 영업", dates: secondAndFourthSundays),
    // Hours without a verb: trading days, not closures. Alone they say nothing of closing.
    Case("12/24 10:00~22:00, 12/31 10:00~20:00", status: .unknown, dates: [], unknown: wholeWindow),
    Case("매월 둘째·넷째 일요일 휴무 12/25 10:00~20:00", dates: secondAndFourthSundays),
    Case("1/1 10시 오픈", status: .unknown, dates: [], unknown: wholeWindow),
    Case("매월 둘째·넷째 일요일 (1/1은 오후 1시 오픈)", dates: secondAndFourthSundays),
    Case("12/31 18시 폐점", status: .unknown, dates: [], unknown: wholeWindow),
    Case("12/31 20시 조기마감", status: .unknown, dates: [], unknown: wholeWindow),
    // 12/27 is the fourth Sunday of December 2026: with hours it is open.
    Case(
      "매월 둘째·넷째 일요일 (12/27 오후 6시까지 영업)",
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2027-01-10", "2027-01-24"]),
    Case("12/24(목) 오후 6시까지 영업, 12/25 휴무", dates: ["2026-12-25"], unknown: outsideDecember),
  ]

  static let changeCases: [Case] = [
    // Every Sunday but the second (Nov 8, Dec 13, Jan 10).
    Case(
      "매주 일요일 휴무 (단, 둘째 일요일은 정상영업)",
      dates: [
        "2026-11-01", "2026-11-15", "2026-11-22", "2026-11-29", "2026-12-06", "2026-12-20", "2026-12-27",
        "2027-01-03", "2027-01-17", "2027-01-24", "2027-01-31",
      ]),
    // Substitutions close the new day only: 2026-12-25 is a Friday, 12-30 a Wednesday.
    Case(
      "매월 둘째·넷째 일요일 휴무, 12/27(일) 대신 12/25(금) 휴무",
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-25", "2027-01-10", "2027-01-24"]),
    Case("의무휴업일 변경: 12/27(일) → 12/30(수)", dates: ["2026-12-30"], unknown: outsideDecember),
    Case("12/13 휴무 → 12/16 휴무로 변경", dates: ["2026-12-16"], unknown: outsideDecember),
    Case("12/27->12/30 변경", dates: ["2026-12-30"], unknown: outsideDecember),
    // December 2026: its third Sunday (Dec 20) instead of the second and fourth.
    Case(
      "매월 둘째·넷째 일요일 휴무 (단, 12월은 셋째 일요일 휴무)",
      dates: ["2026-11-08", "2026-11-22", "2026-12-20", "2027-01-10", "2027-01-24"]),
    Case("11월 둘째, 넷째 일요일 휴무", dates: ["2026-11-08", "2026-11-22"], unknown: ["2026-12-01"..."2027-01-31"]),
    // The rule's own dates win for November (Nov 15 and 29, both Sundays); the rule gives the rest.
    Case(
      "매월 둘째, 넷째 일요일 (11/15, 11/29)",
      dates: ["2026-11-15", "2026-11-29", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]),
    // The next closing days as a site lists them on 2026-11-20 (Nov 22 and Dec 13 are the rule's
    // 4th and 2nd Sundays): they confirm the rule, and Dec 27 stays closed.
    Case(
      "매월 둘째, 넷째 일요일 (11/22, 12/13)",
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]),
    // A shifted day (Dec 16, a Wednesday, instead of Dec 13): the list rules from Nov 1 to Dec 16,
    // the rule's later days (Dec 27 and January) stay.
    Case(
      "매월 둘째, 넷째 일요일 (11/22, 12/16)",
      dates: ["2026-11-22", "2026-12-16", "2026-12-27", "2027-01-10", "2027-01-24"]),
    // Dates listed apart stay extra closures (2026-12-31 is a Thursday).
    Case(
      "매월 둘째, 넷째 일요일 (11/15, 11/29), 12/31 재고조사 휴점",
      dates: ["2026-11-15", "2026-11-29", "2026-12-13", "2026-12-27", "2026-12-31", "2027-01-10", "2027-01-24"]),
  ]

  /// Checks one case; `name` names it in failure messages.
  static func check(_ example: Case, _ name: Comment) throws {
    let asOf = try #require(CalendarDate(iso: example.asOf), name)
    let from = try #require(CalendarDate(iso: example.window.lowerBound), name)
    let through = try #require(CalendarDate(iso: example.window.upperBound), name)
    // The cases' date lists are read as from a source whose lists are whole months (E-mart's
    // `HOLIDAY_DAYn`); the default, a list known through its last date, is `ClosingDaySentenceTests`'.
    let schedule = ClosingSchedule.parse(example.text, asOf: asOf, coverage: .wholeMonths)
    #expect(schedule.status == example.status, name)
    #expect(schedule.closedDates(from: from, through: through).map(\.iso) == example.dates, name)
    #expect(
      schedule.unknownRanges(from: from, through: through).map { $0.from.iso...$0.through.iso } == example.unknown,
      name)
  }

  @Test func bareDays() { forEachCase(Self.bareDayCases, Self.check) }
  @Test func ordinals() { forEachCase(Self.ordinalCases, Self.check) }
  @Test func namedMonths() { forEachCase(Self.namedMonthCases, Self.check) }
  @Test func hours() { forEachCase(Self.hoursCases, Self.check) }
  @Test func changes() { forEachCase(Self.changeCases, Self.check) }

  /// A holiday before dates in brackets, the explicit dates it must give, and whether no nearby
  /// year makes the dates that holiday.
  struct Label: CustomTestStringConvertible, Sendable {
    let text: String
    let asOf: String
    let window: ClosedRange<String>
    let dates: [String]
    let warns: Bool
    var testDescription: String { "\"\(text)\" as of \(asOf)" }
  }

  // 설날: 2025-01-29, 2026-02-17, 2027-02-07; 추석: 2025-10-06, 2026-09-25, 2027-09-15, 2028-10-03.
  static let labels: [Label] = [
    // 설 연휴 2025 is 01-28…01-30; 2027's (02-06…08) is not added to the window.
    Label(
      text: "설 연휴(1/28~1/30) 휴무", asOf: "2026-11-20", window: "2026-11-01"..."2027-03-31",
      dates: ["2025-01-28", "2025-01-29", "2025-01-30"], warns: false),
    // 9/25 is 추석 in 2026 only; 2027's 추석 (09-15) is not added.
    Label(
      text: "추석(9/25) 휴무", asOf: "2027-08-01", window: "2027-08-01"..."2027-10-31", dates: ["2026-09-25"],
      warns: false),
    // 추석 연휴 2025 is 10-05…10-07.
    Label(
      text: "추석 연휴(10/5~10/7)", asOf: "2026-08-01", window: "2026-08-01"..."2026-10-31",
      dates: ["2025-10-05", "2025-10-06", "2025-10-07"], warns: false),
    // 9/26 is 추석 in none of 2025–2027: the nearest 9/26 with a warning.
    Label(
      text: "추석(9/26) 휴무", asOf: "2026-11-20", window: "2026-09-01"..."2026-09-30", dates: ["2026-09-26"],
      warns: true),
  ]

  @Test("a holiday before dates in brackets labels them and picks their year")
  func holidayLabels() {
    forEachCase(Self.labels) { example, name in
      let asOf = try #require(CalendarDate(iso: example.asOf), name)
      let from = try #require(CalendarDate(iso: example.window.lowerBound), name)
      let through = try #require(CalendarDate(iso: example.window.upperBound), name)
      let schedule = ClosingSchedule.parse(example.text, asOf: asOf)
      #expect(schedule.status == .closures, name)
      #expect(schedule.dates.map(\.iso) == example.dates, name)
      #expect(schedule.lunar.isEmpty, name)
      #expect(schedule.rules.isEmpty, name)
      let inWindow = example.dates.filter { example.window.contains($0) }
      #expect(schedule.closedDates(from: from, through: through).map(\.iso) == inWindow, name)
      #expect(schedule.warnings.isEmpty == !example.warns, name)
    }
  }

  @Test("a rule's dates in brackets warn only when they differ from the rule")
  func ruleDatesWarn() {
    let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
    let differing = ClosingSchedule.parse("매월 둘째, 넷째 일요일 (11/15, 11/29)", asOf: asOf)
    #expect(differing.warnings.count == 1)
    #expect(differing.warnings.first?.contains("2026-11-15, 2026-11-29") == true)
    #expect(differing.exceptions.map(\.iso) == ["2026-11-08", "2026-11-22"])
    // 11/8 and 11/22 are the second and fourth Sundays of November 2026.
    let agreeing = ClosingSchedule.parse("매월 둘째, 넷째 일요일 (11/8, 11/22)", asOf: asOf)
    #expect(agreeing.warnings.isEmpty)
    #expect(agreeing.exceptions.isEmpty)
  }

  @Test("a trading day with hours is open only where a rule would close it, and warns")
  func tradingDays() {
    let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
    let ruleDay = ClosingSchedule.parse("매월 둘째·넷째 일요일 (12/27 오후 6시까지 영업)", asOf: asOf)
    #expect(ruleDay.exceptions.map(\.iso) == ["2026-12-27"])
    #expect(ruleDay.dates.isEmpty)
    #expect(ruleDay.warnings.count == 1)
    let otherDay = ClosingSchedule.parse("매월 둘째·넷째 일요일, 12/24 오후 6시까지 영업", asOf: asOf)
    #expect(otherDay.exceptions.isEmpty)
    #expect(otherDay.rules == [.nthWeekday(ordinals: [2, 4], weekday: .sunday)])
    #expect(otherDay.warnings.count == 1)
  }

  @Test("a substituted day is an exception, the new day a date")
  func substitution() {
    let schedule = ClosingSchedule.parse(
      "의무휴업일 변경: 12/27(일) → 12/30(수)", asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
    #expect(schedule.exceptions.map(\.iso) == ["2026-12-27"])
    #expect(schedule.dates.map(\.iso) == ["2026-12-30"])
    #expect(schedule.warnings.isEmpty)
  }
}
