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
      What the text's dates speak of: whole-months, as-of-through-last-listed (a source's next \
      closing days) or listed-days-only.
      """)
  var coverage: DateCoverage = .wholeMonths

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
    let schedule = ClosingSchedule.parse(text, asOf: window.asOf, coverage: coverage)
    let dates = schedule.closedDates(from: window.from, through: window.through)
    let unknown = schedule.unknownRanges(from: window.from, through: window.through)
    let knownThrough = schedule.knownThrough(from: window.from, through: window.through)
    switch format {
    case .json: StandardStreams.outLine(try json(schedule, dates, unknown, knownThrough, window))
    case .text: StandardStreams.outLine(summary(schedule, dates, unknown, knownThrough, window))
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
    let asOf = try date(asOf, "as-of") ?? KoreanCalendar.today()
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

    enum CodingKeys: String, CodingKey {
      case status, asOf = "as-of", from, to, dates, unknownRanges, knownThrough, warnings, schedule
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
    }
  }

  private func json(
    _ schedule: ClosingSchedule, _ dates: [CalendarDate], _ unknown: [DateWindow], _ knownThrough: CalendarDate?,
    _ window: Window
  ) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let output = Output(
      status: schedule.status, asOf: window.asOf, from: window.from, to: window.through, dates: dates,
      unknownRanges: unknown, knownThrough: knownThrough, warnings: schedule.warnings, schedule: schedule)
    return String(decoding: try encoder.encode(output), as: UTF8.self)
  }

  private func summary(
    _ schedule: ClosingSchedule, _ dates: [CalendarDate], _ unknown: [DateWindow], _ knownThrough: CalendarDate?,
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
