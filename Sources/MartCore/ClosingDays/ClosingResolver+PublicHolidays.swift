// The rules' days a public-holiday condition moves or opens, from the public-holiday table.

/// What a public-holiday condition (`공휴일인 경우 익일 휴무`, `공휴일인 경우 전일 휴무`,
/// `공휴일 정상영업`) does to the rules' days, read from ``KoreanPublicHolidays``:
///
/// - a rule day that is a public holiday is open; with an offset, the day that many days away
///   closes instead (a ``HolidayMove``);
/// - when that day is itself a public holiday (`익일` of 설날 전날 is 설날), the text does not say
///   whether the closure moves on: both days are uncertain;
/// - a day the table cannot tell (outside its years, or left open by the law) is uncertain,
///   and so is the day it may move to.
///
/// One-off days proclaimed after ``KoreanPublicHolidays/oneOffsKnownThrough`` cannot be in the
/// table: a schedule reaching past it says so in a warning.
struct PublicHolidayMoves {
  /// Whether the text has such a condition.
  private(set) var wasRead = false
  private(set) var moves: [HolidayMove] = []
  /// Days the condition makes uncertain.
  private(set) var uncertain: Set<CalendarDate> = []
  /// Why days are uncertain, each once, in the order they arise.
  private var reasons: [String] = []

  /// Reads the condition for `ruleDays` (the rules' closing days over `horizon`): `offset` the
  /// days a closure moves by, `nil` when the store opens on the holiday instead.
  mutating func add(ruleDays: Set<CalendarDate>, offset: Int?, within horizon: DateWindow) {
    wasRead = true
    for day in ruleDays.sorted() {
      switch KoreanPublicHolidays.status(of: day) {
      case .notHoliday:
        continue
      case .unknown(let why):
        note(why)
        uncertain.insert(day)
        if let offset { uncertain.insert(day.adding(days: offset)) }
      case .holiday(let holiday):
        guard let offset else {
          moves.append(HolidayMove(from: day, holiday: holiday.explanation, to: nil))
          continue
        }
        let target = day.adding(days: offset)
        switch KoreanPublicHolidays.status(of: target) {
        case .notHoliday where horizon.contains(target):
          moves.append(HolidayMove(from: day, holiday: holiday.explanation, to: target))
        case .notHoliday:
          // The day it moves to is past the horizon the schedule speaks of.
          uncertain.insert(day)
        case .holiday(let next):
          note(
            "\(day.iso) is \(holiday.name) and \(target.iso), the day it moves to, is \(next.name):"
              + " the text does not say which day closes")
          uncertain.formUnion([day, target])
        case .unknown(let why):
          note(why)
          uncertain.formUnion([day, target])
        }
      }
    }
  }

  private mutating func note(_ reason: String) {
    if !reasons.contains(reason) { reasons.append(reason) }
  }

  /// Opens the moved days of `schedule`, closes the days they move to, and lists the moves and
  /// the warnings: why days are uncertain, and how far the one-off days are known.
  func apply(to schedule: inout ClosingSchedule, within horizon: DateWindow) {
    guard wasRead else { return }
    let kept = moves.filter { !uncertain.contains($0.from) && !($0.to.map(uncertain.contains) ?? false) }
    schedule.exceptions = Set(schedule.exceptions).union(kept.map(\.from)).sorted()
    schedule.dates = Set(schedule.dates).union(kept.compactMap(\.to)).sorted()
    schedule.holidayMoves = kept
    schedule.warnings += reasons
    if let warning = Self.oneOffsWarning(within: horizon), !schedule.warnings.contains(warning) {
      schedule.warnings.append(warning)
    }
  }

  /// The warning a schedule reading the table past ``KoreanPublicHolidays/oneOffsKnownThrough``
  /// carries, or `nil` when `horizon` ends before it.
  static func oneOffsWarning(within horizon: DateWindow) -> String? {
    guard horizon.through > KoreanPublicHolidays.oneOffsKnownThrough else { return nil }
    return "public holidays after \(KoreanPublicHolidays.oneOffsKnownThrough.iso): one-off days (elections,"
      + " temporary holidays) proclaimed later are not known; a closing day on one of them may move"
  }
}
