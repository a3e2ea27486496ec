/// The fetcher layers of a run, composed in their one sensible order:
///
///     archive → conditional (304 reuse) → retrying → polite (robots.txt, per-host turns)
///       → origin redirection (mirrors, replay) → libcurl
///
/// The archive, when there is one, keeps what the sources receive: a 304 as the answer it
/// confirms, a retried request once, with the answer that ended it.
///
/// Retries pass through politeness, so a retry waits its turn like any request; robots.txt
/// and per-host limits see the real sites' URLs; the statistics count per real host.
///
/// Every layer that waits (per-host turns, `Retry-After` pauses, retry backoffs) waits on the
/// stack's one `clock`, which it also hands to the geocoders' retries and to whatever else of
/// the run measures time; tests give a `ManualClock` and assert the waits exactly.
public struct FetchStack: Sendable {
  /// The top of the stack: what brand sources use.
  public let fetcher: any HTTPFetching
  /// What keeps the responses the sources receive, when the run keeps an archive.
  public let archive: (any ResponseKeeping)?
  /// Per-host limits and delays over libcurl, without robots.txt, retries or revalidation: for
  /// the geocoding APIs, which retry by their own rules (a used-up quota must not be retried)
  /// and which the keys license for programmatic use (robots.txt governs crawling pages, and
  /// an API host's `Disallow: /` must not stop every lookup).
  public let politeNetwork: any HTTPFetching
  /// Requests, retries, 304 reuses, bytes and failures per host.
  public let statistics: FetchStatistics
  /// The conditional layer, when a validator store was given (for its `storeFailures`).
  public let conditional: ConditionalRequestFetcher?
  /// The one clock every layer waits on.
  public let clock: any FetchClock

  /// Builds the stack.
  /// - Parameters:
  ///   - client: libcurl limits and User-Agent.
  ///   - overrides: real origin → replacement base URL (see `OriginRedirectingFetcher`).
  ///   - validators: where ETags and Last-Modified dates are kept; nil sends no conditional requests.
  ///   - clock: what every layer waits on (libcurl's own timeouts keep real time).
  ///   - archive: what keeps every response the sources receive; nil keeps none.
  public init(
    client: HTTPClientConfiguration = HTTPClientConfiguration(), overrides: [String: String] = [:],
    politeness: PolitenessPolicy = PolitenessPolicy(), retry: FetchRetryPolicy = FetchRetryPolicy(),
    validators: HTTPValidatorStore? = nil, statistics: FetchStatistics = FetchStatistics(),
    clock: any FetchClock = SystemFetchClock(), archive: (any ResponseKeeping)? = nil
  ) {
    var network: any HTTPFetching = CurlHTTPClient(configuration: client)
    if !overrides.isEmpty { network = OriginRedirectingFetcher(wrapping: network, overrides: overrides) }
    let polite = PoliteFetcher(wrapping: network, policy: politeness, clock: clock)
    let retrying = RetryingFetcher(wrapping: polite, policy: retry, statistics: statistics, clock: clock)
    let conditional = validators.map {
      ConditionalRequestFetcher(wrapping: retrying, store: $0, statistics: statistics, clock: clock)
    }
    let top: any HTTPFetching = conditional ?? retrying
    self.fetcher = archive.map { ArchivingFetcher(wrapping: top, keeper: $0) } ?? top
    self.archive = archive
    var apiPoliteness = politeness
    apiPoliteness.obeysRobotsTxt = false
    self.politeNetwork = PoliteFetcher(wrapping: network, policy: apiPoliteness, clock: clock)
    self.statistics = statistics
    self.conditional = conditional
    self.clock = clock
  }
}
