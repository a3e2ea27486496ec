/// The tokens of one closing-day text (``ClosingTextScanner``) with the scalars they stand for,
/// and the questions every reader of them asks: what kind of token stands at an index, and
/// whether a few tokens form a particle, a clock time or opening hours. An index out of range
/// holds nothing.
struct ClosingTokens {
  /// The text, normalized (``ClosingTextScanner/normalize(_:)``).
  let scalars: [Unicode.Scalar]
  let tokens: [ClosingToken]

  init(_ text: String) {
    scalars = ClosingTextScanner.normalize(text)
    tokens = ClosingTextScanner.tokenize(scalars)
  }

  var count: Int { tokens.count }

  var indices: Range<Int> { tokens.indices }

  subscript(index: Int) -> ClosingToken { tokens[index] }

  // MARK: - One token

  func keyword(at index: Int) -> ClosingKeyword? {
    guard tokens.indices.contains(index), case .keyword(let keyword) = tokens[index].kind else { return nil }
    return keyword
  }

  func number(at index: Int) -> (value: Int, digits: Int)? {
    guard tokens.indices.contains(index), case .number(let value, let digits) = tokens[index].kind, value >= 0
    else { return nil }
    return (value, digits)
  }

  func symbol(at index: Int) -> Unicode.Scalar? {
    guard tokens.indices.contains(index), case .symbol(let symbol) = tokens[index].kind else { return nil }
    return symbol
  }

  func weekday(at index: Int) -> Weekday? {
    if case .weekday(let weekday)? = keyword(at: index) { return weekday }
    return nil
  }

  /// A one-character weekday name written alone: `월` in `월/화`.
  func shortWeekday(at index: Int) -> Weekday? {
    guard tokens.indices.contains(index), tokens[index].kind == .other, tokens[index].end - tokens[index].start == 1
    else { return nil }
    return ClosingTextScanner.shortWeekday(scalars[tokens[index].start])
  }

  /// `,`, `·`, `/`, `&` or `및` between the items of a list.
  func isListSeparator(at index: Int) -> Bool {
    if keyword(at: index) == .and { return true }
    guard let symbol = symbol(at: index) else { return false }
    return symbol == "," || symbol == "·" || symbol == "/" || symbol == "&"
  }

  /// Whether `index` names a holiday: 설날, 추석, 명절, 신정.
  func isHolidayWord(at index: Int) -> Bool {
    switch keyword(at: index) {
    case .holiday?, .festivals?, .newYear?: true
    default: false
    }
  }

  /// Whether `index` holds a particle after a day or month: `1/1은`, `12월은`, `12월에는`.
  func isParticle(at index: Int) -> Bool {
    guard tokens.indices.contains(index), tokens[index].kind == .other else { return false }
    let word = scalars[tokens[index].start..<tokens[index].end]
    return ["은", "는", "에", "에는", "의", "중"].contains { word.elementsEqual($0.unicodeScalars) }
  }

  /// Whether `index` holds a topic or object particle after a noun: `휴무일은`, `휴무일을`.
  func isTopicParticle(at index: Int) -> Bool {
    guard tokens.indices.contains(index), tokens[index].kind == .other else { return false }
    let word = scalars[tokens[index].start..<tokens[index].end]
    return ["은", "는", "을", "를", "이", "가"].contains { word.elementsEqual($0.unicodeScalars) }
  }

  /// Whether `index` holds one of `words` as a whole token.
  func isWord(at index: Int, in words: [String]) -> Bool {
    guard tokens.indices.contains(index), tokens[index].kind == .other else { return false }
    let word = scalars[tokens[index].start..<tokens[index].end]
    return words.contains { word.elementsEqual($0.unicodeScalars) }
  }

  /// Whether `index` holds 시 or 분 after a number, rather than 오전 or 오후.
  func isClockUnit(at index: Int) -> Bool {
    keyword(at: index) == .time && tokens[index].end - tokens[index].start == 1
  }

  /// `영업시간`, `정상영업시간`, `영업점`: 영업 as part of a noun, not a verb.
  func isNoun(_ index: Int) -> Bool {
    let end = tokens[index].end
    guard end < scalars.count, tokens.indices.contains(index + 1), tokens[index + 1].start == end else {
      return false
    }
    return ["시", "점", "장", "소", "부"].contains(scalars[end])
  }

  // MARK: - A few tokens

  /// Whether opening hours start at `index`, maybe after a particle: `10:00~22:00`, `오후 6시`,
  /// `18시`, `은 오후 1시`.
  func hoursFollow(at index: Int) -> Bool {
    let start = isParticle(at: index) ? index + 1 : index
    if keyword(at: start) == .time { return true }  // 오전, 오후
    guard number(at: start) != nil else { return false }
    return (symbol(at: start + 1) == ":" && number(at: start + 2) != nil) || keyword(at: start + 1) == .time
  }

  /// The text of the tokens `start..<end` (at least one, at most 60 scalars), quoted in warnings.
  func excerpt(_ start: Int, _ end: Int) -> String {
    let from = tokens[min(start, tokens.count - 1)].start
    let to = tokens[min(max(end, start + 1), tokens.count) - 1].end
    return String(scalars: scalars[from..<min(to, from + 60)])
  }
}
