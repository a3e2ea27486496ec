import Foundation
import MartFetch
import Synchronization

#if canImport(Glibc)
  import Glibc
  private let streamSocketType = Int32(SOCK_STREAM.rawValue)
  private let shutdownBoth = Int32(SHUT_RDWR)
  private let shutdownWrite = Int32(SHUT_WR)
  /// A closed peer must not kill the process with SIGPIPE.
  private let sendFlags = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
  import Darwin
  private let streamSocketType = SOCK_STREAM
  private let shutdownBoth = SHUT_RDWR
  private let shutdownWrite = SHUT_WR
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

/// What `LocalHTTPServer` sends back.
public struct ServerResponse: Sendable {
  public var status: Int
  /// Sent as given, except `Content-Length`, `Transfer-Encoding` and `Connection`, which the
  /// server sets itself.
  public var headers: [HTTPHeader]
  public var body: Data
  /// How the response goes over the wire; `nil` sends the head and the whole body, then closes.
  public var delivery: (any ResponseDelivery)?

  public init(status: Int = 200, headers: [HTTPHeader] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The status line and headers, with `Content-Length` unless `declaringLength` is false, and
  /// `Connection: close`.
  public func head(declaringLength: Bool = true) -> Data {
    let omitted: Set<String> = ["content-length", "transfer-encoding", "connection"]
    var head = "HTTP/1.1 \(status) \(LocalHTTPServer.reasonPhrase(status))\r\n"
    for header in headers where !omitted.contains(header.name.lowercased()) {
      head += "\(header.name): \(header.value)\r\n"
    }
    if declaringLength { head += "Content-Length: \(body.count)\r\n" }
    head += "Connection: close\r\n\r\n"
    return Data(head.utf8)
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
}

/// Sends a response in a way of its own, for a server that misbehaves on purpose (the faults
/// the fetch tests inject: truncated, slow, reset, endless bodies).
public protocol ResponseDelivery: Sendable {
  /// Sends `response`, head included (``ServerResponse/head(declaringLength:)``), or nothing.
  /// The server closes the connection afterwards.
  func deliver(_ response: ServerResponse, over connection: ServerConnection)
}

/// One accepted connection of a `LocalHTTPServer`, as a ``ResponseDelivery`` writes to it.
public struct ServerConnection: Sendable {
  let descriptor: Int32

  /// Sends all of `data`; `false` when the client went away.
  public func send(_ data: Data) -> Bool { sendAll(descriptor, data) }

  /// Ends the sending side: the client reads the end of the stream.
  public func finishSending() {
    shutdown(descriptor, shutdownWrite)
  }

  /// Makes closing the connection reset it (TCP RST) rather than end it: a zero linger time.
  public func resetOnClose() {
    var noLinger = linger(l_onoff: 1, l_linger: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &noLinger, socklen_t(MemoryLayout<linger>.size))
  }
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
    let open = ServerConnection(descriptor: connection)
    if let delivery = response.delivery {
      delivery.deliver(response, over: open)
      return
    }
    // One write for head and body: two small writes would wait on the client's delayed ACK.
    _ = open.send(response.head() + response.body)
    open.finishSending()
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

  static func reasonPhrase(_ status: Int) -> String {
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

/// Sends all of `data` over `descriptor`; `false` when the peer went away.
private func sendAll(_ descriptor: Int32, _ data: Data) -> Bool {
  data.withUnsafeBytes { bytes in
    var offset = 0
    while offset < bytes.count {
      let sent = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, sendFlags)
      if sent < 0, errno == EINTR { continue }
      guard sent > 0 else { return false }
      offset += sent
    }
    return true
  }
}
