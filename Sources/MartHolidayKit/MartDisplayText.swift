/// The language of the kit's display texts: Korean, the language of the stores and their
/// sites, unless the app asks for English.
public enum MartLanguage: String, Hashable, Sendable, CaseIterable {
  case korean
  case english
}

extension MartDay {
  /// The day as people read it: `11월 22일(일)`, or `Sun 22 Nov` in English.
  public func displayText(_ language: MartLanguage = .korean) -> String {
    switch language {
    case .korean:
      return "\(month)월 \(day)일(\(["일", "월", "화", "수", "목", "금", "토"][weekday - 1]))"
    case .english:
      let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
      let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
      return "\(weekdays[weekday - 1]) \(day) \(months[month - 1])"
    }
  }
}

extension MartDayStatus {
  /// A short label for a day of this status, for a calendar cell or a list: `휴무`, `영업`,
  /// `정보 없음` (never "open"), `영업 중단`, `휴무 예상 (미확인)`. A branch's own
  /// ``MartBranch/dayText(on:_:)`` says of a shut day why it is shut (`폐점`, `임시휴업`).
  public func displayText(_ language: MartLanguage = .korean) -> String {
    switch (self, language) {
    case (.closed, .korean): "휴무"
    case (.closed, .english): "closed"
    case (.open, .korean): "영업"
    case (.open, .english): "open"
    case (.unknown, .korean): "정보 없음"
    case (.unknown, .english): "not known"
    case (.shut, .korean): "영업 중단"
    case (.shut, .english): "not trading"
    case (.expectedClosed, .korean): "휴무 예상 (미확인)"
    case (.expectedClosed, .english): "expected to close (not confirmed)"
    }
  }
}

extension MartBrandFreshness {
  /// How current the data is, for a line under a closing day: `최신 정보`; for a stale brand
  /// `11월 20일(금) 기준 정보 · 매장에 확인하세요` (the day its source was last read); `휴무 정보 없음`
  /// for a missing one.
  public func displayText(_ language: MartLanguage = .korean) -> String {
    switch (self, language) {
    case (.fresh, .korean): return "최신 정보"
    case (.fresh, .english): return "up to date"
    case (.stale(let lastGood), .korean):
      return "\(lastGood.map { $0.displayText(.korean) + " 기준" } ?? "이전") 정보 · 매장에 확인하세요"
    case (.stale(let lastGood), .english):
      return "data \(lastGood.map { "as of " + $0.displayText(.english) } ?? "from an earlier day") · check with the store"
    case (.missing, .korean): return "휴무 정보 없음"
    case (.missing, .english): return "no closing-day data"
    }
  }
}

extension MartBranch {
  /// What to show for `day`: ``MartDayStatus/displayText(_:)`` of ``status(on:)``, except that a
  /// shut day says why: `폐점` (closed for good, or on and after the day it closes for good) or
  /// `임시휴업` (closed for a while).
  public func dayText(on day: MartDay, _ language: MartLanguage = .korean) -> String {
    let status = status(on: day)
    guard status == .shut else { return status.displayText(language) }
    return shutText(language)
  }

  /// `폐점` or `임시휴업` (`closed for good`, `temporarily closed`) after the store status.
  func shutText(_ language: MartLanguage) -> String {
    switch (storeStatus.state, language) {
    case (.temporarilyClosed, .korean): "임시휴업"
    case (.temporarilyClosed, .english): "temporarily closed"
    case (.closed, .korean), (.trading, .korean): "폐점"
    case (.closed, .english), (.trading, .english): "closed for good"
    }
  }

  /// The next closing day after `day` in words (``nextClosing(after:)``): `다음 휴무일 11월 22일(일)`,
  /// `다음 휴무일 알 수 없음` when an unknown day comes first (never "none"), and for a store
  /// shut on the day after, why (`폐점`, or `임시휴업` with the day it ends when known).
  public func nextClosingText(after day: MartDay, _ language: MartLanguage = .korean) -> String {
    if status(on: day.adding(days: 1)) == .shut {
      let shut = shutText(language)
      guard storeStatus.state == .temporarilyClosed, let until = storeStatus.until else { return shut }
      return language == .korean
        ? "\(shut) (\(until.displayText(.korean))까지)" : "\(shut) (until \(until.displayText(.english)))"
    }
    switch (nextClosing(after: day), language) {
    case (.closing(let next), .korean): return "다음 휴무일 \(next.displayText(.korean))"
    case (.closing(let next), .english): return "next closing day \(next.displayText(.english))"
    case (.unknownFrom, .korean): return "다음 휴무일 알 수 없음"
    case (.unknownFrom, .english): return "next closing day not known"
    case (.noneKnown, .korean): return "1년 안에 휴무일 없음"
    case (.noneKnown, .english): return "no closing day within a year"
    }
  }
}
