// Rules: ordinals, weekdays, days of the month, holidays.

extension ClosingClauseParser {
  // MARK: - Rules

  /// Reads ordinals: `둘째·넷째`, `2,4번째`, `제2, 4`, `제2·제4`, `첫째 셋째`, `1번째 3번째`,
  /// `둘째와 넷째`, `2주차, 4주차`, `2/4`. `marked` says whether a word marks them as ordinals
  /// (째, 번째, 주, 제) rather than bare digits. A list stops after six ordinals (1–5 and the
  /// last), so that a long run of digits is not read again from each of them.
  func readOrdinals(at index: Int) -> (ordinals: [Int], marked: Bool, end: Int) {
    var ordinals: [Int] = []
    var marked = false
    var next = index
    while ordinals.count < 6 {
      if isOrdinalPrefix(at: next) {
        marked = true
        next += 1
      }
      if case .ordinal(let value)? = tokens.keyword(at: next) {
        ordinals.append(value)
        marked = true
        next += 1
      } else if let digit = tokens.number(at: next), digit.digits == 1, (1...5).contains(digit.value) {
        ordinals.append(digit.value)
        next += 1
        if tokens.keyword(at: next) == .ordinalSuffix {
          marked = true
          next += 1
        }
      } else {
        break
      }
      if tokens.keyword(at: next) == .week {
        marked = true
        next += 1
      }
      // Ordinals written side by side: 첫째 셋째, 1번째 3번째, 제2 제4.
      if case .ordinal? = tokens.keyword(at: next) { continue }
      if isOrdinalPrefix(at: next) { continue }
      if let digit = tokens.number(at: next), digit.digits == 1,
        tokens.keyword(at: next + 1) == .ordinalSuffix || tokens.keyword(at: next + 1) == .week
      {
        continue
      }
      guard tokens.isListSeparator(at: next) || tokens.symbol(at: next) == "." else { break }
      let following = next + 1
      if case .ordinal? = tokens.keyword(at: following) {
        next = following
      } else if isOrdinalPrefix(at: following) {
        next = following
      } else if let digit = tokens.number(at: following), digit.digits == 1 {
        next = following
      } else {
        break
      }
    }
    return (ordinals, marked, next)
  }

  /// Whether `제` stands at `index` before a digit that can be an ordinal (`제2`).
  func isOrdinalPrefix(at index: Int) -> Bool {
    guard tokens.keyword(at: index) == .ordinalPrefix, let digit = tokens.number(at: index + 1) else { return false }
    return digit.digits == 1 && (1...5).contains(digit.value)
  }

  /// Reads `둘째·넷째 일요일`, `2,4번째 일요일`, `제2, 4 일요일`, `첫째 셋째 화요일`,
  /// `1번째 3번째 토요일`, `둘째와 넷째 일요일`, `둘째,넷째주 수요일, 일요일`, `매월 2,4 일요일`,
  /// `2,4번째 (일)`. Right after a month named alone (`12월은 셋째 일요일`) the rule is that
  /// month's only.
  mutating func readOrdinalRule(at index: Int) -> Int? {
    let (ordinals, marked, next) = readOrdinals(at: index)
    guard !ordinals.isEmpty, marked || isDigitOrdinalList(at: index) else { return nil }
    var weekdays = readWeekdays(at: next)
    if weekdays.days.isEmpty, tokens.symbol(at: next) == "(" {
      // 둘째, 넷째 (일요일), 2,4번째 (일).
      let inner = readWeekdays(at: next + 1)
      if !inner.days.isEmpty, tokens.symbol(at: inner.end) == ")" { weekdays = (inner.days, inner.end + 1) }
    }
    guard !weekdays.days.isEmpty else {
      // 2월 첫째 휴무일을 10일에서 7일로 변경: in a notice, the first closing day the dates name.
      if !hasNoticeWords || tokens.keyword(at: next) != .closure {
        warn("ordinal without a weekday ignored", index, next)
      }
      return next
    }
    // 6월 둘째 주 일요일인 14일은 …: the ordinal describes the day written after it, which is what
    // the text says; no rule for the month (its other closures are not named) or for every month.
    if tokens.isWord(at: weekdays.end, in: ["인"]), tokens.number(at: weekdays.end + 1) != nil,
      tokens.keyword(at: weekdays.end + 2) == .day
    {
      if let named = namedMonth, named.end == index { namedMonth = (named.month, weekdays.end + 1, false) }
      return weekdays.end + 1
    }
    if let named = namedMonth, named.end == index, dates.firstDay(of: named.month) != nil {
      append(.monthRule(named.month, ordinals: ordinals, weekdays: weekdays.days), end: weekdays.end)
      // 12월 휴무일 : 둘째·넷째 일요일(13일, 27일): days alone in brackets right after are in the month.
      if tokens.symbol(at: weekdays.end) == "(" { namedMonth = (named.month, weekdays.end + 1, named.whole) }
    } else {
      append(.nthWeekday(ordinals: ordinals, weekdays: weekdays.days), end: weekdays.end)
    }
    return weekdays.end
  }

  /// Reads a weekday with its ordinals in brackets after it: `일요일(둘째,넷째)`,
  /// `일요일 (2·4주)`.
  mutating func readWeekdayFirstRule(at index: Int) -> Int? {
    let weekdays = readWeekdays(at: index)
    if tokens.isListSeparator(at: weekdays.end), tokens.keyword(at: weekdays.end + 1) == .publicHoliday {
      // 일요일·공휴일 휴무, 일요일/공휴일: every such weekday, beside the public holidays.
      append(.weekly(weekdays.days), end: weekdays.end)
      return weekdays.end + 1
    }
    guard tokens.symbol(at: weekdays.end) == "(" else { return nil }
    let (ordinals, marked, end) = readOrdinals(at: weekdays.end + 1)
    guard !ordinals.isEmpty, marked, tokens.symbol(at: end) == ")" else { return nil }
    append(.nthWeekday(ordinals: ordinals, weekdays: weekdays.days), end: end + 1)
    return end + 1
  }

  /// Reads `수요일, 일요일`, `수요일 및 일요일`, `수요일과 일요일`, `월·화요일`, `토, 일요일`.
  func readWeekdays(at index: Int) -> (days: [Weekday], end: Int) {
    var days: [Weekday] = []
    var next = index
    while let day = tokens.weekday(at: next) {
      days.append(day)
      next += 1
      if tokens.isListSeparator(at: next), tokens.weekday(at: next + 1) != nil { next += 1 }
    }
    return (days, next)
  }

  /// Reads one-character weekday names written alone: `월/화`, `토·일` (after 매주).
  func readShortWeekdays(at index: Int) -> (days: [Weekday], end: Int) {
    var days: [Weekday] = []
    var next = index
    while let day = tokens.shortWeekday(at: next) {
      days.append(day)
      next += 1
      guard tokens.isListSeparator(at: next), tokens.shortWeekday(at: next + 1) != nil else { break }
      next += 1
    }
    return (days, next)
  }

  /// Reads `매주 월요일`, `매주 월/화`.
  mutating func readWeekly(at index: Int) -> Int {
    var weekdays = readWeekdays(at: index + 1)
    if weekdays.days.isEmpty { weekdays = readShortWeekdays(at: index + 1) }
    if !weekdays.days.isEmpty { append(.weekly(weekdays.days), end: weekdays.end) }
    return weekdays.end
  }

  /// Reads `10일, 25일` after `매월`.
  mutating func readDaysOfMonth(at index: Int) -> Int? {
    var days: [Int] = []
    var next = index
    while let day = tokens.number(at: next), day.digits <= 2, (1...31).contains(day.value),
      tokens.keyword(at: next + 1) == .day
    {
      days.append(day.value)
      next += 2
      guard tokens.isListSeparator(at: next), tokens.number(at: next + 1) != nil else { break }
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
  mutating func readHolidays(at index: Int) -> Int {
    var holidays: [LunarHoliday] = []
    var newYear = false
    var next = index
    while true {
      switch tokens.keyword(at: next) {
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
      if tokens.keyword(at: next) == .festivals, !holidays.isEmpty { next += 1 }
      guard tokens.isListSeparator(at: next), tokens.isHolidayWord(at: next + 1) else {
        if tokens.isHolidayWord(at: next) { continue }  // 설 추석 연휴
        break
      }
      next += 1
    }
    var offsets: Set<Int> = []
    var probe = tokens.symbol(at: next) == "(" ? next + 1 : next
    while case .offset(let values)? = tokens.keyword(at: probe) {
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
      if tokens.symbol(at: next) == ")", tokens.symbol(at: probe - 1) == "(" { next += 1 }
      probe = tokens.isListSeparator(at: next) ? next + 1 : next
    }
    if !holidays.isEmpty, !newYear, let condition = conditionInClause(from: next) {
      // 명절과 겹칠 경우 익일 휴무: the rules' days may move off the holidays.
      syntax.append(.shift(holidays: .lunar(holidays), offsets: shiftOffsets(from: condition)))
      warn(
        "a holiday shift not understood; the rules' days on the holidays and the days they may move to are unknown",
        index, clauseEnd(from: index))
      return clauseEnd(from: next)
    }
    if holidays.count == 1, !newYear, tokens.symbol(at: next) == "(", tokens.number(at: next + 1) != nil,
      let end = readDateList(
        at: next + 1, label: LunarClosing(holiday: holidays[0], offsets: offsets.isEmpty ? [0] : offsets.sorted()))
    {
      return tokens.symbol(at: end) == ")" ? end + 1 : end
    }
    // 설 연휴로 2월 7일(일) 휴무, 추석 당일인 9/25: the holiday labels the date after it, up to two
    // words on, and names no other day.
    var dateStart = next
    while dateStart - next < 2, tokens.indices.contains(dateStart), tokens[dateStart].kind == .other { dateStart += 1 }
    if holidays.count == 1, !newYear, tokens.number(at: dateStart) != nil,
      let end = readDateList(
        at: dateStart, label: LunarClosing(holiday: holidays[0], offsets: offsets.isEmpty ? [0] : offsets.sorted()))
    {
      return end
    }
    if isSeasonWord(before: next) {
      // 설 명절을 앞두고, 명절 휴식권, 추석 대목: the season, not a day the store closes.
      warn("a holiday season named without a day, not a closure", index, next + 2)
      return next
    }
    if !holidays.isEmpty { append(.lunar(holidays, offsets: offsets.isEmpty ? [0] : offsets), end: next) }
    if newYear { append(.newYear, end: next) }
    return next
  }

  /// Reads weekdays named alone right before a closing verb (`※수요일 휴점`, `일요일은 휴무`) or
  /// right after a closing label (`정기휴무: 수요일`): every such weekday closes, as after `매주`.
  /// `nil` when no closing word stands beside them.
  mutating func readBareWeekdayClosure(at index: Int) -> Int? {
    let weekdays = readWeekdays(at: index)
    guard !weekdays.days.isEmpty else { return nil }
    var after = weekdays.end
    if tokens.isParticle(at: after) { after += 1 }
    let verbAfter = tokens.keyword(at: after) == .closure && tokens.keyword(at: after + 1) != ClosingKeyword.none
    var before = index - 1
    if tokens.symbol(at: before) == ":" { before -= 1 }
    let labelBefore = tokens.keyword(at: before) == .closure && pending.isEmpty
    guard verbAfter || labelBefore else { return nil }
    append(.weekly(weekdays.days), end: weekdays.end)
    return weekdays.end
  }

  /// Words of facilities inside or beside a store whose closures are not the store's.
  static let facilityWords = [
    "푸드코트", "문화센터", "주차장", "약국", "식당가", "푸드홀", "키즈카페", "미용실", "안경점", "세탁소", "병원", "은행",
    "영화관", "서점", "테넌트", "임대매장", "입점매장", "전문점", "스포츠센터", "헬스", "수영장", "주유소", "세차장",
    "배송", "택배", "온라인몰", "고객센터", "상담센터", "콜센터", "화장실", "엘리베이터", "에스컬레이터", "수선실",
  ]

  /// The facility word in the clause before the verb at `index` (`11/30 푸드코트 휴무`,
  /// `문화센터는 12/24 휴관`), looking back to the clause's start, at most twelve words, found in a
  /// word by `Character`.
  func facilityBefore(_ index: Int) -> String? {
    var probe = index - 1
    while probe >= 0, index - probe <= 12 {
      if let symbol = tokens.symbol(at: probe), Self.clauseBreaks.contains(symbol) { return nil }
      if tokens[probe].kind == .other {
        let word = String(scalars: tokens.scalars[tokens[probe].start..<tokens[probe].end])
        // The facility words are precomposed syllables: in a word the quick test finds NFC (no
        // jamo), one can be there as characters only where its bytes are, looked for first.
        let plain = TextCleanup.isNFC(word)
        if let found = Self.facilityWords.first(where: { (!plain || word.containsText($0)) && word.contains($0) }) {
          return found
        }
      }
      probe -= 1
    }
    return nil
  }

  /// Particles a holiday word may take in a sentence, besides those of ``ClosingTokens/isParticle(at:)``.
  static let sentenceParticles = ["도", "로", "으로", "인", "이면", "에만", "에도", "엔", "만", "과", "와"]

  /// Words after a noun that leave it a noun of the sentence: `기간`, `중`.
  static let spanNouns = ["기간", "기간중", "기간에", "중", "동안", "내내"]

  /// Whether the holiday words ending before `index` name a season rather than days: a word of
  /// the sentence follows them (`설 명절을 앞두고`, `명절 휴식권`, `추석 대목`, `추석 선물`), maybe after
  /// a particle, instead of a verb, a list, a bracket, a date or the end of the clause (`추석
  /// 휴무`, `설날, 추석`, `추석에는 휴무`, `1/1, 설날, 추석 (전일은 …)`).
  func isSeasonWord(before index: Int) -> Bool {
    var probe = index
    if tokens.isParticle(at: probe) || tokens.isTopicParticle(at: probe)
      || tokens.isWord(at: probe, in: Self.sentenceParticles)
    {
      probe += 1
    }
    if tokens.isWord(at: probe, in: Self.spanNouns) { probe += 1 }
    guard tokens.indices.contains(probe), tokens[probe].kind == .other else { return false }
    return !tokens.isParticle(at: probe)
  }

  /// Whether the words after a 전일/당일 up to the end of the clause speak of opening hours.
  func isAboutOpeningHours(from index: Int) -> Bool {
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
}
