import Foundation

/// The time the fetch layers read and wait on: per-host turns, `Retry-After` pauses and retry
/// backoffs, with the random share of their jitter. It is an input of `FetchStack`, handed to
/// every layer that waits and to whatever else of a run reads the time (the geocoding cache's
/// expiry, the validator store, the archive's dates, the report's timestamps), so a run reads
/// one clock and a test can drive it by hand. libcurl's own timeouts keep real time.
public protocol FetchClock: Sendable {
  /// Now, on a scale that never goes back (what turns and pauses are counted on).
  var now: ContinuousClock.Instant { get }
  /// The calendar date now: what an HTTP date in `Retry-After` is counted from.
  var date: Date { get }
  /// Returns at `deadline` (at once when it has passed); throws `CancellationError` when the
  /// task is cancelled first.
  func sleep(until deadline: ContinuousClock.Instant) async throws
  /// A number in `0..<1` for the random share of a delay's jitter (politeness, retry backoff).
  func jitterFraction() -> Double
}

extension FetchClock {
  /// Waits `duration` from now.
  public func sleep(for duration: Duration) async throws {
    try await sleep(until: now + duration)
  }
}

/// The system's clocks: `ContinuousClock` for turns and waits, `Date()` for dates; jitter from
/// the system's random numbers.
public struct SystemFetchClock: FetchClock {
  public init() {}

  public var now: ContinuousClock.Instant { ContinuousClock.now }

  public var date: Date { Date() }

  public func sleep(until deadline: ContinuousClock.Instant) async throws {
    try await Task.sleep(until: deadline, clock: .continuous)
  }

  public func jitterFraction() -> Double { Double.random(in: 0..<1) }
}
