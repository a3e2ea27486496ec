// Substitutions, a rule's own dates, and conditions the engine does not read.

extension ClosingClauseParser {
  // MARK: - Substitutions and a rule's own dates

  /// Reads `대신` or `→` right after dates (and their verb): `12/27(일) 대신 12/25(금) 휴무`,
  /// `12/27(일) → 12/30(수)`, `12/13 휴무 → 12/16 휴무로 변경`. The dates before it give way to
  /// those after it: they are open, even if a verb already closed them.
  mutating func readSubstitution(at index: Int) -> Int {
    // A closing verb or the bracket of a rule's dates may stand between: `둘째 일요일(12/13) → 12/16`.
    guard let last = lastDateList, last.end <= index, index - last.end <= 2,
      (last.end..<index).allSatisfy({ tokens.keyword(at: $0) == .closure || tokens.symbol(at: $0) == ")" })
    else { return index + 1 }
    if pendingEnd == last.end, case .dates? = pending.last?.phrase { pending.removeLast() }
    syntax.append(.substitution(phrase: last.phrase))
    lastDateList = nil
    return index + 1
  }

  /// Whether the `(` at `index` opens dates right after a rule: `매월 둘째 일요일 (11/15, 11/29)`.
  func isRuleBracket(at index: Int) -> Bool {
    guard let last = pending.last, isRule(last.phrase), pendingEnd == index else { return false }
    return tokens.number(at: index + 1) != nil
  }

  /// Reads dates in brackets right after a rule. Alone in the brackets (or with a closing verb)
  /// they are the days the site lists for the rule (``ClosingPhrase/ruleDates(_:)``); with other
  /// words (`(12/13·27 정상영업)`) they are dates like any other.
  mutating func readRuleDates(at index: Int) -> Int {
    let start = endClause(at: index)
    guard let (dates, end) = scanDateList(at: start) else { return start }
    let alone =
      tokens.symbol(at: end) == ")" || (tokens.keyword(at: end) == .closure && tokens.symbol(at: end + 1) == ")")
    recordDateList(dates, from: start, to: end, asRuleDates: alone)
    return end
  }

  // MARK: - Conditions the engine does not read

  /// The token that ends the clause starting at `index`: a clause break, `단`, or twelve tokens on.
  func clauseEnd(from index: Int) -> Int {
    var probe = index
    while probe < tokens.count, probe < index + 12 {
      if case .symbol(let symbol) = tokens[probe].kind, Self.clauseBreaks.contains(symbol) { return probe }
      if tokens.keyword(at: probe) == .however { return probe }
      probe += 1
    }
    return probe
  }

  /// The first condition word (`경우`, `겹칠`), or with `orOffset` day offset (`익일`), from
  /// `index` to the end of its clause.
  func conditionInClause(from index: Int, orOffset: Bool = false) -> Int? {
    (index..<clauseEnd(from: index)).first { probe in
      switch tokens.keyword(at: probe) {
      case .condition?: true
      case .offset?: orOffset
      default: false
      }
    }
  }

  /// The days a shifted closing day may move to, from the offsets in the clause at `index`
  /// (`익일` +1, `전일` -1); without one, the day before and the day after.
  func shiftOffsets(from index: Int) -> Set<Int> {
    var offsets = Set<Int>()
    for probe in index..<clauseEnd(from: index) {
      if case .offset(let values)? = tokens.keyword(at: probe) { offsets.formUnion(values) }
    }
    offsets.remove(0)
    return offsets.isEmpty ? [-1, 1] : offsets
  }

  /// Reads `공휴일`: a condition (`공휴일인 경우 익일 휴무`, `공휴일인 경우 정상영업`) or an
  /// opening (`공휴일 정상영업`) moves or opens the rules' days on public holidays, which the
  /// resolver reads from ``KoreanPublicHolidays``; a condition that says neither which way nor
  /// that the store opens makes those days, and the days around them, uncertain, with a warning.
  /// Named as days (`매주 월요일 및 공휴일 휴무`, `공휴일 휴무`), every public holiday closes, and
  /// a day the table cannot tell is unknown. Followed by hours (`금~일, 공휴일: 10:30~21:00`) they
  /// are trading days, and so are the rules just before them (`일요일·공휴일 10:00~20:00`).
  mutating func readPublicHolidays(at index: Int) -> Int {
    let end = clauseEnd(from: index)
    var after = index + 1
    if tokens.isParticle(at: after) { after += 1 }
    if tokens.symbol(at: after) == ":" { after += 1 }
    if case .notClosure(trading: true)? = tokens.keyword(at: after) {
      // 주말, 공휴일 영업시간 10:00~22:00: an hours line, whatever rule stands beside it.
      warn("opening hours on public holidays, neither a closure nor a day off", index, end)
      return end
    }
    let nounOfASentence =
      isSeasonWord(before: index + 1)
      || (tokens.keyword(at: index + 1) == .closure && tokens.indices.contains(index + 2)
        && tokens[index + 2].kind == .other && !tokens.isParticle(at: index + 2)
        && !tokens.isWord(at: index + 2, in: Self.copulas))
    if nounOfASentence, !tokens.isListSeparator(at: index - 1) {
      // 공휴일 의무휴업 원칙을 폐지하는, 공휴일에만 문을 닫아야 한다: public holidays as a word of a
      // sentence, not the days a store closes.
      warn("public holidays named in a sentence, not read as closures", index, end)
      return end
    }
    if tokens.hoursFollow(at: tokens.symbol(at: index + 1) == ":" ? index + 2 : index + 1) {
      if pendingEnd == index - 1, let last = pending.last, last.phrase.isRecurring {
        openRulesAsTradingDays(index, end)
      } else {
        warn("opening hours, neither a closure nor a day off", index, end)
      }
      return end
    }
    let opens =
      saysOpenAllYear
      || (index + 1..<end).contains { probe in
        switch tokens.keyword(at: probe) {
        case .business?, .normalOpen?, .restless?: true
        default: false
        }
      }
    if let condition = conditionInClause(from: index + 1, orOffset: true) {
      let offsets = shiftOffsets(from: condition)
      let opensInstead = opens && !hasOffset(from: condition)
      syntax.append(.shift(holidays: .publicHolidays, offsets: opensInstead ? [] : offsets))
      if !opensInstead, offsets.count > 1 {
        warn(
          "a public-holiday shift not understood; the rules' days on public holidays and the days they may move to"
            + " are unknown", index, end)
      }
      return end
    }
    if opens {
      syntax.append(.shift(holidays: .publicHolidays, offsets: []))
    } else {
      syntax.append(.publicHolidaysNamed)
    }
    return index + 1
  }

  /// Whether the clause at `index` names a day offset (`익일`, `전일`).
  private func hasOffset(from index: Int) -> Bool {
    (index..<clauseEnd(from: index)).contains { probe in
      if case .offset(let values)? = tokens.keyword(at: probe) { return values.contains { $0 != 0 } }
      return false
    }
  }

  /// Reads `격주`: the weekdays after it (`격주 일요일`) or of the weekly rule before it
  /// (`매주 일요일 격주 휴무`) close every other week, which ones unknown: all are uncertain.
  mutating func readAlternateWeeks(at index: Int) -> Int {
    let after = readWeekdays(at: index + 1)
    var end = index + 1
    if !after.days.isEmpty {
      syntax.append(.alternateWeeks(.weekdays(after.days)))
      end = after.end
    } else if case .weekly(let days)? = pending.last?.phrase {
      syntax.append(.alternateWeeks(.weekdays(days)))
    } else {
      syntax.append(.alternateWeeks(.closedWeeklyRules))
    }
    warn("every other week (격주) not understood; those days are unknown", index, end)
    return end
  }
}
