/// Days before the as-of date are history: what a bundle knew of them when they were still to
/// come is kept by the bundles that follow, rather than turned unknown because a site lists only
/// upcoming days, or because a store that has since shut is only known to be shut from the new
/// as-of date.
extension BranchClosing {
  /// This closing with its days before `day`'s as-of date as `previous` (of `previousWindow`)
  /// knew them, wherever it knew them.
  ///
  /// A day is taken from `previous` when it lies in both windows, before the as-of date, within this
  /// closing's `knownThrough`, and `previous` knew it (its status is not `unknown` and the day is
  /// in none of its unknown ranges): closed when `previous` listed it, otherwise open. Days
  /// `previous` did not know keep what this closing says of them. Only a closing with status
  /// `closures` takes days over (a schedule that is `unknown` or `open-all-year` lists no dates),
  /// and the status, schedule, `knownThrough` and expected days stay as they are.
  public func keepingPastDays(
    of previous: BranchClosing, previousWindow: DateWindow, before day: RunDay
  ) -> BranchClosing {
    guard status == .closures, previous.status != .unknown else { return self }
    let first = max(day.window.from, previousWindow.from)
    var last = min(day.asOf.adding(days: -1), previousWindow.through, day.window.through)
    if let knownThrough { last = min(last, knownThrough) }
    guard first <= last else { return self }
    let past = first.dayNumber...last.dayNumber
    let known = Set(
      past.filter { day in
        !previous.unknownRanges.contains { $0.from.dayNumber <= day && day <= $0.through.dayNumber }
      })
    guard !known.isEmpty else { return self }
    var kept = self
    let closedBefore = Set(previous.dates.map(\.dayNumber)).intersection(known)
    kept.dates =
      (dates.filter { !known.contains($0.dayNumber) }
      + closedBefore.map(CalendarDate.init(dayNumber:))).sorted()
    var unknownDays: [Int] = []
    for range in unknownRanges where range.from <= range.through {
      unknownDays += (range.from.dayNumber...range.through.dayNumber).filter { !known.contains($0) }
    }
    kept.unknownRanges = []
    for day in unknownDays.sorted() {
      if let lastRange = kept.unknownRanges.last, lastRange.through.dayNumber + 1 == day {
        kept.unknownRanges[kept.unknownRanges.count - 1].through = CalendarDate(dayNumber: day)
      } else {
        let date = CalendarDate(dayNumber: day)
        kept.unknownRanges.append(DateWindow(from: date, through: date))
      }
    }
    return kept
  }
}
