import Foundation
import TestSupport
import Testing

@testable import MartCore

/// What a schedule knows: the coverage a source declares for its dates, days the text cannot
/// tell (public-holiday shifts, alternate weeks), and `knownThrough`. Expected dates are worked
/// out from the calendar (`cal 11 2026` and following).
@Suite("Closing-day coverage and uncertain days")
struct ClosingDayCoverageTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let text: String
    var asOf = "2026-11-20"
    var from = "2026-11-01"
    var to = "2027-01-31"
    var coverage = DateCoverage.wholeMonths
    let dates: [String]
    /// Unknown ranges as `from…through`.
    let unknown: [String]
    /// `nil` for a schedule without an end.
    let knownThrough: String?
    var warns = false

    var testDescription: String { "\(text) [\(coverage.rawValue), as of \(asOf)]" }
  }

  static let cases: [Case] = [
    // Words, not substrings: 시설 is no hour and no 설; 추석맞이 is no 추석.
    Case(
      text: "12/24~12/26 시설 공사로 휴점", dates: ["2026-12-24", "2026-12-25", "2026-12-26"],
      unknown: ["2026-11-01…2026-11-30", "2027-01-01…2027-01-31"], knownThrough: "2026-12-31"),
    // 2/10 as of 2026-11-20 is 2027-02-10 (82 days on, against 283 back).
    Case(
      text: "2/10 시설 보수 휴점", from: "2027-02-01", to: "2027-02-28", dates: ["2027-02-10"], unknown: [],
      knownThrough: "2027-02-28"),
    // 9/20 is 2026-09-20; 추석 2026 (09-24…26) is not a closure.
    Case(
      text: "추석맞이 대청소로 9/20 휴점", from: "2026-09-01", to: "2026-09-30", dates: ["2026-09-20"], unknown: [],
      knownThrough: "2026-09-30"),
    Case(
      text: "갱신정보 12/24 휴무", dates: ["2026-12-24"], unknown: ["2026-11-01…2026-11-30", "2027-01-01…2027-01-31"],
      knownThrough: "2026-12-31"),
    // Mondays of February and March 2027. 설날 2027 is 02-07, a Sunday: 02-06…02-08 and the
    // substitute 02-09. Monday 02-08 would move to 02-09, itself a holiday: both are unknown.
    // Monday 03-01 (삼일절) moves to Tuesday 03-02. The warning: later one-off days are not known.
    Case(
      text: "매주 월요일 휴무 (공휴일인 경우 익일)", from: "2027-02-01", to: "2027-03-31",
      dates: [
        "2027-02-01", "2027-02-15", "2027-02-22", "2027-03-02", "2027-03-08", "2027-03-15", "2027-03-22", "2027-03-29",
      ],
      unknown: ["2027-02-08…2027-02-09"], knownThrough: "2027-12-31", warns: true),
    // No Monday of the window is a public holiday (12-25 and 01-01 are Fridays).
    Case(
      text: "매주 월요일 휴무 (공휴일인 경우 익일)",
      dates: [
        "2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30", "2026-12-07", "2026-12-14",
        "2026-12-21", "2026-12-28", "2027-01-04", "2027-01-11", "2027-01-18", "2027-01-25",
      ], unknown: [], knownThrough: "2027-12-31", warns: true),
    // Public holidays as days: Mondays close, and so do the holidays 12-25 and 01-01 (Fridays).
    Case(
      text: "매주 월요일 및 공휴일 휴무",
      dates: [
        "2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30", "2026-12-07", "2026-12-14",
        "2026-12-21", "2026-12-25", "2026-12-28", "2027-01-01", "2027-01-04", "2027-01-11", "2027-01-18",
        "2027-01-25",
      ], unknown: [], knownThrough: "2027-12-31", warns: true),
    // 추석 2026 is 09-25 (연휴 09-24…26); the 2nd Sunday of September 2026 is 09-13, of October
    // 10-11: none falls on it, so nothing moves.
    Case(
      text: "매월 둘째 일요일 휴무 (명절과 겹칠 경우 익일 휴무)", from: "2026-09-01", to: "2026-10-31",
      dates: ["2026-09-13", "2026-10-11"], unknown: [], knownThrough: nil, warns: true),
    // Every other Sunday: which ones is unknown; the 2nd Wednesdays close.
    Case(
      text: "격주 일요일 휴무, 매월 둘째 수요일", from: "2026-12-01", to: "2026-12-31", dates: ["2026-12-09"],
      unknown: [
        "2026-12-06…2026-12-06", "2026-12-13…2026-12-13", "2026-12-20…2026-12-20", "2026-12-27…2026-12-27",
      ], knownThrough: "2027-12-31", warns: true),
    // Every Sunday but the last of each month (11-29, 12-27, 01-31).
    Case(
      text: "매주 일요일 휴무 (단, 마지막 일요일은 정상영업)",
      dates: [
        "2026-11-01", "2026-11-08", "2026-11-15", "2026-11-22", "2026-12-06", "2026-12-13", "2026-12-20",
        "2027-01-03", "2027-01-10", "2027-01-17", "2027-01-24",
      ], unknown: [], knownThrough: "2027-12-31"),
    // Hours right after a rule: the 2nd Sundays (11-08, 12-13, 01-10) trade; nothing else is known.
    Case(
      text: "매월 둘째 일요일 오후 6시까지 영업", dates: [],
      unknown: [
        "2026-11-01…2026-11-07", "2026-11-09…2026-12-12", "2026-12-14…2027-01-09", "2027-01-11…2027-01-31",
      ], knownThrough: "2027-12-12", warns: true),
    // With a closing rule: the 4th Sundays close (11-22, 12-27, 01-24), the 2nd trade.
    Case(
      text: "매월 둘째·넷째 일요일 휴무, 둘째 일요일 오후 6시까지 영업",
      dates: ["2026-11-22", "2026-12-27", "2027-01-24"], unknown: [], knownThrough: nil, warns: true),
    // A month's own rule is the next such month on or after the as-of month: October 2027,
    // whose 3rd Sunday is 10-17.
    Case(
      text: "10월은 셋째 일요일 휴무", from: "2026-10-01", to: "2027-10-31", dates: ["2027-10-17"],
      unknown: ["2026-10-01…2027-09-30"], knownThrough: "2027-10-31"),
    // As of 2026-03-01, December is December 2026 (3rd Sunday 12-20), not December 2025.
    Case(
      text: "매월 둘째·넷째 일요일 휴무 (단, 12월은 셋째 일요일 휴무)", asOf: "2026-03-01", from: "2025-12-01",
      to: "2026-12-31",
      dates: [
        "2025-12-14", "2025-12-28", "2026-01-11", "2026-01-25", "2026-02-08", "2026-02-22", "2026-03-08",
        "2026-03-22", "2026-04-12", "2026-04-26", "2026-05-10", "2026-05-24", "2026-06-14", "2026-06-28",
        "2026-07-12", "2026-07-26", "2026-08-09", "2026-08-23", "2026-09-13", "2026-09-27", "2026-10-11",
        "2026-10-25", "2026-11-08", "2026-11-22", "2026-12-20",
      ], unknown: [], knownThrough: nil),
    // A Lotte Mart day-off cell: the next closing day.
    Case(
      text: "11/22(일)", coverage: .asOfThroughLastListed, dates: ["2026-11-22"],
      unknown: ["2026-11-01…2026-11-19", "2026-11-23…2027-01-31"], knownThrough: "2026-11-22"),
    Case(
      text: "11/22(일)", dates: ["2026-11-22"], unknown: ["2026-12-01…2027-01-31"], knownThrough: "2026-11-30"),
    Case(
      text: "11/22(일)", coverage: .listedDaysOnly, dates: ["2026-11-22"],
      unknown: ["2026-11-01…2026-11-21", "2026-11-23…2027-01-31"], knownThrough: "2026-11-22"),
    Case(
      text: "12/13,/27", coverage: .asOfThroughLastListed, dates: ["2026-12-13", "2026-12-27"],
      unknown: ["2026-11-01…2026-11-19", "2026-12-28…2027-01-31"], knownThrough: "2026-12-27"),
    // A listed day before the as-of date is known; the days around it are not.
    Case(
      text: "11/8(일요일),11/22(일요일)", coverage: .asOfThroughLastListed,
      dates: ["2026-11-08", "2026-11-22"],
      unknown: ["2026-11-01…2026-11-07", "2026-11-09…2026-11-19", "2026-11-23…2027-01-31"],
      knownThrough: "2026-11-22"),
    // Headed by its month (`11월 의무휴업안내`), the list is November's, whatever the source's
    // coverage: November is known, the months after it are not.
    Case(
      text: "11월 의무휴업안내(11/8(일요일),11/22(일요일)", coverage: .asOfThroughLastListed,
      dates: ["2026-11-08", "2026-11-22"], unknown: ["2026-12-01…2027-01-31"], knownThrough: "2026-11-30"),
    // A rule in the same text covers every day.
    Case(
      text: "매월 둘째, 넷째주 일요일 ( 11/8, 11/22 )", coverage: .asOfThroughLastListed,
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"], unknown: [],
      knownThrough: nil),
    Case(
      text: "", coverage: .asOfThroughLastListed, dates: [], unknown: ["2026-11-01…2027-01-31"],
      knownThrough: "2026-10-31", warns: true),
    Case(text: "추석에는 휴무", from: "2026-09-01", to: "2026-09-30", dates: ["2026-09-25"], unknown: [], knownThrough: nil),
  ]

  @Test func whatEachTextKnows() {
    forEachCase(Self.cases) { example, name in
      let asOf = try #require(CalendarDate(iso: example.asOf), name)
      let from = try #require(CalendarDate(iso: example.from), name)
      let to = try #require(CalendarDate(iso: example.to), name)
      let schedule = ClosingSchedule.parse(example.text, asOf: asOf, coverage: example.coverage)
      #expect(schedule.closedDates(from: from, through: to).map(\.iso) == example.dates, name)
      #expect(
        schedule.unknownRanges(from: from, through: to).map { "\($0.from.iso)…\($0.through.iso)" } == example.unknown,
        name)
      #expect(schedule.knownThrough(from: from, through: to)?.iso == example.knownThrough, name)
      #expect(schedule.warnings.isEmpty == !example.warns, name)
    }
  }

  @Test("추석맞이 and 대명절 name no holiday; 추석 after 대명절 does")
  func holidayNamesAreWords() {
    let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
    #expect(ClosingSchedule.parse("추석맞이 대청소로 9/20 휴점", asOf: asOf).lunar.isEmpty)
    let festival = ClosingSchedule.parse("민족 대명절 추석 연휴 휴무", asOf: asOf)
    #expect(festival.lunar == [LunarClosing(holiday: .chuseok, offsets: [-1, 0, 1])])
    #expect(festival.warnings.isEmpty)
    #expect(ClosingSchedule.parse("갱신정보 12/24 휴무", asOf: asOf).rules.isEmpty)
  }

  @Test("published dates take their source's coverage, and a rule of the text still covers every day")
  func publishedCoverage() {
    let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
    let window = DateWindow.threeMonths(startingAt: asOf)
    let next = CalendarDate(year: 2026, month: 11, day: 22)!
    let listed = ClosingSchedule.published(text: nil, dates: [next], asOf: asOf, coverage: .asOfThroughLastListed)
    #expect(listed.coverage == [DateWindow(from: asOf, through: next)])
    #expect(listed.knownThrough(from: window.from, through: window.through) == next)
    let monthly = ClosingSchedule.published(text: nil, dates: [next], asOf: asOf, coverage: .wholeMonths)
    #expect(monthly.coverage == nil)
    #expect(monthly.knownThrough(from: window.from, through: window.through)?.iso == "2026-11-30")
    let ruled = ClosingSchedule.published(
      text: "매월 둘째, 넷째 일요일", dates: [next], asOf: asOf, coverage: .asOfThroughLastListed)
    #expect(ruled.coverage == nil)
    #expect(ruled.unknownRanges(from: window.from, through: window.through).isEmpty)
    #expect(ruled.knownThrough(from: window.from, through: window.through) == nil)
  }

  @Test("a branch's knownThrough reaches the last day its store status shuts it")
  func branchKnownThrough() throws {
    let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
    let window = DateWindow.threeMonths(startingAt: asOf)
    let schedule = ClosingSchedule.parse("11/22(일)", asOf: asOf, coverage: .asOfThroughLastListed)
    let trading = BranchClosing(schedule: schedule, window: window)
    #expect(trading.knownThrough?.iso == "2026-11-22")
    let shut = BranchClosing(schedule: schedule, window: window, storeStatus: StoreStatus(state: .closed, text: "영업종료"))
    #expect(shut.knownThrough == window.through)
    #expect(shut.unknownRanges.isEmpty)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let json = String(decoding: try encoder.encode(trading), as: UTF8.self)
    #expect(json.contains(#""knownThrough":"2026-11-22""#))
    let rule = BranchClosing(schedule: .parse("매월 둘째 일요일", asOf: asOf), window: window)
    #expect(String(decoding: try encoder.encode(rule), as: UTF8.self).contains(#""knownThrough":null"#))
    #expect(try JSONDecoder().decode(BranchClosing.self, from: Data(json.utf8)) == trading)
  }
}
