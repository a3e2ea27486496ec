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
  /// The first shut day of a closure already under way on the as-of date, when the text gives
  /// it (`지난달 16일 영업을 중단했다`); `nil` otherwise.
  public var shutSince: CalendarDate?

  public init(status: StoreStatus, upcomingShutdown: UpcomingShutdown? = nil, shutSince: CalendarDate? = nil) {
    self.status = status
    self.upcomingShutdown = upcomingShutdown
    self.shutSince = shutSince
  }

  /// The shut days the reading gives: from the first shut day (`from`, `nil` when the text does
  /// not say: from the as-of date at the latest) through the last (`until`, `nil`: every later
  /// day), and what the store is then (`closed` or `temporarily-closed`); `nil` when the store
  /// trades with no shutdown announced.
  public var shutSpan: (state: StoreStatus.State, from: CalendarDate?, until: CalendarDate?)? {
    if let upcoming = upcomingShutdown {
      return (upcoming.through == nil ? .closed : .temporarilyClosed, upcoming.from, upcoming.through)
    }
    switch status.state {
    case .trading: return nil
    case .closed, .temporarilyClosed: return (status.state, shutSince, status.until)
    }
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
    let reader = StoreStatusText(published: published, asOf: asOf)
    var best: StoreStatusReading?
    let clauses = StatusClause.clauses(of: ClosingTokens(published), asOf: asOf)
    let reopening = StoreStatusText.reopeningDay(in: clauses)
    for clause in clauses {
      guard let reading = reader.read(clause, reopening: reopening) else { continue }
      if best == nil || reading.severity > best!.severity { best = reading }
    }
    return best
  }
}

/// The wording tables behind ``StoreStatus/read(_:asOf:)``, and the reading of one clause of a
/// published text. Dates are read with the closing-day engine's scanner (``StatusClause``) and
/// resolved with its ``WrittenDateResolver``.
struct StoreStatusText {
  /// Closed for good.
  static let closedWords = ["영업종료", "영업을종료", "영업이종료", "폐점", "폐업", "운영종료"]
  /// Closed for good when a first day comes with them (`11월 16일부터 … 점포가 문을 닫는다`); alone
  /// they may be a closing day (`14일은 대형마트가 문을 닫는다`).
  static let closedFromWords = ["문을닫", "문닫"]
  /// A verb that stops trading on the one day named with it (`지난달 16일 영업을 중단했다`, `오는
  /// 16일 영업을 중단할 예정`): that day is the first shut day.
  static let stoppedWords = [
    "중단했", "중단한", "중단할", "중단된", "중단됐", "중단하", "중단돼", "종료했", "종료한", "종료할", "종료된", "종료됐", "종료하",
    "닫았", "닫는", "닫을", "닫기로", "닫게",
  ]
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

  /// The whole published text: every reading's status text.
  let published: String
  let asOf: CalendarDate
  let dates: WrittenDateResolver

  init(published: String, asOf: CalendarDate) {
    self.published = published
    self.asOf = asOf
    self.dates = WrittenDateResolver(asOf: asOf)
  }

  /// A text that is nothing but one date with a year.
  static func wholeDate(_ text: String) -> CalendarDate? {
    // The year comes first, as four digits or a compact date's eight (`StatusClause.mention`),
    // ASCII or full-width as the tokens fold them: a text not starting so (hours such as
    // `10:00~22:00`) is no date with a year. Asked first, by scalars, before anything else
    // (`20250831` and `2025-08-31` start so too).
    var leadingDigits = 0
    for scalar in text.unicodeScalars {
      guard ("0"..."9").contains(scalar) || ("０"..."９").contains(scalar) else { break }
      leadingDigits += 1
    }
    guard leadingDigits == 4 || leadingDigits == 8 else { return nil }
    if let date = CalendarDate(compact: text) ?? CalendarDate(iso: text) { return date }
    guard text.first?.isNumber == true, text.last?.isNumber == true || text.last == "일" else { return nil }
    // One date with a year from the first token to the last, nothing after it.
    let tokens = ClosingTokens(text)
    guard let found = StatusClause.mention(in: tokens, at: 0), let mention = found.mention,
      found.end == tokens.count, mention.date.year != nil, mention.suffix == .none
    else { return nil }
    return WrittenDateResolver(asOf: CalendarDate(year: 2000, month: 1, day: 1)!).nearestDay(mention.date)
  }

  /// The day a reopening clause names (`2027년 1월 15일 재오픈`), wherever it stands in the text,
  /// e.g. in parentheses after `리뉴얼 공사 중`.
  static func reopeningDay(in clauses: [StatusClause]) -> StatusDateMention? {
    for clause in clauses where reopeningWords.contains(where: clause.compact.containsText) {
      if let day = clause.mentions.last(where: { $0.suffix == .none }) { return day }
    }
    return nil
  }

  /// Whether `text` holds any word a status clause needs (a closed, temporary, works or shut
  /// word, or `영업중`) once its white space is left out; texts without one, most hours and
  /// closing texts, are no status. White space goes by `Character`: a space goes with the marks
  /// that combine with it, and stays after a scalar that prepends to it.
  static func mayTellAStatus(_ text: String) -> Bool {
    var compact: [Unicode.Scalar] = []
    compact.reserveCapacity(text.utf8.count)
    var previous: Unicode.Scalar?
    // The last scalar of a grapheme that starts with white space, while it may go on.
    var leftOut: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      defer { previous = scalar }
      if let last = leftOut {
        if !TextCleanup.breaksGrapheme(last, scalar) {
          leftOut = scalar
          continue
        }
        leftOut = nil
      }
      if isWhitespace(scalar), previous.map({ TextCleanup.breaksGrapheme($0, scalar) }) ?? true {
        leftOut = scalar
      } else {
        compact.append(scalar)
      }
    }
    for start in compact.indices where statusInitials.contains(compact[start]) {
      for word in statusWords where word[0] == compact[start] && compact[start...].starts(with: word) {
        return true
      }
    }
    return false
  }

  /// The first scalars of ``statusWords``, each once: where none is, no word starts.
  private static let statusInitials = Array(Set(statusWords.map { $0[0] }))

  /// The words ``mayTellAStatus(_:)`` looks for, as scalars: those of the tables that hold no
  /// other one (`임시휴업` holds `휴업`).
  private static let statusWords: [[Unicode.Scalar]] = {
    let words = closedWords + closedFromWords + temporaryWords + worksWords + shutWords + ["영업중"]
    return words.filter { word in !words.contains { $0 != word && word.containsText($0) } }
      .map { Array($0.unicodeScalars) }
  }()

  /// White space as `Character.isWhitespace` has it, without the property lookup for ASCII and
  /// Hangul syllables.
  private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20: true
    case 0..<0x80, 0xAC00...0xD7A3: false
    default: scalar.properties.isWhitespace
    }
  }

  static func isTemporaryClosure(_ compact: String) -> Bool {
    if temporaryWords.contains(where: compact.containsText) { return true }
    return worksWords.contains(where: compact.containsText) && shutWords.contains(where: compact.containsText)
  }

  /// A closed word not followed by a time or sale word (`영업종료 30분 전`, `폐점시간`, `폐점 정리`),
  /// compared by `Character`.
  static func hasClosedWord(_ compact: String) -> Bool {
    // The words are precomposed syllables: in a text the quick test finds NFC (no jamo), one of
    // them can be there as characters only where its bytes are, which most clauses lack.
    if TextCleanup.isNFC(compact), !closedWords.contains(where: compact.containsText) { return false }
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

  /// One clause's reading; `reopening` is the text's reopening day, if any.
  func read(_ clause: StatusClause, reopening: StatusDateMention?) -> StoreStatusReading? {
    func contains(_ words: [String]) -> Bool { words.contains(where: clause.compact.containsText) }
    let singleDay = contains(Self.singleDayWords)

    if Self.isTemporaryClosure(clause.compact) {
      guard !singleDay else { return nil }
      return readTemporary(clause.mentions, reopening: reopening, stopsTrading: contains(Self.stoppedWords))
    }
    let closedFrom = contains(Self.closedFromWords) && clause.mentions.contains { $0.suffix == .from }
    if Self.hasClosedWord(clause.compact) || closedFrom {
      guard !singleDay, !clause.namesTimeOfDay else { return nil }
      return readClosed(clause.mentions, compact: clause.compact)
    }
    if clause.compact.containsText("영업중") {
      return StoreStatusReading(status: StoreStatus(state: .trading, text: published))
    }
    return nil
  }

  /// The date a mention names. `forward` (an end, `…까지`): the first such day on or after the
  /// first of the as-of month; otherwise the nearest to the as-of date.
  func resolve(_ mention: StatusDateMention, forward: Bool) -> CalendarDate? {
    forward ? dates.dayFromAsOfMonth(mention.date) : dates.nearestDay(mention.date)
  }

  func readTemporary(
    _ found: [StatusDateMention], reopening: StatusDateMention?, stopsTrading: Bool = false
  ) -> StoreStatusReading? {
    func closedNow(until: CalendarDate?) -> StoreStatusReading {
      if let until, until < asOf {
        // The closure the text announces is over.
        return StoreStatusReading(status: StoreStatus(state: .trading, text: published))
      }
      return StoreStatusReading(status: StoreStatus(state: .temporarilyClosed, text: published, until: until))
    }
    if let index = found.firstIndex(where: { $0.suffix == .rangeStart }), index + 1 < found.count {
      guard let start = resolve(found[index], forward: false), let end = resolve(found[index + 1], forward: true)
      else { return nil }
      if start > asOf {
        return StoreStatusReading(
          status: StoreStatus(state: .trading, text: published),
          upcomingShutdown: UpcomingShutdown(from: start, through: end))
      }
      return closedNow(until: end)
    }
    if let last = found.last(where: { $0.suffix == .until }) {
      return closedNow(until: resolve(last, forward: true))
    }
    if let reopening, found.allSatisfy({ $0.date == reopening.date }), let day = resolve(reopening, forward: true) {
      return closedNow(until: day.adding(days: -1))
    }
    // 지난달 16일 영업을 중단했다, 오는 16일 영업을 중단할 예정: the one day named with the verb
    // that stops trading is the first shut day.
    let start =
      found.first(where: { $0.suffix == .from })
      ?? (found.count == 1 && stopsTrading ? found[0] : nil)
    if let start {
      guard let day = resolve(start, forward: false) else { return nil }
      if day > asOf {
        return StoreStatusReading(
          status: StoreStatus(state: .trading, text: published), upcomingShutdown: UpcomingShutdown(from: day))
      }
      var reading = closedNow(until: nil)
      if !reading.status.isTrading { reading.shutSince = day }
      return reading
    }
    // A date on its own names the closing day(s) of a notice, not a store status.
    guard found.isEmpty else { return nil }
    return closedNow(until: nil)
  }

  func readClosed(_ found: [StatusDateMention], compact: String) -> StoreStatusReading? {
    // `12/31까지 영업 후 폐점`: the named day is the last trading day.
    let firstShutDay: CalendarDate?
    if let last = found.last(where: { $0.suffix == .until }) {
      firstShutDay = resolve(last, forward: true)?.adding(days: 1)
    } else if let mention = found.last {
      firstShutDay = resolve(mention, forward: false)
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
    return StoreStatusReading(status: StoreStatus(state: .closed, text: published), shutSince: firstShutDay)
  }
}
