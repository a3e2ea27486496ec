import TestSupport
import Testing

@testable import MartCore

/// Notices that change the closing days, dates that are not closing days, holiday labels of one
/// date, month headings and the official date style.
///
/// Expected dates are worked out from the calendar, not from this code: weekdays and the n-th
/// weekday of a month with Python's `datetime` and `calendar`, 설날 and 추석 with the
/// `korean-lunar-calendar` package (KASI tables): 설날 2027 is 2027-02-07, 추석 2027 is 2027-09-15.
///
/// November 2026 starts on a Sunday (Sundays 1 8 15 22 29, Wednesdays 4 11 18 25), December 2026
/// on a Tuesday (Sundays 6 13 20 27, Wednesdays 2 9 16 23 30), January 2027 on a Friday (Sundays
/// 3 10 17 24 31, Wednesdays 6 13 20 27), February 2027 on a Monday (Sundays 7 14 21 28,
/// Wednesdays 3 10 17 24).
@Suite("Closing-day notices")
struct ClosingDayNoticeTests {
  typealias Case = ClosingDayMoreWordingsTests.Case

  static let asOf = "2026-11-25"
  static let notNovemberToJanuary: [ClosedRange<String>] = ["2026-11-01"..."2026-11-30", "2027-01-01"..."2027-01-31"]

  static let noticeCases: [Case] = [
    // February's first closing day moves from the 10th (a Wednesday) to the 7th (a Sunday, 설날
    // 2027): the 7th closes, the 10th does not. The text speaks of February only.
    Case(
      "2월 첫째 휴무일을 10일에서 7일(설 당일)로 변경", asOf: asOf, window: "2027-02-01"..."2027-02-28",
      dates: ["2027-02-07"]),
    Case("2/8(월) → 2/7(일)", asOf: asOf, window: "2027-02-01"..."2027-02-28", dates: ["2027-02-07"]),
    // The 2nd and 4th Sundays up to December 2026, the 2nd and 4th Wednesdays from January 2027.
    Case(
      "2027년 1월부터 의무휴업일이 둘째·넷째 일요일에서 둘째·넷째 수요일로 변경", asOf: asOf,
      window: "2026-11-01"..."2027-02-28",
      dates: [
        "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-13", "2027-01-27", "2027-02-10",
        "2027-02-24",
      ]),
    Case(
      "2027년 1월 1일부터 둘째·넷째 일요일에서 둘째·넷째 수요일로 변경", asOf: asOf, window: "2026-11-01"..."2027-01-31",
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-13", "2027-01-27"]),
    Case(
      "둘째·넷째 일요일에서 둘째·넷째 수요일로 변경 (2027년 1월부터)", asOf: asOf, window: "2026-11-01"..."2027-01-31",
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-13", "2027-01-27"]),
    // From December 2026 (the next December as of 2026-11-25): November keeps its Sundays.
    Case(
      "기존 둘째·넷째 일요일 → 변경 둘째·넷째 수요일 (12월부터 적용)", asOf: asOf, window: "2026-11-01"..."2027-01-31",
      dates: ["2026-11-08", "2026-11-22", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]),
    Case(
      "기존 휴무일: 매월 둘째·넷째 일요일\n변경 휴무일: 매월 둘째·넷째 수요일\n2026년 12월부터 적용", asOf: asOf,
      window: "2026-11-01"..."2027-01-31",
      dates: ["2026-11-08", "2026-11-22", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]),
    // The verb closes the old rule before the arrow; it is replaced all the same.
    Case(
      "매월 둘째·넷째 일요일 휴무 → 매월 둘째·넷째 수요일 휴무 (2027년 1월부터)", asOf: asOf,
      window: "2026-12-01"..."2027-01-31", dates: ["2026-12-13", "2026-12-27", "2027-01-13", "2027-01-27"]),
    // No day the change applies from: the days of both rules are unknown, none is closed.
    Case(
      "의무휴업일 변경 안내: 둘째·넷째 일요일 → 둘째·넷째 수요일", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: [],
      unknown: [
        "2026-12-09"..."2026-12-09", "2026-12-13"..."2026-12-13", "2026-12-23"..."2026-12-23",
        "2026-12-27"..."2026-12-27",
      ]),
    // A rule with one of its days moved: 12/27 (the 4th Sunday) gives way to 12/30 (a Wednesday).
    Case(
      "매월 둘째·넷째 일요일 휴무 (12/27 → 12/30 변경)", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-13", "2026-12-30"]),
  ]

  static let notClosureCases: [Case] = [
    // A sale names days, not closures: alone it says nothing.
    Case(
      "12/1~12/7 1+1 행사", asOf: asOf, window: "2026-11-01"..."2026-12-31", status: .unknown, dates: [],
      unknown: ["2026-11-01"..."2026-12-31"]),
    // 12/13 is the 2nd Sunday: a sale on it does not open it, the rule still closes it.
    Case(
      "매월 둘째·넷째 일요일 휴무, 12/13 할인 행사", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-13", "2026-12-27"]),
    Case(
      "12/24 영업시간 단축", asOf: asOf, window: "2026-12-01"..."2026-12-31", status: .unknown, dates: [],
      unknown: ["2026-12-01"..."2026-12-31"]),
    // 12/27 (the 4th Sunday) trades with shorter hours: open.
    Case(
      "매월 둘째·넷째 일요일 휴무 (12/27 영업시간 단축)", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-13"]),
    Case(
      "매월 둘째·넷째 일요일 휴무, 12/13 10:00 재오픈", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-27"]),
    Case(
      "매월 둘째·넷째 일요일 휴무, 12/27 오픈 이벤트", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-13"]),
    // The verb before the date: 12/13 (a Sunday) open, 12/30 (a Wednesday) closed.
    Case(
      "[정상영업] 12/13(일)  [휴무] 12/30(수)", asOf: asOf, window: "2026-11-01"..."2027-01-31", dates: ["2026-12-30"],
      unknown: notNovemberToJanuary),
    Case(
      "정상영업 12/13(일), 휴무 12/30(수)", asOf: asOf, window: "2026-11-01"..."2027-01-31", dates: ["2026-12-30"],
      unknown: notNovemberToJanuary),
    // The verb in brackets after the date: 12/13, the 2nd Sunday, is open; 12/27 still closes.
    Case(
      "매월 둘째·넷째 일요일 휴무 / 12/13(일) (정상영업)", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-27"]),
  ]

  static let bracketCases: [Case] = [
    // The store's hours in brackets after a date say nothing of that date: 12/13 closes.
    Case(
      "휴무: 12/13 (영업시간 10:00~22:00)", asOf: asOf, window: "2026-12-01"..."2026-12-31", dates: ["2026-12-13"]),
    // A word alone in brackets after the dates speaks of them.
    Case(
      "12/1~12/7 (1+1 행사)", asOf: asOf, window: "2026-12-01"..."2026-12-31", status: .unknown, dates: [],
      unknown: ["2026-12-01"..."2026-12-31"]),
    Case(
      "매월 둘째·넷째 일요일 휴무, 12/27(일) (영업시간 단축)", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-13"]),
    // 기존과 동일: the same as before, no change notice (Dec 13 and 27 are the 2nd and 4th Sundays).
    Case(
      "휴무일은 기존과 동일하게 매월 둘째·넷째 일요일입니다", asOf: asOf, window: "2026-12-01"..."2026-12-31",
      dates: ["2026-12-13", "2026-12-27"]),
    // 영업시간 변경 from 12/1 is no closure on 12/1 (a Tuesday).
    Case(
      "영업시간 변경 안내: 12/1부터 10:00~22:00, 매월 둘째·넷째 일요일 휴무", asOf: asOf,
      window: "2026-12-01"..."2026-12-31", dates: ["2026-12-13", "2026-12-27"]),
  ]

  static let labelAndScopeCases: [Case] = [
    // 2027-02-07 is 설날 2027 and a Sunday: that day only, not 설 연휴 every year.
    Case(
      "설 연휴로 2월 7일(일) 휴무", asOf: asOf, window: "2027-01-01"..."2027-03-31", dates: ["2027-02-07"],
      unknown: ["2027-01-01"..."2027-01-31", "2027-03-01"..."2027-03-31"]),
    // 2027-09-15 is 추석 2027.
    Case(
      "추석 당일인 9/15 휴무", asOf: "2027-08-01", window: "2027-09-01"..."2027-10-31", dates: ["2027-09-15"],
      unknown: ["2027-10-01"..."2027-10-31"]),
    Case("365일 연중무휴 (명절 당일 포함)", asOf: asOf, window: "2027-01-01"..."2027-12-31", status: .openAllYear, dates: []),
    // December's rule only; November and January are unknown.
    Case(
      "12월 휴무일 : 둘째·넷째 일요일(13일, 27일)", asOf: asOf, window: "2026-11-01"..."2027-01-31",
      dates: ["2026-12-13", "2026-12-27"], unknown: notNovemberToJanuary),
    Case(
      "12월 휴무일 : 둘째·넷째 일요일", asOf: asOf, window: "2026-11-01"..."2027-01-31",
      dates: ["2026-12-13", "2026-12-27"], unknown: notNovemberToJanuary),
    // 2027-02-07 (설날, a Sunday) and 2027-02-28 (a Sunday).
    Case(
      "2월 : 7일(일, 설 당일), 28일(일)", asOf: asOf, window: "2027-01-01"..."2027-03-31",
      dates: ["2027-02-07", "2027-02-28"], unknown: ["2027-01-01"..."2027-01-31", "2027-03-01"..."2027-03-31"]),
    // February 2027's 2nd Sunday is the 14th.
    Case(
      "2월은 둘째 일요일 휴무", asOf: asOf, window: "2027-01-01"..."2027-03-31", dates: ["2027-02-14"],
      unknown: ["2027-01-01"..."2027-01-31", "2027-03-01"..."2027-03-31"]),
    // 2026-12-07 is a Monday, 2026-12-10 a Thursday: one range of four days.
    Case(
      "2026. 12. 7.(월) ~ 12. 10.(목) 휴점", asOf: asOf, window: "2026-11-01"..."2026-12-31",
      dates: ["2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10"], unknown: ["2026-11-01"..."2026-11-30"]),
    Case(
      "2026. 12. 7.(월) 휴무", asOf: asOf, window: "2026-12-01"..."2026-12-31", dates: ["2026-12-07"]),
  ]

  @Test func notices() { forEachCase(Self.noticeCases, ClosingDayMoreWordingsTests.check) }
  @Test func notClosures() { forEachCase(Self.notClosureCases, ClosingDayMoreWordingsTests.check) }
  @Test func brackets() { forEachCase(Self.bracketCases, ClosingDayMoreWordingsTests.check) }
  @Test func labelsAndScope() { forEachCase(Self.labelAndScopeCases, ClosingDayMoreWordingsTests.check) }

  @Test("a moved day is an exception and is explained")
  func movedDayExplained() throws {
    let asOf = try #require(CalendarDate(iso: Self.asOf))
    let (schedule, changes) = ClosingSchedule.parseExplained("2월 첫째 휴무일을 10일에서 7일(설 당일)로 변경", asOf: asOf)
    #expect(schedule.exceptions.map(\.iso) == ["2027-02-10"])
    #expect(schedule.dates.map(\.iso) == ["2027-02-07"])
    #expect(schedule.lunar.isEmpty)
    #expect(changes.map(\.kind) == [.moved])
    #expect(changes.first?.replaced.map(\.iso) == ["2027-02-10"])
    #expect(changes.first?.replacement.map(\.iso) == ["2027-02-07"])
    // 설 당일 confirms 2027-02-07; 첫째 휴무일 is the day the dates name.
    #expect(schedule.warnings.isEmpty)
  }

  @Test("a rule change says from which day the new rule holds, and speaks of the horizon")
  func ruleChangeExplained() throws {
    let asOf = try #require(CalendarDate(iso: Self.asOf))
    let (schedule, changes) = ClosingSchedule.parseExplained(
      "2027년 1월부터 의무휴업일이 둘째·넷째 일요일에서 둘째·넷째 수요일로 변경", asOf: asOf)
    #expect(schedule.rules == [.nthWeekday(ordinals: [2, 4], weekday: .wednesday)])
    #expect(
      changes == [
        ClosingChange(
          kind: .ruleChange, rulesBefore: [.nthWeekday(ordinals: [2, 4], weekday: .sunday)],
          rulesAfter: [.nthWeekday(ordinals: [2, 4], weekday: .wednesday)],
          appliesFrom: CalendarDate(year: 2027, month: 1, day: 1))
      ])
    // The horizon as of 2026-11-25 ends on 2027-12-31; after it nothing is known.
    #expect(
      schedule.knownThrough(from: asOf, through: CalendarDate(year: 2028, month: 3, day: 31)!)?.iso == "2027-12-31")
    // 2027-01-10 (a Sunday of the old rule) and 2026-12-09 (a Wednesday of the new one) are open.
    let open = ["2026-12-09", "2026-12-23", "2027-01-10", "2027-01-24"]
    #expect(open.allSatisfy { schedule.exceptions.map(\.iso).contains($0) })
  }

  @Test("a change notice without its day warns and closes none of the days of either rule")
  func ruleChangeWithoutDay() throws {
    let asOf = try #require(CalendarDate(iso: Self.asOf))
    let (schedule, changes) = ClosingSchedule.parseExplained("둘째·넷째 일요일 → 둘째·넷째 수요일", asOf: asOf)
    #expect(changes.first?.appliesFrom == nil)
    #expect(schedule.warnings.contains { $0.contains("change notice") })
    let december = schedule.closedDates(
      from: CalendarDate(year: 2026, month: 12, day: 1)!, through: CalendarDate(year: 2026, month: 12, day: 31)!)
    #expect(december.isEmpty)
  }
}
