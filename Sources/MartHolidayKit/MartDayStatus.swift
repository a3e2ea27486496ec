/// What a bundle can honestly say about one day of one branch.
public enum MartDayStatus: String, Hashable, Sendable, CaseIterable, Codable {
  /// A closing day (의무휴업일 or another 휴무일).
  case closed
  /// The branch trades that day: the schedule speaks of the day and does not close it.
  case open
  /// Nobody knows: the source says nothing about the day, the day lies before the bundle's
  /// window or after the last day the schedule speaks of, or the schedule cannot tell. Show it
  /// as unknown, never as open.
  case unknown
  /// The store does not trade: temporarily closed, closed for good, or past the day it closes
  /// for good. Show the store status (``MartStoreStatus/text``), not daily closures.
  case shut
  /// The store's source publishes no closing days, and its district's other stores close this
  /// day (their 의무휴업일): the store is expected to close, but nothing confirms it. Show it
  /// apart from ``closed`` (as "expected", in another shade), never as certain; the day counts
  /// as unknown for ``MartBranch/nextClosing(after:)``.
  case expectedClosed
}
