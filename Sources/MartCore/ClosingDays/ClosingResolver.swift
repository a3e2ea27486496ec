/// Turns what a closing-day text says (``ClosingSyntax``) into a ``ClosingSchedule``: the
/// phrases' days as the calendar has them (``WrittenDateResolver``), gathered on the side their
/// verdict puts them, then made into rules, dates, exceptions, lunar days and the days the text
/// cannot tell. A pure function of the syntax, the text, the as-of date and the coverage.
///
/// Dates in brackets right after a rule (`매월 둘째 일요일 (11/15)`) confirm it, or, where they
/// differ, replace its days up to the last of them; a rule scoped to a month (`12월은 셋째
/// 일요일`) replaces the rules' days there; a day with opening hours is open even where a rule
/// would close it.
struct ClosingResolver {
  let asOf: CalendarDate
  /// What the text's explicit dates speak of when no recurring rule does.
  let coverage: DateCoverage
  private let dates: WrittenDateResolver

  init(asOf: CalendarDate, coverage: DateCoverage) {
    self.asOf = asOf
    self.coverage = coverage
    self.dates = WrittenDateResolver(asOf: asOf)
  }

  /// The schedule `text`, read as `syntax`, gives.
  func schedule(for syntax: ClosingSyntax, text: String) -> ClosingSchedule {
    resolve(syntax, text: text).schedule
  }

  /// The schedule `text`, read as `syntax`, gives, and the change notices it applied.
  func resolve(_ syntax: ClosingSyntax, text: String) -> (schedule: ClosingSchedule, changes: [ClosingChange]) {
    let reading = reading(of: syntax)
    var schedule = schedule(from: reading, text: text)
    let changes = applyChanges(of: reading, to: &schedule)
    return (schedule, changes)
  }

  // MARK: - The statements, added up

  /// Days a phrase names, on the calendar.
  enum NamedDays {
    case dates([CalendarDate])
    case newYear
    case nthWeekday(ordinals: [Int], weekdays: [Weekday])
    case weekly([Weekday])
    case daysOfMonth([Int])
    case lunar([LunarHoliday], offsets: Set<Int>)
    /// The dates in brackets right after a rule.
    case ruleDates([CalendarDate])
    /// A rule scoped to one month: its days in `month` (a first of month).
    case monthDays(month: CalendarDate, dates: [CalendarDate])
  }

  /// Days on one side of the verdicts: closed or open.
  struct Days {
    var ordinalsByWeekday: [Weekday: Set<Int>] = [:]
    var weekly: Set<Weekday> = []
    var monthDays: Set<Int> = []
    var newYear = false
    var dates: Set<CalendarDate> = []
    var lunarOffsets: [LunarHoliday: Set<Int>] = [:]
    /// Dates in brackets right after a rule.
    var ruleDates: Set<CalendarDate> = []
    /// The days of rules scoped to one month, by first day of month.
    var monthScoped: [CalendarDate: Set<CalendarDate>] = [:]

    mutating func add(_ days: NamedDays) {
      switch days {
      case .dates(let values): dates.formUnion(values)
      case .newYear: newYear = true
      case .nthWeekday(let ordinals, let weekdays):
        for weekday in weekdays { ordinalsByWeekday[weekday, default: []].formUnion(ordinals) }
      case .weekly(let weekdays): weekly.formUnion(weekdays)
      case .daysOfMonth(let values): monthDays.formUnion(values)
      case .lunar(let holidays, let offsets):
        for holiday in holidays { lunarOffsets[holiday, default: []].formUnion(offsets) }
      case .ruleDates(let values): ruleDates.formUnion(values)
      case .monthDays(let month, let values): monthScoped[month, default: []].formUnion(values)
      }
    }
  }

  /// Warnings in the order they arise, the first twenty of them.
  struct Warnings {
    static let maximum = 20
    private(set) var kept: [String] = []
    private(set) var dropped = 0

    mutating func add(_ message: String) {
      if kept.count < Self.maximum { kept.append(message) } else { dropped += 1 }
    }

    /// The kept warnings, and how many more there were.
    var all: [String] { dropped > 0 ? kept + ["\(dropped) more warnings"] : kept }
  }

  /// What the statements of a text add up to.
  struct Reading {
    var closed = Days()
    var opened = Days()
    var saysOpenAllYear = false
    /// Days with opening hours: trading, so never closed.
    var tradingDays: Set<CalendarDate> = []
    /// Holidays on which the rules' days may move, and the days they may move to.
    var shifts: [(holidays: HolidaySet, offsets: Set<Int>)] = []
    var publicHolidaysNamed = false
    /// Weekdays closed every other week: all are uncertain.
    var alternateWeekdays: Set<Weekday> = []
    /// Change notices, in order: the days replaced, those replacing them, and the statement.
    var changes: [(old: [NamedDays], new: [NamedDays], statement: Int)] = []
    /// The days changes apply from (`2027년 1월부터`), with their statements.
    var appliesFrom: [(day: CalendarDate, statement: Int)] = []
    var warnings = Warnings()
    /// Written days whose weekday or holiday fits no year near the as-of date: unknown.
    var misplacedDays: Set<CalendarDate> = []
    /// Months whose closing days the text lists in full (`12월 휴무일: 13일, 27일`), by first
    /// day: known, whatever the source's dates cover.
    var wholeMonths: Set<CalendarDate> = []
    /// The dates of those lists: they speak of their months, not of the days from the as-of date.
    var wholeMonthDates: Set<CalendarDate> = []
  }

  /// Adds up the statements in order: each phrase's days as read, each verdict's sides.
  func reading(of syntax: ClosingSyntax) -> Reading {
    var reading = Reading()
    var named: [Int: NamedDays] = [:]
    for (index, statement) in syntax.statements.enumerated() {
      var warnings: [String] = []
      switch statement {
      case .phrase(let phrase):
        named[index] = days(of: phrase, warnings: &warnings)
        switch phrase {
        case .dates(let list), .ruleDates(let list): reading.misplacedDays.formUnion(dates.misplacedDays(of: list))
        default: break
        }
        if case .dates(let list) = phrase, let month = list.wholeMonth, case .dates(let values)? = named[index] {
          let inMonth = values.filter { $0.month == month.month }
          reading.wholeMonths.formUnion(inMonth.map { $0.firstOfMonth() })
          reading.wholeMonthDates.formUnion(inMonth)
        }
      case .verdict(let closed, let opened):
        for phrase in closed { if let days = named[phrase] { reading.closed.add(days) } }
        for phrase in opened { if let days = named[phrase] { reading.opened.add(days) } }
      case .tradingDays(let list): reading.tradingDays.formUnion(dates.days(of: list, warnings: &warnings))
      case .substitution(let phrase):
        switch named[phrase] {
        case .dates(let values)?, .ruleDates(let values)?: reading.opened.dates.formUnion(values)
        default: break
        }
      case .change(let old, let new):
        let oldDays = old.compactMap { named[$0] }
        let newDays = new.compactMap { named[$0] }
        // A replaced day the notice names again among the new ones (`기존 12/13, 12/27 → 변경
        // 12/16, 12/27은 기존과 동일`) stays as it was: closed.
        var restated: Set<CalendarDate> = []
        for days in newDays {
          switch days {
          case .dates(let values), .ruleDates(let values): restated.formUnion(values)
          default: break
          }
        }
        for case .dates(let values) in oldDays {
          reading.opened.dates.formUnion(values.filter { !restated.contains($0) })
        }
        reading.changes.append((oldDays, newDays, index))
      case .appliesFrom(let list):
        if let day = dates.days(of: list, warnings: &warnings).first { reading.appliesFrom.append((day, index)) }
      case .openAllYear: reading.saysOpenAllYear = true
      case .shift(let holidays, let offsets): reading.shifts.append((holidays, offsets))
      case .publicHolidaysNamed: reading.publicHolidaysNamed = true
      case .alternateWeeks(.weekdays(let weekdays)): reading.alternateWeekdays.formUnion(weekdays)
      case .alternateWeeks(.closedWeeklyRules): reading.alternateWeekdays.formUnion(reading.closed.weekly)
      case .warning(let message): warnings.append(message)
      }
      for message in warnings { reading.warnings.add(message) }
    }
    return reading
  }

  /// The days `phrase` names, with a warning for each of its dates that names no day.
  private func days(of phrase: ClosingPhrase, warnings: inout [String]) -> NamedDays {
    switch phrase {
    case .dates(let list): return .dates(dates.days(of: list, warnings: &warnings))
    case .ruleDates(let list): return .ruleDates(dates.days(of: list, warnings: &warnings))
    case .newYear: return .newYear
    case .nthWeekday(let ordinals, let weekdays): return .nthWeekday(ordinals: ordinals, weekdays: weekdays)
    case .weekly(let weekdays): return .weekly(weekdays)
    case .daysOfMonth(let days): return .daysOfMonth(days)
    case .lunar(let holidays, let offsets): return .lunar(holidays, offsets: offsets)
    case .monthRule(let written, let ordinals, let weekdays):
      // The parser makes a month rule only of a month that has a first day.
      guard let month = dates.firstDay(of: written) else {
        return .nthWeekday(ordinals: ordinals, weekdays: weekdays)
      }
      let days = weekdays.flatMap {
        ClosingRule.nthWeekday(ordinals: ordinals, weekday: $0).dates(inMonthStarting: month)
      }
      return .monthDays(month: month, dates: days)
    }
  }
}
