import Testing

@testable import MartCore

/// The one meaning of "shut", on a bundle made as of Friday 2026-11-20 with the window
/// 2026-11-01 … 2027-01-31 (30 + 31 + 31 = 92 days).
@Suite("Shut days")
struct ShutDaysTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
  static let window = DateWindow(
    from: CalendarDate(year: 2026, month: 11, day: 1)!, through: CalendarDate(year: 2027, month: 1, day: 31)!)

  static func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }

  @Test("a store closed for good is shut from the as-of date on, with no end")
  func closedForGood() {
    let shut = ShutDays(StoreStatus(state: .closed, text: "영업종료"), asOf: Self.asOf)
    #expect(shut.range(in: Self.window) == Self.day("2026-11-20")...Self.day("2027-01-31"))
    // November 20 … 30 (11 days), December (31), January (31).
    #expect(shut.days(in: Self.window).count == 11 + 31 + 31)
    #expect(!shut.contains(Self.day("2026-11-19")))
    #expect(shut.contains(Self.day("2026-11-20")))
    #expect(shut.contains(Self.day("2027-06-30")))
    #expect(shut.closesForGoodOn == nil)
  }

  @Test("a temporary closure is shut from the as-of date through its last day")
  func temporaryClosure() {
    let status = StoreStatus(state: .temporarilyClosed, text: "리뉴얼 공사로 12/31까지 휴점", until: Self.day("2026-12-31"))
    let shut = ShutDays(status, asOf: Self.asOf)
    #expect(shut.range(in: Self.window) == Self.day("2026-11-20")...Self.day("2026-12-31"))
    #expect(shut.days(in: Self.window).count == 11 + 31)
    #expect(shut.contains(Self.day("2026-12-31")))
    #expect(!shut.contains(Self.day("2027-01-01")))
    // Without an end it runs through the window and beyond.
    let open = ShutDays(StoreStatus(state: .temporarilyClosed), asOf: Self.asOf)
    #expect(open.range(in: Self.window)?.upperBound == Self.day("2027-01-31"))
    #expect(open.contains(Self.day("2027-03-01")))
  }

  @Test("a temporary closure that ended before the as-of date shuts no day")
  func temporaryClosureEndedBefore() {
    let shut = ShutDays(StoreStatus(state: .temporarilyClosed, until: Self.day("2026-11-10")), asOf: Self.asOf)
    #expect(shut.isEmpty)
    #expect(shut == .none)
    #expect(shut.range(in: Self.window) == nil)
    #expect(!shut.contains(Self.day("2026-11-05")))
    #expect(!shut.contains(Self.day("2026-11-20")))
  }

  @Test("a trading store announced to close for good is shut from that day, whatever the as-of date")
  func closesForGoodLater() {
    let status = StoreStatus(state: .trading, text: "2026-12-31 영업종료 예정", closesOn: Self.day("2026-12-31"))
    for asOf in [Self.window.from, Self.asOf, Self.day("2026-12-01")] {
      let shut = ShutDays(status, asOf: asOf)
      #expect(shut.closesForGoodOn == Self.day("2026-12-31"))
      #expect(shut.range(in: Self.window) == Self.day("2026-12-31")...Self.day("2027-01-31"))
      #expect(!shut.contains(Self.day("2026-12-30")))
    }
  }

  @Test("a trading store with nothing announced is never shut")
  func trading() {
    let shut = ShutDays(.trading, asOf: Self.asOf)
    #expect(shut.isEmpty)
    #expect(shut.days(in: Self.window).isEmpty)
    #expect(!shut.contains(Self.asOf))
  }

  @Test("an announced temporary closure keeps the days inside the window")
  func announcedClosure() {
    // Monday 2027-01-25 … Wednesday 2027-02-10: January 25 … 31 lie in the window.
    let shut = ShutDays(from: Self.day("2027-01-25"), through: Self.day("2027-02-10"))
    #expect(shut.days(in: Self.window).map(\.iso) == (25...31).map { "2027-01-\($0)" })
    #expect(shut.closesForGoodOn == nil)
    #expect(ShutDays(from: Self.day("2026-12-10"), through: Self.day("2026-12-01")).isEmpty)
    #expect(ShutDays(from: Self.day("2027-02-01"), through: Self.day("2027-02-10")).days(in: Self.window).isEmpty)
  }

  @Test("shut days are cut out of unknown ranges, which keep the parts on either side")
  func removedFromUnknownRanges() {
    let shut = ShutDays(StoreStatus(state: .temporarilyClosed, until: Self.day("2026-12-31")), asOf: Self.asOf)
    #expect(
      shut.removed(from: [Self.window], in: Self.window) == [
        DateWindow(from: Self.day("2026-11-01"), through: Self.day("2026-11-19")),
        DateWindow(from: Self.day("2027-01-01"), through: Self.day("2027-01-31")),
      ])
    let inside = DateWindow(from: Self.day("2026-12-01"), through: Self.day("2026-12-10"))
    #expect(shut.removed(from: [inside], in: Self.window).isEmpty)
    #expect(ShutDays.none.removed(from: [inside], in: Self.window) == [inside])
  }

  @Test("a day is shut exactly when the one-day window around it has shut days")
  func containsAgreesWithRange() {
    let statuses = [
      StoreStatus.trading,
      StoreStatus(state: .trading, closesOn: Self.day("2026-12-31")),
      StoreStatus(state: .closed),
      StoreStatus(state: .temporarilyClosed),
      StoreStatus(state: .temporarilyClosed, until: Self.day("2026-12-31")),
      StoreStatus(state: .temporarilyClosed, until: Self.day("2026-11-10")),
    ]
    for status in statuses {
      let shut = ShutDays(status, asOf: Self.asOf)
      var day = Self.day("2026-10-01")
      while day <= Self.day("2027-03-31") {
        #expect(shut.contains(day) == (shut.range(in: DateWindow(from: day, through: day)) != nil), "\(status) \(day)")
        day = day.adding(days: 1)
      }
    }
  }

  @Test("a branch's closing dates hold every shut day, and none of them is unknown")
  func closingHoldsShutDays() {
    let schedule = ClosingSchedule.parse("", asOf: Self.asOf)
    let status = StoreStatus(state: .temporarilyClosed, until: Self.day("2026-12-31"))
    let closing = BranchClosing(schedule: schedule, window: Self.window, storeStatus: status, asOf: Self.asOf)
    let shut = ShutDays(status, asOf: Self.asOf)
    #expect(closing.status == .closures)
    #expect(closing.dates == shut.days(in: Self.window))
    #expect(!closing.unknownRanges.contains { range in shut.days(in: Self.window).contains(where: range.contains) })
    #expect(closing.knownThrough.map { $0 >= Self.day("2026-12-31") } ?? true)
  }

  @Test("a store announced to close for good lists its closing days up to that day, then that day alone")
  func listedClosingDates() {
    // The 2nd and 4th Sundays: November 8 and 22, December 13 and 27 (2026-11-01 is a Sunday).
    let schedule = ClosingSchedule.parse("매월 둘째, 넷째 일요일", asOf: Self.asOf)
    let status = StoreStatus(state: .trading, closesOn: Self.day("2026-12-31"))
    let branch = Branch(
      id: BranchID(brand: "emart", storeID: "1"), name: "창원점", address: BranchAddress(published: nil), phone: nil,
      phonePublished: nil, openingHours: nil, coordinate: nil,
      closing: BranchClosing(schedule: schedule, window: Self.window, storeStatus: status, asOf: Self.asOf),
      storeStatus: status, sourceURL: "https://example.com/")
    #expect(
      branch.listedClosingDates.map(\.iso) == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2026-12-31"])
    var trading = branch
    trading.storeStatus = .trading
    #expect(trading.listedClosingDates == trading.closing.dates)
  }
}
