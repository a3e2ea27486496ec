import Foundation
import MartCharset
import MartCore
import MartFetch
import Synchronization

/// One brand website (or API) and how its responses become raw branch records.
///
/// A source is one file: it names the brands it yields, where the site lives, which requests
/// to make, and how to read the answers. All I/O goes through `SourceSession`, so the same
/// code runs against the live site, a mirror, or the local replay server.
public protocol BrandSource: Sendable {
  /// A stable name for reports and options, e.g. `emart`.
  var name: String { get }
  /// The brands whose branches this source yields.
  var brands: [BrandSlug] { get }
  /// The site's real `scheme://host[:port]`, e.g. `https://store.emart.com`.
  var defaultBaseURL: String { get }
  /// Fetches and parses every branch of `session.brands`.
  func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch]
}

/// What a brand source may use while collecting: the site's base URL, the fetcher, the as-of
/// date, and the brands requested. The base URL is the real site's; sending requests to a
/// mirror or the replay server is the fetcher's job (`OriginRedirectingFetcher`).
public struct SourceSession: Sendable {
  /// `scheme://host[:port]` with no trailing slash; paths are appended to it.
  public let baseURL: String
  public let fetcher: any HTTPFetching
  /// The day the run treats as today.
  public let asOf: CalendarDate
  /// The brands requested of this source (a subset of `BrandSource.brands`).
  public let brands: Set<BrandSlug>
  /// The source's name, for error messages.
  public let sourceName: String
  private let warningLog = WarningLog()

  public init(
    baseURL: String, fetcher: any HTTPFetching, asOf: CalendarDate, brands: Set<BrandSlug>,
    sourceName: String
  ) {
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    self.fetcher = fetcher
    self.asOf = asOf
    self.brands = brands
    self.sourceName = sourceName
  }

  /// Records a problem that did not stop the source (a detail page that failed, a row that
  /// was skipped); the run report lists it. Name the branch or URL in the text.
  public func warn(_ message: String) { warningLog.append(message) }

  /// Everything passed to `warn(_:)` so far, in order.
  public var warnings: [String] { warningLog.messages }

  /// The absolute URL of `pathAndQuery` (which starts with `/`) on this session's site.
  public func url(_ pathAndQuery: String) -> String { baseURL + pathAndQuery }

  /// GETs `pathAndQuery` and requires a 2xx status.
  public func get(_ pathAndQuery: String) async throws(SourceError) -> HTTPResponse {
    try await send(.get(url(pathAndQuery)))
  }

  /// POSTs a form to `pathAndQuery` and requires a 2xx status.
  public func postForm(
    _ pathAndQuery: String, fields: [(name: String, value: String)]
  ) async throws(SourceError) -> HTTPResponse {
    try await send(.postForm(url(pathAndQuery), fields: fields))
  }

  /// Sends any request and requires a 2xx status. An unknown Content-Type charset is a warning
  /// (the parsers then sniff the encoding).
  public func send(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
    let response: HTTPResponse
    do {
      response = try await fetcher.fetch(request).requireSuccess()
    } catch {
      throw SourceError(source: sourceName, url: request.url, reason: .fetch(error))
    }
    if let label = response.charset, CharsetDecoder.encodingName(forLabel: label) == nil {
      warn("\(request.url): unknown charset \"\(label)\" in the Content-Type header; the encoding was sniffed")
    }
    return response
  }

  /// Decodes a JSON body, naming the source and URL when the shape is wrong.
  public func decodeJSON<T: Decodable>(_ type: T.Type, from response: HTTPResponse) throws(SourceError) -> T {
    do {
      return try JSONDecoder().decode(T.self, from: response.body)
    } catch {
      throw SourceError(
        source: sourceName, url: response.requestURL, reason: .unexpectedContent("\(error)"))
    }
  }
}

/// A brand source failed: which source, which URL, and why.
public struct SourceError: Error, Sendable, CustomStringConvertible {
  public enum Reason: Sendable {
    /// The request failed or returned a non-2xx status.
    case fetch(FetchError)
    /// The response did not have the expected structure (site redesign, broken page).
    case unexpectedContent(String)
  }

  public var source: String
  public var url: String
  public var reason: Reason

  public init(source: String, url: String, reason: Reason) {
    self.source = source
    self.url = url
    self.reason = reason
  }

  public var description: String {
    switch reason {
    case .fetch(let error): "\(source): \(error)"
    case .unexpectedContent(let detail): "\(source): unexpected content at \(url): \(detail)"
    }
  }
}

/// A thread-safe list of warnings shared by the copies of a session.
private final class WarningLog: Sendable {
  private let storage = Mutex<[String]>([])

  func append(_ message: String) { storage.withLock { $0.append(message) } }
  var messages: [String] { storage.withLock { $0 } }
}
