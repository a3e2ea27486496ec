/// Whether a closing-day text told us anything.
public enum ClosingStatus: String, Sendable, Codable {
  /// At least one rule or date was understood.
  case closures
  /// The store says it never closes (연중무휴).
  case openAllYear = "open-all-year"
  /// Nothing was understood. Clients must not present this as "open".
  case unknown
}

/// A branch's closing days as a structured schedule that expands to dates for any window.
///
/// Interim implementation: understands explicit `YYYYMMDD` and `YYYY-MM-DD` dates only.
public struct ClosingSchedule: Hashable, Sendable, Codable {
  public var status: ClosingStatus
  /// Explicit closing dates.
  public var dates: [CalendarDate]
  /// The original text.
  public var text: String
  /// Parts of the text that were not understood.
  public var warnings: [String]

  /// Parses a closing-day text relative to the as-of date.
  public static func parse(_ text: String, asOf: CalendarDate) -> ClosingSchedule {
    var dates: [CalendarDate] = []
    for token in text.split(whereSeparator: { !$0.isNumber && $0 != "-" }) {
      if let date = CalendarDate(compact: token) ?? CalendarDate(iso: token) { dates.append(date) }
    }
    let sorted = Array(Set(dates)).sorted()
    return ClosingSchedule(
      status: sorted.isEmpty ? .unknown : .closures, dates: sorted, text: text,
      warnings: sorted.isEmpty ? ["no closing days understood in \"\(text)\""] : [])
  }

  /// Closing dates within `from...through`, sorted and unique.
  public func closedDates(from: CalendarDate, through: CalendarDate) -> [CalendarDate] {
    dates.filter { $0 >= from && $0 <= through }
  }
}
