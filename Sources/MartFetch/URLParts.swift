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
  public var path: String
  /// The query without `?`, empty when absent.
  public var query: String

  /// The path and query (`/a/b?c=d`).
  public var pathAndQuery: String { query.isEmpty ? path : "\(path)?\(query)" }

  public init(_ url: String) {
    // Every separator is ASCII, so the scans go over UTF-8 bytes; their indices are the
    // string's own, on scalar boundaries.
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
    if let colon = hostAndPort.utf8.firstIndex(of: UInt8(ascii: ":")), colon != hostAndPort.startIndex {
      host = String(hostAndPort[..<colon])
    } else {
      host = hostAndPort.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
    }
    origin = scheme.isEmpty ? hostAndPort : "\(scheme)://\(hostAndPort)"
    let queryStart = bytes[authorityEnd..<end].firstIndex(of: UInt8(ascii: "?"))
    let rawPath = url[authorityEnd..<(queryStart ?? end)]
    path = rawPath.isEmpty ? "/" : (rawPath.utf8.first == UInt8(ascii: "/") ? String(rawPath) : "/" + rawPath)
    query = queryStart.map { String(url[bytes.index(after: $0)..<end]) } ?? ""
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
