// Numbers: dates, times, digit ordinals.

extension ClosingTextParser {
  // MARK: - Numbers: dates, times, digit ordinals

  mutating func readNumber(at index: Int) -> Int {
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
  mutating func readMonthName(at index: Int) -> Int? {
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
  func skipTime(at index: Int) -> Int {
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
  mutating func readDate(at index: Int) -> (WrittenDate, Int)? {
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
  func isDigitOrdinalList(at index: Int) -> Bool {
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
  func readHints(at index: Int) -> (DateHints, Int) {
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
  func readNamedMonthDay(at index: Int) -> (WrittenDate, Int)? {
    guard let named = namedMonth, (named.end...(named.end + 3)).contains(index),
      let day = number(at: index), day.digits <= 2, keyword(at: index + 1) == .day,
      CalendarDate(year: named.year ?? 2000, month: named.month, day: day.value) != nil
    else { return nil }
    return (WrittenDate(year: named.year, month: named.month, day: day.value), index + 2)
  }

  /// Whether `index` holds a day written alone after a date of the same month: `27` in
  /// `12/13, 27`, `12/13·27(일)` and `12/11,/25`, or `26일`; not an ordinal (`2,4번째`), a time
  /// (`10:00`, `6시`), a month (`1월`), a price (`3,000원`) or a word (`27번지`).
  func isBareDay(at index: Int) -> Bool {
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
  mutating func readDateList(at index: Int, label: LunarClosing? = nil) -> Int? {
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
  func isHolidayWord(at index: Int) -> Bool {
    switch keyword(at: index) {
    case .holiday?, .festivals?, .newYear?: true
    default: false
    }
  }

  /// Picks the year of a written date: the one the text gives, else among the years around
  /// the as-of date those the weekday or holiday hint allows, the nearest to the as-of date.
  mutating func resolve(_ written: WrittenDate, _ hints: DateHints, from start: Int, to end: Int)
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
}
