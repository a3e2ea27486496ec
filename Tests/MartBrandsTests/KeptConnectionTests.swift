import Foundation
import MartCore
import MartFetch
import MartReplay
import Synchronization
import TestSupport
import Testing

@testable import MartBrands

/// Connections per request of whole sources, counted where connections are opened: the loopback
/// server's accepted connections, over plain HTTP and through a real TLS terminator (one
/// connection to the server per TLS connection). No wall time is measured: a source that asks a
/// page again on a fresh connection, or a client that drops kept-alive connections, shows here
/// as connections, on any machine.
@Suite(.serialized)
struct KeptConnectionTests {
  enum Transport: String, CaseIterable, Sendable { case http, https }

  /// Every request of a source, counted at the client.
  final class CountingFetcher: HTTPFetching {
    let upstream: any HTTPFetching
    private let counted = Mutex<Int>(0)

    init(upstream: any HTTPFetching) { self.upstream = upstream }

    var requests: Int { counted.withLock { $0 } }

    func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
      counted.withLock { $0 += 1 }
      return try await upstream.fetch(request)
    }
  }

  /// What `source` asks of `host`'s recordings over `transport`, one request at a time, and the
  /// connections the server accepted for them. One at a time, the count is what the source and
  /// the client do (a page asked again on a fresh connection, a dropped connection), not how
  /// requests happened to overlap: with four at once, a loaded machine let more answers arrive
  /// on reused connections, and more identical ones were asked again (22 for 80 instead of 12).
  static func collect(
    _ source: any BrandSource, brands: Set<BrandSlug>, host: String, over transport: Transport
  ) async throws -> (branches: Int, requests: Int, connections: Int) {
    let server = try AnswerProofTests.server(host: host, ignoringQuery: false)
    defer { server.stop() }
    var configuration = HTTPClientConfiguration()
    var baseURL = server.baseURL
    var terminator: TLSTerminator?
    if transport == .https {
      let tls = try TLSTerminator(targetPort: server.port)
      terminator = tls
      baseURL = tls.baseURL
      configuration.https.trustedCertificates = .bundle(
        path: try TLSTerminator.certificateAuthorityFile().path, namedBy: "test")
    }
    defer { terminator?.stop() }
    let counting = CountingFetcher(
      upstream: OriginRedirectingFetcher(
        wrapping: CurlHTTPClient(configuration: configuration), overrides: [type(of: source).origin: baseURL]))
    let fetcher = PoliteFetcher(
      wrapping: counting,
      policy: PolitenessPolicy(
        maxConcurrentRequestsPerHost: 1, minimumDelay: .zero, jitter: .zero, obeysRobotsTxt: false))
    let session = SourceSession(for: type(of: source), fetcher: fetcher, asOf: AnswerProofTests.asOf, brands: brands)
    let branches = try await source.collect(session)
    return (branches.count, counting.requests, server.acceptedConnections)
  }

  @Test(arguments: Transport.allCases)
  func emartFamilyKeepsItsConnections(over transport: Transport) async throws {
    let (branches, requests, connections) = try await Self.collect(
      EmartSource(), brands: [.emart, .traders, .nobrand, .everyday], host: "store.emart.com", over: transport)
    #expect(branches > 0)
    // The store lists, three months of per-area holiday lists and the No Brand pages, on
    // kept-alive connections: at most one connection per four requests.
    #expect(requests >= 50, "\(requests) requests")
    #expect(connections >= 1 && connections * 4 <= requests, "\(connections) connections for \(requests) requests")
  }

  @Test(arguments: Transport.allCases)
  func homeplusKeepsItsConnections(over transport: Transport) async throws {
    let (branches, requests, connections) = try await Self.collect(
      HomeplusSource(), brands: [.homeplus, .homeplusExpress], host: "my.homeplus.co.kr", over: transport)
    #expect(branches == 40)
    // The list and one page per store, each asked once.
    #expect(requests == 1 + 40, "\(requests) requests")
    #expect(connections >= 1 && connections * 4 <= requests, "\(connections) connections for \(requests) requests")
  }
}

extension KeptConnectionTests {
  @Test(arguments: Transport.allCases)
  func lotteSuperKeepsItsConnections(over transport: Transport) async throws {
    let (branches, requests, connections) = try await Self.collect(
      LotteSuperSource(), brands: [.lotteSuper], host: "www.lotteon.com", over: transport)
    #expect(branches == 8)
    // Three list pages, then the holiday lists of the seven stores with a trNo one after another
    // on one new connection (a lane), closed by the first list page: each store asked once,
    // also 5023, 5044 and 5089, which share their days and answers; two connections in all.
    #expect(requests == 3 + 7 + 1, "\(requests) requests")
    #expect(connections >= 1 && connections * 4 <= requests, "\(connections) connections for \(requests) requests")
  }
}
