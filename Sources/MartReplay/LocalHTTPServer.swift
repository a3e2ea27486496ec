import Foundation
import MartFetch
import Synchronization

#if canImport(Glibc)
  import Glibc
  private let streamSocketType = Int32(SOCK_STREAM.rawValue)
  private let shutdownBoth = Int32(SHUT_RDWR)
  /// A closed peer must not kill the process with SIGPIPE.
  private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
  import Darwin
  private let streamSocketType = SOCK_STREAM
  private let shutdownBoth = SHUT_RDWR
  /// Darwin has no MSG_NOSIGNAL; connections set SO_NOSIGPIPE instead.
  private let sendFlags: Int32 = 0
#endif

/// A request as received by `LocalHTTPServer`.
public struct ServerRequest: Sendable, Hashable {
  /// The method as sent, e.g. `GET`.
  public var method: String
  /// The path part of the request target, still percent-encoded, e.g. `/branch/list.do`.
  public var path: String
  /// The query after `?`, still percent-encoded; empty when there is none.
  public var query: String
  public var headers: [HTTPHeader]
  public var body: Data

  public init(method: String, path: String, query: String = "", headers: [HTTPHeader] = [], body: Data = Data()) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
  }
}

/// What `LocalHTTPServer` sends back, optionally with an injected fault.
public struct ServerResponse: Sendable, Hashable {
  /// How the response goes over the wire.
  public enum Delivery: Sendable, Hashable {
    /// Headers and the whole body, then close.
    case complete
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
  }

  public var status: Int
  /// Sent as given, except `Content-Length`, `Transfer-Encoding` and `Connection`, which the
  /// server sets itself.
  public var headers: [HTTPHeader]
  public var body: Data
  /// Wait this long after reading the request before answering.
  public var delayBeforeResponse: Duration
  public var delivery: Delivery

  public init(
    status: Int = 200, headers: [HTTPHeader] = [], body: Data = Data(),
    delayBeforeResponse: Duration = .zero, delivery: Delivery = .complete
  ) {
    self.status = status
    self.headers = headers
    self.body = body
    self.delayBeforeResponse = delayBeforeResponse
    self.delivery = delivery
  }

  /// A UTF-8 text response.
  public static func text(
    _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8"
  ) -> ServerResponse {
    ServerResponse(status: status, headers: [HTTPHeader("Content-Type", contentType)], body: Data(text.utf8))
  }

  /// A redirect to `location`.
  public static func redirect(to location: String, status: Int = 302) -> ServerResponse {
    ServerResponse(status: status, headers: [HTTPHeader("Location", location)])
  }

  /// Closes the connection without any response.
  public static let closeWithoutResponse = ServerResponse(delivery: .closeWithoutResponse)
}

/// Why a `LocalHTTPServer` could not start.
public struct LocalHTTPServerError: Error, Sendable, CustomStringConvertible {
  /// The failing socket call, e.g. `bind`.
  public var operation: String
  public var errorNumber: Int32

  public var description: String {
    "local HTTP server: \(operation) failed: \(String(cString: strerror(errorNumber)))"
  }
}

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for tests and replay.
///
/// One request per connection (`Connection: close`); request bodies are read by
/// `Content-Length`. Each connection is answered on its own thread, so slow responses do not
/// hold up others.
public final class LocalHTTPServer: Sendable {
  /// The port the server listens on.
  public let port: Int
  private let listeningSocket: Int32
  private let acceptLoopFinished = DispatchSemaphore(value: 0)
  private let connections = DispatchGroup()
  private let isStopped = Mutex(false)

  /// Starts listening; `handler` answers every request, on the connection's thread.
  public init(handler: @escaping @Sendable (ServerRequest) -> ServerResponse) throws(LocalHTTPServerError) {
    let socketDescriptor = socket(AF_INET, streamSocketType, 0)
    guard socketDescriptor >= 0 else { throw LocalHTTPServerError(operation: "socket", errorNumber: errno) }
    var address = sockaddr_in()
    do throws(LocalHTTPServerError) {
      var reuse: Int32 = 1
      setsockopt(socketDescriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = 0
      address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0 else { throw LocalHTTPServerError(operation: "bind", errorNumber: errno) }
      guard listen(socketDescriptor, 64) == 0 else {
        throw LocalHTTPServerError(operation: "listen", errorNumber: errno)
      }
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketDescriptor, $0, &length) }
      }
      guard named == 0 else { throw LocalHTTPServerError(operation: "getsockname", errorNumber: errno) }
    } catch {
      close(socketDescriptor)
      throw error
    }
    listeningSocket = socketDescriptor
    port = Int(UInt16(bigEndian: address.sin_port))

    // The loop captures only what it needs, never `self`, so dropping the server stops it.
    let connections = self.connections
    let finished = acceptLoopFinished
    let thread = Thread {
      Self.acceptLoop(socketDescriptor, handler: handler, connections: connections)
      finished.signal()
    }
    thread.name = "mart-holiday.local-http-server"
    thread.start()
  }

  deinit { stop() }

  /// `http://127.0.0.1:PORT`, without a trailing slash.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Stops accepting, waits for the accept thread and for connections in progress, and closes
  /// the socket. Calling it again does nothing.
  public func stop() {
    let alreadyStopped = isStopped.withLock { stopped in
      defer { stopped = true }
      return stopped
    }
    guard !alreadyStopped else { return }
    // Shutting down a listening socket wakes a blocked accept() on Linux.
    shutdown(listeningSocket, shutdownBoth)
    acceptLoopFinished.wait()
    connections.wait()
    close(listeningSocket)
  }

  private static func acceptLoop(
    _ listeningSocket: Int32, handler: @escaping @Sendable (ServerRequest) -> ServerResponse,
    connections: DispatchGroup
  ) {
    while true {
      let connection = accept(listeningSocket, nil, nil)
      if connection < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        return
      }
      #if canImport(Darwin)
        var noSignal: Int32 = 1
        setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
      #endif
      connections.enter()
      let thread = Thread {
        serve(connection, handler: handler)
        close(connection)
        connections.leave()
      }
      thread.start()
    }
  }

  private static func serve(_ connection: Int32, handler: @Sendable (ServerRequest) -> ServerResponse) {
    // A client that stops sending cannot hold the connection thread for long.
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    guard let request = readRequest(connection) else { return }
    let response = handler(request)
    if response.delayBeforeResponse > .zero { pause(response.delayBeforeResponse) }
    if response.delivery == .closeWithoutResponse { return }

    let omitted: Set<String> = ["content-length", "transfer-encoding", "connection"]
    var head = "HTTP/1.1 \(response.status) \(reasonPhrase(response.status))\r\n"
    for header in response.headers where !omitted.contains(header.name.lowercased()) {
      head += "\(header.name): \(header.value)\r\n"
    }
    if response.delivery != .endless { head += "Content-Length: \(response.body.count)\r\n" }
    head += "Connection: close\r\n\r\n"
    if response.delivery == .complete {
      // One write for head and body: two small writes would wait on the client's delayed ACK.
      _ = sendAll(connection, Data(head.utf8) + response.body)
      shutdown(connection, Int32(SHUT_WR))
      return
    }
    guard sendAll(connection, Data(head.utf8)) else { return }

    switch response.delivery {
    case .complete, .closeWithoutResponse:
      _ = sendAll(connection, response.body)
    case .reset(let sentBytes):
      _ = sendAll(connection, response.body.prefix(max(0, sentBytes)))
      // A zero linger time makes close() send RST.
      var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
      setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
      return
    case .endless:
      let chunk = response.body.isEmpty ? Data(repeating: UInt8(ascii: "x"), count: 16 * 1024) : response.body
      var sent = 0
      while sent < 256 << 20, sendAll(connection, chunk) { sent += chunk.count }
    case .truncated(let sentBytes):
      _ = sendAll(connection, response.body.prefix(max(0, sentBytes)))
    case .slow(let chunkSize, let pauseLength):
      var offset = response.body.startIndex
      while offset < response.body.endIndex {
        pause(pauseLength)
        let end = min(offset + max(1, chunkSize), response.body.endIndex)
        guard sendAll(connection, response.body[offset..<end]) else { return }
        offset = end
      }
    }
    shutdown(connection, Int32(SHUT_WR))
  }

  /// Reads the request line, headers and a `Content-Length` body; nil if the client went away
  /// or sent something unreadable.
  private static func readRequest(_ connection: Int32) -> ServerRequest? {
    let maximumHeadBytes = 1 << 20
    let separator = Data("\r\n\r\n".utf8)
    var received = Data()
    var headEnd: Range<Data.Index>?
    while headEnd == nil {
      guard received.count < maximumHeadBytes, let chunk = receive(connection) else { return nil }
      let searchStart = max(received.startIndex, received.endIndex - 3)
      received.append(chunk)
      headEnd = received.range(of: separator, in: searchStart..<received.endIndex)
    }
    guard let headEnd else { return nil }

    let headLines = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self)
      .components(separatedBy: "\r\n")
    let requestLine = headLines[0].split(separator: " ")
    guard requestLine.count == 3 else { return nil }
    let target = requestLine[1]
    let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var headers: [HTTPHeader] = []
    for line in headLines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.append(
        HTTPHeader(
          String(line[..<colon]).trimmingCharacters(in: .whitespaces),
          String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
    }

    let bodyLength = headers.value(named: "Content-Length").flatMap { Int($0) } ?? 0
    guard bodyLength >= 0, bodyLength <= 64 << 20 else { return nil }
    var body = Data(received[headEnd.upperBound...])
    while body.count < bodyLength {
      guard let chunk = receive(connection) else { return nil }
      body.append(chunk)
    }
    return ServerRequest(
      method: String(requestLine[0]), path: String(path[0]), query: path.count > 1 ? String(path[1]) : "",
      headers: headers, body: body.prefix(bodyLength))
  }

  private static func receive(_ connection: Int32) -> Data? {
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = recv(connection, &buffer, buffer.count, 0)
      if count > 0 { return Data(buffer[0..<count]) }
      if count < 0, errno == EINTR { continue }
      return nil
    }
  }

  private static func sendAll(_ connection: Int32, _ data: Data) -> Bool {
    data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let sent = send(connection, bytes.baseAddress! + offset, bytes.count - offset, sendFlags)
        if sent < 0, errno == EINTR { continue }
        guard sent > 0 else { return false }
        offset += sent
      }
      return true
    }
  }

  private static func pause(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
  }

  private static func reasonPhrase(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 301: "Moved Permanently"
    case 302: "Found"
    case 303: "See Other"
    case 304: "Not Modified"
    case 307: "Temporary Redirect"
    case 308: "Permanent Redirect"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 500: "Internal Server Error"
    case 503: "Service Unavailable"
    default: "Status \(status)"
    }
  }
}
