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
  private let text: String
  private let asOf: CalendarDate
  /// What the text's explicit dates speak of when no recurring rule does.
  private let coverage: DateCoverage
  private let scalars: [Unicode.Scalar]
  private let tokens: [ClosingToken]

  /// Days named by a clause, waiting for the clause's verb.
  private enum Item {
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
  private enum Polarity { case closed, open }

  /// Days on either side of the verdict.
  private struct Days {
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

  private var closed = Days()
  private var opened = Days()
  private var pending: [Item] = []
  /// The token after the last pending item.
  private var pendingEnd = 0
  /// The polarity of a clause without a verb after its items: `closed`, or `open` after a
  /// leading `정상영업:`.
  private var clauseDefault = Polarity.closed
  private var saysOpenAllYear = false
  /// Days with opening hours (`12/24 10:00~22:00`): trading, so never closed.
  private var tradingDays: Set<CalendarDate> = []
  /// The month named last without a day (`12월 휴무일: 13일, 27일`), and the token after it and
  /// its particle: `13일` a few words later falls in it, and a rule starting right there is
  /// scoped to it.
  private var namedMonth: (year: Int?, month: Int, end: Int)?
  /// The dates of the last date list and the token after it, for `12/27 대신 12/25`.
  private var lastDateList: (dates: [CalendarDate], end: Int)?
  private var warnings: [String] = []
  private var droppedWarnings = 0

  /// Holidays on which the rules' days may move, as a condition the engine does not read
  /// (`공휴일인 경우 익일`): the rules' days on them, and the days they may move to (`offsets`
  /// from each), are uncertain.
  private var shifts: [(holidays: HolidaySet, offsets: Set<Int>)] = []
  /// `공휴일 휴무`: public holidays named as days, which the engine does not read; all are uncertain.
  private var publicHolidaysNamed = false
  /// Weekdays closed every other week (`격주 일요일`): which weeks is unknown, so all are uncertain.
  private var alternateWeekdays: Set<Weekday> = []

  /// The holidays a condition speaks of.
  private enum HolidaySet {
    /// 공휴일: see ``KoreanPublicHolidays``.
    case publicHolidays
    /// 설, 추석, 명절: the three days of each.
    case lunar([LunarHoliday])
  }

  /// A date as written: the year may be missing.
  private struct WrittenDate {
    var year: Int?
    var month: Int
    var day: Int
  }

  /// What the text says about a written date: its weekday, or the holiday it is.
  private struct DateHints {
    var weekday: Weekday?
    var holiday: LunarClosing?
    var isEmpty: Bool { weekday == nil && holiday == nil }
  }

  private static let maximumWarnings = 20
  private static let maximumRangeDays = 366

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

  private static let clauseBreaks: Set<Unicode.Scalar> = ["(", ")", "[", "]", "\n", "!", "※", "*", ".", ";"]

  /// Ends a clause: its items take the clause's default polarity.
  private mutating func endClause(at index: Int) -> Int {
    commit(clauseDefault)
    clauseDefault = .closed
    return index + 1
  }

  /// `영업시간`, `정상영업시간`, `영업점`: 영업 as part of a noun, not a verb.
  private func isNoun(_ index: Int) -> Bool {
    let end = tokens[index].end
    guard end < scalars.count, tokens.indices.contains(index + 1), tokens[index + 1].start == end else {
      return false
    }
    return ["시", "점", "장", "소", "부"].contains(scalars[end])
  }

  /// Whether a `:` follows at `index`: the verb labels what comes after it (`휴무일: 1/1`).
  private func isLabel(_ index: Int) -> Bool { symbol(at: index) == ":" }

  /// A verb at `index`: the pending items take its polarity. A verb with nothing before it and a
  /// colon after it (`정상영업: 12/13`) gives its polarity to the rest of the clause.
  private mutating func readVerb(_ polarity: Polarity, at index: Int, end: Int) -> Int {
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
  private func hoursFollow(at index: Int) -> Bool {
    let start = isParticle(at: index) ? index + 1 : index
    if keyword(at: start) == .time { return true }  // 오전, 오후
    guard number(at: start) != nil else { return false }
    return (symbol(at: start + 1) == ":" && number(at: start + 2) != nil) || keyword(at: start + 1) == .time
  }

  /// Whether `index` holds 시 or 분 after a number, rather than 오전 or 오후.
  private func isClockUnit(at index: Int) -> Bool {
    keyword(at: index) == .time && tokens[index].end - tokens[index].start == 1
  }

  /// Whether `index` holds a particle after a day or month: `1/1은`, `12월은`, `12월에는`.
  private func isParticle(at index: Int) -> Bool {
    guard tokens.indices.contains(index), tokens[index].kind == .other else { return false }
    let word = scalars[tokens[index].start..<tokens[index].end]
    return ["은", "는", "에", "에는", "의", "중"].contains { word.elementsEqual($0.unicodeScalars) }
  }

  /// How far the words after `start` were looked at for hours, and the first hours word found.
  private var hoursScan: (start: Int, scanned: Int, found: Int?) = (0, 0, nil)

  /// Whether the words between the last item and an opening verb speak of hours
  /// (`12/24 오후 6시까지 영업`). Each verb after the same items asks again (`12/24 오후 영업 영업 …`),
  /// so the scan goes on from where the last one stopped: every word is looked at once.
  private mutating func isAboutOpeningHours(from start: Int, to end: Int) -> Bool {
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
  private func lastRunStart() -> Int {
    guard let last = pending.last else { return 0 }
    var start = pending.count - 1
    while start > 0, pending[start - 1].isRecurring == last.isRecurring { start -= 1 }
    return start
  }

  /// Gives the pending items a polarity. An opening verb opens only the run of like items just
  /// before it: in `매월 둘째 일요일, 12/13 정상영업` the rule still closes and 12/13 is open.
  private mutating func commit(_ polarity: Polarity) {
    guard !pending.isEmpty else { return }
    let firstOpened = polarity == .open ? lastRunStart() : pending.count
    for (position, item) in pending.enumerated() {
      if position >= firstOpened { add(item, to: &opened) } else { add(item, to: &closed) }
    }
    pending.removeAll()
  }

  private func add(_ item: Item, to days: inout Days) {
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

  private mutating func append(_ item: Item, end: Int) {
    pending.append(item)
    pendingEnd = end
  }

  // MARK: - Token access

  private func keyword(at index: Int) -> ClosingKeyword? {
    guard tokens.indices.contains(index), case .keyword(let keyword) = tokens[index].kind else { return nil }
    return keyword
  }

  private func number(at index: Int) -> (value: Int, digits: Int)? {
    guard tokens.indices.contains(index), case .number(let value, let digits) = tokens[index].kind, value >= 0
    else { return nil }
    return (value, digits)
  }

  private func symbol(at index: Int) -> Unicode.Scalar? {
    guard tokens.indices.contains(index), case .symbol(let symbol) = tokens[index].kind else { return nil }
    return symbol
  }

  private func isListSeparator(at index: Int) -> Bool {
    if keyword(at: index) == .and { return true }
    guard let symbol = symbol(at: index) else { return false }
    return symbol == "," || symbol == "·" || symbol == "/" || symbol == "&"
  }

  private func weekday(at index: Int) -> Weekday? {
    if case .weekday(let weekday)? = keyword(at: index) { return weekday }
    return nil
  }

  private func excerpt(_ start: Int, _ end: Int) -> String {
    let from = tokens[min(start, tokens.count - 1)].start
    let to = tokens[min(max(end, start + 1), tokens.count) - 1].end
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars[from..<min(to, from + 60)])
    return String(view)
  }

  private mutating func warn(_ message: String, _ start: Int, _ end: Int) {
    warn("\(message): \"\(excerpt(start, end))\"")
  }

  private mutating func warn(_ message: String) {
    if warnings.count < Self.maximumWarnings { warnings.append(message) } else { droppedWarnings += 1 }
  }

  // MARK: - Numbers: dates, times, digit ordinals

  private mutating func readNumber(at index: Int) -> Int {
    let isTime =
      (symbol(at: index + 1) == ":" && number(at: index + 2) != nil)
      || (symbol(at: index - 1) == ":" && number(at: index - 2) != nil)
    if isTime { return skipTime(at: index) }
    if let end = readDateList(at: index) { return end }
    if let end = readOrdinalRule(at: index) { return end }
    if let end = readMonthName(at: index) { return end }
    if keyword(at: index + 1) == .day {
      warn("day without a month ignored", index, index + 2)
      return index + 2
    }
    return index + 1
  }

  /// Reads a month named without a day, `12월`, `2026년 12월`, with a particle or colon after it:
  /// days written alone after it (`12월 휴무일: 13일, 27일`) fall in it, and a rule right after it
  /// is scoped to it (`12월은 셋째 일요일`).
  private mutating func readMonthName(at index: Int) -> Int? {
    var year: Int?
    var monthIndex = index
    if let first = number(at: index), first.digits == 4, keyword(at: index + 1) == .year {
      year = first.value
      monthIndex = index + 2
    }
    guard let month = number(at: monthIndex), month.digits <= 2, (1...12).contains(month.value),
      keyword(at: monthIndex + 1) == .month
    else { return nil }
    var end = monthIndex + 2
    if isParticle(at: end) { end += 1 }
    if symbol(at: end) == ":" { end += 1 }
    namedMonth = (year, month.value, end)
    return end
  }

  /// Skips `10:00`, `10:00~23:00`, `10:00 - 22:00`.
  private func skipTime(at index: Int) -> Int {
    var next = index
    while number(at: next) != nil || symbol(at: next) == ":" { next += 1 }
    if let dash = symbol(at: next), dash == "~" || dash == "-", number(at: next + 1) != nil,
      symbol(at: next + 2) == ":"
    {
      next += 1
      while number(at: next) != nil || symbol(at: next) == ":" { next += 1 }
    }
    return next
  }

  /// Reads one written date at `index`: `YYYYMMDD`, `YYYY-MM-DD`, `YYYY.MM.DD`, `YYYY년 M월 D일`,
  /// `M/D`, `M.D`, `M월 D일`.
  private mutating func readDate(at index: Int) -> (WrittenDate, Int)? {
    guard let first = number(at: index), !isDigitOrdinalList(at: index) else { return nil }
    var written: WrittenDate
    var next: Int
    if first.digits == 8 {
      written = WrittenDate(year: first.value / 10000, month: first.value / 100 % 100, day: first.value % 100)
      next = index + 1
    } else if first.digits == 4, let separator = symbol(at: index + 1),
      separator == "-" || separator == "." || separator == "/",
      let month = number(at: index + 2), month.digits <= 2, symbol(at: index + 3) == separator,
      let day = number(at: index + 4), day.digits <= 2
    {
      written = WrittenDate(year: first.value, month: month.value, day: day.value)
      next = index + 5
    } else if first.digits == 4, keyword(at: index + 1) == .year, let month = number(at: index + 2),
      keyword(at: index + 3) == .month, let day = number(at: index + 4)
    {
      written = WrittenDate(year: first.value, month: month.value, day: day.value)
      next = keyword(at: index + 5) == .day ? index + 6 : index + 5
    } else if first.digits <= 2, let separator = symbol(at: index + 1), separator == "/" || separator == ".",
      let day = number(at: index + 2), day.digits <= 2
    {
      // `1.2.3` is a version or an outline number, not a date.
      if separator == ".", symbol(at: index + 3) == ".", number(at: index + 4) != nil { return nil }
      written = WrittenDate(year: nil, month: first.value, day: day.value)
      next = index + 3
    } else if first.digits <= 2, keyword(at: index + 1) == .month, let day = number(at: index + 2),
      day.digits <= 2, keyword(at: index + 3) == .day || symbol(at: index + 3) != ":"
    {
      written = WrittenDate(year: nil, month: first.value, day: day.value)
      next = keyword(at: index + 3) == .day ? index + 4 : index + 3
    } else {
      return nil
    }
    // `2.4주`, `2/4째` are ordinals; `10.5%`, `3.5시` are not dates (`12/24 오후 6시` is one).
    switch keyword(at: next) {
    case .week?, .ordinalSuffix?: return nil
    case .time? where isClockUnit(at: next): return nil
    default: break
    }
    if let symbol = symbol(at: next), symbol == "%" || symbol == ":" { return nil }
    let probeYear = written.year ?? 2000  // a leap year, so 2/29 is checked per candidate later
    guard CalendarDate(year: probeYear, month: written.month, day: written.day) != nil else {
      warn("not a real date", index, next)
      return nil
    }
    return (written, next)
  }

  /// Whether `index` starts single digits that are ordinals: digits that end in 째, 번째 or 주
  /// (`2/4주`, `2.4번째`, `1,3째`), or digits right before a weekday name after 매월
  /// (`매월 2,4 일요일`, `매월 2/4 일요일`) or in a list that is no date (`2·4 일요일`, and
  /// `2/4 일요일` when 2/4 is not a Sunday in a year near the as-of date).
  private func isDigitOrdinalList(at index: Int) -> Bool {
    var next = index
    var separator: ClosingToken.Kind?
    while let digit = number(at: next), digit.digits == 1, next - index < 12 {
      next += 1
      if keyword(at: next) == .week || keyword(at: next) == .ordinalSuffix { return true }
      if let weekday = weekday(at: next) {
        if keyword(at: index - 1) == .everyMonth { return true }
        guard let separator else { return false }  // `3 일요일` alone
        guard separator == .symbol("/") || separator == .symbol("."), next - index == 3,
          let month = number(at: index), let day = number(at: index + 2)
        else { return true }
        return !((asOf.year - 1)...(asOf.year + 1)).contains {
          CalendarDate(year: $0, month: month.value, day: day.value)?.weekday == weekday
        }
      }
      guard isListSeparator(at: next) || symbol(at: next) == "." else { return false }
      // One list uses one separator: `3.4, 1 및 5번째` is a date and a list.
      if let separator, separator != tokens[next].kind { return false }
      separator = tokens[next].kind
      next += 1
    }
    return false
  }

  /// Reads `(수)`, `(수요일)`, `일요일`, `(추석당일)`, `설날 당일` after a date.
  private func readHints(at index: Int) -> (DateHints, Int) {
    var hints = DateHints()
    var next = index
    var open = false
    if symbol(at: next) == "(" {
      open = true
      next += 1
    }
    if let weekday = weekday(at: next) {
      hints.weekday = weekday
      next += 1
      if open, symbol(at: next) == ")" {
        next += 1
        open = false
        if symbol(at: next) == "(" {
          open = true
          next += 1
        }
      }
    }
    if case .holiday(let holiday)? = keyword(at: next) {
      next += 1
      var offsets: [Int] = []
      while case .offset(let values)? = keyword(at: next) {
        offsets += values
        next += 1
      }
      hints.holiday = LunarClosing(holiday: holiday, offsets: offsets.isEmpty ? [0] : offsets)
    }
    if open {
      if symbol(at: next) == ")" { next += 1 } else if hints.isEmpty { return (hints, index) }
    }
    return (hints, next)
  }

  /// Reads `13일` a few words after a month named alone (`12월 휴무일: 13일`) as a day of that
  /// month. Further on, a day alone is not taken to be in that month (`31일까지 세일`).
  private func readNamedMonthDay(at index: Int) -> (WrittenDate, Int)? {
    guard let named = namedMonth, (named.end...(named.end + 3)).contains(index),
      let day = number(at: index), day.digits <= 2, keyword(at: index + 1) == .day,
      CalendarDate(year: named.year ?? 2000, month: named.month, day: day.value) != nil
    else { return nil }
    return (WrittenDate(year: named.year, month: named.month, day: day.value), index + 2)
  }

  /// Whether `index` holds a day written alone after a date of the same month: `27` in
  /// `12/13, 27`, `12/13·27(일)` and `12/11,/25`, or `26일`; not an ordinal (`2,4번째`), a time
  /// (`10:00`, `6시`), a month (`1월`), a price (`3,000원`) or a word (`27번지`).
  private func isBareDay(at index: Int) -> Bool {
    guard let day = number(at: index), day.digits <= 2, !isDigitOrdinalList(at: index) else { return false }
    guard tokens.indices.contains(index + 1) else { return true }
    switch tokens[index + 1].kind {
    case .keyword(.week), .keyword(.ordinalSuffix), .keyword(.month), .keyword(.year): return false
    case .keyword(.time): return !isClockUnit(at: index + 1)  // `12/24, 25 오후 6시`
    case .symbol(let symbol):
      if symbol == ":" || symbol == "+" || symbol == "%" { return false }
      if symbol == "." { return number(at: index + 2) == nil }
      return !(symbol == "," && number(at: index + 2)?.digits == 3)
    case .other: return isParticle(at: index + 1)
    default: return true
    }
  }

  /// Reads a list of dates and ranges: `11/12(수), 11/26(수)`, `11월 12일(수)·26일(수)`,
  /// `12/11,/25`, `12/13, 27`, `12/24~12/26`, `20261108, 20261122`, and `13일, 27일` after a
  /// month named alone. `label` is the holiday the dates are said to be (`추석(9/25)`).
  ///
  /// Dates followed by opening hours (`12/24 10:00~22:00`, `1/1은 오후 1시 오픈`) are trading
  /// days with other hours, not closures.
  private mutating func readDateList(at index: Int, label: LunarClosing? = nil) -> Int? {
    guard let (firstDate, afterFirst) = readDate(at: index) ?? readNamedMonthDay(at: index) else { return nil }
    var items:
      [(start: WrittenDate, startHints: DateHints, end: WrittenDate?, endHints: DateHints, tokens: Range<Int>)] = []
    var current = firstDate
    var currentStart = index
    var next = afterFirst
    while true {
      let (hints, afterHints) = readHints(at: next)
      next = afterHints
      var rangeEnd: WrittenDate?
      var endHints = DateHints()
      if symbol(at: next) == "~" || symbol(at: next) == "-" || keyword(at: next) == .since {
        // 12/28~12/30, 12월 28일~30일, 11/30(월)-12/2(수), 12/28부터 12/30까지, 12/28부터~30일.
        var dash = next + 1
        if keyword(at: next) == .since, symbol(at: dash) == "~" || symbol(at: dash) == "-" { dash += 1 }
        if let (end, afterEnd) = readDate(at: dash) {
          rangeEnd = end
          next = afterEnd
        } else if let day = number(at: dash), day.digits <= 2, day.value >= current.day, day.value <= 31,
          symbol(at: dash + 1) != ":"
        {
          rangeEnd = WrittenDate(year: current.year, month: current.month, day: day.value)
          next = keyword(at: dash + 1) == .day ? dash + 2 : dash + 1
        }
        if rangeEnd != nil {
          (endHints, next) = readHints(at: next)
          if keyword(at: next) == .until { next += 1 }
        }
      }
      items.append((current, hints, rangeEnd, endHints, currentStart..<next))
      // Continue the list after separators.
      var probe = next
      while isListSeparator(at: probe), probe - next < 3 { probe += 1 }
      guard probe > next || number(at: probe) != nil else { break }
      currentStart = probe
      if let (date, afterDate) = readDate(at: probe) {
        current = date
        next = afterDate
      } else if probe > next, isBareDay(at: probe), let day = number(at: probe) {
        let base = rangeEnd ?? current
        current = WrittenDate(year: base.year, month: base.month, day: day.value)
        next = keyword(at: probe + 1) == .day ? probe + 2 : probe + 1
        guard CalendarDate(year: current.year ?? 2000, month: current.month, day: current.day) != nil else {
          warn("not a real date", probe, next)
          break
        }
      } else {
        break
      }
    }
    let withHours = hoursFollow(at: next)
    // 1/1 in a list of holidays (`1/1, 설날, 추석`) is New Year's Day every year.
    let inHolidayList =
      isHolidayWord(at: next) || (isListSeparator(at: next) && isHolidayWord(at: next + 1))
      || (isListSeparator(at: index - 1) && isHolidayWord(at: index - 2))
    var listed: [CalendarDate] = []
    for item in items {
      let isNewYearsDay = item.start.year == nil && item.start.month == 1 && item.start.day == 1
      if isNewYearsDay, item.end == nil, item.startHints.isEmpty, inHolidayList, !withHours {
        append(.newYear, end: next)
        continue
      }
      let span = item.tokens
      var hints = item.startHints
      if hints.holiday == nil { hints.holiday = label }
      guard let start = resolve(item.start, hints, from: span.lowerBound, to: span.upperBound)
      else { continue }
      guard let endWritten = item.end else {
        listed.append(start)
        continue
      }
      var endYear = endWritten.year ?? start.year
      var end = CalendarDate(year: endYear, month: endWritten.month, day: endWritten.day)
      if let candidate = end, candidate < start, endWritten.year == nil {
        endYear += 1
        end = CalendarDate(year: endYear, month: endWritten.month, day: endWritten.day)
      }
      guard let end, end >= start, end.dayNumber - start.dayNumber < Self.maximumRangeDays else {
        warn("date range not understood", span.lowerBound, span.upperBound)
        continue
      }
      if let weekday = item.endHints.weekday, weekday != end.weekday {
        warn("\(end.iso) is not a \(weekday.englishName)", span.lowerBound, span.upperBound)
      }
      for offset in 0...(end.dayNumber - start.dayNumber) { listed.append(start.adding(days: offset)) }
    }
    if withHours {
      warn("opening hours, a trading day and not a closure", index, next + 3)
      tradingDays.formUnion(listed)
    } else if !listed.isEmpty {
      append(.dates(listed), end: next)
      lastDateList = (listed, next)
    }
    return next
  }

  /// Whether `index` names a holiday: 설날, 추석, 명절, 신정.
  private func isHolidayWord(at index: Int) -> Bool {
    switch keyword(at: index) {
    case .holiday?, .festivals?, .newYear?: true
    default: false
    }
  }

  /// Picks the year of a written date: the one the text gives, else among the years around
  /// the as-of date those the weekday or holiday hint allows, the nearest to the as-of date.
  private mutating func resolve(_ written: WrittenDate, _ hints: DateHints, from start: Int, to end: Int)
    -> CalendarDate?
  {
    if let year = written.year {
      guard let date = CalendarDate(year: year, month: written.month, day: written.day) else {
        warn("not a real date", start, end)
        return nil
      }
      if let weekday = hints.weekday, weekday != date.weekday {
        warn("\(date.iso) is not a \(weekday.englishName)", start, end)
      }
      return date
    }
    let candidates = ((asOf.year - 1)...(asOf.year + 1)).compactMap {
      CalendarDate(year: $0, month: written.month, day: written.day)
    }
    let byDistance = candidates.sorted {
      abs($0.dayNumber - asOf.dayNumber) < abs($1.dayNumber - asOf.dayNumber)
    }
    guard let nearest = byDistance.first else {
      warn("not a real date", start, end)
      return nil
    }
    if hints.isEmpty { return nearest }
    let matching = byDistance.filter { date in
      if let weekday = hints.weekday, weekday != date.weekday { return false }
      if let holiday = hints.holiday {
        guard let day = KoreanLunarHolidays.date(of: holiday.holiday, inYear: date.year),
          holiday.offsets.contains(where: { day.adding(days: $0) == date })
        else { return false }
      }
      return true
    }
    if let match = matching.first { return match }
    warn("no year near \(asOf.iso) matches the weekday or holiday given; assumed \(nearest.year)", start, end)
    return nearest
  }

  // MARK: - Rules

  /// Reads ordinals: `둘째·넷째`, `2,4번째`, `제2, 4`, `제2·제4`, `첫째 셋째`, `1번째 3번째`,
  /// `둘째와 넷째`, `2주차, 4주차`, `2/4`. `marked` says whether a word marks them as ordinals
  /// (째, 번째, 주, 제) rather than bare digits. A list stops after six ordinals (1–5 and the
  /// last), so that a long run of digits is not read again from each of them.
  private func readOrdinals(at index: Int) -> (ordinals: [Int], marked: Bool, end: Int) {
    var ordinals: [Int] = []
    var marked = false
    var next = index
    while ordinals.count < 6 {
      if isOrdinalPrefix(at: next) {
        marked = true
        next += 1
      }
      if case .ordinal(let value)? = keyword(at: next) {
        ordinals.append(value)
        marked = true
        next += 1
      } else if let digit = number(at: next), digit.digits == 1, (1...5).contains(digit.value) {
        ordinals.append(digit.value)
        next += 1
        if keyword(at: next) == .ordinalSuffix {
          marked = true
          next += 1
        }
      } else {
        break
      }
      if keyword(at: next) == .week {
        marked = true
        next += 1
      }
      // Ordinals written side by side: 첫째 셋째, 1번째 3번째, 제2 제4.
      if case .ordinal? = keyword(at: next) { continue }
      if isOrdinalPrefix(at: next) { continue }
      if let digit = number(at: next), digit.digits == 1,
        keyword(at: next + 1) == .ordinalSuffix || keyword(at: next + 1) == .week
      {
        continue
      }
      guard isListSeparator(at: next) || symbol(at: next) == "." else { break }
      let following = next + 1
      if case .ordinal? = keyword(at: following) {
        next = following
      } else if isOrdinalPrefix(at: following) {
        next = following
      } else if let digit = number(at: following), digit.digits == 1 {
        next = following
      } else {
        break
      }
    }
    return (ordinals, marked, next)
  }

  /// Whether `제` stands at `index` before a digit that can be an ordinal (`제2`).
  private func isOrdinalPrefix(at index: Int) -> Bool {
    guard keyword(at: index) == .ordinalPrefix, let digit = number(at: index + 1) else { return false }
    return digit.digits == 1 && (1...5).contains(digit.value)
  }

  /// Reads `둘째·넷째 일요일`, `2,4번째 일요일`, `제2, 4 일요일`, `첫째 셋째 화요일`,
  /// `1번째 3번째 토요일`, `둘째와 넷째 일요일`, `둘째,넷째주 수요일, 일요일`, `매월 2,4 일요일`,
  /// `2,4번째 (일)`. Right after a month named alone (`12월은 셋째 일요일`) the rule is that
  /// month's only.
  private mutating func readOrdinalRule(at index: Int) -> Int? {
    let (ordinals, marked, next) = readOrdinals(at: index)
    guard !ordinals.isEmpty, marked || isDigitOrdinalList(at: index) else { return nil }
    var weekdays = readWeekdays(at: next)
    if weekdays.days.isEmpty, symbol(at: next) == "(" {
      // 둘째, 넷째 (일요일), 2,4번째 (일).
      let inner = readWeekdays(at: next + 1)
      if !inner.days.isEmpty, symbol(at: inner.end) == ")" { weekdays = (inner.days, inner.end + 1) }
    }
    guard !weekdays.days.isEmpty else {
      warn("ordinal without a weekday ignored", index, next)
      return next
    }
    if let named = namedMonth, named.end == index,
      let month = named.year.flatMap({ CalendarDate(year: $0, month: named.month, day: 1) })
        ?? monthOnOrAfterAsOf(named.month)
    {
      let dates = weekdays.days.flatMap {
        ClosingRule.nthWeekday(ordinals: ordinals, weekday: $0).dates(inMonthStarting: month)
      }
      append(.monthDays(month: month, dates: dates), end: weekdays.end)
    } else {
      append(.nthWeekday(ordinals: ordinals, weekdays: weekdays.days), end: weekdays.end)
    }
    return weekdays.end
  }

  /// Reads a weekday with its ordinals in brackets after it: `일요일(둘째,넷째)`,
  /// `일요일 (2·4주)`.
  private mutating func readWeekdayFirstRule(at index: Int) -> Int? {
    let weekdays = readWeekdays(at: index)
    guard symbol(at: weekdays.end) == "(" else { return nil }
    let (ordinals, marked, end) = readOrdinals(at: weekdays.end + 1)
    guard !ordinals.isEmpty, marked, symbol(at: end) == ")" else { return nil }
    append(.nthWeekday(ordinals: ordinals, weekdays: weekdays.days), end: end + 1)
    return end + 1
  }

  /// The first day of `month`: in `year` when given, else in the year around the as-of date
  /// that puts the month nearest to it.
  private func resolveMonth(year: Int?, month: Int) -> CalendarDate? {
    if let year { return CalendarDate(year: year, month: month, day: 1) }
    func distance(_ start: CalendarDate) -> Int {
      if asOf < start { return start.dayNumber - asOf.dayNumber }
      return max(0, asOf.dayNumber - start.lastOfMonth.dayNumber)
    }
    return ((asOf.year - 1)...(asOf.year + 1)).compactMap { CalendarDate(year: $0, month: month, day: 1) }
      .min { distance($0) < distance($1) }
  }

  /// The first day of the next `month` on or after the as-of month (`12월은 셋째 일요일`).
  private func monthOnOrAfterAsOf(_ month: Int) -> CalendarDate? {
    CalendarDate(year: month >= asOf.month ? asOf.year : asOf.year + 1, month: month, day: 1)
  }

  /// Reads `수요일, 일요일`, `수요일 및 일요일`, `수요일과 일요일`, `월·화요일`, `토, 일요일`.
  private func readWeekdays(at index: Int) -> (days: [Weekday], end: Int) {
    var days: [Weekday] = []
    var next = index
    while let day = weekday(at: next) {
      days.append(day)
      next += 1
      if isListSeparator(at: next), weekday(at: next + 1) != nil { next += 1 }
    }
    return (days, next)
  }

  /// Reads one-character weekday names written alone: `월/화`, `토·일` (after 매주).
  private func readShortWeekdays(at index: Int) -> (days: [Weekday], end: Int) {
    func shortWeekday(at index: Int) -> Weekday? {
      guard tokens.indices.contains(index), tokens[index].kind == .other,
        tokens[index].end - tokens[index].start == 1
      else { return nil }
      return ClosingTextScanner.shortWeekday(scalars[tokens[index].start])
    }
    var days: [Weekday] = []
    var next = index
    while let day = shortWeekday(at: next) {
      days.append(day)
      next += 1
      guard isListSeparator(at: next), shortWeekday(at: next + 1) != nil else { break }
      next += 1
    }
    return (days, next)
  }

  /// Reads `매주 월요일`, `매주 월/화`.
  private mutating func readWeekly(at index: Int) -> Int {
    var weekdays = readWeekdays(at: index + 1)
    if weekdays.days.isEmpty { weekdays = readShortWeekdays(at: index + 1) }
    if !weekdays.days.isEmpty { append(.weekly(weekdays.days), end: weekdays.end) }
    return weekdays.end
  }

  /// Reads `10일, 25일` after `매월`.
  private mutating func readDaysOfMonth(at index: Int) -> Int? {
    var days: [Int] = []
    var next = index
    while let day = number(at: next), day.digits <= 2, (1...31).contains(day.value),
      keyword(at: next + 1) == .day
    {
      days.append(day.value)
      next += 2
      guard isListSeparator(at: next), number(at: next + 1) != nil else { break }
      next += 1
    }
    guard !days.isEmpty else { return nil }
    append(.daysOfMonth(days), end: next)
    return next
  }

  /// Reads `설·추석 당일`, `설날 연휴`, `추석 전날, 당일, 다음날`, `신정`, `설날과 추석`, and a bare
  /// `명절` (설날 and 추석, with a warning). Leaves `(전일은 오후 7시까지 영업)` alone: it speaks
  /// of opening hours on the day before, not of a closure; `설 전날 오후 5시까지 영업` names no
  /// closure at all. A holiday before dates in brackets (`추석(9/25)`, `설 연휴(1/28~1/30)`)
  /// labels them, as one after a date does (`9/25(추석)`).
  private mutating func readHolidays(at index: Int) -> Int {
    var holidays: [LunarHoliday] = []
    var newYear = false
    var next = index
    while true {
      switch keyword(at: next) {
      case .holiday(let holiday)?: if !holidays.contains(holiday) { holidays.append(holiday) }
      case .newYear?: newYear = true
      case .festivals?:
        if holidays.isEmpty && !newYear {
          holidays = [.seollal, .chuseok]
          warn("명절 read as 설날 and 추석", next, next + 1)
        }
      default: break
      }
      next += 1
      // 설 명절, 추석 명절: 명절 is the noun of the holiday before it.
      if keyword(at: next) == .festivals, !holidays.isEmpty { next += 1 }
      guard isListSeparator(at: next), isHolidayWord(at: next + 1) else {
        if isHolidayWord(at: next) { continue }  // 설 추석 연휴
        break
      }
      next += 1
    }
    var offsets: Set<Int> = []
    var probe = symbol(at: next) == "(" ? next + 1 : next
    while case .offset(let values)? = keyword(at: probe) {
      if isAboutOpeningHours(from: probe + 1) {
        if offsets.isEmpty, probe == next {
          // 설 전날 오후 5시까지 영업: a trading day with other hours.
          warn("opening hours, a trading day and not a closure", index, probe + 4)
          return next
        }
        break
      }
      offsets.formUnion(values)
      next = probe + 1
      if symbol(at: next) == ")", symbol(at: probe - 1) == "(" { next += 1 }
      probe = isListSeparator(at: next) ? next + 1 : next
    }
    if !holidays.isEmpty, !newYear, let condition = conditionInClause(from: next) {
      // 명절과 겹칠 경우 익일 휴무: the rules' days may move off the holidays.
      shifts.append((.lunar(holidays), shiftOffsets(from: condition)))
      warn(
        "a holiday shift not understood; the rules' days on the holidays and the days they may move to are unknown",
        index, clauseEnd(from: index))
      return clauseEnd(from: next)
    }
    if holidays.count == 1, !newYear, symbol(at: next) == "(", number(at: next + 1) != nil,
      let end = readDateList(
        at: next + 1, label: LunarClosing(holiday: holidays[0], offsets: offsets.isEmpty ? [0] : offsets.sorted()))
    {
      return symbol(at: end) == ")" ? end + 1 : end
    }
    if !holidays.isEmpty { append(.lunar(holidays, offsets: offsets.isEmpty ? [0] : offsets), end: next) }
    if newYear { append(.newYear, end: next) }
    return next
  }

  /// Whether the words after a 전일/당일 up to the end of the clause speak of opening hours.
  private func isAboutOpeningHours(from index: Int) -> Bool {
    var probe = index
    while probe < tokens.count, probe < index + 8 {
      switch tokens[probe].kind {
      case .keyword(.time), .keyword(.until), .symbol(":"): return true
      case .keyword(.closure), .keyword(.offset), .keyword(.business), .keyword(.normalOpen), .symbol(")"),
        .symbol(","):
        return false
      default: probe += 1
      }
    }
    return false
  }

  // MARK: - Substitutions and a rule's own dates

  /// Reads `대신` or `→` right after dates (and their verb): `12/27(일) 대신 12/25(금) 휴무`,
  /// `12/27(일) → 12/30(수)`, `12/13 휴무 → 12/16 휴무로 변경`. The dates before it give way to
  /// those after it: they are open, even if a verb already closed them.
  private mutating func readSubstitution(at index: Int) -> Int {
    guard let last = lastDateList, last.end <= index, index - last.end <= 2,
      (last.end..<index).allSatisfy({ keyword(at: $0) == .closure })
    else { return index + 1 }
    if pendingEnd == last.end, case .dates? = pending.last { pending.removeLast() }
    opened.dates.formUnion(last.dates)
    lastDateList = nil
    return index + 1
  }

  /// Whether the `(` at `index` opens dates right after a rule: `매월 둘째 일요일 (11/15, 11/29)`.
  private func isRuleBracket(at index: Int) -> Bool {
    guard let last = pending.last, last.isRecurring, pendingEnd == index else { return false }
    return number(at: index + 1) != nil
  }

  /// Reads dates in brackets right after a rule. Alone in the brackets (or with a closing verb)
  /// they are the days the site lists for the rule (see `makeSchedule()`); with other words
  /// (`(12/13·27 정상영업)`) they are dates like any other.
  private mutating func readRuleDates(at index: Int) -> Int {
    let start = endClause(at: index)
    guard let end = readDateList(at: start) else { return start }
    let alone = symbol(at: end) == ")" || (keyword(at: end) == .closure && symbol(at: end + 1) == ")")
    if alone, pendingEnd == end, case .dates(let dates)? = pending.last {
      pending[pending.count - 1] = .ruleDates(dates)
    }
    return end
  }

  // MARK: - Conditions the engine does not read

  /// The token that ends the clause starting at `index`: a clause break, `단`, or twelve tokens on.
  private func clauseEnd(from index: Int) -> Int {
    var probe = index
    while probe < tokens.count, probe < index + 12 {
      if case .symbol(let symbol) = tokens[probe].kind, Self.clauseBreaks.contains(symbol) { return probe }
      if keyword(at: probe) == .however { return probe }
      probe += 1
    }
    return probe
  }

  /// The first condition word (`경우`, `겹칠`), or with `orOffset` day offset (`익일`), from
  /// `index` to the end of its clause.
  private func conditionInClause(from index: Int, orOffset: Bool = false) -> Int? {
    (index..<clauseEnd(from: index)).first { probe in
      switch keyword(at: probe) {
      case .condition?: true
      case .offset?: orOffset
      default: false
      }
    }
  }

  /// The days a shifted closing day may move to, from the offsets in the clause at `index`
  /// (`익일` +1, `전일` -1); without one, the day before and the day after.
  private func shiftOffsets(from index: Int) -> Set<Int> {
    var offsets = Set<Int>()
    for probe in index..<clauseEnd(from: index) {
      if case .offset(let values)? = keyword(at: probe) { offsets.formUnion(values) }
    }
    offsets.remove(0)
    return offsets.isEmpty ? [-1, 1] : offsets
  }

  /// Reads `공휴일`: a condition (`공휴일인 경우 익일 휴무`) makes the rules' days on public
  /// holidays, and the days they may move to, uncertain; an opening (`공휴일 정상영업`) makes the
  /// rules' days on public holidays uncertain; named as days (`매주 월요일 및 공휴일 휴무`), every
  /// public holiday is uncertain. Each gives a warning.
  private mutating func readPublicHolidays(at index: Int) -> Int {
    let end = clauseEnd(from: index)
    if let condition = conditionInClause(from: index + 1, orOffset: true) {
      shifts.append((.publicHolidays, shiftOffsets(from: condition)))
      warn(
        "a public-holiday shift not understood; the rules' days on public holidays and the days they may move to"
          + " are unknown", index, end)
      return end
    }
    let opens = (index + 1..<end).contains { probe in
      switch keyword(at: probe) {
      case .business?, .normalOpen?, .restless?: true
      default: false
      }
    }
    if opens {
      shifts.append((.publicHolidays, []))
      warn("public holidays not read; the rules' days on them are unknown", index, end)
    } else {
      publicHolidaysNamed = true
      warn("public holidays not read; they are unknown", index, end)
    }
    return index + 1
  }

  /// Reads `격주`: the weekdays after it (`격주 일요일`) or of the weekly rule before it
  /// (`매주 일요일 격주 휴무`) close every other week, which ones unknown: all are uncertain.
  private mutating func readAlternateWeeks(at index: Int) -> Int {
    let after = readWeekdays(at: index + 1)
    var end = index + 1
    if !after.days.isEmpty {
      alternateWeekdays.formUnion(after.days)
      end = after.end
    } else if case .weekly(let days)? = pending.last {
      alternateWeekdays.formUnion(days)
    } else if !closed.weekly.isEmpty {
      alternateWeekdays.formUnion(closed.weekly)
    }
    warn("every other week (격주) not understood; those days are unknown", index, end)
    return end
  }

  /// Makes the days the text cannot tell uncertain, over the horizon: the rules' days on
  /// holidays they may move off, public holidays named as days, and alternate weeks. A
  /// recurring rule then speaks of the horizon only.
  private func addUncertainDays(to schedule: inout ClosingSchedule, lastOpened: [Weekday: Set<Int>]) {
    let horizon = ClosingSchedule.horizon(asOf: asOf)
    var uncertain = Set<CalendarDate>()
    var extraExceptions = Set<CalendarDate>()
    if !lastOpened.isEmpty {
      // 매주 일요일 휴무 (단, 마지막 일요일은 정상영업): the opened Sundays of each month.
      var month = horizon.from
      while month <= horizon.through {
        for (weekday, ordinals) in lastOpened {
          extraExceptions.formUnion(
            ClosingRule.nthWeekday(ordinals: ordinals.sorted(), weekday: weekday).dates(inMonthStarting: month))
        }
        month = month.firstOfMonth(addingMonths: 1)
      }
    }
    if schedule.status != .unknown {
      let ruleDays = Set(schedule.closedDates(from: horizon.from, through: horizon.through))
        .subtracting(schedule.dates)
      let publicHolidays = Set(KoreanPublicHolidays.dates(from: horizon.from, through: horizon.through))
      for shift in shifts {
        let holidays: Set<CalendarDate>
        switch shift.holidays {
        case .publicHolidays: holidays = publicHolidays
        case .lunar(let names):
          holidays = Set(
            (horizon.from.year...horizon.through.year).flatMap { year in
              names.compactMap { KoreanLunarHolidays.date(of: $0, inYear: year) }.flatMap { day in
                (-1...1).map { day.adding(days: $0) }
              }
            })
        }
        for day in ruleDays.intersection(holidays) {
          uncertain.insert(day)
          for offset in shift.offsets { uncertain.insert(day.adding(days: offset)) }
        }
      }
      if publicHolidaysNamed { uncertain.formUnion(publicHolidays) }
      if !alternateWeekdays.isEmpty {
        var day = horizon.from
        while day <= horizon.through {
          if alternateWeekdays.contains(day.weekday) { uncertain.insert(day) }
          day = day.adding(days: 1)
        }
      }
    }
    uncertain = uncertain.filter(horizon.contains)
    guard !uncertain.isEmpty || !extraExceptions.isEmpty else { return }
    if schedule.coverage == nil {
      schedule.coverage = schedule.coversEveryDay ? [horizon] : schedule.coveredMonths
    }
    schedule.exceptions = Set(schedule.exceptions).union(extraExceptions.subtracting(schedule.dates)).sorted()
    schedule.uncertain = DateWindow.merged(
      uncertain.subtracting(schedule.dates).map { DateWindow(from: $0, through: $0) })
  }

  // MARK: - Result

  private consuming func makeSchedule() -> ClosingSchedule {
    var rules: [ClosingRule] = []
    // 격주 일요일: no Sunday is known to close.
    closed.weekly.subtract(alternateWeekdays)
    var weeklyAsOrdinals = Set<Weekday>()
    var lastOpened: [Weekday: Set<Int>] = [:]
    for weekday in Weekday.allCases where !opened.weekly.contains(weekday) {
      let openOrdinals = opened.ordinalsByWeekday[weekday] ?? []
      var ordinals = closed.ordinalsByWeekday[weekday] ?? []
      if closed.weekly.contains(weekday), !openOrdinals.isEmpty {
        if openOrdinals.contains(-1) {
          // The last Sunday is the 4th or the 5th: the opened days become exceptions over the horizon.
          lastOpened[weekday] = openOrdinals
        } else {
          // 매주 일요일 휴무 (단, 둘째 일요일은 정상영업): every Sunday but the second.
          ordinals = [1, 2, 3, 4, 5]
          weeklyAsOrdinals.insert(weekday)
        }
      }
      ordinals.subtract(openOrdinals)
      if !ordinals.isEmpty {
        rules.append(
          .nthWeekday(ordinals: ordinals.sorted { ($0 == -1 ? 99 : $0) < ($1 == -1 ? 99 : $1) }, weekday: weekday))
      }
    }
    rules += Weekday.allCases.filter {
      closed.weekly.contains($0) && !opened.weekly.contains($0) && !weeklyAsOrdinals.contains($0)
    }.map { .weekly($0) }
    let monthDays = closed.monthDays.subtracting(opened.monthDays)
    if !monthDays.isEmpty { rules.append(.dayOfMonth(monthDays.sorted())) }
    if closed.newYear && !opened.newYear { rules.append(.annual(month: 1, day: 1)) }
    let exceptions = opened.dates.union(opened.ruleDates).union(opened.monthScoped.values.joined())
    let explicit = closed.dates.subtracting(exceptions).sorted()
    let lunar = LunarHoliday.allCases.compactMap { holiday -> LunarClosing? in
      guard let offsets = closed.lunarOffsets[holiday]?.subtracting(opened.lunarOffsets[holiday] ?? []),
        !offsets.isEmpty
      else { return nil }
      return LunarClosing(holiday: holiday, offsets: offsets.sorted())
    }
    let lunarExceptions = LunarHoliday.allCases.compactMap { holiday in
      opened.lunarOffsets[holiday].map { LunarClosing(holiday: holiday, offsets: $0.sorted()) }
    }
    if !lunar.isEmpty || !lunarExceptions.isEmpty, !KoreanLunarHolidays.years.contains(asOf.year) {
      warn(
        "lunar holidays are known for \(KoreanLunarHolidays.years.lowerBound)–"
          + "\(KoreanLunarHolidays.years.upperBound) only")
    }
    let status: ClosingStatus
    if !rules.isEmpty || !explicit.isEmpty || !lunar.isEmpty || !closed.ruleDates.isEmpty
      || !closed.monthScoped.isEmpty
    {
      status = .closures
      if saysOpenAllYear { warn("text says open all year but also names closing days") }
    } else if saysOpenAllYear {
      status = .openAllYear
    } else {
      status = .unknown
      warn("no closing days understood")
    }
    if droppedWarnings > 0 { warnings.append("\(droppedWarnings) more warnings") }
    var schedule = ClosingSchedule(
      status: status, rules: rules, dates: explicit, lunar: lunar, exceptions: exceptions.sorted(),
      lunarExceptions: lunarExceptions, text: text, warnings: warnings)
    // 12월은 셋째 일요일: in its month the scoped rule's days replace the other rules' days (all
    // months at once, each month's days being in that month).
    if !closed.monthScoped.isEmpty {
      schedule = schedule.replacingRuleDays(
        inMonths: closed.monthScoped.keys.sorted(),
        with: Set(closed.monthScoped.values.joined()).subtracting(exceptions))
    }
    // 매월 둘째 일요일 (11/15, 11/29): the rule's own dates as the site lists them. Sites list
    // the next closing days ("(11/22, 12/13)" as of 11/20 says nothing against 12/27), so dates
    // that agree with the rules only confirm them. Where one is not a rule day, the list is
    // taken as authoritative from the first of its first month to its last date: the rules'
    // days there that it leaves out give way, with a warning; later rule days stay.
    let ruleDates = closed.ruleDates.subtracting(exceptions)
    if let first = ruleDates.min(), let last = ruleDates.max() {
      let span = first.firstOfMonth()
      let fromRules = Set(schedule.closedDates(from: span, through: last)).subtracting(schedule.dates)
      if !ruleDates.isSubset(of: fromRules.union(schedule.dates)) {
        let leftOut = fromRules.subtracting(ruleDates)
        schedule.warnings.append(
          "the dates in brackets \(ClosingSchedule.listed(ruleDates)) differ from the rule's "
            + "\(ClosingSchedule.listed(fromRules)) from \(span) to \(last);"
            + " the dates in brackets are used there")
        schedule.exceptions = Set(schedule.exceptions).union(leftOut).sorted()
      }
      schedule.dates = Set(schedule.dates).union(ruleDates).sorted()
    }
    // A trading day with other hours is open even where a rule or holiday closes.
    let closingDates = Set(schedule.dates)
    let traded = tradingDays.filter {
      !closingDates.contains($0) && !schedule.closedDates(from: $0, through: $0).isEmpty
    }
    if !traded.isEmpty { schedule.exceptions = Set(schedule.exceptions).union(traded).sorted() }
    if schedule.status == .closures, !schedule.coversEveryDay, coverage != .wholeMonths {
      // Explicit dates of a source that lists its next closing days speak of those days only; a
      // month's own rule speaks of its month.
      let scopedMonths = Set(closed.monthScoped.keys).union(opened.monthScoped.keys)
        .map { DateWindow(from: $0, through: $0.lastOfMonth) }
      schedule.coverage = DateWindow.merged(
        coverage.ranges(for: schedule.dates + schedule.exceptions, asOf: asOf) + scopedMonths)
    }
    if schedule.status == .unknown {
      addOpenedRuleDays(to: &schedule)
    }
    addUncertainDays(to: &schedule, lastOpened: lastOpened)
    return schedule
  }

  /// A text that opens rule days and closes none (`매월 둘째 일요일 오후 6시까지 영업`): those
  /// days, over the horizon, are known trading days (exceptions) and the rest stays unknown.
  private func addOpenedRuleDays(to schedule: inout ClosingSchedule) {
    var rules: [ClosingRule] = opened.ordinalsByWeekday.sorted { $0.key < $1.key }.map {
      .nthWeekday(ordinals: $0.value.sorted(), weekday: $0.key)
    }
    rules += opened.weekly.sorted().map { .weekly($0) }
    if !opened.monthDays.isEmpty { rules.append(.dayOfMonth(opened.monthDays.sorted())) }
    guard !rules.isEmpty else { return }
    let horizon = ClosingSchedule.horizon(asOf: asOf)
    let days = ClosingSchedule(status: .closures, rules: rules, text: nil)
      .closedDates(from: horizon.from, through: horizon.through)
    schedule.exceptions = Set(schedule.exceptions).union(days).sorted()
    schedule.coverage = DateWindow.merged(days.map { DateWindow(from: $0, through: $0) })
  }
}
