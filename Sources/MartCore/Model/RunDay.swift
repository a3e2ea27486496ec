/// The day a run treats as today and the days it publishes, as one value: whatever is worked
/// out for a run (normalized branches, past days kept, a bundle's files, their checks) is worked
/// out for both together, so they travel together.
public struct RunDay: Hashable, Sendable {
  /// The day treated as today: a shut store is shut from it, days before it are history.
  public var asOf: CalendarDate
  /// The days closing dates are expanded for.
  public var window: DateWindow

  public init(asOf: CalendarDate, window: DateWindow) {
    self.asOf = asOf
    self.window = window
  }

  /// A run's day as of `asOf`: its month and the next two (``DateWindow/threeMonths(startingAt:)``).
  public init(asOf: CalendarDate) {
    self.init(asOf: asOf, window: .threeMonths(startingAt: asOf))
  }
}
