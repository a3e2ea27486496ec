/// A day in the proleptic Gregorian calendar, with no time and no time zone.
///
/// Closing days are civil dates in Korea; modelling them as `Date` instants invites
/// off-by-one errors at midnight and across time zones, so the core works on plain
/// year/month/day values and does its own calendar arithmetic.
public struct CalendarDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// Creates a date, or returns `nil` when the components do not name a real day.
  public init?(year: Int, month: Int, day: Int) {
    // Plain comparisons, not ranges' `contains`: generic, which an unoptimized build calls as such.
    guard year >= 1, year <= 9999, month >= 1, month <= 12, day >= 1,
      day <= CalendarDate.daysInMonth(year: year, month: month)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYY-MM-DD` (exactly that shape: ten ASCII bytes, digits but for the two dashes).
  /// Inlinable, so that callers in other modules get it made for their string type rather than
  /// go through the protocol byte by byte.
  @inlinable
  public init?(iso: some StringProtocol) {
    // By its bytes, as every date of every bundle file is read this way.
    var year = 0
    var month = 0
    var day = 0
    var count = 0
    for byte in iso.utf8 {
      defer { count += 1 }
      if count == 4 || count == 7 {
        guard byte == UInt8(ascii: "-") else { return nil }
        continue
      }
      guard count < 10, byte >= 0x30, byte <= 0x39 else { return nil }
      let digit = Int(byte - 0x30)
      if count < 4 {
        year = year * 10 + digit
      } else if count < 7 {
        month = month * 10 + digit
      } else {
        day = day * 10 + digit
      }
    }
    guard count == 10 else { return nil }
    self.init(year: year, month: month, day: day)
  }

  /// Parses a compact `YYYYMMDD` string (exactly eight digits).
  /// Inlinable, so that callers in other modules get it made for their string type rather than
  /// go through the protocol byte by byte.
  @inlinable
  public init?(compact: some StringProtocol) {
    // By its bytes: eight ASCII digits are eight bytes.
    var value = 0
    var count = 0
    for byte in compact.utf8 {
      guard byte >= 0x30, byte <= 0x39, count < 8 else { return nil }
      value = value * 10 + Int(byte - 0x30)
      count += 1
    }
    guard count == 8 else { return nil }
    self.init(year: value / 10000, month: value / 100 % 100, day: value % 100)
  }

  /// Days since 1970-01-01 (negative before it).
  public var dayNumber: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }

  /// The date `dayNumber` days after 1970-01-01.
  public init(dayNumber: Int) {
    let z = dayNumber + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    self.year = yoe + era * 400 + (m <= 2 ? 1 : 0)
    self.month = m
    self.day = d
  }

  /// The day of the week.
  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    let index = ((dayNumber % 7) + 7 + 4) % 7  // 0 = Sunday
    return Weekday(rawValue: index + 1)!
  }

  /// The date `days` days later (earlier when negative).
  public func adding(days: Int) -> CalendarDate { CalendarDate(dayNumber: dayNumber + days) }

  /// The first day of the month `months` months later, e.g. `2026-11-22` + 2 → `2027-01-01`.
  public func firstOfMonth(addingMonths months: Int = 0) -> CalendarDate {
    let index = year * 12 + (month - 1) + months
    return CalendarDate(year: index / 12, month: index % 12 + 1, day: 1)!
  }

  /// The last day of this date's month.
  public var lastOfMonth: CalendarDate {
    CalendarDate(year: year, month: month, day: CalendarDate.daysInMonth(year: year, month: month))!
  }

  /// `YYYY-MM-DD`.
  public var iso: String {
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
  }

  public var description: String { iso }

  /// One packed integer: the three fields hashed one by one cost three rounds of the hasher, and
  /// dates fill sets and dictionary keys. `==` stays the fields'.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(year << 9 | month << 5 | day)
  }

  public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
    // Field by field: a tuple comparison is generic, and an unoptimized build (the tests')
    // calls it as such, looking up the tuple's type on every comparison.
    if lhs.year != rhs.year { return lhs.year < rhs.year }
    if lhs.month != rhs.month { return lhs.month < rhs.month }
    return lhs.day < rhs.day
  }

  /// Whether `year` is a Gregorian leap year.
  public static func isLeapYear(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  /// Number of days in the given month (28 to 31).
  public static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

extension CalendarDate: Codable {
  /// Encoded as an ISO `YYYY-MM-DD` string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let date = CalendarDate(iso: text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "not a YYYY-MM-DD date: \(text)")
    }
    self = date
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(iso)
  }
}

/// A day of the week, numbered as in most calendars: Sunday = 1 … Saturday = 7.
public enum Weekday: Int, CaseIterable, Sendable, Codable, Comparable {
  case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

  /// The one-character Korean name used on store pages: 일, 월, 화, 수, 목, 금, 토.
  public var koreanShortName: String {
    ["일", "월", "화", "수", "목", "금", "토"][rawValue - 1]
  }

  /// The English name in lower case, used in JSON (`"sunday"`).
  public var englishName: String {
    ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"][rawValue - 1]
  }

  public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension CalendarDate {
  /// The date of a day published without a year (`03월 08일`): among the as-of year and the
  /// years before and after, the one that puts it nearest to `asOf` (the earlier on a tie).
  /// `nil` when the month and day name no real day in any of those years.
  ///
  /// In November, `01월 10일` is next January and `11월 08일` is this month; in January,
  /// `12월 27일` is last December.
  public static func nearest(month: Int, day: Int, to asOf: CalendarDate) -> CalendarDate? {
    [asOf.year, asOf.year - 1, asOf.year + 1]
      .compactMap { CalendarDate(year: $0, month: month, day: day) }
      .min { left, right in
        let leftDistance = abs(left.dayNumber - asOf.dayNumber)
        let rightDistance = abs(right.dayNumber - asOf.dayNumber)
        return leftDistance != rightDistance ? leftDistance < rightDistance : left < right
      }
  }
}

extension Array where Element == CalendarDate {
  /// Sorts the dates and keeps each once: `Set(self).sorted()` without hashing a few dates into
  /// a set to sort them out of it.
  mutating func sortOnceEach() {
    sort()
    var kept = 0
    for index in indices where kept == 0 || self[kept - 1] != self[index] {
      self[kept] = self[index]
      kept += 1
    }
    removeSubrange(kept...)
  }
}
