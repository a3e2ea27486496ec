/// What a branch's schedule says about the next closing day after a given day: a day, or why
/// no day can be promised.
public enum MartNextClosing: Hashable, Sendable {
  /// The first closing day (status ``MartDayStatus/closed``) after the given day; every day
  /// before it is known to be open or shut.
  case closing(MartDay)
  /// A day whose status is ``MartDayStatus/unknown`` comes before any closing day: from this
  /// day on nothing can be promised. Say "not known", never "open".
  case unknownFrom(MartDay)
  /// Every day of the year after the given day (366 days) is known and none is a closing day:
  /// a store open all year, or one that is shut (check ``MartBranch/storeStatus``).
  case noneKnown
}
