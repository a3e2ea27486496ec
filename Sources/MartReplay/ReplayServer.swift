import Foundation
import MartFetch
import Synchronization

/// Serves a `ReplayArchive` over HTTP: one `LocalHTTPServer` per recorded host.
///
/// Point a fetcher at `baseURLOverrides` (recorded origin to local base URL) and it gets the
/// recorded responses. A request no recording matches gets a 404 naming what was asked, and is
/// listed in `unmatchedRequests`.
public final class ReplayServer: Sendable {
  /// Recorded origin (`https://store.emart.com`) to local base URL (`http://127.0.0.1:PORT`).
  public let baseURLOverrides: [String: String]
  private let servers: [LocalHTTPServer]
  private let responder: ReplayResponder

  private init(baseURLOverrides: [String: String], servers: [LocalHTTPServer], responder: ReplayResponder) {
    self.baseURLOverrides = baseURLOverrides
    self.servers = servers
    self.responder = responder
  }

  deinit { stop() }

  /// Starts one listener per host recorded in `archive`, and one for each host of
  /// `unrecordedOrigins` that has no recording, so that a request the archive cannot answer
  /// is still reported under the host it was meant for. Each answer waits `latency` first, as
  /// a distant site's would.
  public static func start(
    archive: ReplayArchive, unrecordedOrigins: [String] = [], latency: Duration = .zero
  ) throws(LocalHTTPServerError) -> ReplayServer {
    let responder = ReplayResponder(archive: archive, latency: latency)
    var originsByHost: [String: Set<String>] = [:]
    for exchange in archive.exchanges {
      let url = exchange.parsedURL
      originsByHost[url.host, default: []].insert(url.origin)
    }
    for origin in unrecordedOrigins {
      let url = URLParts(origin.lowercased())
      originsByHost[url.host, default: []].insert(url.origin)
    }
    var servers: [LocalHTTPServer] = []
    var overrides: [String: String] = [:]
    for (host, origins) in originsByHost.sorted(by: { $0.key < $1.key }) {
      let server = try LocalHTTPServer { request in responder.respond(to: request, host: host) }
      servers.append(server)
      for origin in origins { overrides[origin] = server.baseURL }
    }
    return ReplayServer(baseURLOverrides: overrides, servers: servers, responder: responder)
  }

  /// The local base URL serving `origin` (`scheme://host[:port]`), if it was recorded.
  public func baseURL(forOrigin origin: String) -> String? {
    baseURLOverrides[origin.lowercased()]
  }

  /// Every request that no recording matched, in arrival order, described as
  /// `METHOD host/path?query body: …`.
  public var unmatchedRequests: [String] { responder.unmatched.withLock { $0 } }

  /// The most requests answered at the same time by one recorded host's listener.
  public var maxConcurrentRequestsPerHost: Int { responder.inFlight.withLock { $0.values.map(\.most).max() ?? 0 } }

  /// Stops every listener. Calling it again does nothing.
  public func stop() {
    for server in servers { server.stop() }
  }
}

/// Answers requests from the archive, on the listeners' connection threads, and keeps the
/// requests no recording matched.
private final class ReplayResponder: Sendable {
  /// The archive's exchanges indexed once, so a request costs a lookup, not a scan.
  let index: RecordingIndex
  let unmatched = Mutex<[String]>([])
  /// Requests being answered now, and the most at once, per host.
  let inFlight = Mutex<[String: (now: Int, most: Int)]>([:])
  let latency: Duration

  init(archive: ReplayArchive, latency: Duration) {
    self.index = RecordingIndex(archive)
    self.latency = latency
  }

  func respond(to request: ServerRequest, host: String) -> ServerResponse {
    inFlight.withLock { counts in
      var count = counts[host, default: (0, 0)]
      count.now += 1
      count.most = max(count.most, count.now)
      counts[host] = count
    }
    defer { inFlight.withLock { $0[host]?.now -= 1 } }
    if latency > .zero {
      let (seconds, attoseconds) = latency.components
      Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
    }
    if let exchange = index.match(request, host: host) { return Self.response(serving: exchange) }
    let summary = Self.describe(request, host: host)
    unmatched.withLock { $0.append(summary) }
    return .text("no recording matches \(summary)\n", status: 404)
  }

  private static func response(serving exchange: RecordedExchange) -> ServerResponse {
    // Bodies are stored decoded, so a recorded Content-Encoding no longer describes them.
    // LocalHTTPServer replaces Content-Length and Transfer-Encoding itself.
    ServerResponse(
      status: exchange.status,
      headers: exchange.headers.filter { $0.name.lowercased() != "content-encoding" },
      body: exchange.body)
  }

  private static func describe(_ request: ServerRequest, host: String) -> String {
    var summary = "\(request.method) \(host)\(request.path)"
    if !request.query.isEmpty { summary += "?\(request.query)" }
    if !request.body.isEmpty { summary += " body: \(String(decoding: request.body, as: UTF8.self))" }
    return summary
  }
}
