/// Reads closing-day text into a ``ClosingSchedule``.
///
/// The text is tokenized once (``ClosingTextScanner``) and read left to right. Each reader
/// looks ahead a bounded number of tokens, so the whole parse is linear in the text length.
///
/// Readers collect the days a clause names (dates, rules, holidays) as pending items; the verb
/// that ends the clause decides what they are: 휴무/휴점 closes them, 영업/정상영업/휴무 없음/쉬지
///않습니다 opens them. A clause without a verb (`매월 둘째·넷째 일요일`) closes. Clauses end at
/// brackets, line breaks, `!`, `※`, `*`, `.` and `단`, so `(단, 추석 당일 영업)` opens 추석 and
/// `(단, 매월 2,4번째 일요일 휴점)` closes those Sundays, wherever they stand.
///
/// A day with opening hours (`12/24 10:00~22:00`, `12/24 오후 6시까지 영업`) is a trading day:
/// never a closure, and open if a rule would close it. Dates in brackets right after a rule
/// (`매월 둘째 일요일 (11/15)`) confirm it, or, where they differ, replace its days up to the
/// last of them; a rule scoped to a month (`12월은 셋째 일요일`) replaces the rules' days there.
struct ClosingTextParser {
  let text: String
  let asOf: CalendarDate
  /// What the text's explicit dates speak of when no recurring rule does.
  let coverage: DateCoverage
  let scalars: [Unicode.Scalar]
  let tokens: [ClosingToken]

  /// Days named by a clause, waiting for the clause's verb.
  enum Item {
    case dates([CalendarDate])
    case newYear
    case nthWeekday(ordinals: [Int], weekdays: [Weekday])
    case weekly([Weekday])
    case daysOfMonth([Int])
    case lunar([LunarHoliday], offsets: Set<Int>)
    /// The dates in brackets right after a rule (`매월 둘째 일요일 (11/15)`): the days the site
    /// lists for it.
    case ruleDates([CalendarDate])
    /// A rule scoped to one month (`12월은 셋째 일요일`): its days in `month` (a first of month),
    /// in place of the other rules' days there.
    case monthDays(month: CalendarDate, dates: [CalendarDate])

    /// Rules that recur every month or week, as opposed to named days.
    var isRecurring: Bool {
      switch self {
      case .nthWeekday, .weekly, .daysOfMonth: true
      case .dates, .newYear, .lunar, .ruleDates, .monthDays: false
      }
    }
  }

  /// What a verb says of the days before it.
  enum Polarity { case closed, open }

  /// Days on either side of the verdict.
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
  }

  var closed = Days()
  var opened = Days()
  var pending: [Item] = []
  /// The token after the last pending item.
  var pendingEnd = 0
  /// The polarity of a clause without a verb after its items: `closed`, or `open` after a
  /// leading `정상영업:`.
  var clauseDefault = Polarity.closed
  var saysOpenAllYear = false
  /// Days with opening hours (`12/24 10:00~22:00`): trading, so never closed.
  var tradingDays: Set<CalendarDate> = []
  /// The month named last without a day (`12월 휴무일: 13일, 27일`), and the token after it and
  /// its particle: `13일` a few words later falls in it, and a rule starting right there is
  /// scoped to it.
  var namedMonth: (year: Int?, month: Int, end: Int)?
  /// The dates of the last date list and the token after it, for `12/27 대신 12/25`.
  var lastDateList: (dates: [CalendarDate], end: Int)?
  var warnings: [String] = []
  var droppedWarnings = 0

  /// Holidays on which the rules' days may move, as a condition the engine does not read
  /// (`공휴일인 경우 익일`): the rules' days on them, and the days they may move to (`offsets`
  /// from each), are uncertain.
  var shifts: [(holidays: HolidaySet, offsets: Set<Int>)] = []
  /// `공휴일 휴무`: public holidays named as days, which the engine does not read; all are uncertain.
  var publicHolidaysNamed = false
  /// Weekdays closed every other week (`격주 일요일`): which weeks is unknown, so all are uncertain.
  var alternateWeekdays: Set<Weekday> = []

  /// The holidays a condition speaks of.
  enum HolidaySet {
    /// 공휴일: see ``KoreanPublicHolidays``.
    case publicHolidays
    /// 설, 추석, 명절: the three days of each.
    case lunar([LunarHoliday])
  }

  /// A date as written: the year may be missing.
  struct WrittenDate {
    var year: Int?
    var month: Int
    var day: Int
  }

  /// What the text says about a written date: its weekday, or the holiday it is.
  struct DateHints {
    var weekday: Weekday?
    var holiday: LunarClosing?
    var isEmpty: Bool { weekday == nil && holiday == nil }
  }

  static let maximumWarnings = 20
  static let maximumRangeDays = 366

  init(text: String, asOf: CalendarDate, coverage: DateCoverage = .wholeMonths) {
    self.text = text
    self.asOf = asOf
    self.coverage = coverage
    self.scalars = ClosingTextScanner.normalize(text)
    self.tokens = ClosingTextScanner.tokenize(scalars)
  }

  consuming func parse() -> ClosingSchedule {
    var index = 0
    while index < tokens.count {
      let next: Int
      switch tokens[index].kind {
      case .number: next = readNumber(at: index)
      case .keyword(.ordinal), .keyword(.ordinalPrefix): next = readOrdinalRule(at: index) ?? index + 1
      case .keyword(.everyWeek): next = readWeekly(at: index)
      case .keyword(.everyMonth): next = readDaysOfMonth(at: index + 1) ?? index + 1
      case .keyword(.holiday), .keyword(.newYear), .keyword(.festivals): next = readHolidays(at: index)
      case .keyword(.normalOpen) where !isNoun(index):
        next = readVerb(.open, at: index, end: index + 1)
      case .keyword(.normal) where keyword(at: index + 1) == .business && !isNoun(index + 1):
        next = readVerb(.open, at: index, end: index + 2)
      case .keyword(.business) where !isNoun(index):
        next = readVerb(.open, at: index, end: index + 1)
      case .keyword(.closure) where keyword(at: index + 1) == ClosingKeyword.none,
        .keyword(.restless):
        // 휴무 없음, 쉬지 않습니다: the days before it are open; alone, the store never closes.
        let end = keyword(at: index) == .restless ? index + 1 : index + 2
        if pending.isEmpty && !isLabel(end) {
          saysOpenAllYear = true
          next = end
        } else {
          next = readVerb(.open, at: index, end: end)
        }
      case .keyword(.closure): next = readVerb(.closed, at: index, end: index + 1)
      case .keyword(.openAllYear):
        saysOpenAllYear = true
        next = index + 1
      case .keyword(.however): next = endClause(at: index)
      case .keyword(.instead), .symbol("→"): next = readSubstitution(at: index)
      case .keyword(.publicHoliday): next = readPublicHolidays(at: index)
      case .keyword(.alternateWeeks): next = readAlternateWeeks(at: index)
      case .keyword(.condition):
        warn("a condition not understood; the closing days may differ", max(0, index - 2), index + 3)
        next = index + 1
      case .symbol("(") where isRuleBracket(at: index): next = readRuleDates(at: index)
      case .symbol(let symbol) where Self.clauseBreaks.contains(symbol): next = endClause(at: index)
      case .keyword(.weekday):
        if let end = readWeekdayFirstRule(at: index) {
          next = end
        } else {
          warn("weekday without an ordinal or 매주 ignored", index, index + 1)
          next = index + 1
        }
      default: next = index + 1
      }
      index = max(next, index + 1)
    }
    commit(clauseDefault)
    return makeSchedule()
  }

  // MARK: - Clauses and verbs

  static let clauseBreaks: Set<Unicode.Scalar> = ["(", ")", "[", "]", "\n", "!", "※", "*", ".", ";"]

  /// Ends a clause: its items take the clause's default polarity.
  mutating func endClause(at index: Int) -> Int {
    commit(clauseDefault)
    clauseDefault = .closed
    return index + 1
  }

  /// `영업시간`, `정상영업시간`, `영업점`: 영업 as part of a noun, not a verb.
  func isNoun(_ index: Int) -> Bool {
    let end = tokens[index].end
    guard end < scalars.count, tokens.indices.contains(index + 1), tokens[index + 1].start == end else {
      return false
    }
    return ["시", "점", "장", "소", "부"].contains(scalars[end])
  }

  /// Whether a `:` follows at `index`: the verb labels what comes after it (`휴무일: 1/1`).
  func isLabel(_ index: Int) -> Bool { symbol(at: index) == ":" }

  /// A verb at `index`: the pending items take its polarity. A verb with nothing before it and a
  /// colon after it (`정상영업: 12/13`) gives its polarity to the rest of the clause.
  mutating func readVerb(_ polarity: Polarity, at index: Int, end: Int) -> Int {
    if pending.isEmpty {
      if isLabel(end) { clauseDefault = polarity }
      return end
    }
    if polarity == .open, isAboutOpeningHours(from: pendingEnd, to: index) {
      // The verb speaks of hours. Right after the last items (`매월 둘째 일요일 오후 6시까지 영업`,
      // `12/24까지 영업`) it makes them neither closed nor open. Otherwise the hours are those of
      // a day already read as a trading day (`매월 둘째 일요일, 12/24 오후 6시까지 영업`), and the
      // items before it wait for their own verb or the end of the clause.
      if hoursFollow(at: pendingEnd) || keyword(at: pendingEnd) == .until {
        let start = lastRunStart()
        if pending[start].isRecurring, hoursFollow(at: pendingEnd) {
          // 매월 둘째 일요일 오후 6시까지 영업: the rule's days trade with other hours.
          warn("opening hours after a rule: its days are trading days with other hours", pendingEnd, end)
          for item in pending[start...] { add(item, to: &opened) }
        } else {
          warn("opening hours, neither a closure nor a day off", pendingEnd, end)
        }
        pending.removeSubrange(start...)
      }
      return end
    }
    commit(polarity)
    return end
  }

  /// Whether opening hours start at `index`, maybe after a particle: `10:00~22:00`, `오후 6시`,
  /// `18시`, `은 오후 1시`.
  func hoursFollow(at index: Int) -> Bool {
    let start = isParticle(at: index) ? index + 1 : index
    if keyword(at: start) == .time { return true }  // 오전, 오후
    guard number(at: start) != nil else { return false }
    return (symbol(at: start + 1) == ":" && number(at: start + 2) != nil) || keyword(at: start + 1) == .time
  }

  /// Whether `index` holds 시 or 분 after a number, rather than 오전 or 오후.
  func isClockUnit(at index: Int) -> Bool {
    keyword(at: index) == .time && tokens[index].end - tokens[index].start == 1
  }

  /// Whether `index` holds a particle after a day or month: `1/1은`, `12월은`, `12월에는`.
  func isParticle(at index: Int) -> Bool {
    guard tokens.indices.contains(index), tokens[index].kind == .other else { return false }
    let word = scalars[tokens[index].start..<tokens[index].end]
    return ["은", "는", "에", "에는", "의", "중"].contains { word.elementsEqual($0.unicodeScalars) }
  }

  /// How far the words after `start` were looked at for hours, and the first hours word found.
  var hoursScan: (start: Int, scanned: Int, found: Int?) = (0, 0, nil)

  /// Whether the words between the last item and an opening verb speak of hours
  /// (`12/24 오후 6시까지 영업`). Each verb after the same items asks again (`12/24 오후 영업 영업 …`),
  /// so the scan goes on from where the last one stopped: every word is looked at once.
  mutating func isAboutOpeningHours(from start: Int, to end: Int) -> Bool {
    if hoursScan.start != start { hoursScan = (start, start, nil) }
    while hoursScan.found == nil, hoursScan.scanned < end {
      switch tokens[hoursScan.scanned].kind {
      case .keyword(.time), .keyword(.until), .symbol(":"): hoursScan.found = hoursScan.scanned
      default: hoursScan.scanned += 1
      }
    }
    return hoursScan.found.map { $0 < end } ?? false
  }

  /// Where the run of like items at the end of `pending` starts: all rules, or all named days.
  func lastRunStart() -> Int {
    guard let last = pending.last else { return 0 }
    var start = pending.count - 1
    while start > 0, pending[start - 1].isRecurring == last.isRecurring { start -= 1 }
    return start
  }

  /// Gives the pending items a polarity. An opening verb opens only the run of like items just
  /// before it: in `매월 둘째 일요일, 12/13 정상영업` the rule still closes and 12/13 is open.
  mutating func commit(_ polarity: Polarity) {
    guard !pending.isEmpty else { return }
    let firstOpened = polarity == .open ? lastRunStart() : pending.count
    for (position, item) in pending.enumerated() {
      if position >= firstOpened { add(item, to: &opened) } else { add(item, to: &closed) }
    }
    pending.removeAll()
  }

  func add(_ item: Item, to days: inout Days) {
    switch item {
    case .dates(let dates): days.dates.formUnion(dates)
    case .newYear: days.newYear = true
    case .nthWeekday(let ordinals, let weekdays):
      for weekday in weekdays { days.ordinalsByWeekday[weekday, default: []].formUnion(ordinals) }
    case .weekly(let weekdays): days.weekly.formUnion(weekdays)
    case .daysOfMonth(let values): days.monthDays.formUnion(values)
    case .lunar(let holidays, let offsets):
      for holiday in holidays { days.lunarOffsets[holiday, default: []].formUnion(offsets) }
    case .ruleDates(let dates): days.ruleDates.formUnion(dates)
    case .monthDays(let month, let dates): days.monthScoped[month, default: []].formUnion(dates)
    }
  }

  mutating func append(_ item: Item, end: Int) {
    pending.append(item)
    pendingEnd = end
  }
}
