/// A word of closing-day text that the parser knows.
enum ClosingKeyword: Hashable {
  case everyMonth  // 매월, 매달
  case everyWeek  // 매주
  case weekday(Weekday)  // 일요일, or 일 alone inside "(일)"
  case ordinal(Int)  // 둘째, 두번째, 마지막 (-1)
  case ordinalSuffix  // 째, 번째 after a digit
  case ordinalPrefix  // 제 before a digit
  case week  // 주 after an ordinal
  case month  // 월 after a number
  case day  // 일 after a number
  case year  // 년 after a number
  case holiday(LunarHoliday)
  case festivals  // 명절: 설날 and 추석 when no holiday is named before it
  case newYear  // 신정
  case offset([Int])  // 당일, 전날, 다음날, 연휴
  case normal  // 정상
  case business  // 영업, 운영
  case normalOpen  // 정상영업
  case openAllYear  // 연중무휴
  case closure  // 휴무, 휴점, 휴업, 쉽니다
  case none  // 없음
  case restless  // 쉬지 (않습니다)
  case however  // 단 alone: 단, …
  case time  // 오전, 오후, 시 and 분 after a number
  case since  // 부터
  case until  // 까지
  case and  // 및, and 과/와 right after a list item
  case instead  // 대신: the day before it gives way to the day after it
  case publicHoliday  // 공휴일, 법정공휴일, 국경일
  case alternateWeeks  // 격주: every other week, which one unknown
  case condition  // 경우, 겹치는, 겹칠: a condition (`공휴일인 경우 익일`)
  /// 행사, 할인, 세일 (`trading: false`): the days before it are named for a sale, not a closure;
  /// 단축, 오픈, 재오픈, 영업시간 (`trading: true`): they are trading days with other hours.
  case notClosure(trading: Bool)
  case change  // 변경: a change notice (`A에서 B로 변경`, `기존 A → 변경 B`)
  case previous  // 기존: the day or rule a change notice replaces follows
  case apply  // 적용: `(12월부터 적용)`
  case changeFrom  // 에서 right after a day or rule: `10일에서 7일로`, `일요일에서 수요일로`
  case including  // 포함: `연중무휴 (명절 당일 포함)`
  /// 이달, 이번 달, 금월 (0), 내달, 다음 달, 익월 (+1), 지난달 (−1): a month named relative to the
  /// notice's date; `nil` for 같은 달, the month named last.
  case relativeMonth(Int?)
}

/// One token of closing-day text; `start..<end` are offsets into the normalized scalars.
struct ClosingToken {
  enum Kind: Hashable {
    /// A run of ASCII digits; `value` is -1 when the run is too long to be a number we use.
    case number(value: Int, digits: Int)
    /// Any other single character (punctuation, brackets, line breaks); `->` and `=>` are `→`.
    case symbol(Unicode.Scalar)
    case keyword(ClosingKeyword)
    /// Words the parser does not know.
    case other
  }

  var kind: Kind
  var start: Int
  var end: Int
}

/// Splits closing-day text into tokens in one linear pass, without regular expressions.
enum ClosingTextScanner {
  /// Folds full-width forms and look-alike punctuation to ASCII, and control characters to spaces.
  static func normalize(_ text: String) -> [Unicode.Scalar] {
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      let value = scalar.value
      let folded: UInt32
      switch value {
      case 0xFF01...0xFF5E: folded = value - 0xFEE0
      case 0x3000, 0x09, 0x0B, 0x0C, 0xA0: folded = 0x20
      case 0x0D: folded = 0x0A
      case 0x00...0x08, 0x0E...0x1F, 0x7F...0x9F: folded = 0x20
      case 0x301C, 0x223C: folded = 0x7E  // wave dashes → ~
      case 0x30FB, 0x318D, 0x2022, 0x2027, 0xFF65, 0x2219: folded = 0xB7  // middle dots → ·
      case 0x3001, 0xFF64: folded = 0x2C  // ideographic comma → ,
      case 0x2010...0x2015, 0x2212: folded = 0x2D  // dashes → -
      case 0x21D2, 0x2794, 0x279C, 0x27A1: folded = 0x2192  // arrows → →
      default: folded = value
      }
      result.append(Unicode.Scalar(folded) ?? " ")
    }
    return result
  }

  static func tokenize(_ scalars: [Unicode.Scalar]) -> [ClosingToken] {
    var tokens: [ClosingToken] = []
    tokens.reserveCapacity(scalars.count)
    var index = 0
    func appendOther(_ start: Int, _ end: Int) {
      if let last = tokens.last, last.kind == .other, last.end == start {
        tokens[tokens.count - 1].end = end
      } else {
        tokens.append(ClosingToken(kind: .other, start: start, end: end))
      }
    }
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == " " {
        index += 1
      } else if isDigit(scalar) {
        var end = index
        var value = 0
        while end < scalars.count, isDigit(scalars[end]) {
          if end - index < 9 { value = value * 10 + Int(scalars[end].value - 0x30) }
          end += 1
        }
        let digits = end - index
        tokens.append(
          ClosingToken(kind: .number(value: digits > 9 ? -1 : value, digits: digits), start: index, end: end))
        index = end
      } else if scalar == "(", index + 2 < scalars.count, scalars[index + 2] == ")",
        let weekday = shortWeekday(scalars[index + 1])
      {
        tokens.append(ClosingToken(kind: .symbol("("), start: index, end: index + 1))
        tokens.append(ClosingToken(kind: .keyword(.weekday(weekday)), start: index + 1, end: index + 2))
        tokens.append(ClosingToken(kind: .symbol(")"), start: index + 2, end: index + 3))
        index += 3
      } else if isHangulSyllable(scalar) {
        if let (keyword, end) = matchKeyword(scalars, at: index, previous: tokens.last) {
          tokens.append(ClosingToken(kind: .keyword(keyword), start: index, end: end))
          index = end
        } else {
          appendOther(index, index + 1)
          index += 1
        }
      } else if scalar == "-" || scalar == "=", index + 1 < scalars.count, scalars[index + 1] == ">" {
        tokens.append(ClosingToken(kind: .symbol("→"), start: index, end: index + 2))
        index += 2
      } else if isWordScalar(scalar) {
        appendOther(index, index + 1)
        index += 1
      } else {
        tokens.append(ClosingToken(kind: .symbol(scalar), start: index, end: index + 1))
        index += 1
      }
    }
    return tokens
  }

  // MARK: - Characters

  static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

  static func isHangulSyllable(_ scalar: Unicode.Scalar) -> Bool {
    (0xAC00...0xD7A3).contains(scalar.value)
  }

  private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isAlphabetic
  }

  /// The weekday of a one-character name: `일`, `월`, …, or `日`, `月`, ….
  static func shortWeekday(_ scalar: Unicode.Scalar) -> Weekday? {
    switch scalar {
    case "일", "日": .sunday
    case "월", "月": .monday
    case "화", "火": .tuesday
    case "수", "水": .wednesday
    case "목", "木": .thursday
    case "금", "金": .friday
    case "토", "土": .saturday
    default: nil
    }
  }

  // MARK: - Keywords

  private struct Entry {
    let scalars: [Unicode.Scalar]
    let keyword: ClosingKeyword
  }

  /// Keywords that match anywhere in a Hangul run, grouped by first scalar, longest first.
  private static let entries: [Unicode.Scalar: [Entry]] = {
    let words: [(String, ClosingKeyword)] = [
      ("매월", .everyMonth), ("매달", .everyMonth), ("매주", .everyWeek),
      ("일요일", .weekday(.sunday)), ("월요일", .weekday(.monday)), ("화요일", .weekday(.tuesday)),
      ("수요일", .weekday(.wednesday)), ("목요일", .weekday(.thursday)), ("금요일", .weekday(.friday)),
      ("토요일", .weekday(.saturday)),
      ("마지막", .ordinal(-1)), ("째", .ordinalSuffix), ("쨰", .ordinalSuffix),
      ("번째", .ordinalSuffix), ("번쨰", .ordinalSuffix),
      ("설날", .holiday(.seollal)), ("구정", .holiday(.seollal)), ("명절", .festivals),
      ("추석", .holiday(.chuseok)), ("한가위", .holiday(.chuseok)), ("신정", .newYear),
      ("당일", .offset([0])), ("전날", .offset([-1])), ("전일", .offset([-1])),
      ("다음날", .offset([1])), ("익일", .offset([1])), ("연휴", .offset([-1, 0, 1])),
      ("정상영업", .normalOpen), ("정상운영", .normalOpen), ("정상", .normal),
      ("영업시간", .notClosure(trading: true)), ("영업", .business), ("운영", .business),
      ("행사", .notClosure(trading: false)), ("할인", .notClosure(trading: false)),
      ("세일", .notClosure(trading: false)),
      ("단축", .notClosure(trading: true)), ("재오픈", .notClosure(trading: true)),
      ("오픈", .notClosure(trading: true)),
      ("변경", .change), ("기존", .previous), ("적용", .apply), ("포함", .including),
      ("연중무휴", .openAllYear), ("의무휴업일", .closure), ("의무휴업", .closure), ("의무휴무", .closure),
      ("휴무일", .closure), ("휴점일", .closure), ("휴업일", .closure),
      ("휴무", .closure), ("휴점", .closure), ("휴업", .closure), ("휴일", .closure), ("휴관", .closure),
      ("쉽니다", .closure),
      ("없음", .none), ("없습니다", .none), ("없어요", .none), ("없이", .none),
      ("오전", .time), ("오후", .time), ("부터", .since), ("까지", .until), ("및", .and),
      ("대신", .instead),
      ("공휴일", .publicHoliday), ("법정공휴일", .publicHoliday), ("국경일", .publicHoliday),
      ("격주", .alternateWeeks), ("경우", .condition), ("겹치", .condition), ("겹칠", .condition),
      ("겹쳐", .condition), ("겹친", .condition), ("겹칩", .condition),
    ]
    var table: [Unicode.Scalar: [Entry]] = [:]
    for (word, keyword) in words {
      let scalars = Array(word.unicodeScalars)
      table[scalars[0], default: []].append(Entry(scalars: scalars, keyword: keyword))
    }
    return table.mapValues { $0.sorted { $0.scalars.count > $1.scalars.count } }
  }()

  /// Korean ordinal stems that need 째 or 번째 after them (두 alone is 두부, 세 alone is 세일).
  private static let ordinalStems: [([Unicode.Scalar], Int)] = [
    (["다", "섯"], 5), (["첫"], 1), (["둘"], 2), (["두"], 2), (["셋"], 3), (["세"], 3),
    (["넷"], 4), (["네"], 4),
  ]

  private static func matches(_ scalars: [Unicode.Scalar], _ word: [Unicode.Scalar], at index: Int) -> Bool {
    guard index + word.count <= scalars.count else { return false }
    for offset in word.indices where scalars[index + offset] != word[offset] { return false }
    return true
  }

  private static func skipSpaces(_ scalars: [Unicode.Scalar], from index: Int) -> Int {
    var index = index
    while index < scalars.count, scalars[index] == " " { index += 1 }
    return index
  }

  /// Whether `previous` ends a list item, so that a 과 or 와 after it joins the next one.
  private static func isListItemEnd(_ previous: ClosingToken?) -> Bool {
    switch previous?.kind {
    case .number?, .symbol(")")?: true
    case .keyword(let keyword)?:
      switch keyword {
      case .ordinal, .ordinalSuffix, .week, .weekday, .day, .holiday, .offset, .newYear, .festivals: true
      default: false
      }
    default: false
    }
  }

  /// Whether `previous` ends a day or a rule, so that 에서 right after it starts a change notice.
  private static func isChangeOrigin(_ previous: ClosingToken?) -> Bool {
    switch previous?.kind {
    case .number?, .symbol(")")?: true
    case .keyword(let keyword)?:
      switch keyword {
      case .weekday, .day, .holiday, .offset: true
      default: false
      }
    default: false
    }
  }

  /// Whether the scalars from `index` continue a short weekday list: a separator, then a full
  /// weekday name or another short name that continues the list.
  private static func isShortWeekdayListItem(_ scalars: [Unicode.Scalar], after index: Int, depth: Int) -> Bool {
    guard depth < 7 else { return false }
    var next = skipSpaces(scalars, from: index)
    guard next < scalars.count else { return false }
    switch scalars[next] {
    case ",", "·", "/": next += 1
    case "및", "과", "와": next += 1
    default: return false
    }
    next = skipSpaces(scalars, from: next)
    guard next < scalars.count, shortWeekday(scalars[next]) != nil else { return false }
    if matches(scalars, ["요", "일"], at: next + 1) { return true }
    if next + 1 < scalars.count, isHangulSyllable(scalars[next + 1]) { return false }
    return isShortWeekdayListItem(scalars, after: next + 1, depth: depth + 1)
  }

  /// Syllables that may follow `시` after a number when it is an hour: `시간`, `시까지`, `시부터`,
  /// `시에`, `시오픈`, `시폐점`, `시영업`, `시마감`, `시조기마감`, `시반`, `시이후`, `시정상`, `시종료`,
  /// `시개점`, `시단축`.
  private static let hourFollowers: Set<Unicode.Scalar> = [
    "간", "까", "부", "에", "오", "폐", "영", "마", "조", "반", "이", "정", "종", "개", "단", "은", "는",
  ]

  /// Whether `keyword` names a holiday: such names match as words only.
  private static func isHolidayName(_ keyword: ClosingKeyword) -> Bool {
    switch keyword {
    case .holiday, .festivals, .newYear, .publicHoliday: true
    default: false
    }
  }

  /// Particles that may end a holiday name (`추석에는`, `설날과`, `추석날`), joined to it.
  private static let particles: [[Unicode.Scalar]] = [
    "에는", "에도", "에만", "까지", "부터", "은", "는", "이", "가", "에", "엔", "과", "와", "도", "의", "을", "를", "날", "만",
    "및", "인", "이면",
  ].map { Array($0.unicodeScalars) }.sorted { $0.count > $1.count }

  /// Whether a word may start at `index`: not inside another word (`대명절`, `시설`), unless a
  /// keyword ends right before it (`설추석`, `명절당일` read from the left).
  private static func isWordStart(_ scalars: [Unicode.Scalar], at index: Int, previous: ClosingToken?) -> Bool {
    guard index > 0, isHangulSyllable(scalars[index - 1]) else { return true }
    if let previous, previous.end == index, case .keyword = previous.kind { return true }
    return false
  }

  /// Whether a word may end at `index`: at the end of a Hangul run, before another keyword
  /// (`추석당일`, `설날연휴`, `추석휴무`), or before a particle that ends the run or comes before a
  /// keyword (`추석에는`, `추석날 휴무`). Not `추석맞이`.
  private static func isWordEnd(_ scalars: [Unicode.Scalar], at index: Int, particle: Bool = true) -> Bool {
    guard index < scalars.count, isHangulSyllable(scalars[index]) else { return true }
    if let candidates = entries[scalars[index]], candidates.contains(where: { matches(scalars, $0.scalars, at: index) })
    {
      return true
    }
    guard particle else { return false }
    for word in particles where matches(scalars, word, at: index) {
      if isWordEnd(scalars, at: index + word.count, particle: false) { return true }
    }
    return false
  }

  /// The words before 달 (a space may come between) that name a month relative to the
  /// notice's date, and the words of one syllable before 월 that do: `이달`, `다음 달`, `금월`.
  private static let relativeMonthStems: [([Unicode.Scalar], Int?)] = [
    (["이", "번"], 0), (["이"], 0), (["내"], 1), (["다", "음"], 1), (["지", "난"], -1), (["같", "은"], nil),
    (["그", "다", "음"], 1),
  ]
  private static let relativeMonthWords: [([Unicode.Scalar], Int)] = [
    (["금", "월"], 0), (["당", "월"], 0), (["익", "월"], 1), (["차", "월"], 1), (["전", "월"], -1),
  ]

  /// A month named relative to the notice's date at `index`, as a word of its own (not 사이달,
  /// 달력, 전월세), and where it ends.
  private static func relativeMonth(
    _ scalars: [Unicode.Scalar], at index: Int, previous: ClosingToken?
  ) -> (Int?, Int)? {
    guard index == 0 || !isHangulSyllable(scalars[index - 1]) else { return nil }
    for (word, offset) in relativeMonthWords where matches(scalars, word, at: index) {
      if isWordEnd(scalars, at: index + word.count) { return (offset, index + word.count) }
    }
    for (stem, offset) in relativeMonthStems where matches(scalars, stem, at: index) {
      let month = skipSpaces(scalars, from: index + stem.count)
      guard month - (index + stem.count) <= 1, matches(scalars, ["달"], at: month),
        isWordEnd(scalars, at: month + 1)
      else { continue }
      return (offset, month + 1)
    }
    return nil
  }

  private static func matchKeyword(
    _ scalars: [Unicode.Scalar], at index: Int, previous: ClosingToken?
  ) -> (ClosingKeyword, Int)? {
    let scalar = scalars[index]
    let afterNumber: Bool
    let afterOrdinal: Bool
    switch previous?.kind {
    case .number?: afterNumber = true; afterOrdinal = false
    case .keyword(.ordinal)?, .keyword(.ordinalSuffix)?: afterNumber = false; afterOrdinal = true
    default: afterNumber = false; afterOrdinal = false
    }
    let previousIsSyllable = index > 0 && isHangulSyllable(scalars[index - 1])
    let nextIsSyllable = index + 1 < scalars.count && isHangulSyllable(scalars[index + 1])
    // Ordinal stems: 둘째, 두 번째, 넷 째, 첫주.
    for (stem, value) in ordinalStems where matches(scalars, stem, at: index) {
      let next = skipSpaces(scalars, from: index + stem.count)
      for suffix in [["번", "째"], ["번", "쨰"], ["째"], ["쨰"]] as [[Unicode.Scalar]] {
        if matches(scalars, suffix, at: next) { return (.ordinal(value), next + suffix.count) }
        if suffix.count == 2, matches(scalars, [suffix[0]], at: next) {
          let second = skipSpaces(scalars, from: next + 1)
          if matches(scalars, [suffix[1]], at: second) { return (.ordinal(value), second + 1) }
        }
      }
      if value == 1, matches(scalars, ["주"], at: index + 1) { return (.ordinal(1), index + 1) }
    }
    if let (offset, end) = relativeMonth(scalars, at: index, previous: previous) {
      return (.relativeMonth(offset), end)
    }
    if let candidates = entries[scalar] {
      for entry in candidates where matches(scalars, entry.scalars, at: index) {
        let end = index + entry.scalars.count
        if isHolidayName(entry.keyword),
          !isWordStart(scalars, at: index, previous: previous)
            || !isWordEnd(scalars, at: end)
        {
          // 추석맞이, 대명절: a holiday name inside another word names no holiday.
          continue
        }
        return (entry.keyword, end)
      }
    }
    // 월·화요일, 토, 일요일: a short weekday name heading a list that ends in a full name.
    if !afterNumber, !previousIsSyllable, let weekday = shortWeekday(scalar),
      isShortWeekdayListItem(scalars, after: index + 1, depth: 0)
    {
      return (.weekday(weekday), index + 1)
    }
    switch scalar {
    case "과" where !nextIsSyllable && isListItemEnd(previous),
      "와" where !nextIsSyllable && isListItemEnd(previous):
      // 둘째와 넷째, 12/13과 12/27, 설날과 추석; not 결과 or 과일.
      return (.and, index + 1)
    case "에"
    where index + 1 < scalars.count && scalars[index + 1] == "서" && previous?.end == index
      && isChangeOrigin(previous):
      // 10일에서, 일요일에서, (일)에서: the day or rule a change notice moves from.
      return (.changeFrom, index + 2)
    case "단" where !previousIsSyllable && !nextIsSyllable:
      return (.however, index + 1)
    case "쉬" where index + 1 < scalars.count && scalars[index + 1] == "지":
      let next = skipSpaces(scalars, from: index + 2)
      if matches(scalars, ["않"], at: next) { return (.restless, index + 2) }
    case "주" where afterNumber || afterOrdinal:
      // 2주, 둘째주, 2주차.
      return (.week, matches(scalars, ["차"], at: index + 1) ? index + 2 : index + 1)
    case "월" where afterNumber: return (.month, index + 1)
    case "일" where afterNumber: return (.day, index + 1)
    case "년" where afterNumber: return (.year, index + 1)
    case "시" where afterNumber:
      // 6시, 6시까지, 18시폐점; not 시설, 시행 (`2/10 시설 보수`).
      if !nextIsSyllable || hourFollowers.contains(scalars[index + 1]) { return (.time, index + 1) }
    case "분" where afterNumber: return (.time, index + 1)
    case "무" where index + 1 < scalars.count && scalars[index + 1] == "휴":
      // 무휴 alone (연중 무휴), not inside 의무휴업.
      if index == 0 || !isHangulSyllable(scalars[index - 1]) { return (.openAllYear, index + 2) }
    case "제":
      let next = skipSpaces(scalars, from: index + 1)
      if next < scalars.count, isDigit(scalars[next]) { return (.ordinalPrefix, index + 1) }
    case "설":
      // 설 alone names 설날 only as a word of its own: not 시설, 설명, 설치.
      if !isWordStart(scalars, at: index, previous: previous) { return nil }
      let next = skipSpaces(scalars, from: index + 1)
      if next >= scalars.count || !isHangulSyllable(scalars[next]) { return (.holiday(.seollal), index + 1) }
      for word in ["연휴", "당일", "전날", "전일", "다음날", "익일", "명절"] {
        if matches(scalars, Array(word.unicodeScalars), at: next) { return (.holiday(.seollal), index + 1) }
      }
    default: break
    }
    return nil
  }
}
