/// The fetcher layers of a run, composed in their one sensible order:
///
///     conditional (304 reuse) → retrying → polite (robots.txt, per-host turns)
///       → origin redirection (mirrors, replay) → libcurl
///
/// Retries pass through politeness, so a retry waits its turn like any request; robots.txt
/// and per-host limits see the real sites' URLs; the statistics count per real host.
public struct FetchStack: Sendable {
  /// The top of the stack: what brand sources use.
  public let fetcher: any HTTPFetching
  /// Politeness over libcurl, without retries or revalidation: for callers that retry by their
  /// own rules, such as the geocoders (which must not retry a used-up quota).
  public let politeNetwork: any HTTPFetching
  /// Requests, retries, 304 reuses, bytes and failures per host.
  public let statistics: FetchStatistics
  /// The conditional layer, when a validator store was given (for its `storeFailures`).
  public let conditional: ConditionalRequestFetcher?

  /// Builds the stack.
  /// - Parameters:
  ///   - client: libcurl limits and User-Agent.
  ///   - overrides: real origin → replacement base URL (see `OriginRedirectingFetcher`).
  ///   - validators: where ETags and Last-Modified dates are kept; nil sends no conditional requests.
  public init(
    client: HTTPClientConfiguration = HTTPClientConfiguration(), overrides: [String: String] = [:],
    politeness: PolitenessPolicy = PolitenessPolicy(), retry: FetchRetryPolicy = FetchRetryPolicy(),
    validators: HTTPValidatorStore? = nil, statistics: FetchStatistics = FetchStatistics()
  ) {
    var network: any HTTPFetching = CurlHTTPClient(configuration: client)
    if !overrides.isEmpty { network = OriginRedirectingFetcher(wrapping: network, overrides: overrides) }
    let polite = PoliteFetcher(wrapping: network, policy: politeness)
    let retrying = RetryingFetcher(wrapping: polite, policy: retry, statistics: statistics)
    let conditional = validators.map {
      ConditionalRequestFetcher(wrapping: retrying, store: $0, statistics: statistics)
    }
    self.fetcher = conditional ?? retrying
    self.politeNetwork = polite
    self.statistics = statistics
    self.conditional = conditional
  }
}
