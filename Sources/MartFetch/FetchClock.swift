import Foundation

/// The time the fetch layers read and wait on: per-host turns, `Retry-After` pauses and retry
/// backoffs. It is an input of `FetchStack`, handed to every layer that waits, so a run waits on
/// one clock and a test can drive the waits by hand. libcurl's own timeouts keep real time.
public protocol FetchClock: Sendable {
  /// Now, on a scale that never goes back (what turns and pauses are counted on).
  var now: ContinuousClock.Instant { get }
  /// The calendar date now: what an HTTP date in `Retry-After` is counted from.
  var date: Date { get }
  /// Returns at `deadline` (at once when it has passed); throws `CancellationError` when the
  /// task is cancelled first.
  func sleep(until deadline: ContinuousClock.Instant) async throws
}

extension FetchClock {
  /// Waits `duration` from now.
  public func sleep(for duration: Duration) async throws {
    try await sleep(until: now + duration)
  }
}

/// The system's clocks: `ContinuousClock` for turns and waits, `Date()` for HTTP dates.
public struct SystemFetchClock: FetchClock {
  public init() {}

  public var now: ContinuousClock.Instant { ContinuousClock.now }

  public var date: Date { Date() }

  public func sleep(until deadline: ContinuousClock.Instant) async throws {
    try await Task.sleep(until: deadline, clock: .continuous)
  }
}
