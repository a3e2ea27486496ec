import Foundation

/// An absolute URL split into the parts the fetcher layers and the replay key on, without
/// Foundation's URL parsing (URLs may hold raw non-ASCII text). The fragment is dropped.
public struct URLParts: Hashable, Sendable {
  /// `scheme://host[:port]`, scheme and host lower-cased.
  public var origin: String
  /// `host[:port]`, lower-cased.
  public var hostAndPort: String
  /// The host, lower-cased, without the port.
  public var host: String
  /// The path as written (percent-encoded), `/` when empty.
  public var path: String {
    let rawPath = url[pathRange]
    return rawPath.isEmpty ? "/" : (rawPath.utf8.first == UInt8(ascii: "/") ? String(rawPath) : "/" + rawPath)
  }
  /// The query without `?`, empty when absent.
  public var query: String { queryRange.map { String(url[$0]) } ?? "" }

  /// The URL the parts are of; the path and the query are made from it when asked for (most
  /// callers want the origin or the host alone, once per request).
  private let url: String
  private let pathRange: Range<String.Index>
  private let queryRange: Range<String.Index>?

  /// The path and query (`/a/b?c=d`).
  public var pathAndQuery: String { query.isEmpty ? path : "\(path)?\(query)" }

  public init(_ url: String) {
    self.url = url
    var contiguous = url
    let found = contiguous.withUTF8 { Self.split($0) }
    origin = found.origin
    hostAndPort = found.hostAndPort
    host = found.host
    let utf8 = url.utf8
    func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
    pathRange = index(found.path.lowerBound)..<index(found.path.upperBound)
    queryRange = found.query.map { index($0.lowerBound)..<index($0.upperBound) }
  }

  /// What `init` finds in a URL's UTF-8 bytes; the path and the query as byte offsets.
  private struct Found {
    var origin: String
    var hostAndPort: String
    var host: String
    var path: Range<Int>
    var query: Range<Int>?
  }

  /// Every separator is ASCII, so the scans go over the UTF-8 bytes; the offsets found are on
  /// scalar boundaries.
  private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> Found {
    let end = firstIndex(of: UInt8(ascii: "#"), in: bytes, from: 0, before: bytes.count) ?? bytes.count
    let separator = schemeSeparator(in: bytes, before: end)
    let start = separator.map { $0 + 3 } ?? 0
    var authorityEnd = start
    while authorityEnd < end, bytes[authorityEnd] != UInt8(ascii: "/"), bytes[authorityEnd] != UInt8(ascii: "?") {
      authorityEnd += 1
    }
    let (authority, authorityAsWritten) = lowercased(bytes[start..<authorityEnd])
    let hasUserPart = bytes[start..<authorityEnd].contains(UInt8(ascii: "@"))
    // The common case (no user part; a host before any port) without splitting.
    let hostAndPort = hasUserPart ? authority.split(separator: "@").last.map(String.init) ?? "" : authority
    let host: String
    if let colon = hostAndPort.utf8.firstIndex(of: UInt8(ascii: ":")) {
      host =
        colon != hostAndPort.startIndex
        ? String(hostAndPort[..<colon]) : hostAndPort.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
    } else {
      host = hostAndPort
    }
    var origin = hostAndPort
    if let separator, separator > 0 {
      let (scheme, schemeAsWritten) = lowercased(bytes[..<separator])
      // Written in lower case with no user part, `scheme://host[:port]` is the URL's start. (An
      // empty scheme gives the host and port alone.)
      origin =
        schemeAsWritten && authorityAsWritten && !hasUserPart
        ? String(decoding: bytes[..<authorityEnd], as: UTF8.self) : "\(scheme)://\(hostAndPort)"
    }
    let query = firstIndex(of: UInt8(ascii: "?"), in: bytes, from: authorityEnd, before: end)
    return Found(
      origin: origin, hostAndPort: hostAndPort, host: host, path: authorityEnd..<(query ?? end),
      query: query.map { ($0 + 1)..<end })
  }

  /// Where `byte` first is in `bytes[start..<end]`, found by memchr.
  private static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int)
    -> Int?
  {
    guard let base = bytes.baseAddress, start < end, let found = memchr(base + start, Int32(byte), end - start) else {
      return nil
    }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
  }

  /// Where the `://` after the scheme starts: before any `/` or `?` (a `://` in the path or the
  /// query is not one), and before `end`.
  private static func schemeSeparator(in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> Int? {
    var index = 0
    while index < end {
      switch bytes[index] {
      case UInt8(ascii: "/"), UInt8(ascii: "?"): return nil
      case UInt8(ascii: ":")
      where index + 2 < end && bytes[index + 1] == UInt8(ascii: "/")
        && bytes[index + 2] == UInt8(ascii: "/"):
        return index
      default: index += 1
      }
    }
    return nil
  }

  /// The text of `bytes` lower-cased: byte by byte when it is ASCII (a scheme, a host), else as
  /// Unicode says; and whether that is the text as written.
  private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> (String, asWritten: Bool) {
    var hasUpperCase = false
    for byte in bytes {
      if byte >= 0x80 {
        return (String(decoding: bytes, as: UTF8.self).lowercased(), false)
      }
      if (0x41...0x5A).contains(byte) { hasUpperCase = true }
    }
    guard hasUpperCase else { return (String(decoding: bytes, as: UTF8.self), true) }
    return (String(decoding: bytes.lazy.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self), false)
  }

  public static func == (one: URLParts, other: URLParts) -> Bool {
    (one.origin, one.hostAndPort, one.host, one.path, one.query)
      == (other.origin, other.hostAndPort, other.host, other.path, other.query)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(origin)
    hasher.combine(hostAndPort)
    hasher.combine(host)
    hasher.combine(path)
    hasher.combine(query)
  }
}
