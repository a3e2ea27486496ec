import Foundation
import MartCore
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
  /// The protocol version of the request line, e.g. `HTTP/1.1`.
  public var version: String

  public init(
    method: String, path: String, query: String = "", headers: [HTTPHeader] = [], body: Data = Data(),
    version: String = "HTTP/1.1"
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
    self.version = version
  }

  /// Whether the client lets the connection stay open after the answer: HTTP/1.1 without
  /// `Connection: close` (RFC 9112 §9.3).
  public var keepsConnectionAlive: Bool {
    let connection = headers.value(named: "Connection")?.lowercased() ?? ""
    return version == "HTTP/1.1"
      && !connection.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "close" }
  }
}

/// What `LocalHTTPServer` sends back.
public struct ServerResponse: Sendable {
  public var status: Int
  /// Sent as given, except `Content-Length`, `Transfer-Encoding` and `Connection`, which the
  /// server sets itself.
  public var headers: [HTTPHeader]
  public var body: Data
  /// How the response goes over the wire; `nil` sends the head and the whole body, then keeps
  /// the connection open for the next request (unless the client asked to close it).
  public var delivery: (any ResponseDelivery)?

  public init(status: Int = 200, headers: [HTTPHeader] = [], body: Data = Data()) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The status line and headers, with `Content-Length` unless `declaringLength` is false, and
  /// `Connection: close` unless `keepingAlive`.
  public func head(declaringLength: Bool = true, keepingAlive: Bool = false) -> Data {
    let omitted: Set<String> = ["content-length", "transfer-encoding", "connection"]
    var head = "HTTP/1.1 \(status) \(LocalHTTPServer.reasonPhrase(status))\r\n"
    for header in headers where !omitted.contains(header.name.lowercased()) {
      head += "\(header.name): \(header.value)\r\n"
    }
    if declaringLength { head += "Content-Length: \(body.count)\r\n" }
    head += keepingAlive ? "\r\n" : "Connection: close\r\n\r\n"
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
  /// The server closes the connection afterwards, unless ``keepsConnectionOpen``.
  func deliver(_ response: ServerResponse, over connection: ServerConnection)
  /// Whether the server reads the connection's next request after the delivery (default:
  /// `false`, it closes the connection).
  var keepsConnectionOpen: Bool { get }
}

extension ResponseDelivery {
  public var keepsConnectionOpen: Bool { false }
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

/// Why a `LocalHTTPServer` could not start: a ``LocatedError`` at the server, naming the socket
/// call that failed and the system's words for its error number.
public struct LocalHTTPServerError: LocatedError, Sendable, Hashable {
  /// The failing socket call, e.g. `bind`.
  public var operation: String
  /// The system's error number the call set.
  public var errorNumber: Int32

  /// The server on 127.0.0.1 that could not start: `local HTTP server`.
  public var location: String { "local HTTP server" }

  /// `<operation> failed: <the system's words for the error number>`.
  public var message: String { "\(operation) failed: \(String(cString: strerror(errorNumber)))" }

  /// `local HTTP server: <operation> failed: <the system's words>`.
  public var description: String { "\(location): \(message)" }
}

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port, for tests and replay.
///
/// HTTP/1.1 persistent connections: a connection stays open for further requests unless the
/// client sends `Connection: close` (or speaks HTTP/1.0) or the response has a `delivery` of its
/// own, and is closed after 5 idle seconds or when the server stops. Request bodies are read by
/// `Content-Length`. Each connection is answered on its own thread, so slow responses do not
/// hold up others.
public final class LocalHTTPServer: Sendable {
  /// The port the server listens on.
  public let port: Int
  private let listeningSocket: Int32
  private let acceptLoopFinished = DispatchSemaphore(value: 0)
  private let connections = DispatchGroup()
  private let registry = ConnectionRegistry()

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
    let registry = self.registry
    let finished = acceptLoopFinished
    let thread = Thread {
      Self.acceptLoop(socketDescriptor, handler: handler, connections: connections, registry: registry)
      finished.signal()
    }
    thread.name = "mart-holiday.local-http-server"
    thread.start()
  }

  deinit { stop() }

  /// `http://127.0.0.1:PORT`, without a trailing slash.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// TCP connections accepted so far: with keep-alive, fewer than the requests answered.
  public var acceptedConnections: Int { registry.state.withLock { $0.accepted } }

  /// Stops accepting, closes the connections waiting for a next request, waits for the accept
  /// thread and for connections in progress, and closes the socket. Calling it again does nothing.
  public func stop() {
    let alreadyStopped = registry.state.withLock { state in
      defer {
        state.isStopped = true
        // Wakes their blocked recv(); each thread then closes its connection.
        for descriptor in state.idle { shutdown(descriptor, shutdownBoth) }
      }
      return state.isStopped
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
    connections: DispatchGroup, registry: ConnectionRegistry
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
      registry.state.withLock { $0.accepted += 1 }
      connections.enter()
      let thread = Thread {
        serve(connection, handler: handler, registry: registry)
        close(connection)
        connections.leave()
      }
      thread.start()
    }
  }

  /// Answers the requests of one connection until the client or the server ends it.
  private static func serve(
    _ connection: Int32, handler: @Sendable (ServerRequest) -> ServerResponse, registry: ConnectionRegistry
  ) {
    // A client that stops sending cannot hold the connection thread for long.
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let open = ServerConnection(descriptor: connection)
    // Bytes received past the end of one request: the start of the next.
    var received = Data()
    var isFirstRequest = true
    while true {
      // Between requests the connection is idle, and `stop()` may close it.
      if !isFirstRequest, !registry.markIdle(connection) { return }
      let request = readRequest(connection, buffer: &received)
      if !isFirstRequest { registry.markBusy(connection) }
      isFirstRequest = false
      guard let request else { return }
      let response = handler(request)
      if let delivery = response.delivery {
        delivery.deliver(response, over: open)
        if delivery.keepsConnectionOpen { continue }
        return
      }
      let keepingAlive = request.keepsConnectionAlive
      // One write for head and body: two small writes would wait on the client's delayed ACK.
      guard open.send(response.head(keepingAlive: keepingAlive) + response.body), keepingAlive else {
        open.finishSending()
        return
      }
    }
  }

  /// Reads the request line, headers and a `Content-Length` body, starting with the bytes
  /// already in `buffer` and leaving there any received past the body; nil if the client went
  /// away or sent something unreadable.
  private static func readRequest(_ connection: Int32, buffer received: inout Data) -> ServerRequest? {
    let maximumHeadBytes = 1 << 20
    let separator = Data("\r\n\r\n".utf8)
    var headEnd = received.range(of: separator)
    while headEnd == nil {
      guard received.count < maximumHeadBytes, let chunk = receive(connection) else { return nil }
      let searchStart = max(received.startIndex, received.endIndex - 3)
      received.append(chunk)
      headEnd = received.range(of: separator, in: searchStart..<received.endIndex)
    }
    guard let headEnd else { return nil }

    // "\r\n" is one Character: the lines split on it as they are sent.
    let headLines = String(decoding: received[..<headEnd.lowerBound], as: UTF8.self)
      .split(separator: "\r\n", omittingEmptySubsequences: false)
    let requestLine = headLines[0].split(separator: " ")
    guard requestLine.count == 3 else { return nil }
    let target = requestLine[1]
    let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var headers: [HTTPHeader] = []
    for line in headLines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers.append(
        HTTPHeader(
          String(trimmingSpace(line[..<colon])), String(trimmingSpace(line[line.index(after: colon)...]))))
    }

    let bodyLength = headers.value(named: "Content-Length").flatMap { Int($0) } ?? 0
    guard bodyLength >= 0, bodyLength <= 64 << 20 else { return nil }
    var body = Data(received[headEnd.upperBound...])
    while body.count < bodyLength {
      guard let chunk = receive(connection) else { return nil }
      body.append(chunk)
    }
    received = Data(body.dropFirst(bodyLength))
    return ServerRequest(
      method: String(requestLine[0]), path: String(path[0]), query: path.count > 1 ? String(path[1]) : "",
      headers: headers, body: Data(body.prefix(bodyLength)), version: String(requestLine[2]))
  }

  /// `text` without the spaces and tabs around it (a header's optional whitespace, RFC 9110
  /// §5.6.3).
  private static func trimmingSpace(_ text: Substring) -> Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return text[first...last]
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

/// The connections of one `LocalHTTPServer`, shared by its threads: how many were accepted, and
/// which wait for a next request (those `stop()` closes rather than waits for).
private final class ConnectionRegistry: Sendable {
  struct State {
    var accepted = 0
    var idle: Set<Int32> = []
    var isStopped = false
  }

  let state = Mutex(State())

  /// Marks `descriptor` as waiting for a request; false when the server is stopping.
  func markIdle(_ descriptor: Int32) -> Bool {
    state.withLock { state in
      guard !state.isStopped else { return false }
      state.idle.insert(descriptor)
      return true
    }
  }

  func markBusy(_ descriptor: Int32) {
    state.withLock { _ = $0.idle.remove(descriptor) }
  }
}
