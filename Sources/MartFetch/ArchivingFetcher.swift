/// Keeps the responses a run's sources receive, so that the run can be parsed again later
/// without the network (`mart-holiday run --replay <archive>`). `MartReplay`'s `ArchiveWriter`
/// keeps them in a WARC file or a recording folder.
///
/// Keeping never fails a fetch: a response that cannot be kept is still returned, and the
/// keeper lists the problem for the run's report.
public protocol ResponseKeeping: Sendable {
  /// Keeps `response`, the answer to `request`.
  func keep(_ request: HTTPRequest, _ response: HTTPResponse)
}

/// The archive layer, the top of a ``FetchStack`` that has one: every response the layers below
/// hand up (a 304 already replaced by the answer it confirms) is kept as the sources receive it.
public struct ArchivingFetcher: HTTPFetching {
  public let upstream: any HTTPFetching
  public let keeper: any ResponseKeeping

  public init(wrapping upstream: any HTTPFetching, keeper: any ResponseKeeping) {
    self.upstream = upstream
    self.keeper = keeper
  }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let response = try await upstream.fetch(request)
    keeper.keep(request, response)
    return response
  }
}
