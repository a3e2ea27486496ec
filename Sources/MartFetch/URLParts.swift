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
    // Every separator is ASCII, so the scans go over UTF-8 bytes; their indices are the
    // string's own, on scalar boundaries.
    self.url = url
    let bytes = url.utf8
    let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
    var start = bytes.startIndex
    var scheme = ""
    if let separator = Self.firstSchemeSeparator(in: bytes[..<end]) {
      scheme = Self.lowercased(url[..<separator.lowerBound])
      start = separator.upperBound
    }
    let authorityEnd =
      bytes[start..<end].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? end
    let authority = Self.lowercased(url[start..<authorityEnd])
    // The common case (no user part; a host before any port) without splitting.
    hostAndPort =
      authority.utf8.contains(UInt8(ascii: "@"))
      ? authority.split(separator: "@").last.map(String.init) ?? "" : authority
    if let colon = hostAndPort.utf8.firstIndex(of: UInt8(ascii: ":")) {
      host =
        colon != hostAndPort.startIndex
        ? String(hostAndPort[..<colon]) : hostAndPort.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
    } else {
      host = hostAndPort
    }
    origin = scheme.isEmpty ? hostAndPort : "\(scheme)://\(hostAndPort)"
    let queryStart = bytes[authorityEnd..<end].firstIndex(of: UInt8(ascii: "?"))
    pathRange = authorityEnd..<(queryStart ?? end)
    queryRange = queryStart.map { bytes.index(after: $0)..<end }
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

  /// Where the `://` after the scheme is: before any `/` or `?` (a `://` in the path or the
  /// query is not one).
  private static func firstSchemeSeparator(in bytes: Substring.UTF8View) -> Range<String.Index>? {
    var index = bytes.startIndex
    while index < bytes.endIndex {
      switch bytes[index] {
      case UInt8(ascii: "/"), UInt8(ascii: "?"): return nil
      case UInt8(ascii: ":"):
        let rest = bytes[bytes.index(after: index)...]
        if rest.starts(with: "//".utf8) { return index..<bytes.index(index, offsetBy: 3) }
        index = bytes.index(after: index)
      default: index = bytes.index(after: index)
      }
    }
    return nil
  }

  /// `text` lower-cased: byte by byte when it is ASCII (a scheme, a host), else as Unicode says.
  private static func lowercased(_ text: Substring) -> String {
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() }
    guard text.utf8.contains(where: { (0x41...0x5A).contains($0) }) else { return String(text) }
    return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
  }
}
