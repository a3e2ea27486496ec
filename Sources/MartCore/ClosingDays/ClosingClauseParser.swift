/// Reads the tokens of a closing-day text (``ClosingTokens``) into clauses of a small syntax
/// (``ClosingSyntax``), left to right. Each reader looks ahead a bounded number of tokens, so
/// the whole parse is linear in the text length.
///
/// Readers collect the phrases a clause names (dates, rules, holidays) as pending; the verb
/// that ends the clause decides what they are: 휴무/휴점 closes them, 영업/정상영업/휴무 없음/쉬지
/// 않습니다 opens them. A clause without a verb (`매월 둘째·넷째 일요일`) closes. Clauses end at
/// brackets, line breaks, `!`, `※`, `*`, `.` and `단`, so `(단, 추석 당일 영업)` opens 추석 and
/// `(단, 매월 2,4번째 일요일 휴점)` closes those Sundays, wherever they stand. A day with opening
/// hours (`12/24 10:00~22:00`, `12/24 오후 6시까지 영업`) is a trading day, never a closure.
///
/// The parser does no calendar arithmetic beyond what the grammar needs: whether `2/4 일요일` is
/// a date or two ordinals (is 2/4 a Sunday near the as-of date?), and whether a date list names
/// any day at all (`2/29` with no leap year near it names none, and joins no clause).
struct ClosingClauseParser {
  let tokens: ClosingTokens
  let asOf: CalendarDate
  /// Asked only whether written dates name a day.
  let dates: WrittenDateResolver

  /// What has been read so far.
  var syntax = ClosingSyntax()

  /// What a verb says of the phrases before it: closed, open, or (`행사`, `영업시간 단축`) named for
  /// something other than a closure, as trading days with other hours or not at all.
  enum Polarity { case closed, open, trading, neither }

  /// A phrase waiting for its clause's verb.
  struct Pending {
    /// Its index in `syntax.statements`.
    var index: Int
    var phrase: ClosingPhrase
  }

  /// The phrases of the clause being read, waiting for its verb.
  var pending: [Pending] = []
  /// The token after the last phrase read into the clause, even when a verb about opening
  /// hours has since dropped it.
  var pendingEnd = 0
  /// The polarity of a clause without a verb after its phrases: `closed`, or `open` after a
  /// leading `정상영업:`.
  var clauseDefault = Polarity.closed
  /// Whether a verb before the clause's phrases set `clauseDefault` (`[정상영업] 12/13`): a verb
  /// before further dates then starts a clause of its own (`정상영업 12/13, 휴무 12/30`).
  var clauseLabelled = false
  /// The month named last without a day (`12월 휴무일: 13일, 27일`), and the token after it and
  /// its particle: `13일` a few words later falls in it, and a rule starting right there is
  /// scoped to it. `whole` when the words name the month's closing days as a whole (`12월
  /// 휴무일:`, `이달 휴무일은`): the days listed after them are all the month's.
  var namedMonth: (month: WrittenMonth, end: Int, whole: Bool)?
  /// The month of the last day a date list read, and the token after that list: a day alone
  /// with its own verb right after it is in that month (`12월 27일 휴무, 28일 정상영업`).
  var lastListedDay: (month: WrittenMonth, end: Int)?
  /// The last date list (its phrase) and the token after it, for `12/27 대신 12/25`.
  var lastDateList: (phrase: Int, end: Int)?
  /// How far the words after `start` were looked at for hours, and the first hours word found.
  var hoursScan: (start: Int, scanned: Int, found: Int?) = (0, 0, nil)
  /// The last verdict a clause break gave (its statement and the break's token), for a verb in
  /// brackets right after it that speaks of its phrases: `12/13(일) (정상영업)`.
  var lastBreakVerdict: (statement: Int, at: Int)?
  /// A change notice being read (`기존 A → 변경 B`, `A에서 B로 변경`): the phrases it replaces,
  /// and the index of the first statement that may be a phrase of what replaces them (`nil`
  /// while the replaced ones are still being read, after `기존`).
  var change: (old: [Int], newFrom: Int?)?
  /// Whether the text has said the store never closes (`연중무휴`), so that `포함` after holidays
  /// (`명절 당일 포함`) opens them.
  var saysOpenAllYear = false
  /// Whether the text has words of a change notice (변경, 기존, 적용, 에서 after a day), so that a
  /// date before `부터` with no end is the day a change applies from, not a closure.
  let hasNoticeWords: Bool

  static let clauseBreaks: Set<Unicode.Scalar> = ["(", ")", "[", "]", "\n", "!", "※", "*", ".", ";"]

  init(tokens: ClosingTokens, asOf: CalendarDate) {
    self.tokens = tokens
    self.asOf = asOf
    self.dates = WrittenDateResolver(asOf: asOf)
    self.hasNoticeWords = tokens.indices.contains { index in
      switch tokens.keyword(at: index) {
      case .change?, .previous?, .apply?, .changeFrom?: true
      default: false
      }
    }
  }

  /// Reads the whole text.
  consuming func parse() -> ClosingSyntax {
    var index = 0
    while index < tokens.count {
      let next: Int
      if index == pendingEnd, let end = hoursAfterRules(at: index) {
        // 둘째·넷째 일요일: 11:00~19:00: the hours of those days, not a closure.
        index = end
        continue
      }
      switch tokens[index].kind {
      case .number: next = readNumber(at: index)
      case .keyword(.ordinal), .keyword(.ordinalPrefix): next = readOrdinalRule(at: index) ?? index + 1
      case .keyword(.everyWeek): next = readWeekly(at: index)
      case .keyword(.everyMonth): next = readDaysOfMonth(at: index + 1) ?? index + 1
      case .keyword(.holiday), .keyword(.newYear), .keyword(.festivals): next = readHolidays(at: index)
      case .keyword(.normalOpen) where !tokens.isNoun(index):
        next = readVerb(.open, at: index, end: index + 1)
      case .keyword(.normal) where tokens.keyword(at: index + 1) == .business && !tokens.isNoun(index + 1):
        next = readVerb(.open, at: index, end: index + 2)
      case .keyword(.business) where !tokens.isNoun(index):
        next = readVerb(.open, at: index, end: index + 1)
      case .keyword(.closure) where tokens.keyword(at: index + 1) == ClosingKeyword.none,
        .keyword(.restless):
        // 휴무 없음, 쉬지 않습니다: the days before it are open; alone, the store never closes.
        let end = tokens.keyword(at: index) == .restless ? index + 1 : index + 2
        let aboutAWeekday = (1...2).contains { tokens.weekday(at: index - $0) != nil }
        if pending.isEmpty && aboutAWeekday {
          // 일요일도 쉬지 않고 영업하게 된다: a sentence about a weekday, not a store never closed.
          warn("a weekday without a date or rule, not read", index - 2, end)
          next = end
        } else if pending.isEmpty && labelEnd(at: index, end: end) == nil {
          syntax.append(.openAllYear)
          saysOpenAllYear = true
          next = end
        } else {
          next = readVerb(.open, at: index, end: end)
        }
      case .keyword(.closure) where facilityBefore(index) != nil:
        // 11/30 푸드코트 휴무, 문화센터 휴관: a facility's notice, not the store's closure.
        warn("a notice about \(facilityBefore(index) ?? "a facility"), not the store's closure", index, index + 1)
        pending.removeAll()
        next = index + 1
      case .keyword(.closure) where !pending.isEmpty && tokens.isWord(at: index + 1, in: Self.nounParticles):
        // 다음달 8일 예정됐던 … 의무휴업일을 6일로 조정했다: the noun of a sentence, not its verb.
        next = index + 2
      case .keyword(.closure): next = readVerb(.closed, at: index, end: index + 1)
      case .keyword(.openAllYear):
        syntax.append(.openAllYear)
        saysOpenAllYear = true
        next = index + 1
      case .keyword(.however): next = endClause(at: index)
      case .keyword(.relativeMonth(let offset)): next = readRelativeMonth(offset, at: index)
      case .keyword(.instead), .symbol("→"), .keyword(.changeFrom): next = readChange(at: index)
      case .keyword(.change): next = readChangeWord(at: index)
      case .keyword(.previous): next = readPrevious(at: index)
      case .keyword(.notClosure(let trading)):
        next = readVerb(trading ? .trading : .neither, at: index, end: index + 1)
      case .keyword(.including) where saysOpenAllYear:
        // 연중무휴 (명절 당일 포함): the holidays are open too.
        next = readVerb(.open, at: index, end: index + 1)
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
        } else if let end = readBareWeekdayClosure(at: index) {
          next = end
        } else {
          warn("weekday without an ordinal or 매주 ignored", index, index + 1)
          next = index + 1
        }
      default: next = index + 1
      }
      index = max(next, index + 1)
    }
    dropDatesOfASentence(before: tokens.count)
    commit(clauseDefault)
    finishChange()
    return syntax
  }

  /// Particles after a closing noun that make it a subject or object (`의무휴업일을`, `휴무일이`),
  /// not the verb of the clause.
  static let nounParticles = ["을", "를", "이", "가", "의"]

  /// Copulas and endings that may follow the days of a clause without a verb and leave them its
  /// closing days: `이달 휴무일은 13일과 27일이다`.
  static let copulas = ["이다", "입니다", "이며", "이고", "이에요", "예정", "예정이다", "예정입니다", "등"]

  /// Whether the word at `index` ends as a Korean predicate does (`…하고`, `…합니다`, `…했다`,
  /// `…하며`): the words are a sentence, not a label such as `재고조사` or `쿠폰 증정`.
  func isPredicate(_ index: Int) -> Bool {
    guard let last = tokens.scalars[tokens[index].start..<tokens[index].end].last else { return false }
    return ["다", "고", "며", "요", "서", "면"].contains { $0.unicodeScalars.first == last }
      && tokens[index].end - tokens[index].start >= 2
  }

  /// A clause without a closing verb whose dates are followed by other words (`1월 13일부터 2월
  /// 2일까지 행정예고하고`) names them for something the engine does not read: they are not
  /// closing days. A clause of dates alone (`11/12(수), 11/26(수)`) or ending in a copula (`…
  /// 27일이다`) closes them.
  mutating func dropDatesOfASentence(before end: Int) {
    // In a change notice the words after the new days are the notice's (`12/16(수)로 변경`).
    guard clauseDefault == .closed, !clauseLabelled, change == nil, !pending.isEmpty, pendingEnd < end else { return }
    // A predicate after the dates makes the clause a sentence: `행정예고하고`, `수렴합니다`.
    let words = (pendingEnd..<end).filter { tokens[$0].kind == .other && !tokens.isParticle(at: $0) }
    let keeps = words.contains { tokens.isWord(at: $0, in: Self.keepWords) }
    guard !keeps, let first = words.first(where: { isPredicate($0) && !tokens.isWord(at: $0, in: Self.copulas) }) else {
      return
    }
    let start = lastRunStart()
    guard !pending[start].phrase.isRecurring else { return }
    warn("dates in a sentence without a closing verb, not read as closures", pendingEnd - 1, first + 1)
    pending.removeSubrange(start...)
  }

  // MARK: - Clauses and verbs

  /// Ends a clause: its phrases take the clause's default polarity.
  mutating func endClause(at index: Int) -> Int {
    let count = syntax.statements.count
    dropDatesOfASentence(before: index)
    commit(clauseDefault)
    if syntax.statements.count > count, case .verdict? = syntax.statements.last {
      lastBreakVerdict = (syntax.statements.count - 1, index)
    }
    clauseDefault = .closed
    clauseLabelled = false
    return index + 1
  }

  /// Whether a `:` follows at `index`: the verb labels what comes after it (`휴무일: 1/1`).
  func isLabel(_ index: Int) -> Bool { tokens.symbol(at: index) == ":" }

  /// Where the clause a verb at `index` (ending before `end`) labels starts, if it labels what
  /// follows it: `휴무일: 1/1`, and at the start of a clause `정상영업 12/13`, `[정상영업] 12/13(일)`.
  /// `nil` when it speaks of what comes before it.
  func labelEnd(at index: Int, end: Int) -> Int? {
    if isLabel(end) { return end + 1 }
    let before = index - 1
    let atClauseStart =
      before < 0 || tokens.symbol(at: before).map { Self.clauseBreaks.contains($0) || $0 == ":" } == true
    guard atClauseStart else { return nil }
    if tokens.number(at: end) != nil { return end }
    if let close = tokens.symbol(at: end), close == "]" || close == ")", let open = tokens.symbol(at: before),
      open == "[" || open == "(", tokens.number(at: end + 1) != nil
    {
      return end + 1
    }
    return nil
  }

  /// A verb at `index`: the pending phrases take its polarity. A verb with nothing before it that
  /// labels what follows (`정상영업: 12/13`, `[정상영업] 12/13`) gives its polarity to the rest of
  /// the clause; one alone in brackets right after phrases (`12/13(일) (정상영업)`) speaks of
  /// them. A clause labelled so (`[정상영업] 12/13 [휴무] 12/30`, `정상영업 12/13 휴무 12/30`)
  /// ends at the next label.
  mutating func readVerb(_ polarity: Polarity, at index: Int, end: Int) -> Int {
    let isWord: Bool
    switch polarity {
    case .closed, .open: isWord = false
    case .trading, .neither: isWord = true
    }
    if pending.isEmpty {
      if polarity != .closed, let last = lastBreakVerdict, last.at == index - 1, tokens.symbol(at: last.at) == "(",
        tokens.symbol(at: end) == ")"
      {
        // 12/13(일) (정상영업): the verb speaks of the dates before the bracket.
        reopenVerdictBeforeBracket(as: polarity, at: index)
        return end + 1
      }
      // 행사, 단축 label what follows with a colon only (`행사기간: 12/1~12/7`).
      if let start = isWord ? (isLabel(end) ? end + 1 : nil) : labelEnd(at: index, end: end) {
        clauseDefault = polarity
        clauseLabelled = true
        return start
      }
      if polarity != .closed, closesBracket(from: end) { reopenVerdictBeforeBracket(as: polarity, at: index) }
      return end
    }
    if !isWord, clauseLabelled, tokens.number(at: end) != nil || isLabel(end) {
      // 정상영업 12/13, 휴무 12/30: the verb starts a clause of its own.
      commit(clauseDefault)
      clauseDefault = polarity
      return isLabel(end) ? end + 1 : end
    }
    if polarity == .trading, let last = pending.last, last.phrase.isRecurring,
      index == pendingEnd || (index == pendingEnd + 1 && tokens.isParticle(at: pendingEnd))
    {
      // 둘째·넷째 일요일 단축 영업: those days trade with other hours.
      openRulesAsTradingDays(pendingEnd, end)
      return end
    }
    if isWord {
      commit(polarity)
      return end
    }
    if polarity == .open, isAboutOpeningHours(from: pendingEnd, to: index) {
      // The verb speaks of hours. Right after the last phrases (`매월 둘째 일요일 오후 6시까지 영업`,
      // `12/24까지 영업`) it makes them neither closed nor open. Otherwise the hours are those of
      // a day already read as a trading day (`매월 둘째 일요일, 12/24 오후 6시까지 영업`), and the
      // phrases before it wait for their own verb or the end of the clause.
      if tokens.hoursFollow(at: pendingEnd) || tokens.keyword(at: pendingEnd) == .until {
        let start = lastRunStart()
        if pending[start].phrase.isRecurring, tokens.hoursFollow(at: pendingEnd) {
          // 매월 둘째 일요일 오후 6시까지 영업: the rule's days trade with other hours.
          openRulesAsTradingDays(pendingEnd, end)
        } else {
          warn("opening hours, neither a closure nor a day off", pendingEnd, end)
          pending.removeSubrange(start...)
        }
      }
      return end
    }
    commit(polarity)
    return end
  }

  /// Where opening hours right after the rules just read end (`둘째·넷째 일요일: 11:00~19:00`,
  /// `일요일 10:00~22:00`), having made those rules' days trading days: hours are never a closure,
  /// whatever shape the days before them have. `nil` when no hours start at `index` or the
  /// phrases before it are not rules (a date with hours is read with the date).
  mutating func hoursAfterRules(at index: Int) -> Int? {
    guard let last = pending.last, last.phrase.isRecurring else { return nil }
    let start = tokens.symbol(at: index) == ":" ? index + 1 : index
    guard tokens.hoursFollow(at: start) else { return nil }
    var end = start
    while end < tokens.count, !Self.clauseBreaks.contains(tokens.symbol(at: end) ?? " "),
      tokens.keyword(at: end) != .closure
    {
      end += 1
    }
    openRulesAsTradingDays(index, end)
    return end
  }

  /// Makes the run of rules at the end of the clause trading days with other hours (opened, so
  /// known open), with a warning quoting the hours from `start` to `end`.
  mutating func openRulesAsTradingDays(_ start: Int, _ end: Int) {
    let first = lastRunStart()
    warn("opening hours after a rule: its days are trading days with other hours", start, end)
    syntax.append(.verdict(closed: [], opened: pending[first...].map(\.index)))
    pending.removeSubrange(first...)
  }

  /// Whether the words between the last phrase and an opening verb speak of hours
  /// (`12/24 오후 6시까지 영업`). Each verb after the same phrases asks again (`12/24 오후 영업 영업
  /// …`), so the scan goes on from where the last one stopped: every word is looked at once.
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

  /// Where the run of like phrases at the end of `pending` starts: all rules, or all named days.
  func lastRunStart() -> Int {
    guard let last = pending.last else { return 0 }
    var start = pending.count - 1
    while start > 0, pending[start - 1].phrase.isRecurring == last.phrase.isRecurring { start -= 1 }
    return start
  }

  /// Gives the pending phrases a polarity. An opening verb opens only the run of like phrases
  /// just before it: in `매월 둘째 일요일, 12/13 정상영업` the rule still closes and 12/13 is open.
  /// A word that names days for something else (`12/1~12/7 행사`, `12/24 영업시간 단축`) takes
  /// the run of named days just before it out of the clause; a rule stays closed.
  mutating func commit(_ polarity: Polarity) {
    guard !pending.isEmpty else { return }
    if takeReplacedPhrases() { return }
    switch polarity {
    case .closed, .open:
      let firstOpened = polarity == .open ? lastRunStart() : pending.count
      syntax.append(
        .verdict(closed: pending[..<firstOpened].map(\.index), opened: pending[firstOpened...].map(\.index)))
    case .trading, .neither:
      let start = lastRunStart()
      let firstDropped = pending[start].phrase.isRecurring ? pending.count : start
      for item in pending[firstDropped...] {
        guard case .dates(let list) = item.phrase else { continue }
        if polarity == .trading { syntax.append(.tradingDays(list)) }
        warnNotClosure(polarity, list)
      }
      syntax.append(.verdict(closed: pending[..<firstDropped].map(\.index), opened: []))
    }
    recordChange()
    pending.removeAll()
  }

  /// Reads `phrase`, ending before the token `end`, into the clause.
  mutating func append(_ phrase: ClosingPhrase, end: Int) {
    pending.append(Pending(index: syntax.append(.phrase(phrase)), phrase: phrase))
    pendingEnd = end
  }

  // MARK: - Warnings

  mutating func warn(_ message: String, _ start: Int, _ end: Int) {
    warn(WrittenDateResolver.quoting(message, tokens.excerpt(start, end)))
  }

  /// Warns that the dates of `list` are named for something other than a closure.
  mutating func warnNotClosure(_ polarity: Polarity, _ list: WrittenDateList) {
    warn(
      WrittenDateResolver.quoting(
        polarity == .trading
          ? "opening hours or a re-opening, a trading day and not a closure" : "a sale or event, not a closure",
        list.entries.map(\.excerpt).joined(separator: ", ")))
  }

  mutating func warn(_ message: String) {
    syntax.append(.warning(message))
  }
}
