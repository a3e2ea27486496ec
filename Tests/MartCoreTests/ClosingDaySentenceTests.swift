import TestSupport
import Testing

@testable import MartCore

/// Lists that are no month, months named relative to the notice, day lists joined with 과/와,
/// bare weekdays in a note: closing days as stores and the press write them in sentences.
///
/// Expected dates come from the calendar (Python's `calendar`), not from this code: September
/// 2026 starts on a Tuesday (Sundays 6 13 20 27), October 2026 on a Thursday (Sundays 4 11 18
/// 25), November 2026 on a Sunday (Sundays 1 8 15 22 29, Wednesdays 4 11 18 25), December 2026
/// on a Tuesday (Sundays 6 13 20 27), January 2027 on a Friday (Sundays 3 10 17 24 31), June 2020
/// on a Monday (Sundays 7 14 21 28), November 2019 on a Friday (Sundays 3 10 17 24), December 2020 on a Tuesday (Sundays 6 13 20 27), May 2024 on
/// a Wednesday (Sundays 5 12 19 26).
@Suite("Closing days in sentences")
struct ClosingDaySentenceTests {
  typealias Case = ClosingDayMoreWordingsTests.Case

  /// A bare list is the next closing days: known from the as-of date through its last date, and
  /// nothing after it (a second closure of October is not called open).
  static let listCases: [Case] = [
    // The form of Lotte Mart's day-off cell (`09/13(일), 09/27(일)`, brand-sources.md §10.2).
    Case(
      "9/27(일), 10/11(일)", asOf: "2026-09-20", window: "2026-09-01"..."2026-11-30",
      dates: ["2026-09-27", "2026-10-11"], unknown: ["2026-09-01"..."2026-09-19", "2026-10-12"..."2026-11-30"]),
    Case(
      "10/25(일), 11/8(일)", asOf: "2026-10-20", window: "2026-10-01"..."2026-11-30",
      dates: ["2026-10-25", "2026-11-08"], unknown: ["2026-10-01"..."2026-10-19", "2026-11-09"..."2026-11-30"]),
    // A month label says the list is the month's: November known, December not.
    Case(
      "11월 휴무일: 11/8(일), 11/22(일)", asOf: "2026-11-20", window: "2026-11-01"..."2026-12-31",
      dates: ["2026-11-08", "2026-11-22"], unknown: ["2026-12-01"..."2026-12-31"]),
  ]

  /// Days named in sentences, with the month as the sentence names it.
  static let sentenceCases: [Case] = [
    // 매일신문 2020-06-14: "이번 달 대형마트 휴무일은 14일과 28일이다."
    Case(
      "이번 달 대형마트 휴무일은 14일과 28일이다.", asOf: "2020-06-14", window: "2020-06-01"..."2020-07-31",
      dates: ["2020-06-14", "2020-06-28"], unknown: ["2020-07-01"..."2020-07-31"]),
    // 데일리한국 2024-05-18: "이에 따라 5월 대형마트의 휴점일은 12일과 26일이다."
    Case(
      "이에 따라 5월 대형마트의 휴점일은 12일과 26일이다.", asOf: "2024-05-18", window: "2024-05-01"..."2024-06-30",
      dates: ["2024-05-12", "2024-05-26"], unknown: ["2024-06-01"..."2024-06-30"]),
    // 아주경제 2020-12-06: "… 대형마트 12월 휴무일은 13일, 27일이다."
    Case(
      "이마트, 홈플러스, 롯데마트 등 대형마트 12월 휴무일은 13일, 27일이다.", asOf: "2020-12-06",
      window: "2020-12-01"..."2021-01-31", dates: ["2020-12-13", "2020-12-27"], unknown: ["2021-01-01"..."2021-01-31"]),
    // Months relative to the notice's date.
    Case(
      "내달 휴무일은 10일과 24일입니다", asOf: "2026-12-20", window: "2026-12-01"..."2027-01-31",
      dates: ["2027-01-10", "2027-01-24"], unknown: ["2026-12-01"..."2026-12-31"]),
    Case(
      "다음 달 의무휴업일은 10일, 24일", asOf: "2026-12-20", window: "2027-01-01"..."2027-02-28",
      dates: ["2027-01-10", "2027-01-24"], unknown: ["2027-02-01"..."2027-02-28"]),
    Case(
      "이달 휴무일은 13일과 27일", asOf: "2026-12-01", window: "2026-12-01"..."2027-01-31",
      dates: ["2026-12-13", "2026-12-27"], unknown: ["2027-01-01"..."2027-01-31"]),
    // A change notice that moves one closure and keeps the other gives both.
    Case(
      "이달 의무휴업일은 13일에서 16일로 변경되며, 27일은 기존과 동일하게 휴무합니다", asOf: "2026-12-01",
      window: "2026-12-01"..."2026-12-31", dates: ["2026-12-16", "2026-12-27"]),
    Case(
      "12월 둘째 일요일 의무휴업일을 13일에서 16일로 변경하고, 현행 의무휴업일인 넷째 일요일 27일은 그대로 유지한다",
      asOf: "2026-12-01", window: "2026-12-01"..."2026-12-31", dates: ["2026-12-16", "2026-12-27"]),
    Case(
      "내달 의무휴업일은 10일에서 7일로 변경하고 24일은 기존과 동일", asOf: "2026-12-01",
      window: "2027-01-01"..."2027-01-31", dates: ["2027-01-07", "2027-01-24"]),
    Case(
      "12월 의무휴업일은 기존과 동일하게 13일, 27일입니다", asOf: "2026-12-01", window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-13", "2026-12-27"]),
    // 이데일리 (뉴스픽) 2025-09-01: the day moved from (10-08) is no closure; the day moved to is
    // written without its month and is not guessed.
    Case(
      "경기 과천시는 다음달 8일 예정됐던 대형마트와 SSM의 의무휴업일을 추석 당일인 6일로 한시 조정했다.", asOf: "2025-09-01",
      window: "2025-10-01"..."2025-10-31", status: .unknown, dates: [], unknown: ["2025-10-01"..."2025-10-31"]),
    // A day with no month named anywhere stays unknown; a month the text grounds it in gives it.
    // 매일신문 2020-06-14 (the lead sentence): "6월 둘째 주 일요일인 14일은 … 의무휴업한다." The
    // ordinal describes the day; it is no rule for June, whose other closure is not named here.
    Case(
      "6월 둘째 주 일요일인 14일은 이마트·홈플러스·롯데마트 등 대형마트 업체 대부분 점포가 의무휴업한다.",
      asOf: "2020-06-14", window: "2020-06-01"..."2020-06-30", dates: ["2020-06-14"],
      unknown: ["2020-06-01"..."2020-06-13", "2020-06-15"..."2020-06-30"]),
    // 아주경제 2019-11-24: "11월 넷째 주 일요일인 24일에는 … ‘의무 휴업’한다."
    Case(
      "11월 넷째 주 일요일인 24일에는 이마트·홈플러스·롯데마트 등 대형마트 업체 대부분 점포가 ‘의무 휴업’한다.",
      asOf: "2019-11-24", window: "2019-11-01"..."2019-11-30", dates: ["2019-11-24"],
      unknown: ["2019-11-01"..."2019-11-23", "2019-11-25"..."2019-11-30"]),
    // The same description with no month: the day is not guessed, and no monthly rule is read.
    Case(
      "둘째 일요일인 13일 휴무", asOf: "2026-12-02", window: "2026-12-01"..."2026-12-31", status: .unknown,
      dates: [], unknown: ["2026-12-01"..."2026-12-31"]),
    // 연합뉴스TV (서초구, 2023-01): "오는 28일부터" is the day a change applies from, no closure.
    Case(
      "서울 서초구의 대형마트가 오는 28일부터 의무휴업일을 둘째 주와 넷째 주 일요일에서 해당 주 수요일로 전환합니다.",
      asOf: "2023-01-20", window: "2023-01-01"..."2023-02-28", status: .unknown, dates: [],
      unknown: ["2023-01-01"..."2023-02-28"]),
    // A day alone, no month anywhere: unknown, whatever the as-of month.
    Case(
      "매장 사정으로 14일 휴무합니다", asOf: "2026-12-02", window: "2026-12-01"..."2026-12-31", status: .unknown,
      dates: [], unknown: ["2026-12-01"..."2026-12-31"]),
    // `오는 N일`: the next such day from the notice's date (this month, else the next).
    Case(
      "오는 14일 휴무합니다", asOf: "2026-12-02", window: "2026-12-01"..."2026-12-31", dates: ["2026-12-14"],
      unknown: ["2026-12-01"..."2026-12-01", "2026-12-15"..."2026-12-31"]),
    Case(
      "오는 1일 휴무합니다", asOf: "2026-12-20", window: "2026-12-01"..."2027-01-31", dates: ["2027-01-01"],
      unknown: ["2026-12-01"..."2026-12-19", "2027-01-02"..."2027-01-31"]),
    // A day already past by weeks does not roll over: as of 2026-12-20 `오는 5일` is no day of
    // January (the notice was written before the 5th of its month).
    Case(
      "오는 5일 휴무합니다", asOf: "2026-12-20", window: "2026-12-01"..."2027-01-31", status: .unknown,
      dates: [], unknown: ["2026-12-01"..."2027-01-31"]),
    // 브릿지경제 via 뉴스픽, 2023-11-11: "… 의무휴업일을 오는 5일로 앞당기며 12일은 정상 영업에 들어간다."
    // Read on the 11th, the 5th is past; December 5th would be a wrong day.
    Case(
      "마트별로는 이마트가 서울 7개점의 의무휴업일을 오는 5일로 앞당기며 12일은 정상 영업에 들어간다.", asOf: "2023-11-11",
      window: "2023-11-01"..."2023-12-31", status: .unknown, dates: [], unknown: ["2023-11-01"..."2023-12-31"]),
    // A heading naming the notice before its colon (`12월 정기휴무 안내:`) heads the month's days,
    // and a day alone with a closing word under it is one of them, not left out and so open.
    Case(
      "12월 정기휴무 안내: 13일(일), 27일(일)", asOf: "2026-12-02", window: "2026-12-01"..."2027-01-31",
      dates: ["2026-12-13", "2026-12-27"], unknown: ["2027-01-01"..."2027-01-31"]),
    Case(
      "12월 휴무일: 13일 휴무, 27일 휴무", asOf: "2026-12-02", window: "2026-12-01"..."2027-01-31",
      dates: ["2026-12-13", "2026-12-27"], unknown: ["2027-01-01"..."2027-01-31"]),
    // A weekday alone in a note, hours around it: every Wednesday.
    Case(
      "영업시간 10:00~22:00 ※수요일 휴점", asOf: "2026-11-20", window: "2026-11-01"..."2026-11-30",
      dates: ["2026-11-04", "2026-11-11", "2026-11-18", "2026-11-25"]),
    Case(
      "정기휴무: 수요일", asOf: "2026-11-20", window: "2026-11-01"..."2026-11-30",
      dates: ["2026-11-04", "2026-11-11", "2026-11-18", "2026-11-25"]),
  ]

  /// A notice that moves a closure says the day it gave up is open (`27일 휴무, 28일 정상영업`):
  /// a day alone with its own verb after a date is in that date's month, and read, not left
  /// unknown. December 2026: the 13th and 27th are Sundays, the 14th and 28th Mondays.
  static let dayAfterADateCases: [Case] = [
    Case(
      "12월 27일 휴무, 28일 정상영업", asOf: "2026-12-02", window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-27"], unknown: ["2026-12-01"..."2026-12-01", "2026-12-29"..."2026-12-31"]),
    Case(
      "12/27(일) 휴무, 28일 정상 영업", asOf: "2026-12-02", window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-27"], unknown: ["2026-12-01"..."2026-12-01", "2026-12-29"..."2026-12-31"]),
    Case(
      "12월 13일 정상영업, 14일 휴무", asOf: "2026-12-02", window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-14"], unknown: ["2026-12-01"..."2026-12-01", "2026-12-15"..."2026-12-31"]),
  ]

  @Test func aDayWithItsOwnVerbAfterADateIsRead() { forEachCase(Self.dayAfterADateCases, Self.check) }

  @Test func aListIsKnownThroughItsLastDate() { forEachCase(Self.listCases, Self.check) }
  @Test func sentences() { forEachCase(Self.sentenceCases, Self.check) }

  /// Reads a case as a text whose source is not known to list whole months (`mart-holiday
  /// rule`'s default): a bare list is its next closing days.
  static func check(_ example: Case, _ name: Comment) throws {
    let asOf = try #require(CalendarDate(iso: example.asOf), name)
    let from = try #require(CalendarDate(iso: example.window.lowerBound), name)
    let through = try #require(CalendarDate(iso: example.window.upperBound), name)
    let schedule = ClosingSchedule.parse(example.text, asOf: asOf, coverage: .asOfThroughLastListed)
    #expect(schedule.status == example.status, name)
    #expect(schedule.closedDates(from: from, through: through).map(\.iso) == example.dates, name)
    #expect(
      schedule.unknownRanges(from: from, through: through).map { $0.from.iso...$0.through.iso } == example.unknown,
      name)
  }

  /// A source whose text lists whole months (Lotte Mart 도와센터's 휴점일) knows them; one that lists
  /// next closing days (the default) does not.
  @Test func aSourceSaysWhatItsTextCovers() throws {
    let asOf = try #require(CalendarDate(iso: "2026-11-20"))
    let from = try #require(CalendarDate(iso: "2026-11-01"))
    let through = try #require(CalendarDate(iso: "2026-11-30"))
    let wholeMonths = ClosingSchedule.published(
      text: "11/08(일), 11/22(일)", dates: [], asOf: asOf, textCoverage: .wholeMonths)
    #expect(wholeMonths.unknownRanges(from: from, through: through).isEmpty)
    let next = ClosingSchedule.published(text: "11/08(일), 11/22(일)", dates: [], asOf: asOf)
    #expect(
      next.unknownRanges(from: from, through: through).map { "\($0.from.iso)…\($0.through.iso)" } == [
        "2026-11-01…2026-11-07", "2026-11-09…2026-11-19", "2026-11-23…2026-11-30",
      ])
  }
}
