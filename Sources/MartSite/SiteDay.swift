import MartCore

/// What the site says about one day of one branch, read from the bundle alone: the same
/// reading as the client kit's inside the window (docs/bundle-format.md, "Check
/// `storeStatus.state` first").
enum SiteDayStatus: Hashable, Sendable {
  /// A closing day the source states (`closing.dates`, the shut days left out).
  case closed
  /// The schedule speaks of the day and does not close it.
  case open
  /// Its district's stores close that day; the branch's source says nothing (`closing.expected`).
  case expected
  /// Nobody knows: an unknown range, an unknown status, or a day outside the window.
  case unknown
  /// The store does not trade that day (`storeStatus`).
  case shut

  /// The word in a calendar cell: every status but `open` has one, so no day is told by its
  /// colour alone.
  var cellWord: String {
    switch self {
    case .closed: "휴무"
    case .open: ""
    case .expected: "예상"
    case .unknown: "미확인"
    case .shut: "중단"
    }
  }

  /// The CSS class of a calendar cell.
  var cellClass: String {
    switch self {
    case .closed: "x"
    case .open: ""
    case .expected: "e"
    case .unknown: "u"
    case .shut: "s"
    }
  }
}

/// One branch's days in the bundle's window.
struct BranchDays: Sendable {
  let branch: Branch
  let asOf: CalendarDate
  let window: DateWindow
  private let closed: Set<CalendarDate>
  private let expected: Set<CalendarDate>
  private let shut: ShutDays

  init(_ branch: Branch, day: RunDay) {
    let asOf = day.asOf
    self.branch = branch
    self.asOf = asOf
    self.window = day.window
    closed = Set(branch.closing.dates)
    expected = Set(branch.closing.expected?.dates ?? [])
    shut = ShutDays(branch.storeStatus, asOf: asOf)
  }

  func status(on day: CalendarDate) -> SiteDayStatus {
    if shut.contains(day) { return .shut }
    guard window.contains(day) else { return .unknown }
    if closed.contains(day) { return .closed }
    if expected.contains(day) { return .expected }
    if branch.closing.status == .unknown || branch.closing.unknownRanges.contains(where: { $0.contains(day) }) {
      return .unknown
    }
    return .open
  }

  /// The closing days from the as-of day through the end of the window: the days the page's
  /// structured data marks closed. Shut days are closing days too (the store does not open).
  var closingDaysFromAsOf: [CalendarDate] {
    branch.closing.dates.filter { $0 >= asOf && window.contains($0) }
  }

  /// What the schedule says of the next closing day from the as-of day on (that day included).
  enum NextClosing: Equatable {
    case day(CalendarDate)
    /// An unknown or expected day comes first: nothing can be promised from it.
    case unknownFrom(CalendarDate)
    /// None in the window; every day to its end is open or shut.
    case noneInWindow
  }

  var nextClosing: NextClosing {
    var day = asOf
    while day <= window.through {
      switch status(on: day) {
      case .closed: return .day(day)
      case .unknown, .expected: return .unknownFrom(day)
      case .open, .shut: break
      }
      day = day.adding(days: 1)
    }
    return .noneInWindow
  }

  /// The status in a sentence, for "today" and "tomorrow".
  func sentence(on day: CalendarDate) -> String {
    switch status(on: day) {
    case .closed: "휴무일입니다."
    case .open: "영업합니다\(branch.openingHours.map { " (\($0))" } ?? "")."
    case .expected:
      "휴무 예상일입니다: 매장 사이트는 휴무일을 밝히지 않았고, 같은 시·군·구의 다른 매장들이 이날 쉽니다 (미확인)."
    case .unknown: "알 수 없습니다: 매장 사이트가 이날에 대해 밝히지 않았습니다. 영업한다고 보지 마세요."
    case .shut: branch.storeStatus.state == .closed ? "영업을 종료한 매장입니다." : "임시 휴업 중입니다."
    }
  }

  /// A short word for lists: `휴무`, `영업`, `휴무 예상`, `알 수 없음`, `영업 종료`, `임시 휴업`.
  func word(on day: CalendarDate) -> String {
    switch status(on: day) {
    case .closed: "휴무"
    case .open: "영업"
    case .expected: "휴무 예상"
    case .unknown: "알 수 없음"
    case .shut: branch.storeStatus.state == .closed ? "영업 종료" : "임시 휴업"
    }
  }
}

extension CalendarDate {
  /// `11월 22일 (일)`.
  var koreanText: String { "\(month)월 \(day)일 (\(weekday.koreanShortName))" }

  /// `2026년 11월 22일 (일)`.
  var koreanTextWithYear: String { "\(year)년 \(koreanText)" }
}
