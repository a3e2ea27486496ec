import Foundation
import MartGzip
import MartFetch

/// The HTTP messages inside WARC `request` and `response` records: written from the exchanges a
/// run makes, and read back (from our archives and from other tools') for a replay.
///
/// A response body is kept as the run received it from libcurl: without transfer coding and
/// with any content coding (gzip, deflate) already undone, the bytes a source parsed and the
/// bytes a replay serves. The headers that described the undone codings, `Transfer-Encoding`
/// always and `Content-Encoding` and `Content-Length` when a content coding was undone, are kept
/// under `X-Archive-Orig-<name>` (the convention of pywb and other WARC tools for headers that
/// no longer describe the stored body), so the record is a valid HTTP message and every header
/// received is still there.
enum WARCHTTPMessage {
  /// The prefix of a received header that no longer describes the stored body.
  static let originalHeaderPrefix = "X-Archive-Orig-"

  /// The most bytes a body may decompress to when a foreign record stores it gzip-coded.
  static let bodyLimit = 64 << 20

  /// The request line, `Host`, the `User-Agent` the transport adds (when the request names
  /// none), the request's own headers, a blank line and the body.
  static func requestBlock(_ request: HTTPRequest, userAgent: String?) -> Data {
    let url = URLParts(request.url)
    var head = "\(request.method.rawValue) \(url.pathAndQuery.isEmpty ? "/" : url.pathAndQuery) HTTP/1.1\r\n"
    head += "Host: \(url.hostAndPort)\r\n"
    if let userAgent, request.headers.value(named: "User-Agent") == nil { head += "User-Agent: \(userAgent)\r\n" }
    for header in request.headers { head += "\(header.name): \(header.value)\r\n" }
    head += "\r\n"
    return Data(head.utf8) + (request.body ?? Data())
  }

  /// The status line and headers as received (see the type's note on codings), a blank line,
  /// and the body apart.
  static func responseBlock(_ response: HTTPResponse) -> (head: Data, body: Data) {
    let contentCoded = response.headers.contains { named($0, "Content-Encoding") }
    var head = (response.statusLine ?? "HTTP/1.1 \(response.status)") + "\r\n"
    for header in response.headers {
      let describesCoding =
        named(header, "Transfer-Encoding")
        || (contentCoded && (named(header, "Content-Encoding") || named(header, "Content-Length")))
      head += "\(describesCoding ? originalHeaderPrefix : "")\(header.name): \(header.value)\r\n"
    }
    head += "\r\n"
    return (Data(head.utf8), response.body)
  }

  /// A message read from a record: its first line, headers and body.
  struct Parsed {
    var startLine: String
    var headers: [HTTPHeader]
    var body: Data
  }

  /// Splits a record's block into its first line, headers and body. A message without the blank
  /// line that ends its headers, or with a header line that is not `name: value`, is refused.
  static func parse(_ block: Data) throws(MessageError) -> Parsed {
    let bytes = [UInt8](block)
    var index = 0
    var lines: [String] = []
    var ended = false
    while index < bytes.count {
      var end = index
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      guard end < bytes.count else { break }
      var lineEnd = end
      if lineEnd > index, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
      let line = String(decoding: bytes[index..<lineEnd], as: UTF8.self)
      index = end + 1
      if line.isEmpty {
        ended = true
        break
      }
      lines.append(line)
    }
    guard ended, let startLine = lines.first else {
      throw MessageError("its HTTP message has no blank line ending the headers")
    }
    var headers: [HTTPHeader] = []
    for line in lines.dropFirst() where !headers.appendFieldLine(line) {
      throw MessageError("its HTTP header line \(String(line.prefix(80)).debugDescription) is not name: value")
    }
    return Parsed(startLine: startLine, headers: headers, body: Data(bytes[index...]))
  }

  /// The response a run received, from a `response` record's message: the status from the status
  /// line, the body without the codings the headers still name (a record of another tool keeps
  /// the bytes as sent: chunked, gzip), and the headers as received, `X-Archive-Orig-` names
  /// restored.
  static func response(_ message: Parsed) throws(MessageError) -> (status: Int, headers: [HTTPHeader], body: Data) {
    let parts = message.startLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), parts[1].count == 3, let status = Int(parts[1]),
      (100...599).contains(status)
    else {
      throw MessageError("its status line \(String(message.startLine.prefix(80)).debugDescription) is not HTTP/… <status>")
    }
    var body = message.body
    if let transfer = message.headers.value(named: "Transfer-Encoding") {
      guard transfer.lowercased().trimmingCharacters(in: .whitespaces) == "chunked" else {
        throw MessageError("its Transfer-Encoding \(transfer) cannot be read (only chunked)")
      }
      body = try dechunked(body)
    }
    if let coding = message.headers.value(named: "Content-Encoding")?.lowercased().trimmingCharacters(in: .whitespaces),
      coding != "identity"
    {
      guard coding == "gzip" || coding == "x-gzip" else {
        throw MessageError("its Content-Encoding \(coding) cannot be read (only gzip)")
      }
      do { body = try Gzip.decompress(body, atMost: bodyLimit) } catch {
        throw MessageError("its gzip-coded body cannot be read: \(error)")
      }
    }
    let headers = message.headers.map { header -> HTTPHeader in
      guard header.name.count > originalHeaderPrefix.count,
        header.name.lowercased().hasPrefix(originalHeaderPrefix.lowercased())
      else { return header }
      return HTTPHeader(String(header.name.dropFirst(originalHeaderPrefix.count)), header.value)
    }
    return (status, headers, body)
  }

  /// The method of a request message (`GET /path HTTP/1.1`).
  static func method(_ message: Parsed) throws(MessageError) -> String {
    let parts = message.startLine.split(separator: " ")
    guard parts.count == 3, parts[2].hasPrefix("HTTP/"), parts[0].allSatisfy({ $0.isLetter && $0.isASCII }) else {
      throw MessageError("its request line \(String(message.startLine.prefix(80)).debugDescription) is not <method> <target> HTTP/…")
    }
    return String(parts[0]).uppercased()
  }

  /// The body of a chunked message: each chunk's size in hex (extensions after `;` ignored),
  /// its bytes, to the chunk of size 0.
  static func dechunked(_ data: Data) throws(MessageError) -> Data {
    let bytes = [UInt8](data)
    var index = 0
    var body = Data()
    while true {
      var end = index
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      guard end < bytes.count else { throw MessageError("its chunked body ends before the last chunk") }
      let line = String(decoding: bytes[index..<end], as: UTF8.self)
      let sizeText = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
      guard let size = Int(sizeText, radix: 16), size >= 0, size <= bytes.count else {
        throw MessageError("its chunk size \(String(line.prefix(20)).debugDescription) is not a hex number")
      }
      index = end + 1
      if size == 0 { return body }
      guard bytes.count - index >= size else { throw MessageError("its chunked body ends inside a chunk") }
      body.append(contentsOf: bytes[index..<(index + size)])
      index += size
      if index < bytes.count, bytes[index] == UInt8(ascii: "\r") { index += 1 }
      if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
    }
  }

  private static func named(_ header: HTTPHeader, _ name: String) -> Bool {
    header.name.equalsIgnoringASCIICase(name)
  }

  /// Why a record's HTTP message cannot be read.
  struct MessageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }
}
