// Numbers: dates, times, digit ordinals.

extension ClosingClauseParser {
  // MARK: - Numbers: dates, times, digit ordinals

  mutating func readNumber(at index: Int) -> Int {
    let isTime =
      (tokens.symbol(at: index + 1) == ":" && tokens.number(at: index + 2) != nil)
      || (tokens.symbol(at: index - 1) == ":" && tokens.number(at: index - 2) != nil)
    if isTime { return skipTime(at: index) }
    if let end = readDateList(at: index) { return end }
    if let end = readOrdinalRule(at: index) { return end }
    if let end = readMonthName(at: index) { return end }
    if tokens.keyword(at: index + 1) == .day {
      warn("day without a month ignored", index, index + 2)
      return index + 2
    }
    return index + 1
  }

  /// Reads a month named without a day, `12월`, `2026년 12월`, with a particle or colon after it:
  /// days written alone after it (`12월 휴무일: 13일, 27일`) fall in it, and a rule right after it
  /// is scoped to it (`12월은 셋째 일요일`).
  mutating func readMonthName(at index: Int) -> Int? {
    var year: Int?
    var monthIndex = index
    if let first = tokens.number(at: index), first.digits == 4, tokens.keyword(at: index + 1) == .year {
      year = first.value
      monthIndex = index + 2
    }
    guard let month = tokens.number(at: monthIndex), month.digits <= 2, (1...12).contains(month.value),
      tokens.keyword(at: monthIndex + 1) == .month
    else { return nil }
    return nameMonth(WrittenMonth(year: year, month: month.value), from: index, end: monthIndex + 2)
  }

  /// Reads a month named relative to the notice's date (the as-of date): `이달`, `이번 달`, `금월`
  /// (its month), `내달`, `다음 달`, `익월` (the next), `지난달` (the one before), and `같은 달`
  /// (the month named last, else the as-of month), as `12월` is read.
  mutating func readRelativeMonth(_ offset: Int?, at index: Int) -> Int {
    let month: WrittenMonth
    if let offset {
      let first = asOf.firstOfMonth(addingMonths: offset)
      month = WrittenMonth(year: first.year, month: first.month)
    } else {
      month = namedMonth?.month ?? WrittenMonth(year: asOf.year, month: asOf.month)
    }
    return nameMonth(month, from: index, end: index + 1)
  }

  /// Names `month`, written from `index` to `end`: `12월부터` is the day a change applies from;
  /// otherwise its particle, a closing noun (`12월 휴무일은`) and a colon are read with it, and
  /// days written alone a few words later fall in it. With a closing noun or a colon the words
  /// head the month's closing days (`12월 휴무일: 13일, 27일`, `이달 휴무일은 13일과 27일`): the
  /// days listed right after them are all the month's, so the month is known.
  mutating func nameMonth(_ month: WrittenMonth, from index: Int, end start: Int) -> Int {
    if let applies = readAppliesFromMonth(month, from: index, end: start) { return applies }
    var end = start
    var whole = false
    if tokens.isParticle(at: end) { end += 1 }
    // 5월 대부분 마트의 휴점일은 12일과 26일이다: up to three words before the heading's noun.
    var noun = end
    while noun - end < 3, tokens.indices.contains(noun), tokens[noun].kind == .other { noun += 1 }
    if noun > end, tokens.keyword(at: noun) == .closure,
      tokens.isParticle(at: noun + 1) || tokens.isTopicParticle(at: noun + 1) || tokens.symbol(at: noun + 1) == ":"
        || (tokens.isWord(at: noun + 1, in: Self.headingWords) && tokens.symbol(at: noun + 2) == ":")
    {
      end = noun
    }
    // 12월 휴무일 : 둘째·넷째 일요일: the heading's noun, maybe with a particle (`휴무일은`).
    if tokens.keyword(at: end) == .closure, tokens.keyword(at: end + 1) != ClosingKeyword.none {
      end += 1
      whole = true
      if tokens.isParticle(at: end) || tokens.isTopicParticle(at: end) { end += 1 }
    }
    // 12월 정기휴무 안내: 14일, 28일: the heading's noun and a word naming the notice before its colon.
    if tokens.keyword(at: end) == .closure, tokens.isWord(at: end + 1, in: Self.headingWords),
      tokens.symbol(at: end + 2) == ":"
    {
      end += 2
    }
    if tokens.symbol(at: end) == ":" {
      end += 1
      whole = true
    }
    namedMonth = (month, end, whole)
    return end
  }

  /// Skips `10:00`, `10:00~23:00`, `10:00 - 22:00`.
  func skipTime(at index: Int) -> Int {
    var next = index
    while tokens.number(at: next) != nil || tokens.symbol(at: next) == ":" { next += 1 }
    if let dash = tokens.symbol(at: next), dash == "~" || dash == "-", tokens.number(at: next + 1) != nil,
      tokens.symbol(at: next + 2) == ":"
    {
      next += 1
      while tokens.number(at: next) != nil || tokens.symbol(at: next) == ":" { next += 1 }
    }
    return next
  }

  /// Reads one written date at `index`: `YYYYMMDD`, `YYYY-MM-DD`, `YYYY.MM.DD`, `YYYY년 M월 D일`,
  /// `M/D`, `M.D`, `M월 D일`.
  mutating func readDate(at index: Int) -> (WrittenDate, Int)? {
    guard let first = tokens.number(at: index), !isDigitOrdinalList(at: index) else { return nil }
    var written: WrittenDate
    var next: Int
    if first.digits == 8 {
      written = WrittenDate(year: first.value / 10000, month: first.value / 100 % 100, day: first.value % 100)
      next = index + 1
    } else if first.digits == 4, let separator = tokens.symbol(at: index + 1),
      separator == "-" || separator == "." || separator == "/",
      let month = tokens.number(at: index + 2), month.digits <= 2, tokens.symbol(at: index + 3) == separator,
      let day = tokens.number(at: index + 4), day.digits <= 2
    {
      written = WrittenDate(year: first.value, month: month.value, day: day.value)
      next = index + 5
    } else if first.digits == 4, tokens.keyword(at: index + 1) == .year, let month = tokens.number(at: index + 2),
      tokens.keyword(at: index + 3) == .month, let day = tokens.number(at: index + 4)
    {
      written = WrittenDate(year: first.value, month: month.value, day: day.value)
      next = tokens.keyword(at: index + 5) == .day ? index + 6 : index + 5
    } else if first.digits <= 2, let separator = tokens.symbol(at: index + 1), separator == "/" || separator == ".",
      let day = tokens.number(at: index + 2), day.digits <= 2
    {
      // `1.2.3` is a version or an outline number, not a date.
      if separator == ".", tokens.symbol(at: index + 3) == ".", tokens.number(at: index + 4) != nil { return nil }
      written = WrittenDate(year: nil, month: first.value, day: day.value)
      next = index + 3
    } else if first.digits <= 2, tokens.keyword(at: index + 1) == .month, let day = tokens.number(at: index + 2),
      day.digits <= 2, tokens.keyword(at: index + 3) == .day || tokens.symbol(at: index + 3) != ":"
    {
      written = WrittenDate(year: nil, month: first.value, day: day.value)
      next = tokens.keyword(at: index + 3) == .day ? index + 4 : index + 3
    } else {
      return nil
    }
    // The official style ends each part with a dot: `2026. 12. 7.(월) ~ 12. 10.(목)`.
    if tokens.symbol(at: next) == ".", tokens.symbol(at: next - 2) == ".",
      let after = tokens.symbol(at: next + 1), after == "(" || after == "~" || after == "-" || after == ","
    {
      next += 1
    }
    // `2.4주`, `2/4째` are ordinals; `10.5%`, `3.5시` are not dates (`12/24 오후 6시` is one).
    switch tokens.keyword(at: next) {
    case .week?, .ordinalSuffix?: return nil
    case .time? where tokens.isClockUnit(at: next): return nil
    default: break
    }
    if let symbol = tokens.symbol(at: next), symbol == "%" || symbol == ":" { return nil }
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
  func isDigitOrdinalList(at index: Int) -> Bool {
    var next = index
    var separator: ClosingToken.Kind?
    while let digit = tokens.number(at: next), digit.digits == 1, next - index < 12 {
      next += 1
      if tokens.keyword(at: next) == .week || tokens.keyword(at: next) == .ordinalSuffix { return true }
      if let weekday = tokens.weekday(at: next) {
        if tokens.keyword(at: index - 1) == .everyMonth { return true }
        guard let separator else { return false }  // `3 일요일` alone
        guard separator == .symbol("/") || separator == .symbol("."), next - index == 3,
          let month = tokens.number(at: index), let day = tokens.number(at: index + 2)
        else { return true }
        return !((asOf.year - 1)...(asOf.year + 1)).contains {
          CalendarDate(year: $0, month: month.value, day: day.value)?.weekday == weekday
        }
      }
      guard tokens.isListSeparator(at: next) || tokens.symbol(at: next) == "." else { return false }
      // One list uses one separator: `3.4, 1 및 5번째` is a date and a list.
      if let separator, separator != tokens[next].kind { return false }
      separator = tokens[next].kind
      next += 1
    }
    return false
  }

  /// Reads `(수)`, `(수요일)`, `일요일`, `(추석당일)`, `설날 당일` after a date.
  func readHints(at index: Int) -> (DateHints, Int) {
    var hints = DateHints()
    var next = index
    var open = false
    if tokens.symbol(at: next) == "(" {
      open = true
      next += 1
    }
    let listedWeekday =
      open && (tokens.symbol(at: next + 1) == "," || tokens.symbol(at: next + 1) == "·")
      ? tokens.shortWeekday(at: next) : nil
    if let weekday = tokens.weekday(at: next) ?? listedWeekday {
      hints.weekday = weekday
      next += 1
      if open, tokens.symbol(at: next) == ")" {
        next += 1
        open = false
        if tokens.symbol(at: next) == "(" {
          open = true
          next += 1
        }
      } else if open, tokens.symbol(at: next) == "," || tokens.symbol(at: next) == "·",
        case .holiday? = tokens.keyword(at: next + 1)
      {
        next += 1  // (일, 설 당일)
      }
    }
    if case .holiday(let holiday)? = tokens.keyword(at: next) {
      next += 1
      var offsets: [Int] = []
      while case .offset(let values)? = tokens.keyword(at: next) {
        offsets += values
        next += 1
      }
      hints.holiday = LunarClosing(holiday: holiday, offsets: offsets.isEmpty ? [0] : offsets)
    }
    if open {
      if tokens.symbol(at: next) == ")" { next += 1 } else if hints.isEmpty { return (hints, index) }
    }
    return (hints, next)
  }

  /// How far ahead `오는 N일` may roll over into next month (a notice of the month's last weeks
  /// speaks of the next month's first days).
  static let nearFutureDays = 14

  /// Words that name a notice after its heading's noun (`12월 정기휴무 안내:`).
  static let headingWords = ["안내", "공지", "알림", "일정", "안내드립니다"]

  /// Reads `13일` a few words after a month named alone (`12월 휴무일: 13일`) as a day of that
  /// month. Further on, a day alone is not taken to be in that month (`31일까지 세일`). `오는 14일`
  /// is the next 14th on or after the notice's date (the as-of date), as the press writes it.
  func readNamedMonthDay(at index: Int) -> (WrittenDate, Int)? {
    if index > 0, tokens.isWord(at: index - 1, in: ["오는"]), let day = tokens.number(at: index), day.digits <= 2,
      tokens.keyword(at: index + 1) == .day
    {
      // 오는 8일까지 할인 프로모션을 진행한다: the last day of a sale, not a closure.
      if !hasNoticeWords, isSpanEnd(at: index + 2) { return nil }
      let thisMonth = asOf.firstOfMonth()
      let month = day.value >= asOf.day ? thisMonth : thisMonth.firstOfMonth(addingMonths: 1)
      guard let date = CalendarDate(year: month.year, month: month.month, day: day.value) else { return nil }
      // A day already past rolls over to next month only when that is near: a notice read weeks
      // after it was written (`오는 5일` as of the 11th) names a day of its own month, now unknown.
      guard date <= asOf.adding(days: Self.nearFutureDays) else { return nil }
      return (WrittenDate(year: month.year, month: month.month, day: day.value), index + 2)
    }
    if let day = readDayAfterADate(at: index) { return day }
    // In a notice (변경, 기존, 에서 after a day) a day alone is in the month it names, however far
    // on: `12월 의무휴업일을 … 13일에서 16일로 변경하고, … 27일은 그대로 유지`.
    // Under a heading that lists the month's closing days (`12월 휴무일: 14일 휴무, 28일 휴무`), a
    // day alone that a closing word follows is one of them: the month is known, so leaving it out
    // would publish it open.
    guard let named = namedMonth,
      isKeptDay(at: index) || hasNoticeWords
        || (!isSpanBound(at: index)
          && ((named.end...(named.end + 3)).contains(index)
            || (named.whole && tokens.keyword(at: index + 2) == .closure))),
      let day = tokens.number(at: index), day.digits <= 2, tokens.keyword(at: index + 1) == .day,
      CalendarDate(year: named.month.year ?? 2000, month: named.month.month, day: day.value) != nil
    else { return nil }
    return (WrittenDate(year: named.month.year, month: named.month.month, day: day.value), index + 2)
  }

  /// Reads `28일` in `12월 27일 휴무, 28일 정상영업` (a notice moving a closure): a day alone with
  /// its own verb (정상영업, 정상 영업, 휴무) a few words after a date list is in the month of that
  /// list's last day. The text states it, so it is read: open or closed, not unknown.
  func readDayAfterADate(at index: Int) -> (WrittenDate, Int)? {
    guard let last = lastListedDay, index > last.end, index - last.end <= 3,
      let day = tokens.number(at: index), day.digits <= 2, tokens.keyword(at: index + 1) == .day
    else { return nil }
    var verb = index + 2
    if tokens.isParticle(at: verb) || tokens.isTopicParticle(at: verb) { verb += 1 }
    switch tokens.keyword(at: verb) {
    case .normalOpen?, .closure?: break
    case .normal? where tokens.keyword(at: verb + 1) == .business: break
    default: return nil
    }
    guard CalendarDate(year: last.month.year ?? 2000, month: last.month.month, day: day.value) != nil else {
      return nil
    }
    return (WrittenDate(year: last.month.year, month: last.month.month, day: day.value), index + 2)
  }

  /// Whether `index` holds `까지` after a single day with no closing verb right after it: the
  /// day ends a span of something else (`31일까지 세일`, `1월11일까지다`), while `12/31까지 휴점`
  /// still closes through it.
  func isSpanEnd(at index: Int) -> Bool {
    tokens.keyword(at: index) == .until && tokens.keyword(at: index + 1) != .closure
  }

  /// Whether the day alone at `index` (a number and 일) bounds a span of something other than
  /// a closure: `31일까지 세일` (the span's last day, its first unwritten) or `20일부터 행사` (its
  /// first day, with no last day written after it). Such a day is not one of the month's
  /// closing days however near its heading (`12월 휴무일: 13일. 31일까지 세일`); a range of days
  /// (`28일부터 30일까지`) is read whole and never asks.
  func isSpanBound(at index: Int) -> Bool {
    guard tokens.number(at: index) != nil, tokens.keyword(at: index + 1) == .day else { return false }
    var after = index + 2
    if tokens.isParticle(at: after) { after += 1 }
    switch tokens.keyword(at: after) {
    case .until?:
      // 31일까지 휴무: the span is the closure, whose first day is unwritten: still not known.
      return true
    case .since?:
      var next = after + 1
      if tokens.symbol(at: next) == "~" || tokens.symbol(at: next) == "-" { next += 1 }
      return tokens.number(at: next) == nil
    default:
      return false
    }
  }

  /// Words that say a day stays as it was (`기존과 동일하게 13일`, `27일은 기존과 동일`, `13일을
  /// 그대로 유지`): the day is a closing day, and a day alone among them is in the month named
  /// last, however far back.
  static let keepWords = ["동일", "동일하게", "동일합니다", "그대로", "유지", "유지한다", "유지합니다", "변동없음", "변동없이", "현행"]

  /// Whether the day at `index` (a number and 일) has words of keeping right before or after it.
  func isKeptDay(at index: Int) -> Bool {
    guard tokens.number(at: index) != nil, tokens.keyword(at: index + 1) == .day else { return false }
    let around = Array(max(0, index - 3)..<index) + Array((index + 2)..<min(tokens.count, index + 6))
    return around.contains { probe in
      tokens.keyword(at: probe) == .previous || tokens.isWord(at: probe, in: Self.keepWords)
    }
  }

  /// Whether `index` holds a day written alone after a date of the same month: `27` in
  /// `12/13, 27`, `12/13·27(일)` and `12/11,/25`, or `26일`; not an ordinal (`2,4번째`), a time
  /// (`10:00`, `6시`), a month (`1월`), a price (`3,000원`) or a word (`27번지`).
  func isBareDay(at index: Int) -> Bool {
    guard let day = tokens.number(at: index), day.digits <= 2, !isDigitOrdinalList(at: index) else { return false }
    guard tokens.indices.contains(index + 1) else { return true }
    switch tokens[index + 1].kind {
    case .keyword(.week), .keyword(.ordinalSuffix), .keyword(.month), .keyword(.year): return false
    case .keyword(.time): return !tokens.isClockUnit(at: index + 1)  // `12/24, 25 오후 6시`
    case .symbol(let symbol):
      if symbol == ":" || symbol == "+" || symbol == "%" { return false }
      if symbol == "." { return tokens.number(at: index + 2) == nil }
      return !(symbol == "," && tokens.number(at: index + 2)?.digits == 3)
    case .other: return tokens.isParticle(at: index + 1)
    default: return true
    }
  }

  /// Reads a list of dates and ranges: `11/12(수), 11/26(수)`, `11월 12일(수)·26일(수)`,
  /// `12/11,/25`, `12/13, 27`, `12/24~12/26`, `20261108, 20261122`, and `13일, 27일` after a
  /// month named alone. `label` is the holiday the dates are said to be (`추석(9/25)`).
  ///
  /// Dates followed by opening hours (`12/24 10:00~22:00`, `1/1은 오후 1시 오픈`) are trading
  /// days with other hours, not closures.
  mutating func readDateList(at index: Int, label: LunarClosing? = nil) -> Int? {
    guard let (items, end) = scanDateList(at: index) else { return nil }
    if items.count == 1, items[0].end == nil, isSpanEnd(at: end) {
      // 사전예약 기간은 내년 1월11일까지다: the last day of something else, not a closure.
      warn("the last day of a span, not a closure", index, end + 1)
      return end + 1
    }
    if hasNoticeWords, items.count == 1, items[0].end == nil, tokens.keyword(at: end) == .since {
      // 2027년 1월 1일부터 … 변경: the day a change applies from, not a closure.
      appendAppliesFrom(items[0].start, items[0].startHints, from: index, to: end + 1)
      return end + 1
    }
    recordDateList(items, from: index, to: end, label: label)
    return end
  }

  /// One date or range of a list as scanned, with the tokens it was read from.
  typealias ScannedDate = (
    start: WrittenDate, startHints: DateHints, end: WrittenDate?, endHints: DateHints, tokens: Range<Int>
  )

  /// Scans the dates and ranges of a list starting at `index`, and the token after them.
  mutating func scanDateList(at index: Int) -> (dates: [ScannedDate], end: Int)? {
    guard let (firstDate, afterFirst) = readDate(at: index) ?? readNamedMonthDay(at: index) else { return nil }
    var items: [ScannedDate] = []
    var current = firstDate
    var currentStart = index
    var next = afterFirst
    while true {
      let (hints, afterHints) = readHints(at: next)
      next = afterHints
      var rangeEnd: WrittenDate?
      var endHints = DateHints()
      if tokens.symbol(at: next) == "~" || tokens.symbol(at: next) == "-" || tokens.keyword(at: next) == .since {
        // 12/28~12/30, 12월 28일~30일, 11/30(월)-12/2(수), 12/28부터 12/30까지, 12/28부터~30일.
        var dash = next + 1
        if tokens.keyword(at: next) == .since, tokens.symbol(at: dash) == "~" || tokens.symbol(at: dash) == "-" {
          dash += 1
        }
        if let (end, afterEnd) = readDate(at: dash) {
          rangeEnd = end
          next = afterEnd
        } else if let day = tokens.number(at: dash), day.digits <= 2, day.value >= current.day, day.value <= 31,
          tokens.symbol(at: dash + 1) != ":"
        {
          rangeEnd = WrittenDate(year: current.year, month: current.month, day: day.value)
          next = tokens.keyword(at: dash + 1) == .day ? dash + 2 : dash + 1
        }
        if rangeEnd != nil {
          (endHints, next) = readHints(at: next)
          if tokens.keyword(at: next) == .until { next += 1 }
        }
      }
      items.append((current, hints, rangeEnd, endHints, currentStart..<next))
      // Continue the list after separators.
      var probe = next
      while tokens.isListSeparator(at: probe), probe - next < 3 { probe += 1 }
      guard probe > next || tokens.number(at: probe) != nil else { break }
      currentStart = probe
      if let (date, afterDate) = readDate(at: probe) {
        current = date
        next = afterDate
      } else if probe > next, isBareDay(at: probe), hasNoticeWords || !isSpanBound(at: probe),
        let day = tokens.number(at: probe)
      {
        let base = rangeEnd ?? current
        current = WrittenDate(year: base.year, month: base.month, day: day.value)
        next = tokens.keyword(at: probe + 1) == .day ? probe + 2 : probe + 1
        guard CalendarDate(year: current.year ?? 2000, month: current.month, day: current.day) != nil else {
          warn("not a real date", probe, next)
          break
        }
      } else {
        break
      }
    }
    if let last = items.last {
      let day = last.end ?? last.start
      lastListedDay = (WrittenMonth(year: day.year, month: day.month), next)
    }
    return (items, next)
  }

  /// Records the dates of a list scanned from `index` to `next`: as a trading day before opening
  /// hours, as New Year's Day for `1/1` among holidays, else as a phrase of the clause (the
  /// rule's own dates when `asRuleDates`) if they name any day.
  mutating func recordDateList(
    _ items: [ScannedDate], from index: Int, to next: Int, label: LunarClosing? = nil, asRuleDates: Bool = false
  ) {
    let withHours = tokens.hoursFollow(at: next)
    // 12월 휴무일: 13일, 27일 and 9월 의무휴업안내(9/13, 9/22): the month's closing days, all of them.
    let headedMonth = namedMonth.flatMap { named in
      named.whole && (named.end...(named.end + 3)).contains(index) ? named.month : nil
    }
    // 1/1 in a list of holidays (`1/1, 설날, 추석`) is New Year's Day every year.
    let inHolidayList =
      tokens.isHolidayWord(at: next) || (tokens.isListSeparator(at: next) && tokens.isHolidayWord(at: next + 1))
      || (tokens.isListSeparator(at: index - 1) && tokens.isHolidayWord(at: index - 2))
    var list = WrittenDateList(entries: [], wholeMonth: headedMonth)
    // Each item taken apart once: read member by member, the tuple would be copied for each.
    for (start, startHints, end, endHints, words) in items {
      let isNewYearsDay = start.year == nil && start.month == 1 && start.day == 1
      if isNewYearsDay, end == nil, startHints.isEmpty, inHolidayList, !withHours {
        append(.newYear, end: next)
        continue
      }
      var hints = startHints
      if hints.holiday == nil { hints.holiday = label }
      list.entries.append(
        WrittenDateEntry(
          start: start, startHints: hints, end: end, endHints: endHints,
          excerpt: tokens.excerpt(words.lowerBound, words.upperBound)))
    }
    if withHours {
      if !list.entries.isEmpty { syntax.append(.tradingDays(list)) }
      warn("opening hours, a trading day and not a closure", index, next + 3)
    } else if !list.entries.isEmpty {
      let phrase: ClosingPhrase = asRuleDates ? .ruleDates(list) : .dates(list)
      if dates.namesAnyDay(list) {
        append(phrase, end: next)
        lastDateList = (syntax.statements.count - 1, next)
      } else {
        // Only its warnings are left of it.
        syntax.append(.phrase(phrase))
      }
    }
  }
}
