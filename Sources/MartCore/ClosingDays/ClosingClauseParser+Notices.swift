// Change notices: `A에서 B로 변경`, `A → B`, `기존 A → 변경 B`, `N월부터 … 적용`.

extension ClosingClauseParser {
  // MARK: - Change notices

  /// Reads `대신`, `→` or `에서` after a day or rule: what comes before it is replaced by what
  /// comes after it. Dates right before it (and their verb) give way and are open, as a
  /// substitution (`12/27 대신 12/25`, `2/8(월) → 2/7(일)`, `10일에서 7일로`); a day alone after
  /// `에서` or an arrow is in the month of the dates before it. Rules right before it (or after
  /// `기존`) are replaced by the rules after it (`둘째·넷째 일요일에서 둘째·넷째 수요일로 변경`).
  mutating func readChange(at index: Int) -> Int {
    if var reading = change, reading.newFrom == nil {
      // 기존 A → B: what was read since 기존 is replaced.
      reading.old += pending.map(\.index)
      pending.removeAll()
      reading.newFrom = syntax.statements.count
      change = reading
      return index + 1
    }
    if let last = lastDateList, readSubstitution(at: index) > index, lastDateList == nil {
      change = (old: [last.phrase], newFrom: syntax.statements.count)
      if case .phrase(.dates(let list)) = syntax.statements[last.phrase], let entry = list.entries.last {
        let day = entry.end ?? entry.start
        namedMonth = (WrittenMonth(year: day.year, month: day.month), index + 1, false)
      }
      return index + 1
    }
    guard tokens.keyword(at: index) != .instead, pendingEnd <= index, index - pendingEnd <= 3,
      (pendingEnd..<index).allSatisfy({ tokens.keyword(at: $0) == .closure || tokens.isParticle(at: $0) })
    else { return index + 1 }
    if let last = pending.last, isRule(last.phrase) {
      // 둘째·넷째 일요일에서 …: the run of rules before it is replaced.
      var start = pending.count - 1
      while start > 0, isRule(pending[start - 1].phrase) { start -= 1 }
      change = (old: pending[start...].map(\.index), newFrom: syntax.statements.count)
      pending.removeSubrange(start...)
    } else if pending.isEmpty, case .verdict(var closed, let opened)? = syntax.statements.last,
      let last = closed.last, case .phrase(let phrase) = syntax.statements[last], isRule(phrase)
    {
      // 둘째·넷째 일요일 휴무 → …: the rules its verb closed are replaced instead.
      var old: [Int] = []
      while let phraseIndex = closed.last, case .phrase(let phrase) = syntax.statements[phraseIndex], isRule(phrase) {
        old.append(closed.removeLast())
      }
      syntax.statements[syntax.statements.count - 1] = .verdict(closed: closed, opened: opened)
      change = (old: old.reversed(), newFrom: syntax.statements.count)
    }
    return index + 1
  }

  /// Whether `phrase` is a rule a change notice may replace: a recurring one or a month's own.
  func isRule(_ phrase: ClosingPhrase) -> Bool {
    if case .monthRule = phrase { return true }
    return phrase.isRecurring
  }

  /// Reads `변경`: right after `기존 A` it starts what replaces A (`기존 A 변경 B`); anywhere
  /// else (`…로 변경`, `의무휴업일 변경 안내`) it says nothing more.
  mutating func readChangeWord(at index: Int) -> Int {
    guard let reading = change, reading.newFrom == nil, !reading.old.isEmpty || !pending.isEmpty else {
      return index + 1
    }
    return readChange(at: index)
  }

  /// Reads `기존`: the days or rules that follow, up to `→` or `변경`, are replaced.
  mutating func readPrevious(at index: Int) -> Int {
    // 기존과 동일, 기존대로: the same as before, no notice.
    if tokens.indices.contains(index + 1), tokens[index + 1].kind == .other,
      tokens[index + 1].start == tokens[index].end
    {
      return index + 1
    }
    commit(clauseDefault)
    clauseDefault = .closed
    clauseLabelled = false
    if change == nil { change = (old: [], newFrom: nil) }
    return index + 1
  }

  /// While the replaced part of a change notice is read (`기존 둘째·넷째 일요일` up to `→`), a
  /// clause end takes its phrases into the notice instead of giving them a verdict.
  mutating func takeReplacedPhrases() -> Bool {
    guard var reading = change, reading.newFrom == nil else { return false }
    reading.old += pending.map(\.index)
    pending.removeAll()
    change = reading
    return true
  }

  /// After a verdict, records the change notice whose replacing phrases were among the pending
  /// ones.
  mutating func recordChange() {
    guard let reading = change, let newFrom = reading.newFrom else { return }
    let new = pending.map(\.index).filter { $0 >= newFrom }
    guard !new.isEmpty else { return }
    syntax.append(.change(old: reading.old, new: new))
    change = nil
  }

  /// At the end of the text: a change notice with nothing read after its arrow replaces its days
  /// with days the engine cannot tell.
  mutating func finishChange() {
    guard let reading = change else { return }
    change = nil
    guard !reading.old.isEmpty else { return }
    warn("a change notice whose new days were not understood; the days it replaces are unknown")
    syntax.append(.change(old: reading.old, new: []))
  }

  /// Reads `N월부터`, `YYYY년 N월부터` after a month named at `monthIndex`, ending before `end`:
  /// the first day of that month is the day a change applies from.
  mutating func readAppliesFromMonth(_ month: WrittenMonth, from index: Int, end: Int) -> Int? {
    guard tokens.keyword(at: end) == .since else { return nil }
    appendAppliesFrom(WrittenDate(year: month.year, month: month.month, day: 1), DateHints(), from: index, to: end + 1)
    return end + 1
  }

  /// Records `day`, written from `start` to `end`, as the day a change applies from.
  mutating func appendAppliesFrom(_ day: WrittenDate, _ hints: DateHints, from start: Int, to end: Int) {
    let entry = WrittenDateEntry(
      start: day, startHints: hints, end: nil, endHints: DateHints(), excerpt: tokens.excerpt(start, end))
    syntax.append(.appliesFrom(WrittenDateList(entries: [entry])))
  }

  /// Whether the bracket closes at `index`, or after one more verb or word that is not a closure
  /// (`(1+1 행사)`, `(영업시간 단축)`); not before hours (`(영업시간 10:00~22:00)`) or dates.
  func closesBracket(from index: Int) -> Bool {
    for probe in index...(index + 1) {
      if let symbol = tokens.symbol(at: probe), symbol == ")" || symbol == "]" { return true }
      switch tokens.keyword(at: probe) {
      case .notClosure?, .business?, .normalOpen?: continue
      default: return false
      }
    }
    return false
  }

  /// A verb alone in brackets right after a clause break's verdict (`12/13(일) (정상영업)`,
  /// `12/1~12/7 (1+1 행사)`): the named days of that verdict take its polarity instead.
  mutating func reopenVerdictBeforeBracket(as polarity: Polarity, at index: Int) {
    guard let last = lastBreakVerdict, index > last.at, index - last.at <= 4,
      let open = tokens.symbol(at: last.at), open == "(" || open == "[",
      case .verdict(var closed, var opened) = syntax.statements[last.statement]
    else { return }
    var moved: [Int] = []
    while let phrase = closed.last, case .phrase(let named) = syntax.statements[phrase], !named.isRecurring {
      moved.append(closed.removeLast())
    }
    moved.reverse()
    guard !moved.isEmpty else { return }
    lastBreakVerdict = nil
    switch polarity {
    case .open: opened += moved
    case .trading, .neither:
      for phrase in moved {
        guard case .phrase(.dates(let list)) = syntax.statements[phrase] else { continue }
        if polarity == .trading { syntax.append(.tradingDays(list)) }
        warnNotClosure(polarity, list)
      }
    case .closed: break
    }
    syntax.statements[last.statement] = .verdict(closed: closed, opened: opened)
  }
}
