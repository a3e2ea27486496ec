import Foundation
import TestSupport
import Testing

@testable import MartCore

/// One published text and what it says about the store on 2026-11-20 (a Friday).
struct StatusCase: Sendable, CustomTestStringConvertible {
  var text: String
  var state: StoreStatus.State
  /// `until` as `YYYY-MM-DD`.
  var until: String? = nil
  /// The first day of an announced shutdown, `YYYY-MM-DD`.
  var shutsFrom: String? = nil
  var shutsThrough: String? = nil
  var testDescription: String { text }
}

@Suite("Store status from published texts")
struct StoreStatusTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  static let closedCases: [StatusCase] = [
    // Homeplus's hours text, with the real typo for 김제점.
    StatusCase(text: "계룡점 영업종료로 단골매장을 변경해주세요.", state: .closed),
    StatusCase(text: "감제점 영업종료로 단골매장을 변경해주세요.", state: .closed),
    // Lotte Mart's state cell.
    StatusCase(text: "영업종료", state: .closed),
    StatusCase(text: "영업 종료", state: .closed),
    StatusCase(text: "폐점", state: .closed),
    StatusCase(text: "본 매장은 폐업하였습니다", state: .closed),
    StatusCase(text: "2025년 8월 31일부로 영업을 종료하였습니다", state: .closed),
    // GS THE FRESH's shutDownDate: a past day.
    StatusCase(text: "20250831", state: .closed),
    StatusCase(text: "2025-08-31", state: .closed),
    // The as-of day itself is already shut.
    StatusCase(text: "20261120", state: .closed),
  ]

  static let temporaryCases: [StatusCase] = [
    StatusCase(text: "마트 임시휴업. 몰영업시간 10:00~21:00", state: .temporarilyClosed),
    StatusCase(text: "임시휴업", state: .temporarilyClosed),
    StatusCase(text: "임시 휴점", state: .temporarilyClosed),
    StatusCase(text: "휴점 중", state: .temporarilyClosed),
    StatusCase(text: "영업 중단", state: .temporarilyClosed),
    StatusCase(text: "리뉴얼 공사로 휴점", state: .temporarilyClosed),
    StatusCase(text: "매장 새단장 중", state: .temporarilyClosed),
    // 12/31 after the first of the as-of month (2026-11-01): this year.
    StatusCase(text: "리뉴얼 공사로 12/31까지 휴점", state: .temporarilyClosed, until: "2026-12-31"),
    // 3/31 this year is before 2026-11-01, so the closure runs to next March.
    StatusCase(text: "리뉴얼 공사로 3/31까지 휴점", state: .temporarilyClosed, until: "2027-03-31"),
    StatusCase(text: "시설 공사로 2026.12.31까지 영업을 중단합니다", state: .temporarilyClosed, until: "2026-12-31"),
    StatusCase(text: "리뉴얼 공사로 12월 31일(목)까지 휴점합니다", state: .temporarilyClosed, until: "2026-12-31"),
    // Reopening on 2027-01-15: shut through the day before.
    StatusCase(text: "리뉴얼 공사 중 (2027년 1월 15일 재오픈)", state: .temporarilyClosed, until: "2027-01-14"),
    // A range that has begun: shut through its end.
    StatusCase(text: "11/1~12/31 리뉴얼 공사로 휴점", state: .temporarilyClosed, until: "2026-12-31"),
    // Closing days with a refit notice beside them.
    StatusCase(
      text: "매월 둘째, 넷째주 일요일 (리뉴얼 공사로 12/31까지 휴점)", state: .temporarilyClosed, until: "2026-12-31"),
  ]

  static let tradingCases: [StatusCase] = [
    StatusCase(text: "영업중", state: .trading),
    StatusCase(text: "정상영업 중", state: .trading),
    // The closure ended on 2026-11-10, before the as-of day.
    StatusCase(text: "리뉴얼 공사로 11/10까지 휴점", state: .trading),
    // Announced closures: trading now, shut from the named day.
    StatusCase(text: "20261215", state: .trading, shutsFrom: "2026-12-15"),
    StatusCase(text: "12/31 폐점 예정", state: .trading, shutsFrom: "2026-12-31"),
    StatusCase(text: "12/31까지 영업 후 폐점", state: .trading, shutsFrom: "2027-01-01"),
    StatusCase(text: "폐점 예정", state: .trading),
    StatusCase(
      text: "12/1~12/31 리뉴얼 공사로 휴점", state: .trading, shutsFrom: "2026-12-01", shutsThrough: "2026-12-31"),
    StatusCase(text: "12/1부터 리뉴얼 공사로 휴점", state: .trading, shutsFrom: "2026-12-01"),
  ]

  /// Texts about closing days, hours or single days: never a store status.
  static let notAStatus: [String] = [
    "매월 둘째 일요일 휴점",
    "설 당일 휴점",
    "추석 연휴 휴점",
    "설 당일 임시휴업",
    "※ 11/30 시설공사로 휴점",
    "※ 12/31 임시휴무",
    "정상영업",
    "11월22일 일요일 정상영업",
    "※11/11(수요일) 정기휴무!! 11월22일 일요일 정상영업, 11월25일 정기휴무",
    "매월 둘째, 넷째 일요일 (11/8, 11/22)",
    "10:00~24:00",
    "영업시간 10:00~22:00 (영업종료 30분 전 입장마감)",
    "영업종료 1시간 전 계산 마감",
    "폐점시간 23:00",
    "폐점 정리 세일",
    "12/24 18시 영업종료",
    "리뉴얼 오픈",
    "오픈예정",
    "   ",
  ]

  /// Checks one case; `name` names it in failure messages.
  static func check(_ example: StatusCase, _ name: Comment) throws {
    let reading = try #require(StoreStatus.read(example.text, asOf: asOf), name)
    #expect(reading.status.state == example.state, name)
    #expect(reading.status.until?.iso == example.until, name)
    #expect(reading.status.text == example.text.trimmingCharacters(in: .whitespaces), name)
    #expect(reading.upcomingShutdown?.from.iso == example.shutsFrom, name)
    #expect(reading.upcomingShutdown?.through?.iso == example.shutsThrough, name)
  }

  @Test("closed for good")
  func closed() { forEachCase(Self.closedCases, Self.check) }

  @Test("temporarily closed")
  func temporarilyClosed() { forEachCase(Self.temporaryCases, Self.check) }

  @Test("trading, including announced closures")
  func trading() { forEachCase(Self.tradingCases, Self.check) }

  @Test("closing days, hours and single-day notices are not a status")
  func falsePositives() {
    for text in Self.notAStatus {
      #expect(StoreStatus.read(text, asOf: Self.asOf) == nil, "\(text.debugDescription)")
    }
  }

  @Test("a state cell, hours and closing text together: the most shut reading wins")
  func combined() {
    let tradingCell = StoreStatus.read(
      statusText: "영업중", openingHours: "10:00~23:00", closingText: "11/22(일)", asOf: Self.asOf)
    #expect(tradingCell.status == StoreStatus(state: .trading, text: "영업중"))

    let hoursSayShut = StoreStatus.read(
      statusText: "영업중", openingHours: "마트 임시휴업. 몰영업시간 10:00~21:00", closingText: nil, asOf: Self.asOf)
    #expect(hoursSayShut.status.state == .temporarilyClosed)
    #expect(hoursSayShut.status.text == "마트 임시휴업. 몰영업시간 10:00~21:00")

    // The closing text gives the end the state cell leaves out.
    let withEnd = StoreStatus.read(
      statusText: "임시휴업", openingHours: nil, closingText: "리뉴얼 공사로 12/31까지 휴점", asOf: Self.asOf)
    #expect(
      withEnd.status
        == StoreStatus(
          state: .temporarilyClosed, text: "리뉴얼 공사로 12/31까지 휴점", until: CalendarDate(year: 2026, month: 12, day: 31)))

    let closedWins = StoreStatus.read(
      statusText: "임시휴업", openingHours: "계룡점 영업종료로 단골매장을 변경해주세요.", closingText: nil, asOf: Self.asOf)
    #expect(closedWins.status.state == .closed)

    let nothing = StoreStatus.read(
      statusText: nil, openingHours: "10:00~24:00", closingText: "매월 둘째, 넷째 일요일 (11/8, 11/22)", asOf: Self.asOf)
    #expect(nothing == .trading)
    #expect(nothing.status.text == nil)
  }

  @Test("encoded with every key, unknowns as null")
  func coding() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let trading = String(decoding: try encoder.encode(StoreStatus.trading), as: UTF8.self)
    #expect(trading == #"{"closesOn":null,"state":"trading","text":null,"until":null}"#)
    let temporary = StoreStatus(
      state: .temporarilyClosed, text: "리뉴얼 공사로 12/31까지 휴점", until: CalendarDate(year: 2026, month: 12, day: 31))
    let encoded = String(decoding: try encoder.encode(temporary), as: UTF8.self)
    #expect(
      encoded == #"{"closesOn":null,"state":"temporarily-closed","text":"리뉴얼 공사로 12/31까지 휴점","until":"2026-12-31"}"#)
    #expect(try JSONDecoder().decode(StoreStatus.self, from: Data(encoded.utf8)) == temporary)
  }

  /// The window of an as-of day in November 2026: 2026-11-01 … 2027-01-31 (30 + 31 + 31 = 92 days).
  static let window = DateWindow(
    from: CalendarDate(year: 2026, month: 11, day: 1)!, through: CalendarDate(year: 2027, month: 1, day: 31)!)

  @Test("a store closed for good is shut from the as-of date, not back-dated to the window's start")
  func closedStoreClosingDates() {
    let schedule = ClosingSchedule.parse("", asOf: Self.asOf)
    let closing = BranchClosing(
      schedule: schedule, window: Self.window, storeStatus: StoreStatus(state: .closed, text: "영업종료"),
      asOf: Self.asOf)
    // 2026-11-20 … 2027-01-31: 11 + 31 + 31 days.
    #expect(closing.dates.count == 73)
    #expect(closing.dates.first?.iso == "2026-11-20")
    #expect(closing.dates.last?.iso == "2027-01-31")
    #expect(closing.status == .closures)
    // The source does not say since when: the days before the as-of date stay unknown.
    #expect(
      closing.unknownRanges == [
        DateWindow(from: Self.window.from, through: CalendarDate(year: 2026, month: 11, day: 19)!)
      ])
  }

  @Test("a store announced to close for good trades until then and is shut from that day")
  func closesOnLater() {
    let schedule = ClosingSchedule.parse("매월 둘째, 넷째 일요일", asOf: Self.asOf)
    let status = StoreStatus(
      state: .trading, text: "2026-12-31 영업종료 예정", closesOn: CalendarDate(year: 2026, month: 12, day: 31))
    let closing = BranchClosing(schedule: schedule, window: Self.window, storeStatus: status, asOf: Self.asOf)
    // Sundays 2nd/4th: 11-08, 11-22, 12-13, 12-27; then 12-31 … 01-31 shut (1 + 31 days).
    #expect(
      closing.dates.prefix(5).map(\.iso) == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2026-12-31"])
    #expect(closing.dates.count == 4 + 32)
    #expect(
      ShutDays(status, asOf: Self.asOf).range(in: Self.window)?.lowerBound.iso
        == "2026-12-31")
  }

  @Test("a temporary closure with an end inside the window follows the usual rule after it")
  func temporaryClosureThenRule() {
    let schedule = ClosingSchedule.parse("매월 둘째, 넷째 일요일", asOf: Self.asOf)
    let status = StoreStatus(
      state: .temporarilyClosed, text: "리뉴얼 공사로 12/31까지 휴점", until: CalendarDate(year: 2026, month: 12, day: 31))
    let closing = BranchClosing(schedule: schedule, window: Self.window, storeStatus: status, asOf: Self.asOf)
    // Shut 2026-11-20 … 2026-12-31 (11 + 31 = 42 days); before it, the rule's 2026-11-08 (the 2nd
    // Sunday; 11-01 is a Sunday). 2027-01-01 is a Friday, so January's Sundays are 3, 10, 17, 24,
    // 31 and the 2nd and 4th are the 10th and 24th.
    #expect(closing.dates.count == 1 + 42 + 2)
    #expect(closing.dates.first?.iso == "2026-11-08")
    #expect(closing.dates.suffix(3).map(\.iso) == ["2026-12-31", "2027-01-10", "2027-01-24"])
    #expect(
      ShutDays(status, asOf: Self.asOf).range(in: Self.window)?.upperBound.iso
        == "2026-12-31")
  }

  @Test("shut days are closed, never unknown; the days after a temporary closure stay unknown")
  func shutDaysAreNotUnknown() {
    // Nothing published about closing days: the whole window is unknown for a trading store.
    let schedule = ClosingSchedule.parse("", asOf: Self.asOf)
    let trading = BranchClosing(schedule: schedule, window: Self.window)
    #expect(trading.unknownRanges == [Self.window])
    let closed = BranchClosing(
      schedule: schedule, window: Self.window, storeStatus: StoreStatus(state: .closed), asOf: Self.window.from)
    #expect(closed.unknownRanges.isEmpty)
    // Shut through 2026-12-31, then nothing known: January 2027 is unknown.
    let temporary = BranchClosing(
      schedule: schedule, window: Self.window,
      storeStatus: StoreStatus(state: .temporarilyClosed, until: CalendarDate(year: 2026, month: 12, day: 31)),
      asOf: Self.window.from)
    #expect(
      temporary.unknownRanges
        == [DateWindow(from: CalendarDate(year: 2027, month: 1, day: 1)!, through: Self.window.through)])
    #expect(temporary.dates.count == 61)
  }

  @Test("a trading store's closing dates are its schedule's")
  func tradingClosingDates() {
    let schedule = ClosingSchedule.parse("매월 둘째, 넷째 일요일", asOf: Self.asOf)
    let closing = BranchClosing(schedule: schedule, window: Self.window, storeStatus: .trading)
    // November 2026: 8, 22; December: 13, 27; January 2027: 10, 24.
    #expect(
      closing.dates.map(\.iso) == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"])
  }
}
