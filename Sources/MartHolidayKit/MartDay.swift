import Foundation
internal import MartCore

/// A calendar day in Korea: a plain year, month and day, with no time and no time zone.
///
/// Closing days are civil dates; Korea has no daylight saving time, so a day is the same
/// day for everyone there. Encoded as `"YYYY-MM-DD"`, as the bundles write dates.
public struct MartDay: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year, 1 to 9999.
  public let year: Int
  /// The month, 1 to 12.
  public let month: Int
  /// The day of the month, 1 to 31.
  public let day: Int

  /// A day from its components; they must name a real day (`2026-02-30` traps).
  /// Use ``init(validatingYear:month:day:)`` for components that may not.
  public init(year: Int, month: Int, day: Int) {
    guard let checked = MartDay(validatingYear: year, month: month, day: day) else {
      preconditionFailure("not a calendar day: \(year)-\(month)-\(day)")
    }
    self = checked
  }

  /// A day from its components, or `nil` when they do not name a real day.
  public init?(validatingYear year: Int, month: Int, day: Int) {
    guard let date = CalendarDate(year: year, month: month, day: day) else { return nil }
    self.init(date)
  }

  /// Parses `YYYY-MM-DD` (exactly that shape), or `nil`.
  public init?(iso text: String) {
    guard let date = CalendarDate(iso: text) else { return nil }
    self.init(date)
  }

  /// The day `date` falls on in `timeZone` (Korea, `Asia/Seoul`, by default).
  public init(_ date: Date, in timeZone: TimeZone = MartDay.koreaTimeZone) {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    self.init(year: parts.year!, month: parts.month!, day: parts.day!)
  }

  /// Today in Korea.
  public static func today() -> MartDay { MartDay(Date()) }

  /// Korea's time zone, `Asia/Seoul` (UTC+9 all year).
  public static let koreaTimeZone: TimeZone = TimeZone(identifier: "Asia/Seoul") ?? TimeZone(secondsFromGMT: 9 * 3600)!

  init(_ date: CalendarDate) {
    year = date.year
    month = date.month
    day = date.day
  }

  var calendarDate: CalendarDate { CalendarDate(year: year, month: month, day: day)! }

  /// `YYYY-MM-DD`.
  public var iso: String { calendarDate.iso }

  public var description: String { iso }

  /// The day `days` days later (earlier when negative).
  public func adding(days: Int) -> MartDay { MartDay(calendarDate.adding(days: days)) }

  /// The number of days from this day to `other` (negative when `other` is earlier).
  public func days(to other: MartDay) -> Int { other.calendarDate.dayNumber - calendarDate.dayNumber }

  /// The day of the week, 1 (Sunday) to 7 (Saturday), as `Calendar` numbers weekdays.
  public var weekday: Int { calendarDate.weekday.rawValue }

  /// The first day of this day's month.
  public var firstOfMonth: MartDay { MartDay(calendarDate.firstOfMonth()) }

  /// The last day of this day's month.
  public var lastOfMonth: MartDay { MartDay(calendarDate.lastOfMonth) }

  /// The first day of the month `months` months later (earlier when negative).
  public func firstOfMonth(addingMonths months: Int) -> MartDay {
    MartDay(calendarDate.firstOfMonth(addingMonths: months))
  }

  /// Every day from this day through `last`, in order; empty when `last` is earlier.
  public func days(through last: MartDay) -> [MartDay] {
    guard self <= last else { return [] }
    return (0...days(to: last)).map { adding(days: $0) }
  }

  /// The instant this day reaches `hour`:`minute` in `timeZone` (Korea by default), e.g. the
  /// evening before a closing day for a reminder.
  public func date(hour: Int = 0, minute: Int = 0, in timeZone: TimeZone = MartDay.koreaTimeZone) -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = timeZone
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
    return calendar.date(from: components)!
  }

  public static func < (lhs: MartDay, rhs: MartDay) -> Bool {
    // Field by field: a tuple comparison is generic, and an unoptimized build calls it as such.
    if lhs.year != rhs.year { return lhs.year < rhs.year }
    if lhs.month != rhs.month { return lhs.month < rhs.month }
    return lhs.day < rhs.day
  }
}

extension MartDay: Codable {
  /// Reads `"YYYY-MM-DD"`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let day = MartDay(iso: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a YYYY-MM-DD day: \(text)")
    }
    self = day
  }

  /// Writes `"YYYY-MM-DD"`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(iso)
  }
}
