import Foundation

/// A shutdown a source announces for a later day: the store still trades on the as-of date.
public struct UpcomingShutdown: Hashable, Sendable {
  /// The first shut day.
  public var from: CalendarDate
  /// The last shut day of a temporary closure; `nil` when the store closes for good or the
  /// end is not given.
  public var through: CalendarDate?

  public init(from: CalendarDate, through: CalendarDate? = nil) {
    self.from = from
    self.through = through
  }
}

/// What published text says about whether a store trades.
public struct StoreStatusReading: Hashable, Sendable {
  /// The state on the as-of date.
  public var status: StoreStatus
  /// A shutdown announced for a day after the as-of date (`status` is then `trading`).
  public var upcomingShutdown: UpcomingShutdown?

  public init(status: StoreStatus, upcomingShutdown: UpcomingShutdown? = nil) {
    self.status = status
    self.upcomingShutdown = upcomingShutdown
  }

  /// Trading, with nothing published about it.
  public static let trading = StoreStatusReading(status: .trading)

  /// How strongly the reading says the store is shut; the strongest of several readings wins.
  var severity: Int {
    switch status.state {
    case .closed: 5
    case .temporarilyClosed: status.until == nil ? 3 : 4
    case .trading: upcomingShutdown != nil ? 2 : (status.text == nil ? 0 : 1)
    }
  }
}

extension StoreStatus {
  /// Reads a branch's status from everything its source published: a separate state cell or
  /// shut-down date (`statusText`), the hours text and the closing-day text. The reading that
  /// says the store is most shut wins (closed, then a temporary closure with an end date, then
  /// one without, then an announced shutdown, then an explicit `영업중`); a temporary closure
  /// with an end date beats one without (the later end among several). Nothing recognized is
  /// `trading` with no text.
  public static func read(
    statusText: String?, openingHours: String?, closingText: String?, asOf: CalendarDate
  ) -> StoreStatusReading {
    var best = StoreStatusReading.trading
    for text in [statusText, openingHours, closingText] {
      guard let reading = read(text, asOf: asOf) else { continue }
      if reading.severity > best.severity
        || (reading.severity == best.severity && reading.status.state == .temporarilyClosed
          && (reading.status.until ?? asOf) > (best.status.until ?? asOf))
      {
        best = reading
      }
    }
    return best
  }

  /// Reads one published text (a state cell, an hours text, a closing-day text), or `nil` when
  /// it says nothing about the store itself trading or not. The status's `text` is the whole
  /// published text.
  ///
  /// - Closed for good: 영업종료, 영업을 종료, 폐점, 폐업, 운영종료 (not 영업종료 시간, 폐점 30분 전,
  ///   폐점 정리, nor a clause with a time of day or a single day such as 설 당일). With a date
  ///   after the as-of date (`12/31 폐점 예정`, `12/31까지 영업 후 폐점`: shut from 1/1), the store
  ///   still trades and the reading carries an ``UpcomingShutdown``.
  /// - Temporarily closed: 임시휴업, 임시휴점, 임시휴무, 일시휴업, 휴점 중, 휴업 중, 영업 중단,
  ///   리뉴얼/리모델링/새단장 중, 리뉴얼·공사로 휴점 (휴업, 휴무). `…까지` gives `until`
  ///   (`리뉴얼 공사로 12/31까지 휴점` → 12-31); a reopening day (`1/15 재오픈`) gives the day
  ///   before; a range (`12/1~12/31`) or `…부터` starting after the as-of date is an upcoming
  ///   shutdown; an `until` before the as-of date means the closure is over (trading). A clause
  ///   naming one date without `까지`/`부터` (`※ 11/30 시설공사로 휴점`) is a single closing day,
  ///   not a store status, and so is a clause about a single day (`설 당일 휴점`).
  /// - Trading: `영업중` (not `영업 중단`).
  /// - A text that is only a date (`20250831`, `2025-08-31`) is the day the store closes for
  ///   good: closed when on or before the as-of date, an upcoming shutdown after it.
  ///
  /// Plain closing days (`매월 둘째 일요일 휴점`) and openings (`정상영업`) are not a status.
  /// Years: an `until` (`까지`) date without a year is the first such day on or after the first
  /// of the as-of month; other dates without a year are the nearest such day to the as-of date.
  public static func read(_ text: String?, asOf: CalendarDate) -> StoreStatusReading? {
    guard let published = TextCleanup.field(text) else { return nil }
    if let date = StoreStatusText.wholeDate(published) {
      return date <= asOf
        ? StoreStatusReading(status: StoreStatus(state: .closed, text: published))
        : StoreStatusReading(
          status: StoreStatus(state: .trading, text: published), upcomingShutdown: UpcomingShutdown(from: date))
    }
    guard StoreStatusText.mayTellAStatus(published) else { return nil }
    var best: StoreStatusReading?
    let clauses = StoreStatusText.clauses(of: published)
    let reopening = StoreStatusText.reopeningDay(in: clauses)
    for clause in clauses {
      guard
        let reading = StoreStatusText.readClause(clause, published: published, reopening: reopening, asOf: asOf)
      else { continue }
      if best == nil || reading.severity > best!.severity { best = reading }
    }
    return best
  }
}

/// The wording tables and clause reader behind ``StoreStatus/read(_:asOf:)``.
enum StoreStatusText {
  /// Closed for good.
  static let closedWords = ["영업종료", "영업을종료", "영업이종료", "폐점", "폐업", "운영종료"]
  /// What may follow a closed word when it names a time or a sale, not a closure.
  static let closedWordTimeFollowers = ["시간", "시각", "전", "후", "정리", "세일", "시"]
  /// Temporarily closed, on their own.
  static let temporaryWords = [
    "임시휴업", "임시휴점", "임시휴무", "일시휴업", "일시휴점", "일시휴무", "휴점중", "휴업중", "휴관중", "영업중단",
    "영업을중단", "영업일시중단", "영업을일시중단", "운영중단", "리뉴얼중", "리뉴얼공사중", "리모델링중", "리모델링공사중",
    "새단장중", "재단장중",
  ]
  /// A refit or works, which with a shut word is a temporary closure.
  static let worksWords = ["리뉴얼", "리모델링", "공사", "새단장", "재단장", "개보수", "보수"]
  static let shutWords = ["휴점", "휴업", "휴무", "휴관"]
  /// A reopening day: the closure ends the day before.
  static let reopeningWords = ["재오픈", "리오픈", "재개장", "재개점", "영업재개", "그랜드오픈"]
  /// Words that tie a clause to one day (a holiday notice, not a store status).
  static let singleDayWords = ["당일", "전날", "전일", "익일", "다음날", "연휴"]

  /// The text cut into clauses: weekday parentheses (`(일)`, `(토요일)`) are dropped, then it
  /// is cut at brackets, `※`, `*`, `!`, `|`, `;` and a `.` that ends a sentence.
  static func clauses(of text: String) -> [String] {
    var folded = text.contains("(") ? DateScanner.droppingWeekdaysInParentheses(text) : text
    if folded.contains(where: { "〜∼～".contains($0) }) {
      folded = String(folded.map { "〜∼～".contains($0) ? "~" : $0 })
    }
    var clauses: [String] = []
    var current = ""
    let characters = Array(folded)
    for (index, character) in characters.enumerated() {
      let endsSentence =
        character == "." && (index + 1 == characters.count || characters[index + 1].isWhitespace)
      if "()[]{}※*!|;。".contains(character) || endsSentence {
        clauses.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    clauses.append(current)
    return clauses.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  enum Suffix { case until, from, rangeStart, none }

  struct Mention {
    var year: Int?
    var month: Int
    var day: Int
    var suffix: Suffix
  }

  /// The dates a clause mentions, left to right: `YYYY.MM.DD`, `YYYY-MM-DD`, `YYYY/MM/DD`,
  /// `YYYY년 M월 D일`, `YYYYMMDD`, `M월 D일`, `M/D`, each with what follows it (`까지`,
  /// `부터`/`부로`, `~`/`-`). Where several forms start at the same place, the first in that order
  /// wins; a month or day out of range is skipped.
  static func mentions(in clause: String) -> [Mention] {
    guard clause.contains(where: \.isASCIIDigit) else { return [] }
    let text = Array(clause)
    var found: [Mention] = []
    var index = 0
    while index < text.count {
      guard let (mention, end) = DateScanner(text: text).mention(at: index) else {
        index += 1
        continue
      }
      if let mention { found.append(mention) }
      index = end
    }
    return found
  }

  /// The date a mention names. `forward`: the first such day on or after the first of the
  /// as-of month; otherwise the nearest to the as-of date.
  static func resolve(_ mention: Mention, asOf: CalendarDate, forward: Bool) -> CalendarDate? {
    if let year = mention.year { return CalendarDate(year: year, month: mention.month, day: mention.day) }
    if forward {
      let start = asOf.firstOfMonth()
      return [asOf.year, asOf.year + 1].lazy
        .compactMap { CalendarDate(year: $0, month: mention.month, day: mention.day) }
        .first { $0 >= start }
    }
    return CalendarDate.nearest(month: mention.month, day: mention.day, to: asOf)
  }

  /// A text that is nothing but one date with a year.
  static func wholeDate(_ text: String) -> CalendarDate? {
    if let date = CalendarDate(compact: text) ?? CalendarDate(iso: text) { return date }
    guard text.first?.isNumber == true, text.last?.isNumber == true || text.last == "일" else { return nil }
    // One date with a year from the first character to the last, nothing after it.
    let characters = Array(text)
    guard let found = DateScanner(text: characters).mention(at: 0), let mention = found.mention,
      found.end == characters.count, mention.year != nil, mention.suffix == .none
    else { return nil }
    return resolve(mention, asOf: CalendarDate(year: 2000, month: 1, day: 1)!, forward: false)
  }

  /// The day a reopening clause names (`2027년 1월 15일 재오픈`), wherever it stands in the text,
  /// e.g. in parentheses after `리뉴얼 공사 중`.
  static func reopeningDay(in clauses: [String]) -> Mention? {
    for clause in clauses {
      let compact = String(clause.filter { !$0.isWhitespace })
      guard reopeningWords.contains(where: compact.containsText) else { continue }
      if let day = mentions(in: clause).last(where: { $0.suffix == .none }) { return day }
    }
    return nil
  }

  /// One clause's reading; `published` becomes the status text; `reopening` is the text's
  /// reopening day, if any.
  static func readClause(
    _ clause: String, published: String, reopening: Mention?, asOf: CalendarDate
  ) -> StoreStatusReading? {
    let compact = String(clause.filter { !$0.isWhitespace })
    func contains(_ words: [String]) -> Bool { words.contains(where: compact.containsText) }
    let singleDay = contains(singleDayWords)
    let found = mentions(in: clause)

    if isTemporaryClosure(compact) {
      guard !singleDay else { return nil }
      return readTemporary(found, reopening: reopening, published: published, asOf: asOf)
    }
    if hasClosedWord(compact) {
      guard !singleDay, !DateScanner(text: Array(clause)).mentionsATimeOfDay else {
        return nil
      }
      return readClosed(found, compact: compact, published: published, asOf: asOf)
    }
    if compact.containsText("영업중") {
      return StoreStatusReading(status: StoreStatus(state: .trading, text: published))
    }
    return nil
  }

  /// Whether `text` holds any word a status clause needs (a closed, temporary, works or shut
  /// word, or `영업중`); texts without one, most hours and closing texts, are no status.
  static func mayTellAStatus(_ text: String) -> Bool {
    let compact = String(text.filter { !$0.isWhitespace })
    return [closedWords, temporaryWords, worksWords, shutWords, ["영업중"]].contains { words in
      words.contains(where: compact.containsText)
    }
  }

  static func isTemporaryClosure(_ compact: String) -> Bool {
    if temporaryWords.contains(where: compact.containsText) { return true }
    return worksWords.contains(where: compact.containsText) && shutWords.contains(where: compact.containsText)
  }

  /// A closed word not followed by a time or sale word (`영업종료 30분 전`, `폐점시간`, `폐점 정리`).
  static func hasClosedWord(_ compact: String) -> Bool {
    let text = Array(compact)
    for word in closedWords.map(Array.init) where word.count <= text.count {
      for start in 0...(text.count - word.count) where text[start..<(start + word.count)].elementsEqual(word) {
        let rest = text[(start + word.count)...]
        let followedByTime =
          closedWordTimeFollowers.contains { rest.starts(with: $0) } || rest.first?.isNumber == true
        if !followedByTime { return true }
      }
    }
    return false
  }

  static func readTemporary(
    _ found: [Mention], reopening: Mention?, published: String, asOf: CalendarDate
  ) -> StoreStatusReading? {
    func closedNow(until: CalendarDate?) -> StoreStatusReading {
      if let until, until < asOf {
        // The closure the text announces is over.
        return StoreStatusReading(status: StoreStatus(state: .trading, text: published))
      }
      return StoreStatusReading(status: StoreStatus(state: .temporarilyClosed, text: published, until: until))
    }
    if let index = found.firstIndex(where: { $0.suffix == .rangeStart }), index + 1 < found.count {
      guard let start = resolve(found[index], asOf: asOf, forward: false),
        let end = resolve(found[index + 1], asOf: asOf, forward: true)
      else { return nil }
      if start > asOf {
        return StoreStatusReading(
          status: StoreStatus(state: .trading, text: published),
          upcomingShutdown: UpcomingShutdown(from: start, through: end))
      }
      return closedNow(until: end)
    }
    if let last = found.last(where: { $0.suffix == .until }) {
      return closedNow(until: resolve(last, asOf: asOf, forward: true))
    }
    if let reopening,
      found.allSatisfy({
        $0.year == reopening.year && $0.month == reopening.month && $0.day == reopening.day
      }),
      let day = resolve(reopening, asOf: asOf, forward: true)
    {
      return closedNow(until: day.adding(days: -1))
    }
    if let start = found.first(where: { $0.suffix == .from }) {
      guard let day = resolve(start, asOf: asOf, forward: false) else { return nil }
      if day > asOf {
        return StoreStatusReading(
          status: StoreStatus(state: .trading, text: published), upcomingShutdown: UpcomingShutdown(from: day))
      }
      return closedNow(until: nil)
    }
    // A date on its own names the closing day(s) of a notice, not a store status.
    guard found.isEmpty else { return nil }
    return closedNow(until: nil)
  }

  static func readClosed(
    _ found: [Mention], compact: String, published: String, asOf: CalendarDate
  ) -> StoreStatusReading? {
    // `12/31까지 영업 후 폐점`: the named day is the last trading day.
    let firstShutDay: CalendarDate?
    if let last = found.last(where: { $0.suffix == .until }) {
      firstShutDay = resolve(last, asOf: asOf, forward: true)?.adding(days: 1)
    } else if let mention = found.last {
      firstShutDay = resolve(mention, asOf: asOf, forward: false)
    } else {
      firstShutDay = nil
    }
    if let firstShutDay, firstShutDay > asOf {
      return StoreStatusReading(
        status: StoreStatus(state: .trading, text: published), upcomingShutdown: UpcomingShutdown(from: firstShutDay))
    }
    if firstShutDay == nil, compact.containsText("예정") {
      // Announced without a day: the store still trades.
      return StoreStatusReading(status: StoreStatus(state: .trading, text: published))
    }
    return StoreStatusReading(status: StoreStatus(state: .closed, text: published))
  }
}

/// The hand-written scanner behind ``StoreStatusText/mentions(in:)``: dates, times of day and
/// weekdays in parentheses, read over the text's characters.
struct DateScanner {
  let text: [Character]

  /// The date mention starting at `start` and the index after it (and after its suffix), or
  /// `nil` when no date form starts there. The mention is `nil` when its month or day is out
  /// of range.
  func mention(at start: Int) -> (mention: StoreStatusText.Mention?, end: Int)? {
    if let (year, month, day, end) = separatedDate(at: start) ?? compactDate(at: start) {
      return finish(year: year, month: month, day: day, end: end)
    }
    if let (month, day, end) = monthDay(at: start, separator: "월", dayMark: "일") ?? monthDay(at: start, separator: "/")
    {
      return finish(year: nil, month: month, day: day, end: end)
    }
    return nil
  }

  /// Whether the text names a time of day: `10:00`, `9시` (not `시간`).
  var mentionsATimeOfDay: Bool {
    for start in text.indices where text[start].isASCIIDigit {
      for length in [2, 1] {
        guard number(at: start, length: length) != nil else { continue }
        let next = skippingSpaces(start + length)
        if character(at: next) == ":", number(at: skippingSpaces(next + 1), length: 2) != nil { return true }
        if character(at: next) == "시", character(at: next + 1) != "간" { return true }
      }
    }
    return false
  }

  /// `text` without weekdays in parentheses: `(일)`, `( 토요일 )`.
  static func droppingWeekdaysInParentheses(_ text: String) -> String {
    let scanner = DateScanner(text: Array(text))
    var kept: [Character] = []
    var index = 0
    while index < scanner.text.count {
      if let end = scanner.weekdayInParentheses(at: index) {
        index = end
      } else {
        kept.append(scanner.text[index])
        index += 1
      }
    }
    return String(kept)
  }

  // MARK: Forms

  /// `YYYY.M.D`, `YYYY-M-D`, `YYYY/M/D`, `YYYY년 M월 D일`, with optional spaces and a final `일`.
  private func separatedDate(at start: Int) -> (Int, Int, Int, Int)? {
    guard let year = number(at: start, length: 4) else { return nil }
    let first = skippingSpaces(start + 4)
    guard let separator = character(at: first), ".-/년".contains(separator) else { return nil }
    let monthStart = skippingSpaces(first + 1)
    for monthLength in [2, 1] {
      guard let month = number(at: monthStart, length: monthLength) else { continue }
      let second = skippingSpaces(monthStart + monthLength)
      guard let separator = character(at: second), ".-/월".contains(separator) else { continue }
      let dayStart = skippingSpaces(second + 1)
      for dayLength in [2, 1] {
        guard let day = number(at: dayStart, length: dayLength) else { continue }
        let afterDay = skippingSpaces(dayStart + dayLength)
        return (year, month, day, character(at: afterDay) == "일" ? afterDay + 1 : afterDay)
      }
    }
    return nil
  }

  /// `YYYYMMDD`.
  private func compactDate(at start: Int) -> (Int, Int, Int, Int)? {
    guard let year = number(at: start, length: 4), let month = number(at: start + 4, length: 2),
      let day = number(at: start + 6, length: 2)
    else { return nil }
    return (year, month, day, start + 8)
  }

  /// `M<separator>D`, with optional spaces, and `dayMark` after the day when given (`M월 D일`).
  private func monthDay(at start: Int, separator: Character, dayMark: Character? = nil) -> (Int, Int, Int)? {
    for monthLength in [2, 1] {
      guard let month = number(at: start, length: monthLength) else { continue }
      let mark = skippingSpaces(start + monthLength)
      guard character(at: mark) == separator else { continue }
      let dayStart = skippingSpaces(mark + 1)
      for dayLength in [2, 1] {
        guard let day = number(at: dayStart, length: dayLength) else { continue }
        guard let dayMark else { return (month, day, dayStart + dayLength) }
        let end = skippingSpaces(dayStart + dayLength)
        if character(at: end) == dayMark { return (month, day, end + 1) }
      }
    }
    return nil
  }

  /// The index after `(`, a weekday, an optional `요일` and `)`, with optional spaces inside.
  private func weekdayInParentheses(at start: Int) -> Int? {
    guard character(at: start) == "(" else { return nil }
    var index = skippingSpaces(start + 1)
    guard let weekday = character(at: index), "월화수목금토일".contains(weekday) else { return nil }
    index += 1
    if character(at: index) == "요", character(at: index + 1) == "일" { index += 2 }
    index = skippingSpaces(index)
    return character(at: index) == ")" ? index + 1 : nil
  }

  /// The mention with its suffix (`까지`, `부터`/`부로`, `~`/`-`), after optional spaces.
  private func finish(year: Int?, month: Int, day: Int, end: Int) -> (StoreStatusText.Mention?, Int) {
    let suffixStart = skippingSpaces(end)
    var suffix = StoreStatusText.Suffix.none
    var suffixEnd = suffixStart
    if let word = [("까지", StoreStatusText.Suffix.until), ("부터", .from), ("부로", .from)].first(where: {
      character(at: suffixStart) == $0.0.first && character(at: suffixStart + 1) == $0.0.last
    }) {
      (suffix, suffixEnd) = (word.1, suffixStart + 2)
    } else if let mark = character(at: suffixStart), mark == "~" || mark == "-" {
      (suffix, suffixEnd) = (.rangeStart, suffixStart + 1)
    }
    guard (1...12).contains(month), (1...31).contains(day) else { return (nil, suffixEnd) }
    return (StoreStatusText.Mention(year: year, month: month, day: day, suffix: suffix), suffixEnd)
  }

  // MARK: Characters

  private func character(at index: Int) -> Character? { text.indices.contains(index) ? text[index] : nil }

  private func skippingSpaces(_ index: Int) -> Int {
    var index = index
    while let character = character(at: index), character.isWhitespace { index += 1 }
    return index
  }

  /// Exactly `length` ASCII digits at `start`, as a number.
  private func number(at start: Int, length: Int) -> Int? {
    guard start >= 0, start + length <= text.count else { return nil }
    var value = 0
    for character in text[start..<(start + length)] {
      guard let digit = character.asciiDigitValue else { return nil }
      value = value * 10 + digit
    }
    return value
  }
}

extension Character {
  /// Whether this is one of `0`…`9`.
  var isASCIIDigit: Bool { asciiDigitValue != nil }

  /// The value of `0`…`9`, else `nil`.
  var asciiDigitValue: Int? {
    guard let ascii = asciiValue, (48...57).contains(ascii) else { return nil }
    return Int(ascii - 48)
  }
}

extension String {
  /// Whether `word` occurs in the text, compared byte for byte as UTF-8 (the wording tables are
  /// precomposed Hangul, as the cleaned texts are); cheaper than Foundation's `contains`, which
  /// goes through NSString on Linux.
  public func containsText(_ word: String) -> Bool {
    var text = self
    var word = word
    return text.withUTF8 { haystack in
      word.withUTF8 { needle in
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == first
          && UnsafeBufferPointer(rebasing: haystack[start..<(start + needle.count)]).elementsEqual(needle)
        {
          return true
        }
        return false
      }
    }
  }
}
