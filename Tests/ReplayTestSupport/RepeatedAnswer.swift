import Foundation
import MartFetch
import MartReplay

/// A server, or a proxy in front of it, that sends an answer twice on a kept-alive connection:
/// the answer, then after `delay` the same bytes again, and then reads the connection's next
/// request. The copy is what the client reads as the answer to its next request on that
/// connection, and every later answer there is shifted by one.
public struct RepeatedAnswer: ResponseDelivery, Hashable {
  /// The pause between the answer and its copy: zero for a copy sent at once, a few
  /// milliseconds for one that arrives after the client has sent its next request.
  public var delay: Duration

  public init(delay: Duration = .zero) {
    self.delay = delay
  }

  public var keepsConnectionOpen: Bool { true }

  public func deliver(_ response: ServerResponse, over connection: ServerConnection) {
    let answer = response.head(keepingAlive: true) + response.body
    guard connection.send(answer) else { return }
    if delay > .zero {
      let (seconds, attoseconds) = delay.components
      Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
    _ = connection.send(answer)
  }
}

extension ServerResponse {
  /// This response, sent the way `delivery` sends it.
  public func delivered(by delivery: any ResponseDelivery) -> ServerResponse {
    var delivered = self
    delivered.delivery = delivery
    return delivered
  }
}
