import Foundation
import MartReplay
import Synchronization

/// A body sent slowly (`chunkSize` bytes after each `pause`) whose delivery a test can watch:
/// whether the whole body went out or the client hung up first. A test that stops a transfer
/// asserts that the client hung up before the end, not how long stopping took, which a loaded
/// machine stretches; only a client that waited the body out lets the delivery complete.
public final class WatchedSlowBody: ResponseDelivery {
  /// How a delivery ended.
  public enum Ending: Sendable, Equatable {
    /// Every byte of the body was sent.
    case complete(sentBytes: Int)
    /// A send failed after `sentBytes` bytes of the body: the client had closed the connection.
    case clientHungUp(sentBytes: Int)
  }

  private let chunkSize: Int
  private let pause: Duration
  private let ending = Mutex<Ending?>(nil)
  private let started = DispatchSemaphore(value: 0)
  private let ended = DispatchSemaphore(value: 0)

  public init(chunkSize: Int, pause: Duration) {
    self.chunkSize = max(1, chunkSize)
    self.pause = pause
  }

  public func deliver(_ response: ServerResponse, over connection: ServerConnection) {
    var sent = 0
    defer { ended.signal() }
    guard connection.send(response.head(declaringLength: true)) else {
      ending.withLock { $0 = .clientHungUp(sentBytes: 0) }
      return
    }
    started.signal()
    var offset = response.body.startIndex
    while offset < response.body.endIndex {
      let (seconds, attoseconds) = pause.components
      Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
      let end = min(offset + chunkSize, response.body.endIndex)
      guard connection.send(response.body[offset..<end]) else {
        ending.withLock { [sent] in $0 = .clientHungUp(sentBytes: sent) }
        return
      }
      sent += end - offset
      offset = end
    }
    connection.finishSending()
    ending.withLock { [sent] in $0 = .complete(sentBytes: sent) }
  }

  /// Whether the response's head went out: the transfer is under way. Without waiting, for an
  /// async test to poll between sleeps (a blocking wait there can hold up the thread the
  /// transfer itself needs).
  public var hasStarted: Bool { ending.withLock { $0 != nil } || hasStarted(waitingAtMost: .seconds(0)) }

  /// How the delivery ended, if it has; without waiting.
  public var currentEnding: Ending? { ending.withLock { $0 } }

  /// Whether the response's head went out (waiting for at most `limit`): the transfer is under
  /// way.
  public func hasStarted(waitingAtMost limit: DispatchTimeInterval) -> Bool {
    guard started.wait(timeout: .now() + limit) == .success else { return false }
    started.signal()
    return true
  }

  /// How the delivery ended, waiting for it to end (for at most `limit`, a bound against a hang
  /// only: it should exceed the body's whole sending time); nil if it has not ended by then.
  public func ending(waitingAtMost limit: DispatchTimeInterval) -> Ending? {
    if ended.wait(timeout: .now() + limit) == .success { ended.signal() }
    return ending.withLock { $0 }
  }
}
