import ArgumentParser
import Foundation
import MartCore

/// `mart-holiday rule`: reads one closing-day text and prints the dates it closes.
struct RuleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rule",
    abstract: "Reads a Korean closing-day text and prints the closing dates.",
    discussion: """
      Example: mart-holiday rule --as-of 2026-11-22 "매월 둘째·넷째 일요일"
      Without --from/--to the window is the as-of month and the next two months.
      A closing day moved or opened by a public-holiday condition ("공휴일인 경우 익일 휴무") is \
      listed with why ("moved:" lines; "holidayMoves" in JSON). Public holidays are known for \
      2000–2050; one-off days (elections, temporary holidays) as proclaimed up to the date the \
      table was last checked ("publicHolidays" in JSON).
      """)

  @Option(
    parsing: .unconditional,
    help: "Date the text is read as of, YYYY-MM-DD, \(SupportedDates.asOfRangeText) (default: today in Asia/Seoul).")
  var asOf: String?

  @Option(parsing: .unconditional, help: "First day of the window, YYYY-MM-DD, \(SupportedDates.dayRangeText).")
  var from: String?

  @Option(parsing: .unconditional, help: "Last day of the window, YYYY-MM-DD, \(SupportedDates.dayRangeText).")
  var to: String?

  @Option(help: "Output format: text or json.")
  var format: OutputFormat = .text

  @Option(
    help: """
      What the text's dates speak of where the text does not say: as-of-through-last-listed \
      (a list of next closing days, known through its last date), whole-months (a source whose \
      lists give every closing day of their months) or listed-days-only.
      """)
  var coverage: DateCoverage = .asOfThroughLastListed

  @Argument(help: "The closing-day text.")
  var text: String

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  private struct Window {
    let asOf: CalendarDate
    let from: CalendarDate
    let through: CalendarDate
  }

  func validate() throws {
    _ = try window()
  }

  func run() throws {
    let window = try window()
    var (schedule, changes) = ClosingSchedule.parseExplained(text, asOf: window.asOf, coverage: coverage)
    var dates = schedule.closedDates(from: window.from, through: window.through)
    var unknown = schedule.unknownRanges(from: window.from, through: window.through)
    var knownThrough = schedule.knownThrough(from: window.from, through: window.through)
    // 11월 16일부터 … 점포가 문을 닫는다: a store status, whose shut days are closed whatever
    // the closing days say.
    let status = StatusOutput(StoreStatus.read(text, asOf: window.asOf), asOf: window.asOf)
    if let shut = status.shutDays(from: window.from, through: window.through) {
      dates = Array(Set(dates).union(shut.days)).sorted()
      unknown = DateWindow.removing(shut.span, from: unknown)
      if let known = knownThrough, shut.span.through > known { knownThrough = shut.span.through }
      if schedule.status != .closures {
        schedule.status = .closures
      }
    }
    switch format {
    case .json:
      StandardStreams.outLine(try json(schedule, changes, dates, unknown, knownThrough, status, window))
    case .text:
      StandardStreams.outLine(summary(schedule, changes, dates, unknown, knownThrough, status, window))
    }
  }

  /// The store status the text tells, as `rule` prints it (`storeStatus` in JSON): what the
  /// store is from `from` (`closed`, `temporarily-closed`, or `trading` when nothing shuts it)
  /// through `until` (`null`: every later day), and the published text it was read from.
  struct StatusOutput: Encodable {
    let state: StoreStatus.State
    let from: CalendarDate?
    let until: CalendarDate?
    let text: String?
    /// The as-of date: a shut store whose text gives no first day is shut from it.
    let asOf: CalendarDate

    init(_ reading: StoreStatusReading?, asOf: CalendarDate) {
      self.asOf = asOf
      if let reading, let span = reading.shutSpan {
        (state, from, until, text) = (span.state, span.from, span.until, reading.status.text)
      } else {
        (state, from, until, text) = (.trading, nil, nil, reading?.status.text)
      }
    }

    enum CodingKeys: String, CodingKey { case state, from, until, text }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(state, forKey: .state)
      try container.encode(from, forKey: .from)  // null: the text gives no first day
      try container.encode(until, forKey: .until)  // null: every later day
      try container.encode(text, forKey: .text)
    }

    /// The shut days within `from...through` and the span they make; `nil` when none. A
    /// closure the text gives no first day for shuts from the as-of date.
    func shutDays(from start: CalendarDate, through end: CalendarDate) -> (days: [CalendarDate], span: DateWindow)? {
      guard state != .trading else { return nil }
      let first = max(from ?? asOf, start)
      let last = min(until ?? end, end)
      guard first <= last else { return nil }
      let span = DateWindow(from: first, through: last)
      var days: [CalendarDate] = []
      var day = first
      while day <= last {
        days.append(day)
        day = day.adding(days: 1)
      }
      return (days, span)
    }

    /// One line for the text output.
    var summary: String? {
      guard state != .trading else { return nil }
      let since = from.map { "from \($0.iso)" } ?? "now"
      let end = until.map { "through \($0.iso)" } ?? "(every later day shut)"
      return "store status: \(state.rawValue) \(since) \(end)"
    }
  }

  private func window() throws -> Window {
    func date(_ value: String?, _ name: String) throws -> CalendarDate? {
      guard let value else { return nil }
      guard let date = CalendarDate(iso: value) else {
        throw ValidationError("--\(name) must be a real date written YYYY-MM-DD, got \"\(value)\"")
      }
      return date
    }
    guard let asOf = try date(asOf, "as-of") ?? KoreanCalendar.date(at: Date()) else {
      throw ValidationError("the system clock gives no date; give --as-of")
    }
    try SupportedDates.checkAsOf(asOf, option: "--as-of")
    let defaultWindow = DateWindow.threeMonths(startingAt: asOf)
    let from = try date(from, "from") ?? defaultWindow.from
    let through = try date(to, "to") ?? defaultWindow.through
    try SupportedDates.checkDay(from, option: "--from")
    try SupportedDates.checkDay(through, option: "--to")
    guard from <= through else {
      throw ValidationError("--from \(from.iso) is after --to \(through.iso)")
    }
    return Window(asOf: asOf, from: from, through: through)
  }

  private struct Output: Encodable {
    let status: ClosingStatus
    let asOf: CalendarDate
    let from: CalendarDate
    let to: CalendarDate
    let dates: [CalendarDate]
    let unknownRanges: [DateWindow]
    let knownThrough: CalendarDate?
    let warnings: [String]
    let schedule: ClosingSchedule
    let holidayMoves: [MovedDay]
    /// The change notices applied: dates moved, rules replaced from a day on.
    let changes: [ClosingChange]
    /// The store status the text tells.
    let storeStatus: StatusOutput

    /// A moved or opened closing day of the window, with why.
    struct MovedDay: Encodable {
      let from: CalendarDate
      let to: CalendarDate?
      let holiday: String
      let why: String
    }

    /// What the public-holiday table covers.
    struct PublicHolidayTable: Encodable {
      let firstYear = KoreanPublicHolidays.years.lowerBound
      let lastYear = KoreanPublicHolidays.years.upperBound
      let oneOffsKnownThrough = KoreanPublicHolidays.oneOffsKnownThrough
    }

    enum CodingKeys: String, CodingKey {
      case status, asOf = "as-of", from, to, dates, unknownRanges, knownThrough, warnings, schedule, holidayMoves,
        publicHolidays, changes, storeStatus
    }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(status, forKey: .status)
      try container.encode(asOf, forKey: .asOf)
      try container.encode(from, forKey: .from)
      try container.encode(to, forKey: .to)
      try container.encode(dates, forKey: .dates)
      try container.encode(unknownRanges, forKey: .unknownRanges)
      try container.encode(knownThrough, forKey: .knownThrough)  // null: a rule without an end
      try container.encode(warnings, forKey: .warnings)
      try container.encode(schedule, forKey: .schedule)
      try container.encode(holidayMoves, forKey: .holidayMoves)
      try container.encode(PublicHolidayTable(), forKey: .publicHolidays)
      try container.encode(changes, forKey: .changes)
      try container.encode(storeStatus, forKey: .storeStatus)
    }
  }

  private func json(
    _ schedule: ClosingSchedule, _ changes: [ClosingChange], _ dates: [CalendarDate], _ unknown: [DateWindow],
    _ knownThrough: CalendarDate?, _ status: StatusOutput,
    _ window: Window
  ) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let output = Output(
      status: schedule.status, asOf: window.asOf, from: window.from, to: window.through, dates: dates,
      unknownRanges: unknown, knownThrough: knownThrough, warnings: schedule.warnings, schedule: schedule,
      holidayMoves: Self.moves(of: schedule, in: window).map {
        Output.MovedDay(from: $0.from, to: $0.to, holiday: $0.holiday, why: $0.explanation)
      },
      changes: changes, storeStatus: status)
    return String(decoding: try encoder.encode(output), as: UTF8.self)
  }

  private func summary(
    _ schedule: ClosingSchedule, _ changes: [ClosingChange], _ dates: [CalendarDate], _ unknown: [DateWindow],
    _ knownThrough: CalendarDate?, _ status: StatusOutput,
    _ window: Window
  ) -> String {
    var lines = [
      "status: \(schedule.status.rawValue)",
      "window: \(window.from.iso) … \(window.through.iso) (as of \(window.asOf.iso))",
    ]
    if schedule.status == .unknown {
      lines.append("closing days unknown: do not assume the store is open")
    }
    lines.append(
      "closed: "
        + (dates.isEmpty
          ? "none in the window"
          : dates.map { "\($0.iso)(\($0.weekday.koreanShortName))" }
            .joined(separator: ", ")))
    lines.append(
      "unknown: "
        + (unknown.isEmpty
          ? "none in the window"
          : unknown.map { $0.from == $0.through ? $0.from.iso : "\($0.from.iso) … \($0.through.iso)" }
            .joined(separator: ", ") + " (the text says nothing about these days; do not assume open)"))
    lines.append(
      "known through: "
        + (knownThrough.map { "\($0.iso) (every later day is unknown)" } ?? "no end (a recurring rule)"))
    if let line = status.summary { lines.append(line) }
    for move in Self.moves(of: schedule, in: window) { lines.append("moved: \(move.explanation)") }
    lines += changes.map(Self.explanation)
    for warning in schedule.warnings { lines.append("warning: \(warning)") }
    let closed = Set(dates)
    var month = window.from.firstOfMonth()
    var shown = 0
    while month <= window.through, shown < 12 {
      lines.append("")
      lines.append(Self.calendar(month: month, closed: closed, unknown: unknown))
      month = month.firstOfMonth(addingMonths: 1)
      shown += 1
    }
    return lines.joined(separator: "\n")
  }

  /// The schedule's holiday moves whose day or new day lies in the window.
  private static func moves(of schedule: ClosingSchedule, in window: Window) -> [HolidayMove] {
    let range = DateWindow(from: window.from, through: window.through)
    return schedule.holidayMoves.filter { range.contains($0.from) || ($0.to.map(range.contains) ?? false) }
  }

  /// One line saying what a change notice did: `moved: 2027-02-10 → 2027-02-07 (2027-02-10 is
  /// not a closing day)`, `rule change from 2027-01-01: 2nd and 4th sunday → 2nd and 4th wednesday`.
  private static func explanation(_ change: ClosingChange) -> String {
    func days(_ dates: [CalendarDate]) -> String {
      dates.isEmpty ? "none" : dates.map { "\($0.iso)(\($0.weekday.koreanShortName))" }.joined(separator: ", ")
    }
    func rules(_ rules: [ClosingRule]) -> String {
      rules.isEmpty ? "days not understood" : rules.map(describe).joined(separator: ", ")
    }
    switch change.kind {
    case .moved:
      return "moved: \(days(change.replaced)) → \(days(change.replacement)) (\(days(change.replaced)) not closed)"
    case .ruleChange:
      let when =
        change.appliesFrom.map { "from \($0.iso) (before it: the old rules)" }
        ?? "from a day the text does not give (the days of both are unknown)"
      return "rule change \(when): \(rules(change.rulesBefore)) → \(rules(change.rulesAfter))"
    }
  }

  /// A rule in words: `2nd, 4th sunday of each month`, `every monday`.
  private static func describe(_ rule: ClosingRule) -> String {
    func ordinal(_ value: Int) -> String {
      switch value {
      case -1: "last"
      case 1: "1st"
      case 2: "2nd"
      case 3: "3rd"
      default: "\(value)th"
      }
    }
    switch rule {
    case .nthWeekday(let ordinals, let weekday):
      return "\(ordinals.map(ordinal).joined(separator: ", ")) \(weekday.englishName) of each month"
    case .weekly(let weekday): return "every \(weekday.englishName)"
    case .dayOfMonth(let days): return "day \(days.map(String.init).joined(separator: ", ")) of each month"
    case .annual(let month, let day): return "\(month)/\(day) every year"
    }
  }

  /// A month grid, Sunday first, closed days in brackets (`[14]`), unknown days marked `?14`.
  private static func calendar(month: CalendarDate, closed: Set<CalendarDate>, unknown: [DateWindow]) -> String {
    let title = "\(month.year)-\(month.month < 10 ? "0" : "")\(month.month)"
    var lines = [title, Weekday.allCases.map { " \($0.koreanShortName) " }.joined()]
    var cells = Array(repeating: "    ", count: month.weekday.rawValue - 1)
    for day in 1...month.lastOfMonth.day {
      let date = month.adding(days: day - 1)
      let number = day < 10 ? " \(day)" : "\(day)"
      if closed.contains(date) {
        cells.append("[\(number)]")
      } else if unknown.contains(where: { $0.from <= date && date <= $0.through }) {
        cells.append("?\(number) ")
      } else {
        cells.append(" \(number) ")
      }
    }
    for start in stride(from: 0, to: cells.count, by: 7) {
      lines.append(cells[start..<min(start + 7, cells.count)].joined())
    }
    return lines.joined(separator: "\n")
  }
}
