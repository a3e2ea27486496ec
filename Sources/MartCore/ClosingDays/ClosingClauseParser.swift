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

  /// What a verb says of the phrases before it.
  enum Polarity { case closed, open }

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
  /// The month named last without a day (`12월 휴무일: 13일, 27일`), and the token after it and
  /// its particle: `13일` a few words later falls in it, and a rule starting right there is
  /// scoped to it.
  var namedMonth: (month: WrittenMonth, end: Int)?
  /// The last date list (its phrase) and the token after it, for `12/27 대신 12/25`.
  var lastDateList: (phrase: Int, end: Int)?
  /// How far the words after `start` were looked at for hours, and the first hours word found.
  var hoursScan: (start: Int, scanned: Int, found: Int?) = (0, 0, nil)

  static let clauseBreaks: Set<Unicode.Scalar> = ["(", ")", "[", "]", "\n", "!", "※", "*", ".", ";"]

  init(tokens: ClosingTokens, asOf: CalendarDate) {
    self.tokens = tokens
    self.asOf = asOf
    self.dates = WrittenDateResolver(asOf: asOf)
  }

  /// Reads the whole text.
  consuming func parse() -> ClosingSyntax {
    var index = 0
    while index < tokens.count {
      let next: Int
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
        if pending.isEmpty && !isLabel(end) {
          syntax.append(.openAllYear)
          next = end
        } else {
          next = readVerb(.open, at: index, end: end)
        }
      case .keyword(.closure): next = readVerb(.closed, at: index, end: index + 1)
      case .keyword(.openAllYear):
        syntax.append(.openAllYear)
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
    return syntax
  }

  // MARK: - Clauses and verbs

  /// Ends a clause: its phrases take the clause's default polarity.
  mutating func endClause(at index: Int) -> Int {
    commit(clauseDefault)
    clauseDefault = .closed
    return index + 1
  }

  /// Whether a `:` follows at `index`: the verb labels what comes after it (`휴무일: 1/1`).
  func isLabel(_ index: Int) -> Bool { tokens.symbol(at: index) == ":" }

  /// A verb at `index`: the pending phrases take its polarity. A verb with nothing before it and
  /// a colon after it (`정상영업: 12/13`) gives its polarity to the rest of the clause.
  mutating func readVerb(_ polarity: Polarity, at index: Int, end: Int) -> Int {
    if pending.isEmpty {
      if isLabel(end) { clauseDefault = polarity }
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
          warn("opening hours after a rule: its days are trading days with other hours", pendingEnd, end)
          syntax.append(.verdict(closed: [], opened: pending[start...].map(\.index)))
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
  mutating func commit(_ polarity: Polarity) {
    guard !pending.isEmpty else { return }
    let firstOpened = polarity == .open ? lastRunStart() : pending.count
    syntax.append(
      .verdict(closed: pending[..<firstOpened].map(\.index), opened: pending[firstOpened...].map(\.index)))
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

  mutating func warn(_ message: String) {
    syntax.append(.warning(message))
  }
}
