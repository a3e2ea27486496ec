import TestSupport
import Testing

@testable import MartCore

/// Every real closing-day text of the shared corpus, and the spellings the engine must read,
/// with the dates they close. Expected dates were worked out from the calendar (Python's
/// `datetime`, `calendar` and the `korean-lunar-calendar` package), not from this code.
@Suite("Closing-day corpus")
struct ClosingDayCorpusTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let text: String
    let asOf: String
    let from: String
    let to: String
    let status: ClosingStatus
    let dates: [String]

    init(_ text: String, asOf: String, from: String, to: String, status: ClosingStatus, dates: [String]) {
      self.text = text
      self.asOf = asOf
      self.from = from
      self.to = to
      self.status = status
      self.dates = dates
    }

    var testDescription: String { "\"\(text)\" as of \(asOf)" }
  }

  static let cases: [Case] = [
    Case(
      "매월 둘째, 넷째주 일요일 (11/10, 11/24)", asOf: "2019-11-05", from: "2019-11-01", to: "2019-12-31", status: .closures,
      dates: ["2019-11-10", "2019-11-24", "2019-12-08", "2019-12-22"]),
    Case(
      "매월 둘째, 넷째주 일요일 ( 11/10, 11/24 )", asOf: "2019-11-05", from: "2019-11-01", to: "2019-12-31", status: .closures,
      dates: ["2019-11-10", "2019-11-24", "2019-12-08", "2019-12-22"]),
    Case(
      "9월 의무휴업안내(9/13(추석당일),9/22(일요일)", asOf: "2019-09-01", from: "2019-09-01", to: "2019-09-30", status: .closures,
      dates: ["2019-09-13", "2019-09-22"]),
    Case(
      "※2/5(화요일) 설날 당일 휴무!! 2월10일 일요일 정상영업, 2월24일 정기휴무", asOf: "2019-01-20", from: "2019-02-01", to: "2019-02-28",
      status: .closures,
      dates: ["2019-02-05", "2019-02-24"]),
    Case(
      "12/11,/25", asOf: "2022-12-01", from: "2022-12-01", to: "2022-12-31", status: .closures,
      dates: ["2022-12-11", "2022-12-25"]),
    Case(
      "12월 11일, 12월 25일", asOf: "2022-12-01", from: "2022-12-01", to: "2022-12-31", status: .closures,
      dates: ["2022-12-11", "2022-12-25"]),
    Case(
      "12월11일, 12월25일", asOf: "2022-12-01", from: "2022-12-01", to: "2022-12-31", status: .closures,
      dates: ["2022-12-11", "2022-12-25"]),
    Case(
      "12.11, 12.25", asOf: "2022-12-01", from: "2022-12-01", to: "2022-12-31", status: .closures,
      dates: ["2022-12-11", "2022-12-25"]),
    Case(
      "07/23(토), 07/24(일)", asOf: "2022-07-01", from: "2022-07-01", to: "2022-07-31", status: .closures,
      dates: ["2022-07-23", "2022-07-24"]),
    Case(
      "진해점  T. 055-541-2500 | 운영시간 : 10:00~23:00  휴점일 : 9월 의무휴업안내(9/13(추석당일),9/22(일요일)  신 경남 창원시 진해구 진해대로 762  구 경남 창원시 진해구 석동 543-5",
      asOf: "2019-09-01", from: "2019-09-01", to: "2019-09-30", status: .closures,
      dates: ["2019-09-13", "2019-09-22"]),
    Case(
      "창원중앙점  T. 055-240-2500 | 운영시간 : 10:00~23:00  휴점일 : 매월 둘째, 넷째주 일요일 ( 11/10, 11/24 )", asOf: "2019-11-01",
      from: "2019-11-01", to: "2019-11-30", status: .closures,
      dates: ["2019-11-10", "2019-11-24"]),
    Case(
      "매월 둘째, 넷째 일요일 (9/14, 9/28)", asOf: "2025-09-01", from: "2025-09-01", to: "2025-10-31", status: .closures,
      dates: ["2025-09-14", "2025-09-28", "2025-10-12", "2025-10-26"]),
    Case(
      "둘째주 일요일", asOf: "2019-03-01", from: "2019-03-01", to: "2019-04-30", status: .closures,
      dates: ["2019-03-10", "2019-04-14"]),
    Case(
      "넷 째주 수요일", asOf: "2019-03-01", from: "2019-03-01", to: "2019-04-30", status: .closures,
      dates: ["2019-03-27", "2019-04-24"]),
    Case(
      "둘째,넷째주 월요일, 일요일", asOf: "2019-03-01", from: "2019-03-01", to: "2019-04-30", status: .closures,
      dates: [
        "2019-03-10", "2019-03-11", "2019-03-24", "2019-03-25", "2019-04-08", "2019-04-14", "2019-04-22", "2019-04-28",
      ]),
    Case(
      "(단, 매월 2,4번째 일요일 휴점)", asOf: "2019-03-01", from: "2019-03-01", to: "2019-04-30", status: .closures,
      dates: ["2019-03-10", "2019-03-24", "2019-04-14", "2019-04-28"]),
    Case(
      "둘째,넷째주 수요일, 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: [
        "2026-11-08", "2026-11-11", "2026-11-22", "2026-11-25", "2026-12-09", "2026-12-13", "2026-12-23", "2026-12-27",
        "2027-01-10", "2027-01-13", "2027-01-24", "2027-01-27",
      ]),
    Case(
      "둘째 수요일, 넷째 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-11", "2026-11-22", "2026-12-09", "2026-12-27", "2027-01-13", "2027-01-24"]),
    Case(
      "둘째, 넷쨰 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]),
    Case(
      "정부시책에 의거 유통산업 발전법에 따라 매월 둘째, 넷째 일요일 의무 휴무합니다.*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업) ※ 일산점은 2월 13일 (수요일) 정상영업 합니다.",
      asOf: "2019-02-01", from: "2019-01-01", to: "2019-12-31", status: .closures,
      dates: [
        "2019-01-01", "2019-01-13", "2019-01-27", "2019-02-05", "2019-02-10", "2019-02-24", "2019-03-10", "2019-03-24",
        "2019-04-14", "2019-04-28", "2019-05-12", "2019-05-26", "2019-06-09", "2019-06-23", "2019-07-14", "2019-07-28",
        "2019-08-11", "2019-08-25", "2019-09-08", "2019-09-13", "2019-09-22", "2019-10-13", "2019-10-27", "2019-11-10",
        "2019-11-24", "2019-12-08", "2019-12-22",
      ]),
    Case(
      "매월 둘째, 넷째 일요일 의무 휴무 *휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)", asOf: "2026-11-22", from: "2026-11-01",
      to: "2027-12-31", status: .closures,
      dates: [
        "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-01", "2027-01-10", "2027-01-24", "2027-02-07",
        "2027-02-14", "2027-02-28", "2027-03-14", "2027-03-28", "2027-04-11", "2027-04-25", "2027-05-09", "2027-05-23",
        "2027-06-13", "2027-06-27", "2027-07-11", "2027-07-25", "2027-08-08", "2027-08-22", "2027-09-12", "2027-09-15",
        "2027-09-26", "2027-10-10", "2027-10-24", "2027-11-14", "2027-11-28", "2027-12-12", "2027-12-26",
      ]),
    Case(
      "매월 둘째 수요일, 넷째 일요일 의무 휴무", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-11", "2026-11-22", "2026-12-09", "2026-12-27", "2027-01-13", "2027-01-24"]),
    Case(
      "매월 둘째·넷째 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]),
    Case(
      "2,4번째 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]),
    Case(
      "2·4주 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]),
    Case(
      "둘째,넷째주 수요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]),
    Case(
      "제2, 4 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]),
    Case(
      "2째, 4째 수요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]),
    Case(
      "두번째, 네번째 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]),
    Case(
      "마지막 일요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-29", "2026-12-27", "2027-01-31"]),
    Case(
      "매월 첫째 월요일, 셋째 금요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-02", "2026-11-20", "2026-12-07", "2026-12-18", "2027-01-04", "2027-01-15"]),
    Case(
      "매주 월요일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: [
        "2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23", "2026-11-30", "2026-12-07", "2026-12-14", "2026-12-21",
        "2026-12-28", "2027-01-04", "2027-01-11", "2027-01-18", "2027-01-25",
      ]),
    Case(
      "매월 10일, 25일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-10", "2026-11-25", "2026-12-10", "2026-12-25", "2027-01-10", "2027-01-25"]),
    Case(
      "11/12(수), 11/26(수)", asOf: "2025-11-01", from: "2025-11-01", to: "2025-11-30", status: .closures,
      dates: ["2025-11-12", "2025-11-26"]),
    Case(
      "11월 12일(수)·26일(수)", asOf: "2025-11-01", from: "2025-11-01", to: "2025-11-30", status: .closures,
      dates: ["2025-11-12", "2025-11-26"]),
    Case(
      "2026.11.08(일)", asOf: "2026-11-01", from: "2026-11-01", to: "2026-11-30", status: .closures,
      dates: ["2026-11-08"]),
    Case(
      "11.12(수)/11.26(수)", asOf: "2025-11-01", from: "2025-11-01", to: "2025-11-30", status: .closures,
      dates: ["2025-11-12", "2025-11-26"]),
    Case(
      "12/24~12/26", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-12-24", "2026-12-25", "2026-12-26"]),
    Case(
      "１２／２４～１２／２６", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-12-24", "2026-12-25", "2026-12-26"]),
    Case(
      "20261108, 20261122", asOf: "2026-11-01", from: "2026-11-01", to: "2026-11-30", status: .closures,
      dates: ["2026-11-08", "2026-11-22"]),
    Case(
      "2026-11-08, 2026-11-22", asOf: "2026-11-01", from: "2026-11-01", to: "2026-11-30", status: .closures,
      dates: ["2026-11-08", "2026-11-22"]),
    Case(
      "20191110 20191124 201911", asOf: "2019-11-01", from: "2019-11-01", to: "2019-11-30", status: .closures,
      dates: ["2019-11-10", "2019-11-24"]),
    Case(
      "2019-11-10(일), 2019-11-24(일)", asOf: "2019-11-01", from: "2019-11-01", to: "2019-11-30", status: .closures,
      dates: ["2019-11-10", "2019-11-24"]),
    Case(
      "03월 08일 / 03월 22일", asOf: "2020-03-01", from: "2020-03-01", to: "2020-03-31", status: .closures,
      dates: ["2020-03-08", "2020-03-22"]),
    Case(
      "1/1", asOf: "2026-11-22", from: "2026-11-01", to: "2027-12-31", status: .closures,
      dates: ["2027-01-01"]),
    Case(
      "1월 1일", asOf: "2026-11-22", from: "2026-11-01", to: "2027-12-31", status: .closures,
      dates: ["2027-01-01"]),
    Case(
      "신정", asOf: "2026-11-22", from: "2026-11-01", to: "2027-12-31", status: .closures,
      dates: ["2027-01-01"]),
    Case(
      "설·추석 당일 휴무", asOf: "2026-11-22", from: "2026-01-01", to: "2027-12-31", status: .closures,
      dates: ["2026-02-17", "2026-09-25", "2027-02-07", "2027-09-15"]),
    Case(
      "설날 연휴 휴무", asOf: "2026-11-22", from: "2026-01-01", to: "2027-12-31", status: .closures,
      dates: ["2026-02-16", "2026-02-17", "2026-02-18", "2027-02-06", "2027-02-07", "2027-02-08"]),
    Case(
      "추석 전날, 당일, 다음날 휴무", asOf: "2026-11-22", from: "2026-01-01", to: "2027-12-31", status: .closures,
      dates: ["2026-09-24", "2026-09-25", "2026-09-26", "2027-09-14", "2027-09-15", "2027-09-16"]),
    Case(
      "설날 전일 및 추석 익일", asOf: "2026-11-22", from: "2026-01-01", to: "2027-12-31", status: .closures,
      dates: ["2026-02-16", "2026-09-26", "2027-02-06", "2027-09-16"]),
    Case(
      "매월 둘째·넷째 일요일 (단, 12월 13일 정상영업)", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .closures,
      dates: ["2026-11-08", "2026-11-22", "2026-12-27", "2027-01-10", "2027-01-24"]),
    Case(
      "연중무휴", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .openAllYear,
      dates: []),
    Case(
      "휴무 없음", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .openAllYear,
      dates: []),
    Case(
      "정기휴무 없음", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .openAllYear,
      dates: []),
    Case(
      "", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .unknown,
      dates: []),
    Case(
      "휴무일 정보가 없습니다", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .unknown,
      dates: []),
    Case(
      "영업시간 10:00~23:00 세일 두부 1+1", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .unknown,
      dates: []),
    Case(
      "오전 10:00 - 오후 10:00", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .unknown,
      dates: []),
    Case(
      "시설 안내: 주차장 이용 설명", asOf: "2026-11-22", from: "2026-11-01", to: "2027-01-31", status: .unknown,
      dates: []),
    Case(
      "1/5", asOf: "2026-12-20", from: "2026-12-01", to: "2027-12-31", status: .closures,
      dates: ["2027-01-05"]),
    Case(
      "12/28", asOf: "2027-01-03", from: "2026-12-01", to: "2027-12-31", status: .closures,
      dates: ["2026-12-28"]),
    Case(
      "1/3(일)", asOf: "2026-07-01", from: "2025-01-01", to: "2027-12-31", status: .closures,
      dates: ["2027-01-03"]),
    Case(
      "1/3", asOf: "2026-07-01", from: "2025-01-01", to: "2027-12-31", status: .closures,
      dates: ["2026-01-03"]),
    Case(
      "12/30~1/2", asOf: "2026-12-01", from: "2026-12-01", to: "2027-01-31", status: .closures,
      dates: ["2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02"]),
  ]

  @Test func closedDates() {
    forEachCase(Self.cases) { example, name in
      let asOf = try #require(CalendarDate(iso: example.asOf), name)
      let from = try #require(CalendarDate(iso: example.from), name)
      let to = try #require(CalendarDate(iso: example.to), name)
      let schedule = ClosingSchedule.parse(example.text, asOf: asOf)
      #expect(schedule.status == example.status, name)
      #expect(schedule.closedDates(from: from, through: to).map(\.iso) == example.dates, name)
      #expect(schedule.text == example.text, name)
    }
  }

  @Test("the ordinals pair with the weekdays as written")
  func pairing() {
    let asOf = CalendarDate(year: 2026, month: 11, day: 22)!
    #expect(
      ClosingSchedule.parse("둘째 수요일, 넷째 일요일", asOf: asOf).rules == [
        .nthWeekday(ordinals: [4], weekday: .sunday), .nthWeekday(ordinals: [2], weekday: .wednesday),
      ])
    #expect(
      ClosingSchedule.parse("둘째,넷째주 수요일, 일요일", asOf: asOf).rules == [
        .nthWeekday(ordinals: [2, 4], weekday: .sunday), .nthWeekday(ordinals: [2, 4], weekday: .wednesday),
      ])
  }

  @Test("정상영업 dates are exceptions, not closures")
  func exceptions() {
    let asOf = CalendarDate(year: 2019, month: 1, day: 20)!
    let schedule = ClosingSchedule.parse(
      "※2/5(화요일) 설날 당일 휴무!! 2월10일 일요일 정상영업, 2월24일 정기휴무", asOf: asOf)
    #expect(schedule.exceptions.map(\.iso) == ["2019-02-10"])
    #expect(schedule.dates.map(\.iso) == ["2019-02-05", "2019-02-24"])
    #expect(schedule.warnings.isEmpty)
  }

  @Test("the day before 설날 in the Costco text is about opening hours, not a closure")
  func costcoDayBefore() {
    let schedule = ClosingSchedule.parse(
      "*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)", asOf: CalendarDate(year: 2026, month: 11, day: 22)!)
    #expect(
      schedule.lunar == [
        LunarClosing(holiday: .seollal, offsets: [0]), LunarClosing(holiday: .chuseok, offsets: [0]),
      ])
    #expect(schedule.rules == [.annual(month: 1, day: 1)])
  }

  @Test("a weekday that matches no nearby year leaves the day unknown, with a warning")
  func weekdayMismatch() {
    // 11/12 is a Wednesday in 2025, a Thursday in 2026 and a Friday in 2027: never a Monday.
    let day = CalendarDate(year: 2026, month: 11, day: 12)!
    let schedule = ClosingSchedule.parse("11/12(월)", asOf: CalendarDate(year: 2026, month: 11, day: 22)!)
    #expect(schedule.dates.isEmpty)
    #expect(schedule.closedDates(from: day, through: day).isEmpty)
    #expect(schedule.unknownRanges(from: day, through: day) == [DateWindow(from: day, through: day)])
    #expect(schedule.warnings.contains { $0.contains("11/12(월)") && $0.contains("2026-11-12 is left unknown") })
  }

  @Test("parts not understood are named in warnings", arguments: ["2/30 휴무", "둘째주 휴무", "일요일은 쉬지 않고"])
  func warnings(_ text: String) {
    let schedule = ClosingSchedule.parse(text, asOf: CalendarDate(year: 2026, month: 11, day: 22)!)
    #expect(schedule.status == .unknown)
    #expect(schedule.warnings.count >= 2)
  }

  @Test("unknown is never open")
  func unknownHasNoDates() {
    let schedule = ClosingSchedule.parse("휴무일 정보가 없습니다", asOf: CalendarDate(year: 2026, month: 11, day: 22)!)
    #expect(schedule.status == .unknown)
    #expect(schedule.status != .openAllYear)
    #expect(!schedule.warnings.isEmpty)
  }
}
