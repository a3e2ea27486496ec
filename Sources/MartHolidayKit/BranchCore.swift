internal import MartCore

/// A branch's closing data in the pipeline's own types, so that the kit expands schedules with
/// the very code (rules, lunar table, coverage, uncertain days) that wrote the bundle.
struct BranchCore: Hashable, Sendable {
  /// The bundle's as-of day: a shut store is shut from it.
  var asOf: CalendarDate
  /// The bundle's window, where the bundle's own dates and unknown ranges answer.
  var window: DateWindow
  var storeStatus: StoreStatus
  var schedule: ClosingSchedule
  var closedInWindow: Set<CalendarDate>
  var unknownInWindow: [DateWindow]
  /// The last day the schedule speaks of; `nil` for a recurring rule without an end.
  var knownThrough: CalendarDate?
  /// The days within the window the branch is expected to close (`closing.expected`).
  var expectedInWindow: Set<CalendarDate> = []
  /// The days the store does not trade, past days included (``Branch/shutDays(asOf:)``), as
  /// `closures.json` lists the store under `shut` instead of on those days.
  var shutDays: ShutDays

  func status(on day: CalendarDate) -> MartDayStatus {
    if shutDays.contains(day) { return .shut }
    if day < window.from { return .unknown }
    if day <= window.through {
      if closedInWindow.contains(day) { return .closed }
      if expectedInWindow.contains(day) { return .expectedClosed }
      if unknownInWindow.contains(where: { $0.contains(day) }) { return .unknown }
      return schedule.status == .unknown ? .unknown : .open
    }
    guard schedule.status != .unknown else { return .unknown }
    if let knownThrough, day > knownThrough { return .unknown }
    if !schedule.unknownRanges(from: day, through: day).isEmpty { return .unknown }
    // Lunar holidays are known for the years of the table only; beyond it nothing is promised.
    if !(schedule.lunar.isEmpty && schedule.lunarExceptions.isEmpty), !KoreanLunarHolidays.years.contains(day.year) {
      return .unknown
    }
    return schedule.closedDates(from: day, through: day).isEmpty ? .open : .closed
  }
}
