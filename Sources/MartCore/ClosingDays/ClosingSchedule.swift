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

  /// The `ordinal`-th `weekday` (`-1`: the last one) of the month of `monthStart` (the first day
  /// of a month), or `nil` when the month has none.
  static func date(ordinal: Int, weekday: Weekday, inMonthStarting monthStart: CalendarDate) -> CalendarDate? {
    let length = CalendarDate.daysInMonth(year: monthStart.year, month: monthStart.month)
    let first = 1 + (weekday.rawValue - monthStart.weekday.rawValue + 7) % 7
    let day = ordinal == -1 ? first + (length - first) / 7 * 7 : first + (ordinal - 1) * 7
    return CalendarDate(year: monthStart.year, month: monthStart.month, day: day)
  }

  /// Dates this rule produces in the month of `monthStart` (the first day of a month).
  func dates(inMonthStarting monthStart: CalendarDate) -> [CalendarDate] {
    let length = CalendarDate.daysInMonth(year: monthStart.year, month: monthStart.month)
    func day(_ value: Int) -> CalendarDate? {
      CalendarDate(year: monthStart.year, month: monthStart.month, day: value)
    }
    switch self {
    case .nthWeekday(let ordinals, let weekday):
      return ordinals.compactMap { Self.date(ordinal: $0, weekday: weekday, inMonthStarting: monthStart) }
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

/// A closing day a public-holiday condition moved or opened (`매주 금요일 휴무 (공휴일인 경우 익일
/// 휴무)`): the rule's day, the holiday it fell on, and the day closed instead.
public struct HolidayMove: Hashable, Sendable, Codable {
  /// The rule's day, a public holiday: open.
  public var from: CalendarDate
  /// The holiday on `from`, as ``PublicHoliday/explanation`` words it.
  public var holiday: String
  /// The day closed instead, or `nil` when the text opens the day without moving it.
  public var to: CalendarDate?

  public init(from: CalendarDate, holiday: String, to: CalendarDate?) {
    self.from = from
    self.holiday = holiday
    self.to = to
  }

  /// `2026-10-09 is 한글날 (public holiday) → closed 2026-10-10 instead`.
  public var explanation: String {
    "\(from.iso) is \(holiday) → " + (to.map { "closed \($0.iso) instead" } ?? "open (not a closing day)")
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
  /// Days that may be closed or open: the text says something about them that the engine does
  /// not understand (`명절과 겹칠 경우 익일`, `격주`). Sorted, maximal ranges; they are never closed
  /// (unless they are explicit `dates`) and always unknown.
  public var uncertain: [DateWindow]
  /// The days the schedule speaks of, as sorted, maximal ranges; every other day is unknown.
  /// `nil` when they follow from the schedule itself: every day for a recurring rule, a lunar
  /// holiday or open all year; the calendar months of `dates` and `exceptions` otherwise. Set
  /// when a source publishes only its next closing days (see ``DateCoverage``), or when the text
  /// is understood only up to a horizon (``horizon(asOf:)``).
  public var coverage: [DateWindow]?
  /// The rules' days a public-holiday condition moved or opened, in date order: each `from` is
  /// an exception and each `to` an explicit date. Listed over the horizon (``horizon(asOf:)``).
  public var holidayMoves: [HolidayMove] = []

  public init(
    status: ClosingStatus, rules: [ClosingRule] = [], dates: [CalendarDate] = [],
    lunar: [LunarClosing] = [], exceptions: [CalendarDate] = [], lunarExceptions: [LunarClosing] = [],
    text: String?, warnings: [String] = [], uncertain: [DateWindow] = [], coverage: [DateWindow]? = nil
  ) {
    self.uncertain = uncertain
    self.coverage = coverage
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
  /// `coverage` says what the text's explicit dates speak of when no recurring rule does and the
  /// text does not say (`12월 휴무일: 13일, 27일` knows December whatever it is). By default, as
  /// for a text whose source is not known to list whole months, it is `.asOfThroughLastListed`:
  /// a bare list (`9/27(일), 10/11(일)`) is the next closing days, known through its last date;
  /// `mart-holiday rule` and ``published(text:dates:asOf:coverage:textCoverage:)`` read so too.
  /// Pass `.wholeMonths` for a source whose texts list whole months.
  public static func parse(
    _ text: String, asOf: CalendarDate, coverage: DateCoverage = .asOfThroughLastListed
  ) -> ClosingSchedule {
    let syntax = ClosingClauseParser(tokens: ClosingTokens(text), asOf: asOf).parse()
    return ClosingResolver(asOf: asOf, coverage: coverage).schedule(for: syntax, text: text)
  }

  /// The days a text understood only in part is expanded for: from January 1 of the year before
  /// the as-of date through December 31 of the year after it. A schedule with days it cannot
  /// tell (`격주`), or moves its days by public holidays (`공휴일인 경우 익일`), lists them for this span and speaks of no day after it.
  public static func horizon(asOf: CalendarDate) -> DateWindow {
    DateWindow(
      from: CalendarDate(year: asOf.year - 1, month: 1, day: 1)!,
      through: CalendarDate(year: asOf.year + 1, month: 12, day: 31)!)
  }

  /// Closing dates within `from...through`, sorted and unique. Empty when `from > through`.
  ///
  /// Rules and lunar holidays produce dates, exceptions and lunar exceptions remove them, and
  /// explicit dates are added last.
  public func closedDates(from: CalendarDate, through: CalendarDate) -> [CalendarDate] {
    guard from <= through else { return [] }
    // An array sorted once, not a set: a window's few days, hashed into a set and sorted out of
    // it, cost more than sorting them.
    var found = ruleDates(from: from, through: through)
    for date in dates where date >= from && date <= through { found.append(date) }
    // Once each: a rule's day may also be an explicit date, two rules may give one day.
    found.sortOnceEach()
    return found
  }

  /// The days within `from...through` that rules and lunar holidays close, without exceptions,
  /// lunar exceptions, uncertain days and days outside ``coverage``; unsorted, a day possibly
  /// more than once.
  private func ruleDates(from: CalendarDate, through: CalendarDate) -> [CalendarDate] {
    var found: [CalendarDate] = []
    if !rules.isEmpty {
      var monthStart = from.firstOfMonth()
      let lastMonthStart = through.firstOfMonth()
      while true {
        for rule in rules {
          for date in rule.dates(inMonthStarting: monthStart) where date >= from && date <= through {
            found.append(date)
          }
        }
        // Stop in the last month rather than step past it: there is no month after 9999-12.
        guard monthStart < lastMonthStart else { break }
        monthStart = monthStart.firstOfMonth(addingMonths: 1)
      }
    }
    Self.addLunarDates(lunar, from: from, through: through, to: &found)
    if !exceptions.isEmpty || !lunarExceptions.isEmpty {
      var open = Set(exceptions)
      var lunarOpen: [CalendarDate] = []
      Self.addLunarDates(lunarExceptions, from: from, through: through, to: &lunarOpen)
      open.formUnion(lunarOpen)
      found.removeAll(where: open.contains)
    }
    if !uncertain.isEmpty || coverage != nil {
      found.removeAll { day in
        uncertain.contains { $0.contains(day) } || !(coverage?.contains { $0.contains(day) } ?? true)
      }
    }
    return found
  }

  /// Adds the solar dates of `closings` within `from...through` to `found`.
  private static func addLunarDates(
    _ closings: [LunarClosing], from: CalendarDate, through: CalendarDate, to found: inout [CalendarDate]
  ) {
    for closing in closings {
      // A window edge can cut through a holiday whose offsets cross the year boundary.
      for year in (from.year - 1)...(through.year + 1) {
        guard let holiday = KoreanLunarHolidays.date(of: closing.holiday, inYear: year) else { continue }
        for offset in closing.offsets {
          let date = holiday.adding(days: offset)
          if date >= from && date <= through { found.append(date) }
        }
      }
    }
  }

  /// Whether the schedule speaks of every day: a recurring rule or lunar holiday, or open all year.
  var coversEveryDay: Bool {
    switch status {
    case .unknown: false
    case .openAllYear: true
    case .closures: !rules.isEmpty || !lunar.isEmpty
    }
  }

  /// The days the schedule speaks of within `from...through`, before uncertain days: ``coverage``
  /// when set, else every day for a recurring rule and the months of explicit dates otherwise.
  private func coveredRanges(from: CalendarDate, through: CalendarDate) -> [DateWindow] {
    if let coverage { return DateWindow.clipped(coverage, from: from, through: through) }
    if coversEveryDay { return [DateWindow(from: from, through: through)] }
    return DateWindow.clipped(coveredMonths, from: from, through: through)
  }

  /// The days within `from...through` the schedule says nothing about, as maximal ranges in
  /// order. A day in neither ``closedDates(from:through:)`` nor these ranges is open.
  ///
  /// A recurring rule or lunar holiday speaks of every day, and so does open all year. Explicit
  /// dates alone (closing or open) speak of the calendar months they fall in, or of the days
  /// ``coverage`` names. An `unknown` schedule speaks of no day. Uncertain days are unknown, and
  /// explicit closing dates never are.
  public func unknownRanges(from: CalendarDate, through: CalendarDate) -> [DateWindow] {
    guard from <= through else { return [] }
    let covered = coveredRanges(from: from, through: through)
    var gaps: [DateWindow] = []
    var cursor = from
    for range in covered {
      if cursor < range.from { gaps.append(DateWindow(from: cursor, through: range.from.adding(days: -1))) }
      cursor = max(cursor, range.through.adding(days: 1))
    }
    if cursor <= through { gaps.append(DateWindow(from: cursor, through: through)) }
    // The gaps are sorted and apart (each covered range holds a day), so they need merging
    // only with uncertain days.
    let uncertainDays = DateWindow.clipped(uncertain, from: from, through: through)
    let unknown = uncertainDays.isEmpty ? gaps : DateWindow.merged(gaps + uncertainDays)
    guard !unknown.isEmpty else { return unknown }
    let closed = dates.filter { $0 >= from && $0 <= through }
    guard !closed.isEmpty else { return unknown }
    // An explicit closing date is known, whatever else the schedule says of its day.
    return unknown.flatMap { range -> [DateWindow] in
      var parts: [DateWindow] = []
      var start = range.from
      for day in closed where range.contains(day) {
        if start < day { parts.append(DateWindow(from: start, through: day.adding(days: -1))) }
        start = day.adding(days: 1)
      }
      if start <= range.through { parts.append(DateWindow(from: start, through: range.through)) }
      return parts
    }
  }

  /// The last day the schedule speaks of, for a window `from...through`: `nil` when it is a
  /// recurring rule (or lunar holiday, or open all year) without an end, so that it may be
  /// expanded for any day; the day before `from` when it speaks of no day from `from` on. Every
  /// day of the window after it is in ``unknownRanges(from:through:)``.
  public func knownThrough(from: CalendarDate, through: CalendarDate) -> CalendarDate? {
    if coverage == nil, coversEveryDay { return nil }
    var last = from.adding(days: -1)
    if let coverage {
      if let end = coverage.last?.through { last = max(last, end) }
    } else if status != .unknown {
      if let end = dates.max() { last = max(last, end.lastOfMonth) }
      if let end = exceptions.max() { last = max(last, end.lastOfMonth) }
    }
    if let end = dates.max() { last = max(last, end) }
    return last
  }

  /// The schedule of a source that may publish closing dates as data, a text, or both.
  ///
  /// - Text only: the parsed text.
  /// - Dates only: those dates, with no text (`text` is `nil`); they speak of the days
  ///   `coverage` gives them.
  /// - Both: the dates win for the calendar months they fall in, and the text's rules cover
  ///   the other months. Where the text gives other dates for such a month, a warning says so.
  /// - Neither: `unknown`.
  ///
  /// `coverage` is what the source's published dates speak of, `textCoverage` what the text's
  /// explicit dates speak of where the text does not say; a recurring rule of the text speaks of
  /// every day whatever they are.
  public static func published(
    text: String?, dates: [CalendarDate], asOf: CalendarDate, coverage: DateCoverage = .wholeMonths,
    textCoverage: DateCoverage = .asOfThroughLastListed
  ) -> ClosingSchedule {
    var official = dates
    official.sortOnceEach()
    guard let text else {
      if official.isEmpty {
        return ClosingSchedule(status: .unknown, text: nil, warnings: ["no closing days published"])
      }
      return ClosingSchedule(
        status: .closures, dates: official, text: nil,
        coverage: coverage == .wholeMonths ? nil : coverage.ranges(for: official, asOf: asOf))
    }
    let parsed = parse(text, asOf: asOf, coverage: textCoverage)
    guard !official.isEmpty else { return parsed }
    var merged = parsed.overridden(byOfficialDates: official)
    if parsed.coverage != nil || (coverage != .wholeMonths && !parsed.coversEveryDay) {
      // The text's own days (explicit, or up to its horizon) and the published ones.
      let own = parsed.coverage ?? (parsed.coversEveryDay ? [] : parsed.coveredMonths)
      merged.coverage = DateWindow.merged(own + coverage.ranges(for: official, asOf: asOf))
    }
    return merged
  }

  /// The calendar months of `dates` and `exceptions` (of a schedule that is not `unknown`).
  var coveredMonths: [DateWindow] {
    guard status != .unknown else { return [] }
    // A month named twice is one range twice, which merging joins; a date in the month of the
    // one before it (the dates are mostly in order) adds nothing.
    var months: [DateWindow] = []
    months.reserveCapacity(dates.count + exceptions.count)
    func add(_ date: CalendarDate) {
      if let last = months.last, last.from.year == date.year, last.from.month == date.month { return }
      months.append(DateWindow(from: date.firstOfMonth(), through: date.lastOfMonth))
    }
    for date in dates { add(date) }
    for date in exceptions { add(date) }
    return DateWindow.merged(months)
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
