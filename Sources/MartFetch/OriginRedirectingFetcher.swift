/// Sends requests for some origins to other base URLs — a mirror, or the local replay server —
/// while everything above it keeps using the real URLs. Responses keep the real request URL,
/// so parsers, error messages, archives and exported records all name the real site.
public struct OriginRedirectingFetcher: HTTPFetching {
  public let upstream: any HTTPFetching
  /// `scheme://host[:port]` of the real site, optionally with a path prefix → replacement
  /// `scheme://host[:port][/prefix]`.
  public let overrides: [String: String]

  public init(wrapping upstream: any HTTPFetching, overrides: [String: String]) {
    self.upstream = upstream
    self.overrides = overrides.mapValues { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
  }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    guard let (origin, replacement) = override(for: request.url) else {
      return try await upstream.fetch(request)
    }
    var redirected = request
    redirected.url = replacement + request.url.dropFirst(origin.count)
    var response: HTTPResponse
    do {
      response = try await upstream.fetch(redirected)
    } catch {
      throw FetchError(error.code, url: request.url, message: "\(error.message) (sent to \(redirected.url))")
    }
    response.requestURL = request.url
    return response
  }

  /// The override whose origin (or origin and path prefix) the URL starts with, followed by
  /// `/`, `?` or the end; the longest such key wins, so `http://site/part` can go elsewhere than
  /// the rest of `http://site`.
  private func override(for url: String) -> (String, String)? {
    var best: (String, String)?
    for (origin, replacement) in overrides where url.hasPrefix(origin) {
      let rest = url.dropFirst(origin.count)
      guard rest.isEmpty || rest.hasPrefix("/") || rest.hasPrefix("?") else { continue }
      if origin.count > (best?.0.count ?? -1) { best = (origin, replacement) }
    }
    return best
  }
}
