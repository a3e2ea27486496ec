import Foundation
import MartCore
import Synchronization

/// The HTTP methods the pipeline uses.
public enum HTTPMethod: String, Sendable, Codable, Hashable {
  case get = "GET"
  case post = "POST"
}

/// One header line. Names compare case-insensitively through `HTTPHeaders`.
public struct HTTPHeader: Sendable, Hashable, Codable {
  public var name: String
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

extension HTTPHeader {
  /// Why `value` cannot be sent as a header value, or nil when it can: a control character
  /// (CR, LF, NUL, …; a tab is allowed) would end the header line early and let the rest
  /// pass as headers of its own (RFC 9110 §5.5).
  public static func problem(inValue value: String) -> String? {
    // Printable ASCII and tabs, the usual value, without asking each scalar's category.
    if value.withContiguousUTF8({ $0.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 } }) { return nil }
    guard let bad = value.unicodeScalars.first(where: { $0 != "\t" && $0.properties.generalCategory == .control })
    else { return nil }
    return "holds the control character U+\(String(bad.value, radix: 16, uppercase: true).leftPadded(to: 4))"
  }

  /// Why this header cannot be sent, or nil when it can: a name that is not an HTTP token
  /// (RFC 9110 §5.1), or a value with a control character (see ``problem(inValue:)``).
  public var problem: String? {
    guard !name.isEmpty, name.withContiguousUTF8({ $0.allSatisfy(Self.isTokenByte) }) else {
      return "header name \(name.debugDescription) is not an HTTP token"
    }
    return Self.problem(inValue: value).map { "header \(name) \($0)" }
  }

  /// Whether `byte` may be part of a token: a letter, a digit or one of ``!#$%&'*+-.^_`|~``.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}

extension Array where Element == HTTPHeader {
  /// The value of the last header called `name` (case-insensitive), if any.
  public func value(named name: String) -> String? {
    last { $0.name.equalsIgnoringASCIICase(name) }?.value
  }

  /// Adds one line of a header block (an HTTP response's as it arrives, or a WARC record's):
  /// `name: value`, or a line starting with a space or tab that continues the previous field's
  /// value. `false` when the line is neither.
  public mutating func appendFieldLine(_ line: String) -> Bool {
    line.withContiguousUTF8 { appendFieldLine($0) }
  }

  /// Adds one line of a header block given as its UTF-8 bytes (see the `String` form). Read by
  /// its bytes: the colon, spaces and tabs that shape a field line are ASCII, which no byte of a
  /// longer character is, so each part decodes as it would within the whole line.
  mutating func appendFieldLine(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t"), !isEmpty {
      self[count - 1].value += " " + String(decoding: line.trimmingHTTPWhitespace, as: UTF8.self)
      return true
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
    append(
      HTTPHeader(
        String(decoding: line[..<colon].trimmingHTTPWhitespace, as: UTF8.self),
        String(decoding: line[(colon + 1)...].trimmingHTTPWhitespace, as: UTF8.self)))
    return true
  }
}

extension StringProtocol {
  /// Whether the text equals `other` with ASCII letters compared without case, as header names
  /// and parameter names are. Byte by byte: Foundation's `caseInsensitiveCompare` goes through
  /// `NSString`, for every header of every response.
  public func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
    utf8.count == other.utf8.count && utf8.elementsEqualIgnoringASCIICase(other.utf8)
  }

  /// Whether the text starts with `prefix`, ASCII letters compared without case (a URL's
  /// scheme), byte by byte.
  func hasPrefixIgnoringASCIICase(_ prefix: some StringProtocol) -> Bool {
    utf8.starts(with: prefix.utf8) { $0.foldedASCII == $1.foldedASCII }
  }
}

extension UInt8 {
  /// The byte with `A`…`Z` taken as `a`…`z`.
  fileprivate var foldedASCII: UInt8 { (0x41...0x5A).contains(self) ? self | 0x20 : self }
}

extension Sequence<UInt8> {
  /// Whether the bytes equal `other`'s, ASCII letters compared without case.
  func elementsEqualIgnoringASCIICase(_ other: some Sequence<UInt8>) -> Bool {
    elementsEqual(other) { $0.foldedASCII == $1.foldedASCII }
  }
}

extension BidirectionalCollection<UInt8> {
  /// The text without the spaces and tabs (HTTP's optional whitespace) and CR LF line breaks
  /// around it, as UTF-8 bytes.
  var trimmingHTTPWhitespace: SubSequence {
    trimming(lineBreaks: true) { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
  }

  /// The UTF-8 bytes of a text without the ASCII bytes around them for which `unwanted` holds
  /// and, with `lineBreaks`, without the CR LF pairs around them (a CR or an LF alone stays).
  /// No byte of a longer character's UTF-8 is ASCII, so what is left is whole characters.
  func trimming(lineBreaks: Bool = false, bytes unwanted: (UInt8) -> Bool) -> SubSequence {
    var start = startIndex
    var end = endIndex
    while start < end {
      let next = index(after: start)
      if unwanted(self[start]) {
        start = next
      } else if lineBreaks, self[start] == 0x0D, next < end, self[next] == 0x0A {
        start = index(after: next)
      } else {
        break
      }
    }
    while start < end {
      let last = index(before: end)
      if unwanted(self[last]) {
        end = last
      } else if lineBreaks, self[last] == 0x0A, last > start, self[index(before: last)] == 0x0D {
        end = index(before: last)
      } else {
        break
      }
    }
    return self[start..<end]
  }
}

/// One new connection that carries a sequence of requests and nothing else
/// (``HTTPRequest/ConnectionChoice/lane(_:closing:)``): each lane is told from every other by
/// its number, unique in the process.
public struct ConnectionLane: Sendable, Hashable {
  public let number: Int
  private static let lanes = Atomic(0)

  /// A lane no request has used yet.
  public init() {
    number = Self.lanes.wrappingAdd(1, ordering: .relaxed).newValue
  }
}

/// An HTTP request as plain data: what to send, nothing about how.
public struct HTTPRequest: Sendable, Hashable {
  public var method: HTTPMethod
  /// Absolute `http` or `https` URL, already percent-encoded.
  public var url: String
  public var headers: [HTTPHeader]
  public var body: Data?
  /// Which connection may carry it (default: a kept-alive one).
  public var connection = ConnectionChoice.keptAlive

  /// Which connection a request may go on.
  public enum ConnectionChoice: Sendable, Hashable {
    /// Any connection to the origin, kept alive and reused.
    case keptAlive
    /// A new connection, closed after the answer, and no validators a cache layer would add: for
    /// a page whose answer could be another request's (a blank page proves nothing).
    case fresh
    /// As `fresh`, asked again because an answer on a kept-alive connection was another
    /// request's (a server or proxy that sends an answer twice shifts every later answer on
    /// that connection by one): `CurlHTTPClient` then uses no kept-alive connection to the
    /// origin any more.
    case freshAfterMismatch
    /// On `lane`'s one connection: a new connection opened by the lane's first request and used
    /// by its requests alone, sent one at a time, and closed after the request marked `closing`.
    /// No other request goes on it and its requests go on no other kept-alive connection, so
    /// every answer on it follows the lane's own requests: when the last one's answer is its own,
    /// no answer on the connection was a leftover (a copy shifts every later answer, the last
    /// one's included).
    case lane(ConnectionLane, closing: Bool)
  }

  /// Whether it goes on a new connection of its own (``ConnectionChoice/fresh`` or
  /// ``ConnectionChoice/freshAfterMismatch``).
  public var freshConnection: Bool { connection == .fresh || connection == .freshAfterMismatch }

  /// The lane it goes on, when it goes on one (``ConnectionChoice/lane(_:closing:)``).
  public var lane: ConnectionLane? {
    if case .lane(let lane, _) = connection { return lane }
    return nil
  }

  public init(method: HTTPMethod = .get, url: String, headers: [HTTPHeader] = [], body: Data? = nil) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
  }

  /// A GET request.
  public static func get(_ url: String, headers: [HTTPHeader] = []) -> HTTPRequest {
    HTTPRequest(method: .get, url: url, headers: headers)
  }

  /// This request, sent on a connection of its own (``ConnectionChoice/fresh``).
  public var onFreshConnection: HTTPRequest {
    var fresh = self
    fresh.connection = .fresh
    return fresh
  }

  /// A POST with an `application/x-www-form-urlencoded` body (UTF-8), fields in the given order.
  public static func postForm(
    _ url: String, fields: [(name: String, value: String)], headers: [HTTPHeader] = []
  ) -> HTTPRequest {
    HTTPRequest(
      method: .post, url: url,
      headers: headers + [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
      body: Data(FormEncoding.encode(fields).utf8))
  }
}

/// A received HTTP response.
public struct HTTPResponse: Sendable, Hashable {
  /// The URL that was requested.
  public var requestURL: String
  /// The URL the body came from, after redirects.
  public var finalURL: String
  public var status: Int
  public var headers: [HTTPHeader] {
    didSet { charset = Self.charset(in: headers) }
  }
  public var body: Data
  /// The `charset` parameter of the Content-Type header, lower-cased, if present: read once,
  /// when the headers are set, for the session and the parser that both ask.
  public private(set) var charset: String?
  /// The final response's status line as received (`HTTP/1.1 200 OK`), when known.
  public var statusLine: String?
  /// Whether it came on a connection that had carried other answers before: only such an
  /// answer can be a leftover copy of another request's (see `HTTPRequest.ConnectionChoice`).
  /// It says how the answer arrived, not what it is, so equality and hashing ignore it.
  public var cameOnReusedConnection = false
  /// How many connections the transfer opened: 0 when it went on a kept-alive one, 1 for a new
  /// connection; more after redirects or a broken connection. 0 when the fetcher does not say.
  /// Like ``cameOnReusedConnection``, equality and hashing ignore it.
  public var connectionsOpened = 0
  /// Whether the answer was read over plain HTTP after a redirect from an HTTPS URL (allowed
  /// only by ``HTTPSPolicy/allowsInsecureRedirects``). Like
  /// ``cameOnReusedConnection``, equality and hashing ignore it.
  public var cameOverPlainHTTP = false

  public init(
    requestURL: String, finalURL: String, status: Int, headers: [HTTPHeader], body: Data, statusLine: String? = nil
  ) {
    self.requestURL = requestURL
    self.finalURL = finalURL
    self.status = status
    self.headers = headers
    self.body = body
    self.statusLine = statusLine
    self.charset = Self.charset(in: headers)
  }

  public static func == (lhs: HTTPResponse, rhs: HTTPResponse) -> Bool {
    lhs.requestURL == rhs.requestURL && lhs.finalURL == rhs.finalURL && lhs.status == rhs.status
      && lhs.headers == rhs.headers && lhs.body == rhs.body && lhs.statusLine == rhs.statusLine
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(requestURL)
    hasher.combine(finalURL)
    hasher.combine(status)
    hasher.combine(headers)
    hasher.combine(body)
    hasher.combine(statusLine)
  }

  /// The `charset` parameter of the Content-Type header of `headers`, lower-cased, if present.
  /// Split at the bytes of `;` and `=` (ASCII: no byte of a longer character is), in place:
  /// the parts are those `split(separator: ";")` gives, the first (the media type) left out.
  static func charset(in headers: [HTTPHeader]) -> String? {
    guard let contentType = headers.value(named: "Content-Type") else { return nil }
    return contentType.withContiguousUTF8 { bytes in
      var index = bytes.startIndex
      var isMediaType = true
      while index < bytes.endIndex {
        guard bytes[index] != UInt8(ascii: ";") else {
          index += 1
          continue
        }
        let start = index
        while index < bytes.endIndex, bytes[index] != UInt8(ascii: ";") { index += 1 }
        if isMediaType {
          isMediaType = false
        } else if let value = charsetValue(of: bytes[start..<index]) {
          return String(decoding: value, as: UTF8.self).lowercased()
        }
      }
      return nil
    }
  }

  /// The value of `parameter` when it is `charset=…` (the name in any case, HTTP whitespace
  /// around it), without the spaces, tabs and quotes around it; read as `split(separator: "=",
  /// maxSplits: 1)` reads it: `=`s before the name skipped, the name up to the next `=`, and
  /// something after that.
  private static func charsetValue(
    of parameter: Slice<UnsafeBufferPointer<UInt8>>
  ) -> Slice<UnsafeBufferPointer<UInt8>>? {
    guard let nameStart = parameter.firstIndex(where: { $0 != UInt8(ascii: "=") }),
      let equals = parameter[nameStart...].firstIndex(of: UInt8(ascii: "=")), equals + 1 < parameter.endIndex,
      parameter[nameStart..<equals].trimmingHTTPWhitespace.elementsEqualIgnoringASCIICase("charset".utf8)
    else { return nil }
    return parameter[(equals + 1)...].trimming { byte in
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\"")
        || byte == UInt8(ascii: "'")
    }
  }

  /// Whether the status is 2xx.
  public var isSuccess: Bool { (200..<300).contains(status) }

  /// Throws `FetchError.httpStatus` unless the status is 2xx.
  @discardableResult
  public func requireSuccess() throws(FetchError) -> HTTPResponse {
    guard isSuccess else {
      throw FetchError(.httpStatus(status), url: requestURL, message: "HTTP \(status) from \(finalURL)")
    }
    return self
  }
}

/// Anything that can perform an HTTP request: the libcurl client, and later the politeness,
/// caching and archiving layers that wrap it.
public protocol HTTPFetching: Sendable {
  /// Performs the request. Any HTTP status is a response; only transport failures throw.
  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse
}

/// A failed fetch: what went wrong, for which URL (a ``LocatedError`` at ``url``).
public struct FetchError: LocatedError, Hashable, Sendable {
  /// The kind of failure.
  public enum Code: Hashable, Sendable {
    /// A response arrived with a status that the caller does not accept.
    case httpStatus(Int)
    /// Connect, total or low-speed timeout.
    case timeout
    /// The server could not be reached, or the connection broke (DNS, refused, reset, nothing sent).
    case connection
    /// The connection closed before the declared body had arrived.
    case bodyCutShort
    /// The body exceeded the configured maximum size.
    case bodyTooLarge(limit: Int)
    /// A redirect to a scheme other than http or https, or too many redirects.
    case redirect
    /// The URL is malformed or uses an unsupported scheme.
    case invalidURL
    /// robots.txt does not allow the URL for this crawler.
    case disallowedByRobots
    /// The task was cancelled; the transfer was stopped.
    case cancelled
    /// Any other transport failure.
    case transport
  }

  public var code: Code
  /// The requested URL.
  public var url: String
  /// Human-readable detail (e.g. curl's error text).
  public var message: String

  public init(_ code: Code, url: String, message: String) {
    self.code = code
    self.url = url
    self.message = message
  }

  /// The requested URL.
  public var location: String { url }

  public var description: String { "fetching \(url) failed: \(message)" }
}

/// `application/x-www-form-urlencoded` encoding and decoding (UTF-8, spaces as `+`).
public enum FormEncoding {
  /// Percent-encodes one name or value: ASCII letters, digits and `-._*` stay, a space becomes
  /// `+`, every other UTF-8 byte becomes `%XX` (upper-case hex).
  public static func escape(_ text: String) -> String {
    let utf8 = text.utf8
    if utf8.allSatisfy(isUnreserved) { return text }
    var escaped: [UInt8] = []
    escaped.reserveCapacity(utf8.count * 3)
    for byte in utf8 {
      if isUnreserved(byte) {
        escaped.append(byte)
      } else if byte == UInt8(ascii: " ") {
        escaped.append(UInt8(ascii: "+"))
      } else {
        escaped.append(UInt8(ascii: "%"))
        escaped.append(upperHexDigits[Int(byte >> 4)])
        escaped.append(upperHexDigits[Int(byte & 0x0F)])
      }
    }
    return String(decoding: escaped, as: UTF8.self)
  }

  private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): true
    case UInt8(ascii: "0")...UInt8(ascii: "9"): true
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "*"): true
    default: false
    }
  }

  /// Encodes fields in order: `a=1&b=%ED%95%9C`.
  public static func encode(_ fields: [(name: String, value: String)]) -> String {
    fields.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
  }

  /// Decodes a query string or form body into fields, in order. Invalid escapes are kept as text.
  public static func decode(_ text: String) -> [(name: String, value: String)] {
    guard !text.isEmpty else { return [] }
    return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let name = unescape(String(parts[0]))
      let value = parts.count > 1 ? unescape(String(parts[1])) : ""
      return (name, value)
    }
  }

  private static func unescape(_ text: String) -> String {
    // Most names and values have nothing to unescape: no trip through Foundation for them.
    guard text.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return text }
    let spaced = text.replacingOccurrences(of: "+", with: " ")
    return spaced.removingPercentEncoding ?? spaced
  }
}
