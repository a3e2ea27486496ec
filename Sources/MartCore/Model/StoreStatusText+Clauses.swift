/// A date a status clause names, as written, with the word or mark right after it.
struct StatusDateMention: Equatable {
  enum Suffix: Equatable {
    /// `까지`: the last day of something.
    case until
    /// `부터`, `부로`: the first day of something.
    case from
    /// `~` or `-`: the first day of a range, whose end is the next mention.
    case rangeStart
    case none
  }

  var date: WrittenDate
  var suffix: Suffix
}

/// One clause of a published status text, read from the closing-day engine's tokens
/// (``ClosingTokens``): its words without spaces, the dates it names and whether it names a time
/// of day.
///
/// Clauses end where the engine's clauses end (``ClosingClauseParser/clauseBreaks``: brackets,
/// `!`, `※`, `*`, `;`, a `.` that is not part of a date) and at `{`, `}`, `|` and `。`.
/// Weekdays in parentheses (`(일)`, `( 토요일 )`) are dropped, so `12월 31일(목)까지` is one date
/// with `까지` after it.
struct StatusClause {
  /// The clause's text without spaces and without weekdays in parentheses, for the wording tables.
  var compact = ""
  /// The dates, left to right (a mention with a month or day out of range is left out).
  var mentions: [StatusDateMention] = []
  /// Whether a number is followed by a time of day: `10:00`, `9시` (not `시간`).
  var namesTimeOfDay = false

  /// The marks that end a status clause besides the engine's clause breaks.
  static let extraBreaks: Set<Unicode.Scalar> = ["{", "}", "|", "。"]

  /// The clauses of a text, left to right; clauses with no words are left out.
  static func clauses(of tokens: ClosingTokens, asOf: CalendarDate? = nil) -> [StatusClause] {
    var clauses: [StatusClause] = []
    var current = StatusClause()
    var index = 0
    while index < tokens.count {
      if let end = weekdayInParentheses(in: tokens, at: index) {
        index = end
      } else if let (mention, end) = mention(in: tokens, at: index) ?? dayAlone(in: tokens, at: index, asOf: asOf) {
        if let mention { current.mentions.append(mention) }
        current.append(tokens, index..<end)
        index = end
      } else if let symbol = tokens.symbol(at: index),
        ClosingClauseParser.clauseBreaks.contains(symbol) || extraBreaks.contains(symbol)
      {
        if !current.compact.isEmpty { clauses.append(current) }
        current = StatusClause()
        index += 1
      } else {
        if isTimeOfDay(in: tokens, at: index) { current.namesTimeOfDay = true }
        current.append(tokens, index..<(index + 1))
        index += 1
      }
    }
    if !current.compact.isEmpty { clauses.append(current) }
    return clauses
  }

  /// Appends the scalars of `range`'s tokens, spaces left out.
  private mutating func append(_ tokens: ClosingTokens, _ range: Range<Int>) {
    for index in range {
      compact += String(scalars: tokens.scalars[tokens[index].start..<tokens[index].end])
    }
  }

  /// The date written at token `index` and the token after it (and after any weekday in
  /// parentheses), or `nil` when no date starts there: `YYYY.M.D`, `YYYY-M-D`, `YYYY/M/D`,
  /// `YYYY년 M월 D일` (any of those separators in any order, an optional `일` at the end),
  /// `YYYYMMDD`, `M월 D일`, `M/D`. The mention is `nil` when its month or day is out of range.
  /// The suffix is read from the token after the date, which stays in the clause's words.
  static func mention(in tokens: ClosingTokens, at index: Int) -> (mention: StatusDateMention?, end: Int)? {
    guard let first = tokens.number(at: index) else { return nil }
    func isSeparator(_ at: Int, _ word: ClosingKeyword) -> Bool {
      if let symbol = tokens.symbol(at: at) { return symbol == "." || symbol == "-" || symbol == "/" }
      return tokens.keyword(at: at) == word
    }
    let written: WrittenDate
    var end: Int
    if first.digits == 4, isSeparator(index + 1, .year), let month = tokens.number(at: index + 2), month.digits <= 2,
      isSeparator(index + 3, .month), let day = tokens.number(at: index + 4), day.digits <= 2
    {
      written = WrittenDate(year: first.value, month: month.value, day: day.value)
      end = tokens.keyword(at: index + 5) == .day ? index + 6 : index + 5
    } else if first.digits == 8 {
      written = WrittenDate(year: first.value / 10000, month: first.value / 100 % 100, day: first.value % 100)
      end = index + 1
    } else if first.digits <= 2, tokens.keyword(at: index + 1) == .month, let day = tokens.number(at: index + 2),
      day.digits <= 2, tokens.keyword(at: index + 3) == .day
    {
      written = WrittenDate(year: nil, month: first.value, day: day.value)
      end = index + 4
    } else if first.digits <= 2, tokens.symbol(at: index + 1) == "/", let day = tokens.number(at: index + 2),
      day.digits <= 2
    {
      written = WrittenDate(year: nil, month: first.value, day: day.value)
      end = index + 3
    } else {
      return nil
    }
    while let after = weekdayInParentheses(in: tokens, at: end) { end = after }
    guard (1...12).contains(written.month), (1...31).contains(written.day) else { return (nil, end) }
    return (StatusDateMention(date: written, suffix: suffix(in: tokens, at: end)), end)
  }

  /// A day written alone as the press writes it, relative to the as-of date: `지난달 16일`,
  /// `내달 1일`, `이달 30일` (the month named relative to the as-of date), `오는 16일` (the next
  /// such day on or after the as-of date), `지난 16일` (the last one before it). `nil` when no such
  /// day starts at `index` or no as-of date is given.
  static func dayAlone(in tokens: ClosingTokens, at index: Int, asOf: CalendarDate?) -> (
    mention: StatusDateMention?, end: Int
  )? {
    guard let asOf else { return nil }
    var dayIndex = index
    var month: CalendarDate?
    var direction = 0
    if case .relativeMonth(let offset?)? = tokens.keyword(at: index) {
      month = asOf.firstOfMonth(addingMonths: offset)
      dayIndex = index + 1
    } else if tokens.isWord(at: index, in: ["오는"]) {
      direction = 1
      dayIndex = index + 1
    } else if tokens.isWord(at: index, in: ["지난"]) {
      direction = -1
      dayIndex = index + 1
    } else {
      return nil
    }
    guard let day = tokens.number(at: dayIndex), day.digits <= 2, tokens.keyword(at: dayIndex + 1) == .day else {
      return nil
    }
    if month == nil {
      let thisMonth = asOf.firstOfMonth()
      switch direction {
      case 1: month = day.value >= asOf.day ? thisMonth : thisMonth.firstOfMonth(addingMonths: 1)
      default: month = day.value < asOf.day ? thisMonth : thisMonth.firstOfMonth(addingMonths: -1)
      }
    }
    var end = dayIndex + 2
    while let after = weekdayInParentheses(in: tokens, at: end) { end = after }
    guard let month, CalendarDate(year: month.year, month: month.month, day: day.value) != nil else {
      return (nil, end)
    }
    let written = WrittenDate(year: month.year, month: month.month, day: day.value)
    return (StatusDateMention(date: written, suffix: suffix(in: tokens, at: end)), end)
  }

  /// What the token at `index` says of the date before it.
  private static func suffix(in tokens: ClosingTokens, at index: Int) -> StatusDateMention.Suffix {
    switch tokens.keyword(at: index) {
    case .until?: return .until
    case .since?: return .from
    default: break
    }
    if let symbol = tokens.symbol(at: index), symbol == "~" || symbol == "-" { return .rangeStart }
    // 부로 is no keyword of the engine: it starts a word of its own (`부로`, `부로폐점`).
    guard tokens.indices.contains(index), tokens[index].kind == .other else { return .none }
    return tokens.scalars[tokens[index].start...].starts(with: ["부", "로"] as [Unicode.Scalar]) ? .from : .none
  }

  /// The token after `(`, a weekday (`일`, `일요일`) and `)`, or `nil` when no weekday in
  /// parentheses starts at `index`.
  private static func weekdayInParentheses(in tokens: ClosingTokens, at index: Int) -> Int? {
    guard tokens.symbol(at: index) == "(",
      tokens.weekday(at: index + 1) ?? tokens.shortWeekday(at: index + 1) != nil,
      tokens.symbol(at: index + 2) == ")"
    else { return nil }
    return index + 3
  }

  /// Whether the token at `index` is a number followed by a time of day: `:` and two digits, or
  /// `시` that does not start `시간`.
  private static func isTimeOfDay(in tokens: ClosingTokens, at index: Int) -> Bool {
    guard tokens.indices.contains(index + 1), case .number = tokens[index].kind else { return false }
    if tokens.symbol(at: index + 1) == ":", let minutes = tokens.number(at: index + 2), minutes.digits >= 2 {
      return true
    }
    let next = tokens[index + 1].start
    guard tokens.scalars[next] == "시" else { return false }
    return next + 1 == tokens.scalars.count || tokens.scalars[next + 1] != "간"
  }
}
