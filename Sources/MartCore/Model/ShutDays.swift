/// The days on which a branch's store does not trade: the one meaning of "shut" that its
/// closing dates, `closures.json`, the calendars, `diff` and the client kit's `shut` days share,
/// as ``UnknownClosingDays`` is the one meaning of "unknown".
///
/// - A store closed for good, or closed for a while, is shut from the as-of date on (its source
///   does not say since when, so the days before are not claimed), through `until` for a
///   temporary closure that says when it ends (its usual closing days follow). A bundle's
///   branch is shut from earlier when the days leading up to the as-of date are closing dates
///   (earlier bundles knew it shut then): ``Branch/shutDays(asOf:)``.
/// - A trading store announced to close for good (`closesOn`) is shut from that day on. Where
///   days are listed one by one, that day stands for all of them (``closesForGoodOn``).
/// - A trading store's announced temporary closure (``init(from:through:)``) is shut from its
///   first day through its last; those days become explicit closing dates of its schedule.
///
/// Shut days are closed days: within a bundle's window every shut day is among
/// `closing.dates` and in none of `closing.unknownRanges`, and `closing.knownThrough` is no
/// earlier than the last of them. Shut is never unknown and never open.
public struct ShutDays: Hashable, Sendable {
  /// The first shut day, or `nil` when no day is shut.
  public let first: CalendarDate?
  /// The last shut day, or `nil` when the store is shut from ``first`` with no end (or no day is
  /// shut).
  public let last: CalendarDate?
  /// The day a trading store closes for good, when its source announces one: it trades until
  /// the day before, and the day stands for every shut day after it (one calendar event, one
  /// `closingForGood` entry). `nil` otherwise.
  public let closesForGoodOn: CalendarDate?

  /// No day shut.
  public static let none = ShutDays(first: nil, last: nil, closesForGoodOn: nil)

  private init(first: CalendarDate?, last: CalendarDate?, closesForGoodOn: CalendarDate?) {
    if let first, let last, last < first {
      (self.first, self.last, self.closesForGoodOn) = (nil, nil, nil)
    } else {
      (self.first, self.last, self.closesForGoodOn) = (first, last, closesForGoodOn)
    }
  }

  /// The days `status` shuts the store, for a bundle made as of `asOf`.
  public init(_ status: StoreStatus, asOf: CalendarDate) {
    switch status.state {
    case .trading: self.init(first: status.closesOn, last: nil, closesForGoodOn: Self.closingForGoodDay(of: status))
    case .closed: self.init(first: asOf, last: nil, closesForGoodOn: nil)
    case .temporarilyClosed: self.init(first: asOf, last: status.until, closesForGoodOn: nil)
    }
  }

  /// The days `status` shuts the store, for a bundle made as of `asOf` whose closing dates are
  /// `closingDates`: as ``init(_:asOf:)``, except that a store that does not trade is shut
  /// from the first of the unbroken run of closing dates that leads up to the as-of date. Those
  /// are the past days an earlier bundle knew the store shut (a bundle keeps what it knew of
  /// its past days, ``BranchClosing/keepingPastDays(of:previousWindow:before:)``): the
  /// store has been closed every day since, so they are shut days, never daily closures.
  public init(_ status: StoreStatus, asOf: CalendarDate, closingDates: [CalendarDate]) {
    self.init(status, asOf: asOf)
    guard status.state != .trading, let first, first == asOf else { return }
    let closed = Set(closingDates.map(\.dayNumber))
    var start = first.dayNumber
    while closed.contains(start - 1) { start -= 1 }
    guard start < first.dayNumber else { return }
    self.init(first: CalendarDate(dayNumber: start), last: last, closesForGoodOn: nil)
  }

  /// The days of an announced temporary closure, `from` through `through`; none when `through`
  /// is before `from`.
  public init(from: CalendarDate, through: CalendarDate) {
    self.init(first: from, last: through, closesForGoodOn: nil)
  }

  /// The day a store with `status` closes for good when its source announces it: a trading
  /// store's `closesOn`; `nil` for every other status (a store already closed has no such day).
  static func closingForGoodDay(of status: StoreStatus) -> CalendarDate? {
    status.state == .trading ? status.closesOn : nil
  }

  /// Whether no day is shut.
  public var isEmpty: Bool { first == nil }

  /// Whether the store is shut on `day`.
  public func contains(_ day: CalendarDate) -> Bool {
    guard let first, first <= day else { return false }
    return last.map { day <= $0 } ?? true
  }

  /// The shut days of `window`, as one range, or `nil` when none of them is shut.
  public func range(in window: DateWindow) -> ClosedRange<CalendarDate>? {
    guard let first else { return nil }
    let from = max(window.from, first)
    let through = min(window.through, last ?? window.through)
    return from <= through ? from...through : nil
  }

  /// The shut days of `window`, in order.
  public func days(in window: DateWindow) -> [CalendarDate] {
    guard let range = range(in: window) else { return [] }
    return (range.lowerBound.dayNumber...range.upperBound.dayNumber).map(CalendarDate.init(dayNumber:))
  }

  /// `ranges` without the shut days of `window`: a shut day is known (closed), so it is never
  /// part of an unknown range. A range the shut days cut in two keeps both parts.
  public func removed(from ranges: [DateWindow], in window: DateWindow) -> [DateWindow] {
    guard let shut = range(in: window) else { return ranges }
    return ranges.flatMap { range -> [DateWindow] in
      var parts: [DateWindow] = []
      if range.from < shut.lowerBound {
        parts.append(DateWindow(from: range.from, through: min(range.through, shut.lowerBound.adding(days: -1))))
      }
      if range.through > shut.upperBound {
        parts.append(DateWindow(from: max(range.from, shut.upperBound.adding(days: 1)), through: range.through))
      }
      return parts
    }
  }
}

extension Branch {
  /// The days the branch's store status shuts it, for a bundle made as of `asOf` (see
  /// ``ShutDays``), past days included: a store that does not trade is shut through the
  /// unbroken run of its closing dates that leads up to the as-of date
  /// (``ShutDays/init(_:asOf:closingDates:)``).
  public func shutDays(asOf: CalendarDate) -> ShutDays {
    ShutDays(storeStatus, asOf: asOf, closingDates: closing.dates)
  }

  /// The closing dates as they are listed day by day (a calendar's events): every closing date,
  /// except that a store announced to close for good is listed on that day alone, not on each
  /// shut day after it (``ShutDays/closesForGoodOn``).
  public var listedClosingDates: [CalendarDate] {
    guard let closesOn = ShutDays.closingForGoodDay(of: storeStatus) else { return closing.dates }
    return closing.dates.filter { $0 <= closesOn }
  }
}
