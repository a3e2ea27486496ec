import Foundation

/// Dates and times as Korea sees them.
public enum KoreanCalendar {
  /// Asia/Seoul from the system's time-zone data, or else a fixed UTC+9 (Korea has kept
  /// UTC+9 without daylight saving since 1988, so both give the same dates).
  public static let timeZone: TimeZone =
    TimeZone(identifier: "Asia/Seoul") ?? TimeZone(secondsFromGMT: 9 * 3600) ?? .current

  /// Today's date in Korea.
  public static func today(now: Date = Date()) -> CalendarDate {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: now)
    guard let year = parts.year, let month = parts.month, let day = parts.day,
      let date = CalendarDate(year: year, month: month, day: day)
    else {
      preconditionFailure("the Gregorian calendar gave no date for \(now)")
    }
    return date
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
