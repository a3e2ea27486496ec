import Foundation
import Testing

@testable import MartCore

@Suite("Closing schedule expansion and coding")
struct ClosingDayScheduleTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 22)!

  @Test("the fifth and last weekday of a month")
  func fifthAndLast() {
    // November 2026 has five Sundays: 1, 8, 15, 22, 29; February 2027 has four: 7, 14, 21, 28.
    let schedule = ClosingSchedule.parse("다섯째 일요일, 마지막 일요일", asOf: Self.asOf)
    let closed = schedule.closedDates(
      from: CalendarDate(year: 2026, month: 11, day: 1)!, through: CalendarDate(year: 2027, month: 2, day: 28)!)
    #expect(closed.map(\.iso) == ["2026-11-29", "2026-12-27", "2027-01-31", "2027-02-28"])
  }

  @Test("day 31 is skipped in shorter months")
  func dayOfMonthSkipsShortMonths() {
    let schedule = ClosingSchedule.parse("매월 31일", asOf: Self.asOf)
    let closed = schedule.closedDates(
      from: CalendarDate(year: 2027, month: 1, day: 1)!, through: CalendarDate(year: 2027, month: 4, day: 30)!)
    #expect(closed.map(\.iso) == ["2027-01-31", "2027-03-31"])
  }

  @Test("an empty or reversed window has no dates")
  func reversedWindow() {
    let schedule = ClosingSchedule.parse("매주 월요일", asOf: Self.asOf)
    #expect(schedule.closedDates(from: Self.asOf, through: Self.asOf.adding(days: -1)).isEmpty)
  }

  @Test("lunar offsets across a window edge")
  func lunarAcrossWindowEdge() {
    // 설날 2027 is 2027-02-07, so 연휴 is 2027-02-06...08.
    let schedule = ClosingSchedule.parse("설 연휴", asOf: Self.asOf)
    let closed = schedule.closedDates(
      from: CalendarDate(year: 2027, month: 2, day: 7)!, through: CalendarDate(year: 2027, month: 2, day: 7)!)
    #expect(closed.map(\.iso) == ["2027-02-07"])
  }

  @Test("JSON form for clients, in a stable key order")
  func jsonForm() throws {
    let schedule = ClosingSchedule.parse(
      "매월 둘째·넷째 일요일, 설날 연휴, 신정, 12/24 (단, 12월 13일 정상영업)", asOf: Self.asOf)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = String(decoding: try encoder.encode(schedule), as: UTF8.self)
    #expect(
      json == """
        {"coverage":null,"dates":["2026-12-24"],"exceptions":["2026-12-13"],\
        "lunar":[{"holiday":"seollal","offsets":[-1,0,1]}],"lunarExceptions":[],\
        "rules":[{"kind":"nth-weekday","ordinals":[2,4],"weekday":"sunday"},{"day":1,"kind":"annual","month":1}],\
        "status":"closures","text":"매월 둘째·넷째 일요일, 설날 연휴, 신정, 12/24 (단, 12월 13일 정상영업)",\
        "uncertain":[],"warnings":[]}
        """)
    let decoded = try JSONDecoder().decode(ClosingSchedule.self, from: Data(json.utf8))
    #expect(decoded == schedule)
    // Bundles written before `coverage` and `uncertain` existed decode with neither.
    let older = json.replacingOccurrences(of: "\"coverage\":null,", with: "")
      .replacingOccurrences(of: "\"uncertain\":[],", with: "")
    #expect(!older.contains("coverage") && !older.contains("uncertain"))
    #expect(try JSONDecoder().decode(ClosingSchedule.self, from: Data(older.utf8)) == schedule)
  }

  @Test("every rule kind survives a JSON round trip")
  func ruleRoundTrip() throws {
    let schedule = ClosingSchedule(
      status: .closures,
      rules: [
        .nthWeekday(ordinals: [1, -1], weekday: .friday), .weekly(.monday), .dayOfMonth([10, 25]),
        .annual(month: 1, day: 1),
      ],
      dates: [CalendarDate(year: 2026, month: 12, day: 24)!],
      lunar: [LunarClosing(holiday: .chuseok, offsets: [0, 1])], text: "x", warnings: ["w"])
    let data = try JSONEncoder().encode(schedule)
    #expect(try JSONDecoder().decode(ClosingSchedule.self, from: data) == schedule)
  }

  @Test("unknown weekday names are rejected with a message")
  func badWeekday() {
    let json = #"{"status":"closures","text":"","rules":[{"kind":"weekly","weekday":"funday"}]}"#
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(ClosingSchedule.self, from: Data(json.utf8)) }
  }

  // MARK: - Unknown ranges

  static func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }

  static func ranges(_ schedule: ClosingSchedule, _ from: String, _ through: String) -> [String] {
    schedule.unknownRanges(from: day(from), through: day(through)).map { "\($0.from.iso)…\($0.through.iso)" }
  }

  @Test("a text not understood, or no text, knows no day of the window")
  func unknownKnowsNothing() {
    for text in ["", "휴무일 정보가 없습니다", "영업시간 10:00~23:00"] {
      let schedule = ClosingSchedule.parse(text, asOf: Self.asOf)
      #expect(schedule.status == .unknown)
      #expect(Self.ranges(schedule, "2026-11-15", "2027-01-10") == ["2026-11-15…2027-01-10"])
    }
  }

  @Test("recurring rules and lunar holidays know every day; open all year too")
  func recurringKnowsEverything() {
    for text in ["매월 둘째 일요일", "매주 월요일", "매월 10일", "설날 당일", "신정", "연중무휴"] {
      #expect(Self.ranges(ClosingSchedule.parse(text, asOf: Self.asOf), "2026-01-01", "2027-12-31") == [])
    }
  }

  @Test("explicit dates know the months they fall in, cut to the window")
  func datesKnowTheirMonths() {
    // 12/13 in December 2026; the window starts and ends mid-month.
    // Read as from a source whose dates are whole months (`.wholeMonths`).
    let schedule = ClosingSchedule.parse("12/13", asOf: Self.asOf, coverage: .wholeMonths)
    #expect(Self.ranges(schedule, "2026-11-15", "2027-01-10") == ["2026-11-15…2026-11-30", "2027-01-01…2027-01-10"])
    // Two months apart: the month between is unknown, as are the ends.
    let apart = ClosingSchedule.parse("11/8, 1/10", asOf: Self.asOf, coverage: .wholeMonths)
    #expect(
      Self.ranges(apart, "2026-10-01", "2027-02-28") == [
        "2026-10-01…2026-10-31", "2026-12-01…2026-12-31", "2027-02-01…2027-02-28",
      ])
    // Adjacent unknown months merge into one range.
    #expect(Self.ranges(schedule, "2026-09-01", "2026-11-30") == ["2026-09-01…2026-11-30"])
  }

  // MARK: - Published dates and text

  @Test("dates published as data stay dates, with no text")
  func datesOnly() throws {
    let dates = [Self.day("2026-11-22"), Self.day("2026-11-08"), Self.day("2026-11-08")]
    let schedule = ClosingSchedule.published(text: nil, dates: dates, asOf: Self.asOf)
    #expect(schedule.status == .closures)
    #expect(schedule.text == nil)
    #expect(schedule.dates.map(\.iso) == ["2026-11-08", "2026-11-22"])
    #expect(schedule.warnings.isEmpty)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(schedule), as: UTF8.self)
    #expect(json.contains(#""text":null"#))
    #expect(try JSONDecoder().decode(ClosingSchedule.self, from: Data(json.utf8)) == schedule)
  }

  @Test("neither dates nor text is unknown")
  func nothingPublished() {
    let schedule = ClosingSchedule.published(text: nil, dates: [], asOf: Self.asOf)
    #expect(schedule.status == .unknown)
    #expect(schedule.text == nil)
    #expect(Self.ranges(schedule, "2026-11-01", "2027-01-31") == ["2026-11-01…2027-01-31"])
  }

  @Test("published dates win for their months; the rule covers the rest; a disagreement is a warning")
  func datesWinOverTheRule() {
    // The rule says 2nd and 4th Sundays (Nov 8, 22; Dec 13, 27); the site publishes the 2nd
    // and 4th Wednesdays for November (Nov 11, 25).
    let schedule = ClosingSchedule.published(
      text: "매월 둘째·넷째 일요일", dates: [Self.day("2026-11-11"), Self.day("2026-11-25")], asOf: Self.asOf)
    #expect(schedule.text == "매월 둘째·넷째 일요일")
    #expect(
      schedule.closedDates(from: Self.day("2026-11-01"), through: Self.day("2026-12-31")).map(\.iso) == [
        "2026-11-11", "2026-11-25", "2026-12-13", "2026-12-27",
      ])
    #expect(Self.ranges(schedule, "2026-11-01", "2027-01-31") == [])
    #expect(schedule.warnings.count == 1)
    #expect(schedule.warnings.first?.hasPrefix("2026-11") == true)

    let agreeing = ClosingSchedule.published(
      text: "매월 둘째·넷째 일요일", dates: [Self.day("2026-11-08"), Self.day("2026-11-22")], asOf: Self.asOf)
    #expect(agreeing.warnings.isEmpty)
    #expect(
      agreeing.closedDates(from: Self.day("2026-11-01"), through: Self.day("2026-11-30")).map(\.iso) == [
        "2026-11-08", "2026-11-22",
      ])
  }

  @Test("a published date the text calls open is still closed")
  func publishedDateBeatsAnException() {
    let schedule = ClosingSchedule.published(
      text: "매월 둘째 일요일 (단, 12/13 정상영업)", dates: [Self.day("2026-12-13")], asOf: Self.asOf)
    #expect(
      schedule.closedDates(from: Self.day("2026-12-01"), through: Self.day("2027-01-31")).map(\.iso) == [
        "2026-12-13", "2027-01-10",
      ])
  }
}
