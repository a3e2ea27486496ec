/// Whether a closing-day text told us anything.
public enum ClosingStatus: String, Sendable, Codable {
  /// At least one rule or date was understood.
  case closures
  /// The store says it never closes (연중무휴).
  case openAllYear = "open-all-year"
  /// Nothing was understood. Clients must not present this as "open".
  case unknown
}

/// A recurring closing rule.
public enum ClosingRule: Hashable, Sendable {
  /// The given occurrences of a weekday in every month; ordinal `-1` is the last one.
  case nthWeekday(ordinals: [Int], weekday: Weekday)
  /// Every week on the given weekday.
  case weekly(Weekday)
  /// The given days of every month (months too short for a day skip it).
  case dayOfMonth([Int])
  /// The same solar day every year, e.g. 1/1 (신정).
  case annual(month: Int, day: Int)

  /// Dates this rule produces in the month of `monthStart` (the first day of a month).
  func dates(inMonthStarting monthStart: CalendarDate) -> [CalendarDate] {
    let length = CalendarDate.daysInMonth(year: monthStart.year, month: monthStart.month)
    func day(_ value: Int) -> CalendarDate? {
      CalendarDate(year: monthStart.year, month: monthStart.month, day: value)
    }
    switch self {
    case .nthWeekday(let ordinals, let weekday):
      let first = 1 + (weekday.rawValue - monthStart.weekday.rawValue + 7) % 7
      return ordinals.compactMap { ordinal in
        if ordinal == -1 { return day(first + (length - first) / 7 * 7) }
        return day(first + (ordinal - 1) * 7)
      }
    case .weekly(let weekday):
      let first = 1 + (weekday.rawValue - monthStart.weekday.rawValue + 7) % 7
      return stride(from: first, through: length, by: 7).compactMap(day)
    case .dayOfMonth(let days):
      return days.compactMap(day)
    case .annual(let month, let value):
      return month == monthStart.month ? day(value).map { [$0] } ?? [] : []
    }
  }
}

/// A lunar holiday with the days around it that the store closes.
public struct LunarClosing: Hashable, Sendable, Codable {
  /// The holiday.
  public var holiday: LunarHoliday
  /// Days relative to the holiday: -1 the day before, 0 the day, 1 the day after.
  public var offsets: [Int]

  public init(holiday: LunarHoliday, offsets: [Int]) {
    self.holiday = holiday
    self.offsets = offsets
  }
}

/// A branch's closing days as a structured schedule that expands to dates for any window.
///
/// Build one with ``parse(_:asOf:)``; expand it with ``closedDates(from:through:)``.
public struct ClosingSchedule: Hashable, Sendable {
  /// What the text told us.
  public var status: ClosingStatus
  /// Recurring rules, one per weekday or kind, in a canonical order.
  public var rules: [ClosingRule]
  /// Explicit closing dates, sorted and unique.
  public var dates: [CalendarDate]
  /// Lunar holidays the store closes on.
  public var lunar: [LunarClosing]
  /// Dates the text says are open (정상영업), even if a rule produces them.
  public var exceptions: [CalendarDate]
  /// The original text.
  public var text: String
  /// Parts of the text that were not understood, or understood with doubt.
  public var warnings: [String]

  public init(
    status: ClosingStatus, rules: [ClosingRule] = [], dates: [CalendarDate] = [],
    lunar: [LunarClosing] = [], exceptions: [CalendarDate] = [], text: String, warnings: [String] = []
  ) {
    self.status = status
    self.rules = rules
    self.dates = dates
    self.lunar = lunar
    self.exceptions = exceptions
    self.text = text
    self.warnings = warnings
  }

  /// Parses a closing-day text relative to the as-of date (used to infer missing years).
  public static func parse(_ text: String, asOf: CalendarDate) -> ClosingSchedule {
    ClosingTextParser(text: text, asOf: asOf).parse()
  }

  /// Closing dates within `from...through`, sorted and unique. Empty when `from > through`.
  public func closedDates(from: CalendarDate, through: CalendarDate) -> [CalendarDate] {
    guard from <= through else { return [] }
    var found = Set(dates.filter { $0 >= from && $0 <= through })
    if !rules.isEmpty {
      var monthStart = from.firstOfMonth()
      while monthStart <= through {
        for rule in rules {
          for date in rule.dates(inMonthStarting: monthStart) where date >= from && date <= through {
            found.insert(date)
          }
        }
        monthStart = monthStart.firstOfMonth(addingMonths: 1)
      }
    }
    for closing in lunar {
      // A window edge can cut through a holiday whose offsets cross the year boundary.
      for year in (from.year - 1)...(through.year + 1) {
        guard let holiday = KoreanLunarHolidays.date(of: closing.holiday, inYear: year) else { continue }
        for offset in closing.offsets {
          let date = holiday.adding(days: offset)
          if date >= from && date <= through { found.insert(date) }
        }
      }
    }
    found.subtract(exceptions)
    return found.sorted()
  }
}
