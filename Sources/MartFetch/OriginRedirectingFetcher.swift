/// Sends requests for some origins to other base URLs — a mirror, or the local replay server —
/// while everything above it keeps using the real URLs. Responses keep the real request URL,
/// so parsers, error messages, archives and exported records all name the real site.
public struct OriginRedirectingFetcher: HTTPFetching {
  public let upstream: any HTTPFetching
  /// `scheme://host[:port]` of the real site, optionally with a path prefix → replacement
  /// `scheme://host[:port][/prefix]`.
  public let overrides: [String: String]
  /// The overrides, longest origin (in characters) first: the first one a URL starts with wins.
  private let routes: [(origin: String, length: Int, replacement: String)]

  public init(wrapping upstream: any HTTPFetching, overrides: [String: String]) {
    self.upstream = upstream
    self.overrides = overrides.mapValues { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    routes = self.overrides.map { (origin: $0.key, length: $0.key.count, replacement: $0.value) }
      .sorted { $0.length > $1.length }
  }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    guard let (rest, replacement) = override(for: request.url) else {
      return try await upstream.fetch(request)
    }
    var redirected = request
    redirected.url = replacement + rest
    var response: HTTPResponse
    do {
      response = try await upstream.fetch(redirected)
    } catch {
      throw FetchError(error.code, url: request.url, message: "\(error.message) (sent to \(redirected.url))")
    }
    response.requestURL = request.url
    return response
  }

  /// The URL after the override whose origin (or origin and path prefix) it starts with,
  /// followed by `/`, `?` or the end, and that override's replacement; the longest such key
  /// wins, so `http://site/part` can go elsewhere than the rest of `http://site`.
  private func override(for url: String) -> (rest: Substring, replacement: String)? {
    for route in routes where url.hasPrefix(route.origin) {
      let rest = url.dropFirst(route.length)
      guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") else { continue }
      return (rest, route.replacement)
    }
    return nil
  }
}
