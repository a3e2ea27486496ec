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
        {"dates":["2026-12-24"],"exceptions":["2026-12-13"],"lunar":[{"holiday":"seollal","offsets":[-1,0,1]}],\
        "rules":[{"kind":"nth-weekday","ordinals":[2,4],"weekday":"sunday"},{"day":1,"kind":"annual","month":1}],\
        "status":"closures","text":"매월 둘째·넷째 일요일, 설날 연휴, 신정, 12/24 (단, 12월 13일 정상영업)","warnings":[]}
        """)
    let decoded = try JSONDecoder().decode(ClosingSchedule.self, from: Data(json.utf8))
    #expect(decoded == schedule)
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
}
