/// The days of a window on which nobody knows whether a branch is closed: the one meaning of
/// "unknown" that `closures.json`, `report.json` and `report.html` share, and the client kit's
/// ``MartDayStatus/unknown`` inside the window.
///
/// A day of the window is unknown when it lies in the branch's `closing.unknownRanges`, or
/// when its `closing.status` is `unknown` (every day: bundles written before `unknownRanges`
/// existed say no more than that). `unknownRanges` never hold a closing date or a day a shut
/// store is shut (``ShutDays``, the one meaning of "shut"). Unknown is never open.
public struct UnknownClosingDays: Hashable, Sendable {
  /// How much of the window is unknown.
  public enum Extent: String, Hashable, Sendable {
    /// Every day of the window is known: closed, open or shut.
    case none
    /// Some days of the window are unknown, the others known.
    case someDays
    /// Every day of the window is unknown: nothing about the branch's closing days could be
    /// read for it.
    case everyDay
  }

  /// The unknown days, as maximal ranges in order, inside the window.
  public let ranges: [DateWindow]
  /// How many days `ranges` hold.
  public let dayCount: Int
  /// How many days the window has.
  public let windowDayCount: Int

  /// The unknown days of `closing` within `window`.
  public init(_ closing: BranchClosing, in window: DateWindow) {
    let unknown = closing.status == .unknown ? [window] : closing.unknownRanges
    ranges = DateWindow.clipped(DateWindow.merged(unknown), from: window.from, through: window.through)
    dayCount = ranges.reduce(0) { $0 + $1.through.dayNumber - $1.from.dayNumber + 1 }
    windowDayCount = max(0, window.through.dayNumber - window.from.dayNumber + 1)
  }

  /// ``Extent/none``, ``Extent/someDays`` or ``Extent/everyDay``.
  public var extent: Extent {
    if dayCount == 0 { return .none }
    return dayCount >= windowDayCount ? .everyDay : .someDays
  }
}

extension Branch {
  /// The days of `window` on which nobody knows whether the branch is closed (see
  /// ``UnknownClosingDays``).
  public func unknownClosingDays(in window: DateWindow) -> UnknownClosingDays {
    UnknownClosingDays(closing, in: window)
  }
}
