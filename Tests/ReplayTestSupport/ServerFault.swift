import Foundation
import MartFetch
import MartReplay

/// Ways a test's `LocalHTTPServer` misbehaves on purpose, for the fetch layers to cope with.
public enum ServerFault: ResponseDelivery, Hashable {
  /// Close the connection without sending anything.
  case closeWithoutResponse
  /// Declare the full body length but send only the first `sentBytes` bytes, then close.
  case truncated(sentBytes: Int)
  /// Send the body in chunks of `chunkSize` bytes with a pause before each chunk.
  case slow(chunkSize: Int, pause: Duration)
  /// Declare the full body length, send the first `sentBytes` bytes, then reset the connection
  /// (TCP RST) instead of closing it.
  case reset(sentBytes: Int)
  /// Send no length and repeat the body until the client hangs up (or 256 MiB have been sent).
  case endless

  public func deliver(_ response: ServerResponse, over connection: ServerConnection) {
    if self == .closeWithoutResponse { return }
    guard connection.send(response.head(declaringLength: self != .endless)) else { return }
    switch self {
    case .closeWithoutResponse:
      return
    case .reset(let sentBytes):
      _ = connection.send(response.body.prefix(max(0, sentBytes)))
      connection.resetOnClose()
      return
    case .endless:
      let chunk = response.body.isEmpty ? Data(repeating: UInt8(ascii: "x"), count: 16 * 1024) : response.body
      var sent = 0
      while sent < 256 << 20, connection.send(chunk) { sent += chunk.count }
    case .truncated(let sentBytes):
      _ = connection.send(response.body.prefix(max(0, sentBytes)))
    case .slow(let chunkSize, let pause):
      var offset = response.body.startIndex
      while offset < response.body.endIndex {
        let (seconds, attoseconds) = pause.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        let end = min(offset + max(1, chunkSize), response.body.endIndex)
        guard connection.send(response.body[offset..<end]) else { return }
        offset = end
      }
    }
    connection.finishSending()
  }
}

extension ServerResponse {
  /// A response sent with `fault`.
  public init(status: Int = 200, headers: [HTTPHeader] = [], body: Data = Data(), delivery fault: ServerFault) {
    self.init(status: status, headers: headers, body: body)
    delivery = fault
  }

  /// Closes the connection without any response.
  public static let closeWithoutResponse = ServerResponse(delivery: ServerFault.closeWithoutResponse)
}
