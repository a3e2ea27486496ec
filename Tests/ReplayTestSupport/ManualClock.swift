import Foundation
import MartFetch
import Synchronization

/// A `FetchClock` whose time moves only when the test says or when something waits on it: a
/// wait returns at once, moving the clock to its deadline (if that is later than now), and is
/// recorded. The fetch layers' turns and waits can then be asserted exactly, and no test sleeps
/// on the real clock. The time an answer takes is what the test adds with ``advance(by:)`` (a
/// test server's handler can call it to stand for a slow answer). Jitter takes the same share
/// every time (``jitter``), so a jittered wait is known too.
public final class ManualClock: FetchClock {
  private struct State {
    var elapsed: Duration = .zero
    var waits: [Duration] = []
  }

  private let origin: ContinuousClock.Instant
  private let originDate: Date
  private let state = Mutex(State())
  /// The share of every jitter taken (``jitterFraction()``), in `0..<1`.
  public let jitter: Double

  /// A clock at `date` (for `Retry-After` HTTP dates, the dates stored and written), with
  /// nothing waited yet, whose jitter always takes the share `jitter`.
  public init(date: Date = Date(timeIntervalSince1970: 1_795_000_000), jitter: Double = 0.5) {
    origin = ContinuousClock.now
    originDate = date
    self.jitter = jitter
  }

  public func jitterFraction() -> Double { jitter }

  public var now: ContinuousClock.Instant { origin + state.withLock { $0.elapsed } }

  public var date: Date { originDate.addingTimeInterval(Self.seconds(state.withLock { $0.elapsed })) }

  /// The time moved since the clock was made.
  public var elapsed: Duration { state.withLock { $0.elapsed } }

  /// Every wait asked of the clock so far, in the order asked: how far each deadline was from
  /// the clock's time when asked (zero for a deadline already passed).
  public var waits: [Duration] { state.withLock { $0.waits } }

  /// The waits that were not zero.
  public var pauses: [Duration] { waits.filter { $0 > .zero } }

  /// Moves the clock on by `duration`.
  public func advance(by duration: Duration) {
    state.withLock { $0.elapsed += max(.zero, duration) }
  }

  public func sleep(until deadline: ContinuousClock.Instant) async throws {
    try Task.checkCancellation()
    state.withLock { state in
      let now = origin + state.elapsed
      let wait = deadline > now ? deadline - now : .zero
      state.waits.append(wait)
      state.elapsed += wait
    }
    await Task.yield()
    try Task.checkCancellation()
  }

  private static func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
