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
/// Build one with ``parse(_:asOf:)`` (text only) or ``published(text:dates:asOf:)`` (text and
/// dates a source publishes as data); expand it with ``closedDates(from:through:)`` and ask
/// ``unknownRanges(from:through:)`` which days it says nothing about.
public struct ClosingSchedule: Hashable, Sendable {
  /// What the text told us.
  public var status: ClosingStatus
  /// Recurring rules, one per weekday or kind, in a canonical order.
  public var rules: [ClosingRule]
  /// Explicit closing dates, sorted and unique. They close even on an exception.
  public var dates: [CalendarDate]
  /// Lunar holidays the store closes on.
  public var lunar: [LunarClosing]
  /// Dates the text says are open (영업, 정상영업), even if a rule or holiday produces them.
  public var exceptions: [CalendarDate]
  /// Lunar holidays the text says are open (`단, 추석 당일 영업`), even if a rule produces them.
  public var lunarExceptions: [LunarClosing]
  /// The text as the source published it, or `nil` when the source published dates only.
  public var text: String?
  /// Parts of the text that were not understood, or understood with doubt.
  public var warnings: [String]

  public init(
    status: ClosingStatus, rules: [ClosingRule] = [], dates: [CalendarDate] = [],
    lunar: [LunarClosing] = [], exceptions: [CalendarDate] = [], lunarExceptions: [LunarClosing] = [],
    text: String?, warnings: [String] = []
  ) {
    self.status = status
    self.rules = rules
    self.dates = dates
    self.lunar = lunar
    self.exceptions = exceptions
    self.lunarExceptions = lunarExceptions
    self.text = text
    self.warnings = warnings
  }

  /// Parses a closing-day text relative to the as-of date (used to infer missing years).
  public static func parse(_ text: String, asOf: CalendarDate) -> ClosingSchedule {
    ClosingTextParser(text: text, asOf: asOf).parse()
  }

  /// Closing dates within `from...through`, sorted and unique. Empty when `from > through`.
  ///
  /// Rules and lunar holidays produce dates, exceptions and lunar exceptions remove them, and
  /// explicit dates are added last.
  public func closedDates(from: CalendarDate, through: CalendarDate) -> [CalendarDate] {
    guard from <= through else { return [] }
    var found = Set<CalendarDate>()
    if !rules.isEmpty {
      var monthStart = from.firstOfMonth()
      let lastMonthStart = through.firstOfMonth()
      while true {
        for rule in rules {
          for date in rule.dates(inMonthStarting: monthStart) where date >= from && date <= through {
            found.insert(date)
          }
        }
        // Stop in the last month rather than step past it: there is no month after 9999-12.
        guard monthStart < lastMonthStart else { break }
        monthStart = monthStart.firstOfMonth(addingMonths: 1)
      }
    }
    found.formUnion(Self.lunarDates(lunar, from: from, through: through))
    found.subtract(exceptions)
    found.subtract(Self.lunarDates(lunarExceptions, from: from, through: through))
    found.formUnion(dates.filter { $0 >= from && $0 <= through })
    return found.sorted()
  }

  /// The solar dates of `closings` within `from...through`.
  private static func lunarDates(_ closings: [LunarClosing], from: CalendarDate, through: CalendarDate)
    -> Set<CalendarDate>
  {
    var found = Set<CalendarDate>()
    for closing in closings {
      // A window edge can cut through a holiday whose offsets cross the year boundary.
      for year in (from.year - 1)...(through.year + 1) {
        guard let holiday = KoreanLunarHolidays.date(of: closing.holiday, inYear: year) else { continue }
        for offset in closing.offsets {
          let date = holiday.adding(days: offset)
          if date >= from && date <= through { found.insert(date) }
        }
      }
    }
    return found
  }

  /// Whether the schedule speaks of every day: a recurring rule or lunar holiday, or open all year.
  private var coversEveryDay: Bool {
    switch status {
    case .unknown: false
    case .openAllYear: true
    case .closures: !rules.isEmpty || !lunar.isEmpty
    }
  }

  /// The days within `from...through` the schedule says nothing about, as maximal ranges in
  /// order. A day in neither ``closedDates(from:through:)`` nor these ranges is open.
  ///
  /// A recurring rule or lunar holiday speaks of every day, and so does open all year. Explicit
  /// dates alone (closing or open) speak of the calendar months they fall in. An `unknown`
  /// schedule speaks of no day.
  public func unknownRanges(from: CalendarDate, through: CalendarDate) -> [DateWindow] {
    guard from <= through else { return [] }
    if coversEveryDay { return [] }
    let knownMonths: Set<CalendarDate> =
      status == .unknown ? [] : Set((dates + exceptions).map { $0.firstOfMonth() })
    var ranges: [DateWindow] = []
    var monthStart = from.firstOfMonth()
    while monthStart <= through {
      if !knownMonths.contains(monthStart) {
        let start = max(monthStart, from)
        let end = min(monthStart.lastOfMonth, through)
        if let last = ranges.last, last.through.adding(days: 1) == start {
          ranges[ranges.count - 1].through = end
        } else {
          ranges.append(DateWindow(from: start, through: end))
        }
      }
      monthStart = monthStart.firstOfMonth(addingMonths: 1)
    }
    return ranges
  }

  /// The schedule of a source that may publish closing dates as data, a text, or both.
  ///
  /// - Text only: the parsed text.
  /// - Dates only: those dates, with no text (`text` is `nil`); they speak of their months.
  /// - Both: the dates win for the calendar months they fall in, and the text's rules cover
  ///   the other months. Where the text gives other dates for such a month, a warning says so.
  /// - Neither: `unknown`.
  public static func published(text: String?, dates: [CalendarDate], asOf: CalendarDate) -> ClosingSchedule {
    let official = Set(dates).sorted()
    guard let text else {
      if official.isEmpty {
        return ClosingSchedule(status: .unknown, text: nil, warnings: ["no closing days published"])
      }
      return ClosingSchedule(status: .closures, dates: official, text: nil)
    }
    let parsed = parse(text, asOf: asOf)
    return official.isEmpty ? parsed : parsed.overridden(byOfficialDates: official)
  }

  /// This schedule with `officialDates` taking precedence in the calendar months they fall in:
  /// there, the schedule's own dates are replaced by the official ones. Each month where the two
  /// disagree adds a warning naming both.
  public func overridden(byOfficialDates officialDates: [CalendarDate]) -> ClosingSchedule {
    let official = Set(officialDates)
    guard !official.isEmpty else { return self }
    let months = Set(official.map { $0.firstOfMonth() }).sorted()
    var merged = replacing(inMonths: months, with: official, rulesOnly: false) { month, fromData, fromText in
      guard status == .closures else { return nil }
      return "\(month.iso.prefix(7)): published dates \(fromData) differ from the text's \(fromText);"
        + " the published dates are used"
    }
    merged.status = .closures
    if status == .openAllYear {
      merged.warnings.append("text says open all year but closing dates are published; the dates are used")
    }
    return merged
  }

  /// This schedule with `dates` as the days its rules and lunar holidays give in `months` (first
  /// days of months), the way ``overridden(byOfficialDates:)`` lets published dates win, but
  /// keeping the schedule's explicit dates: a rule scoped to a month (`12월은 셋째 일요일`).
  func replacingRuleDays(inMonths months: [CalendarDate], with dates: Set<CalendarDate>) -> ClosingSchedule {
    replacing(inMonths: months, with: dates, rulesOnly: true) { _, _, _ in nil }
  }

  /// `2026-11-08, 2026-11-22`, or `none`: dates as warnings list them.
  static func listed(_ dates: Set<CalendarDate>) -> String {
    dates.isEmpty ? "none" : dates.sorted().map(\.iso).joined(separator: ", ")
  }

  /// In `months`, the days this schedule closes that are not in `replacement` become exceptions
  /// and `replacement` becomes explicit dates. With `rulesOnly`, only the days of rules and lunar
  /// holidays give way and explicit dates stay; otherwise explicit dates in those months give way
  /// too. Each month where the two differ adds the warning `disagreement` words, if any.
  private func replacing(
    inMonths months: [CalendarDate], with replacement: Set<CalendarDate>, rulesOnly: Bool,
    disagreement: (_ month: CalendarDate, _ replacement: String, _ own: String) -> String?
  ) -> ClosingSchedule {
    var merged = self
    // The days the schedule closes in a month, as `closedDates(from:through:)` gives them, with its
    // exceptions and explicit dates looked up by month: the work grows with the months and the
    // dates, not with their product.
    var rulesAndLunar = self
    rulesAndLunar.exceptions = []
    rulesAndLunar.dates = []
    let exceptionSet = Set(exceptions)
    let datesByMonth = rulesOnly ? [:] : Dictionary(grouping: dates) { $0.firstOfMonth() }
    let replacementByMonth = Dictionary(grouping: replacement) { $0.firstOfMonth() }
    var suppressed = Set<CalendarDate>()
    for month in months {
      var own = Set(rulesAndLunar.closedDates(from: month, through: month.lastOfMonth)).subtracting(exceptionSet)
      own.formUnion(datesByMonth[month] ?? [])
      let replaced = Set(replacementByMonth[month] ?? [])
      if own != replaced, let warning = disagreement(month, Self.listed(replaced), Self.listed(own)) {
        merged.warnings.append(warning)
      }
      suppressed.formUnion(own.subtracting(replaced))
    }
    let monthSet = Set(months)
    let kept = rulesOnly ? dates : dates.filter { !monthSet.contains($0.firstOfMonth()) }
    merged.dates = Set(kept).union(replacement).sorted()
    merged.exceptions = Set(exceptions.filter { !replacement.contains($0) }).union(suppressed).sorted()
    return merged
  }
}
