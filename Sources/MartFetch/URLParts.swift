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
    var rest = Substring(url)
    if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
    var scheme = ""
    if let separator = Self.firstSchemeSeparator(in: rest) {
      scheme = rest[..<separator.lowerBound].lowercased()
      rest = rest[separator.upperBound...]
    }
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
    let authority = rest[..<authorityEnd].lowercased()
    rest = rest[authorityEnd...]
    hostAndPort = authority.split(separator: "@").last.map(String.init) ?? ""
    host = hostAndPort.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
    origin = scheme.isEmpty ? hostAndPort : "\(scheme)://\(hostAndPort)"
    let queryStart = rest.firstIndex(of: "?")
    let rawPath = queryStart.map { rest[..<$0] } ?? rest
    path = rawPath.isEmpty ? "/" : (rawPath.hasPrefix("/") ? String(rawPath) : "/" + rawPath)
    query = queryStart.map { String(rest[rest.index(after: $0)...]) } ?? ""
  }

  /// Where the `://` after the scheme is: before any `/` or `?` (a `://` in the path or the
  /// query is not one). A plain scan, where Foundation's `range(of:)` would go through `NSString`
  /// for every URL split.
  private static func firstSchemeSeparator(in text: Substring) -> Range<Substring.Index>? {
    var index = text.startIndex
    while index < text.endIndex {
      switch text[index] {
      case "/", "?": return nil
      case ":" where text[text.index(after: index)...].hasPrefix("//"): return index..<text.index(index, offsetBy: 3)
      default: index = text.index(after: index)
      }
    }
    return nil
  }
}
