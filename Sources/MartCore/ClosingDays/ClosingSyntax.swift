/// What a closing-day text says, as read by ``ClosingClauseParser`` and before any calendar
/// arithmetic: the days each phrase names as written (rules, dates, ranges, lunar days), the
/// verdicts that close or open them, the days they give way to, and the qualifiers the engine
/// cannot resolve (conditions, alternate weeks, public holidays), in the order the text gives
/// them. ``ClosingResolver`` turns it into a ``ClosingSchedule``.
struct ClosingSyntax {
  /// What the text says, in order. A phrase is known by its index here.
  var statements: [ClosingStatement] = []

  /// Adds `statement` and returns its index.
  @discardableResult
  mutating func append(_ statement: ClosingStatement) -> Int {
    statements.append(statement)
    return statements.count - 1
  }
}

/// One thing a closing-day text says.
enum ClosingStatement {
  /// Days a phrase names (`매월 둘째 일요일`, `12/24`, `추석 당일`), waiting for a verdict.
  case phrase(ClosingPhrase)
  /// The verb of a clause, or its end: the phrases (by index) it closes and those it opens.
  case verdict(closed: [Int], opened: [Int])
  /// Dates with opening hours (`12/24 10:00~22:00`): trading days, never closed.
  case tradingDays(WrittenDateList)
  /// `12/27 대신 12/25`, `12/27 → 12/30`: the dates of the phrase (by index) give way; they are open.
  case substitution(phrase: Int)
  /// A change notice (`10일에서 7일로 변경`, `기존 둘째 일요일 → 변경 둘째 수요일`): the phrases
  /// (by index) `old` are replaced by the phrases `new`, from the day a ``appliesFrom(_:)`` of the
  /// text gives. Replaced dates are open; replaced rules hold only before that day, and with no
  /// such day the days of both are uncertain. `new` is empty when nothing after the arrow was read.
  case change(old: [Int], new: [Int])
  /// `2027년 1월부터`, `(12월부터 적용)`, `2027년 1월 1일부터` in a change notice: the day the change
  /// applies from (a month as its first day).
  case appliesFrom(WrittenDateList)
  /// `연중무휴`, or `휴무 없음` with nothing before it.
  case openAllYear
  /// A condition on holidays (`공휴일인 경우 익일`, `명절과 겹칠 경우`): the rules' days on `holidays`
  /// may move by `offsets` days, or (no offsets) not close at all.
  case shift(holidays: HolidaySet, offsets: Set<Int>)
  /// `공휴일 휴무`, `매주 월요일 및 공휴일`: every public holiday closes, as ``KoreanPublicHolidays``
  /// lists them; a day the table cannot tell is unknown.
  case publicHolidaysNamed
  /// `격주`: weekdays closed every other week, which weeks unknown.
  case alternateWeeks(AlternateWeeks)
  /// Something the parser read and could not use, or used with a caveat.
  case warning(String)
}

/// Days a phrase names, as written.
enum ClosingPhrase {
  /// `12/24`, `12/28~12/30`, `13일, 27일` after `12월`.
  case dates(WrittenDateList)
  /// The dates in brackets right after a rule (`매월 둘째 일요일 (11/15)`): the days the site
  /// lists for it.
  case ruleDates(WrittenDateList)
  /// `신정`, or `1/1` in a list of holidays: New Year's Day every year.
  case newYear
  /// `둘째·넷째 일요일`.
  case nthWeekday(ordinals: [Int], weekdays: [Weekday])
  /// `매주 월요일`.
  case weekly([Weekday])
  /// `매월 10일, 25일`.
  case daysOfMonth([Int])
  /// `설·추석 당일`: days around lunar holidays.
  case lunar([LunarHoliday], offsets: Set<Int>)
  /// `12월은 셋째 일요일`: a rule for one month, in place of the other rules' days there.
  case monthRule(WrittenMonth, ordinals: [Int], weekdays: [Weekday])

  /// Rules that recur every month or week, as opposed to named days.
  var isRecurring: Bool {
    switch self {
    case .nthWeekday, .weekly, .daysOfMonth: true
    case .dates, .ruleDates, .newYear, .lunar, .monthRule: false
    }
  }
}

/// A date as written: the year may be missing.
struct WrittenDate: Equatable {
  var year: Int?
  var month: Int
  var day: Int
}

/// A month named without a day (`12월`, `2026년 12월`): the year may be missing.
struct WrittenMonth {
  var year: Int?
  var month: Int
}

/// What the text says about a written date: its weekday, or the holiday it is.
struct DateHints {
  var weekday: Weekday?
  var holiday: LunarClosing?
  var isEmpty: Bool { weekday == nil && holiday == nil }
}

/// One date or range of a list, as written, with the words it was read from.
struct WrittenDateEntry {
  var start: WrittenDate
  var startHints: DateHints
  /// The last day of a range (`12/28~12/30`).
  var end: WrittenDate?
  var endHints: DateHints
  /// The words of the entry, quoted in warnings.
  var excerpt: String
}

/// Dates and ranges written as one list: `11/12(수), 11/26(수)`, `12/24~12/26`.
struct WrittenDateList {
  var entries: [WrittenDateEntry]
  /// The month whose closing days the list gives in full, when words before it say so (`12월
  /// 휴무일: 13일, 27일`, `이달 휴무일은 13일과 27일`): that month is known whatever the source's
  /// dates cover. `nil` for a bare list, which speaks of the days its source's coverage gives.
  var wholeMonth: WrittenMonth? = nil
}

/// The holidays a condition speaks of.
enum HolidaySet {
  /// 공휴일: see ``KoreanPublicHolidays``.
  case publicHolidays
  /// 설, 추석, 명절: the three days of each.
  case lunar([LunarHoliday])
}

/// Which weekdays `격주` speaks of.
enum AlternateWeeks {
  /// Those it names (`격주 일요일`) or of the weekly rule right before it (`매주 일요일 격주 휴무`).
  case weekdays([Weekday])
  /// Those of the weekly rules closed so far (`매주 일요일 휴무, 격주`).
  case closedWeeklyRules
}
