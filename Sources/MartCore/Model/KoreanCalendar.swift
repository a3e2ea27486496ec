import Foundation

/// Dates and times as Korea sees them.
public enum KoreanCalendar {
  /// Asia/Seoul from the system's time-zone data, or else a fixed UTC+9 (Korea has kept
  /// UTC+9 without daylight saving since 1988, so both give the same dates).
  public static let timeZone: TimeZone =
    TimeZone(identifier: "Asia/Seoul") ?? TimeZone(secondsFromGMT: 9 * 3600) ?? .current

  /// Today's date in Korea.
  public static func today(now: Date = Date()) -> CalendarDate {
    guard let date = date(at: now) else { preconditionFailure("the Gregorian calendar gave no date for \(now)") }
    return date
  }

  /// The date in Korea at the instant `now`, or nil when it is no date a `CalendarDate` holds
  /// (a clock set thousands of years off): a clock is input, and never a reason to trap.
  public static func date(at now: Date) -> CalendarDate? {
    guard now.timeIntervalSinceReferenceDate.isFinite else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.era, .year, .month, .day], from: now)
    guard parts.era == 1, let year = parts.year, let month = parts.month, let day = parts.day else { return nil }
    return CalendarDate(year: year, month: month, day: day)
  }

  /// The days the closing-day engine can speak of: the years whose 설날 and 추석 it knows
  /// (``KoreanLunarHolidays/years``; both move every year, and many closing rules follow them).
  public static var supportedDays: ClosedRange<CalendarDate> {
    let years = KoreanLunarHolidays.years
    return CalendarDate(year: years.lowerBound, month: 1, day: 1)!...CalendarDate(year: years.upperBound, month: 12, day: 31)!
  }

  /// The days a run or a rule may be read as of: ``supportedDays`` less the last two months,
  /// so that the window (the as-of month and the next two) stays inside.
  public static var supportedAsOf: ClosedRange<CalendarDate> {
    supportedDays.lowerBound...CalendarDate(year: supportedDays.upperBound.year, month: 10, day: 31)!
  }

  /// The wall-clock time in Korea as `HHmmss`.
  public static func timeOfDay(now: Date = Date()) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = timeZone
    formatter.dateFormat = "HHmmss"
    return formatter.string(from: now)
  }
}
