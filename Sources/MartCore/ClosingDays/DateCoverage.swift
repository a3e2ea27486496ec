/// What a source's published closing dates speak of: the days a date field covers, so that the
/// days it does not cover are unknown rather than open.
///
/// Every brand source declares one (`BrandSource.closingDateCoverage`). It applies to the dates
/// a source publishes as data and to the explicit dates of its closing-day text; a recurring
/// rule in the same text covers every day whatever the coverage.
public enum DateCoverage: String, Hashable, Sendable, Codable, CaseIterable {
  /// The dates are all the closing days of the calendar months they fall in (E-mart's monthly
  /// `HOLIDAY_DAYn` slots): those months are known.
  case wholeMonths = "whole-months"
  /// The dates are the next closing days from the as-of date (Homeplus's `storDayoffCntt`, a
  /// Lotte Mart day-off cell such as `11/22(일)`): the days from the as-of date through the last
  /// date listed are known, and so is each listed date before the as-of date; the rest of the
  /// month, and the days before the as-of date the source no longer shows, are unknown.
  case asOfThroughLastListed = "as-of-through-last-listed"
  /// Each date speaks of itself only (a notice such as `2월 13일 정상영업`).
  case listedDaysOnly = "listed-days-only"

  /// The days `listed` (closing or open dates) speak of, as sorted, maximal ranges.
  public func ranges(for listed: some Sequence<CalendarDate>, asOf: CalendarDate) -> [DateWindow] {
    let days = Set(listed)
    guard let last = days.max() else { return [] }
    switch self {
    case .wholeMonths:
      return DateWindow.merged(
        Set(days.map { $0.firstOfMonth() }).map { DateWindow(from: $0, through: $0.lastOfMonth) })
    case .asOfThroughLastListed:
      var ranges = days.filter { $0 < asOf }.map { DateWindow(from: $0, through: $0) }
      if last >= asOf { ranges.append(DateWindow(from: asOf, through: last)) }
      return DateWindow.merged(ranges)
    case .listedDaysOnly:
      return DateWindow.merged(days.map { DateWindow(from: $0, through: $0) })
    }
  }
}

extension DateWindow {
  /// `ranges` sorted, with overlapping and adjacent ranges joined; empty ranges are dropped.
  public static func merged(_ ranges: some Sequence<DateWindow>) -> [DateWindow] {
    var sorted = Array(ranges)
    sorted.removeAll { $0.from > $0.through }
    sorted.sort { $0.from < $1.from }
    var result: [DateWindow] = []
    result.reserveCapacity(sorted.count)
    for range in sorted {
      if let last = result.last, range.from <= last.through.adding(days: 1) {
        result[result.count - 1].through = max(last.through, range.through)
      } else {
        result.append(range)
      }
    }
    return result
  }

  /// `ranges` (sorted and apart) without the days of `removed`.
  public static func removing(_ removed: DateWindow, from ranges: [DateWindow]) -> [DateWindow] {
    ranges.flatMap { range -> [DateWindow] in
      guard range.from <= removed.through, removed.from <= range.through else { return [range] }
      var parts: [DateWindow] = []
      if range.from < removed.from {
        parts.append(DateWindow(from: range.from, through: removed.from.adding(days: -1)))
      }
      if removed.through < range.through {
        parts.append(DateWindow(from: removed.through.adding(days: 1), through: range.through))
      }
      return parts
    }
  }

  /// Whether `date` lies in this range.
  public func contains(_ date: CalendarDate) -> Bool { from <= date && date <= through }

  /// The parts of `ranges` (sorted and apart) that lie within `from...through`.
  static func clipped(_ ranges: [DateWindow], from: CalendarDate, through: CalendarDate) -> [DateWindow] {
    ranges.compactMap { range in
      let start = max(range.from, from)
      let end = min(range.through, through)
      return start <= end ? DateWindow(from: start, through: end) : nil
    }
  }
}
