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
  private let unmatchedLog: UnmatchedLog

  private init(baseURLOverrides: [String: String], servers: [LocalHTTPServer], unmatchedLog: UnmatchedLog) {
    self.baseURLOverrides = baseURLOverrides
    self.servers = servers
    self.unmatchedLog = unmatchedLog
  }

  deinit { stop() }

  /// Starts one listener per host recorded in `archive`.
  public static func start(archive: ReplayArchive) throws(LocalHTTPServerError) -> ReplayServer {
    let unmatchedLog = UnmatchedLog()
    var originsByHost: [String: Set<String>] = [:]
    for exchange in archive.exchanges {
      let url = exchange.parsedURL
      originsByHost[url.host, default: []].insert(url.origin)
    }
    var servers: [LocalHTTPServer] = []
    var overrides: [String: String] = [:]
    let index = RecordingIndex(archive)
    for (host, origins) in originsByHost.sorted(by: { $0.key < $1.key }) {
      let server = try LocalHTTPServer { request in
        if let exchange = index.match(request, host: host) { return response(serving: exchange) }
        let summary = describe(request, host: host)
        unmatchedLog.append(summary)
        return .text("no recording matches \(summary)\n", status: 404)
      }
      servers.append(server)
      for origin in origins { overrides[origin] = server.baseURL }
    }
    return ReplayServer(baseURLOverrides: overrides, servers: servers, unmatchedLog: unmatchedLog)
  }

  /// The local base URL serving `origin` (`scheme://host[:port]`), if it was recorded.
  public func baseURL(forOrigin origin: String) -> String? {
    baseURLOverrides[origin.lowercased()]
  }

  /// Every request that no recording matched, in arrival order, described as
  /// `METHOD host/path?query body: …`.
  public var unmatchedRequests: [String] { unmatchedLog.entries }

  /// Stops every listener. Calling it again does nothing.
  public func stop() {
    for server in servers { server.stop() }
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

/// The unmatched-request list, appended to from connection threads.
private final class UnmatchedLog: Sendable {
  private let storage = Mutex<[String]>([])

  func append(_ entry: String) { storage.withLock { $0.append(entry) } }

  var entries: [String] { storage.withLock { $0 } }
}
