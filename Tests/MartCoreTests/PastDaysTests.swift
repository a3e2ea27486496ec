import MartCore
import Testing

/// Days before the as-of date keep what the last bundle knew of them.
@Suite struct PastDaysTests {
  let firstAsOf = CalendarDate(iso: "2026-11-20")!
  let nextAsOf = CalendarDate(iso: "2026-11-21")!

  /// A store whose site lists only its next closing days, as `asOf` sees them: the days before
  /// `asOf` that the list no longer shows are unknown.
  func listOnly(_ text: String, asOf: CalendarDate) -> BranchClosing {
    BranchClosing(
      schedule: .parse(text, asOf: asOf, coverage: .asOfThroughLastListed),
      window: DateWindow.threeMonths(startingAt: asOf))
  }

  /// Whether `day` lies in one of `closing`'s unknown ranges.
  func isUnknown(_ day: CalendarDate, in closing: BranchClosing) -> Bool {
    closing.unknownRanges.contains { $0.from <= day && day <= $0.through }
  }

  @Test func aDayTheListNoLongerShowsKeepsWhatTheLastBundleKnew() throws {
    // The as-of day itself is a closing day on the first list; a day later the site shows
    // only the days still to come.
    let before = listOnly("\(firstAsOf.iso), 2026-12-13", asOf: firstAsOf)
    let after = listOnly("2026-12-13", asOf: nextAsOf)
    let window = DateWindow.threeMonths(startingAt: nextAsOf)
    #expect(isUnknown(firstAsOf, in: after), "the new list alone says nothing of \(firstAsOf.iso)")

    let kept = after.keepingPastDays(
      of: before, previousWindow: DateWindow.threeMonths(startingAt: firstAsOf),
      before: RunDay(asOf: nextAsOf, window: window))
    #expect(kept.dates.contains(firstAsOf))
    #expect(!isUnknown(firstAsOf, in: kept))
    // The days neither list spoke of stay unknown, and the days from the as-of date on are the
    // new list's.
    let dayBefore = firstAsOf.adding(days: -1)
    #expect(isUnknown(dayBefore, in: kept) == isUnknown(dayBefore, in: before))
    #expect(isUnknown(dayBefore, in: kept))
    #expect(kept.dates.filter { $0 >= nextAsOf } == after.dates.filter { $0 >= nextAsOf })
    #expect(kept.unknownRanges.filter { $0.from >= nextAsOf } == after.unknownRanges.filter { $0.from >= nextAsOf })
  }

  @Test func anOpenPastDayStaysOpenAndTheNewBundleKeepsItsOwnFuture() throws {
    // The first list knew 11-20 (the as-of day) and closed nothing on it.
    let before = listOnly("2026-11-22", asOf: firstAsOf)
    #expect(!isUnknown(firstAsOf, in: before) && !before.dates.contains(firstAsOf))
    let after = listOnly("2026-11-22", asOf: nextAsOf)
    let kept = after.keepingPastDays(
      of: before, previousWindow: DateWindow.threeMonths(startingAt: firstAsOf), before: RunDay(asOf: nextAsOf))
    #expect(!isUnknown(firstAsOf, in: kept) && !kept.dates.contains(firstAsOf), "open, as it was known")
    #expect(kept.dates == after.dates)
  }

  @Test func aClosingWhoseDaysAreAllUnknownTakesNothing() {
    let before = listOnly("\(firstAsOf.iso)", asOf: firstAsOf)
    let unreadable = BranchClosing(
      schedule: .parse("", asOf: nextAsOf), window: DateWindow.threeMonths(startingAt: nextAsOf))
    #expect(unreadable.status == .unknown)
    let kept = unreadable.keepingPastDays(
      of: before, previousWindow: DateWindow.threeMonths(startingAt: firstAsOf), before: RunDay(asOf: nextAsOf))
    #expect(kept == unreadable, "an unknown schedule lists no dates, past ones neither")
  }
}
