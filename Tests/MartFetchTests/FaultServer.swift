import Foundation
import MartFetch
import MartReplay
import Synchronization

/// A local server whose answers a test scripts request by request: `respond` gets the request
/// and how many earlier requests had the same path (0 for the first). It records what it
/// received, and how many requests it was answering at the same time. `/robots.txt` is answered
/// with `robots`, or 404 (allow everything) when that is nil, and is left out of `arrivals`.
final class FaultServer: Sendable {
  private struct State {
    var requests: [ServerRequest] = []
    var countsByPath: [String: Int] = [:]
    var active = 0
    var maxActive = 0
    var starts: [ContinuousClock.Instant] = []
  }

  /// The state, shared with the server's connection threads.
  private final class Box: Sendable {
    let state = Mutex(State())
  }

  let server: LocalHTTPServer
  private let box = Box()

  /// - Parameters:
  ///   - hold: how long each request keeps the server busy before it is answered.
  ///   - gather: when given, each request is held until the server has answered this many at
  ///     once (for at most ``gatherLimit``): a test of a limit on requests in flight sees them
  ///     meet however slowly a loaded machine starts them, which a fixed hold does not promise.
  init(
    hold: Duration = .zero, gather: Int? = nil, robots: String? = nil,
    respond: @escaping @Sendable (ServerRequest, Int) -> ServerResponse
  ) throws {
    let box = self.box
    server = try LocalHTTPServer { request in
      let isRobots = request.path == "/robots.txt"
      let earlier = box.state.withLock { state in
        state.requests.append(request)
        if !isRobots { state.starts.append(.now) }
        state.active += 1
        state.maxActive = max(state.maxActive, state.active)
        defer { state.countsByPath[request.path, default: 0] += 1 }
        return state.countsByPath[request.path, default: 0]
      }
      if hold > .zero {
        let (seconds, attoseconds) = hold.components
        Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
      }
      if let gather, !isRobots {
        let deadline = ContinuousClock.now + FaultServer.gatherLimit
        while box.state.withLock({ $0.maxActive < gather }), ContinuousClock.now < deadline {
          Thread.sleep(forTimeInterval: 0.005)
        }
      }
      box.state.withLock { $0.active -= 1 }
      if isRobots { return robots.map { .text($0) } ?? .text("no robots.txt", status: 404) }
      return respond(request, earlier)
    }
  }

  /// How long a request waits for the others to gather: below the client's total timeout
  /// (``FastPolicies/client``), so a limit that never lets them gather fails the test's count,
  /// not the requests.
  static let gatherLimit: Duration = .seconds(4)

  deinit { server.stop() }

  func url(_ pathAndQuery: String) -> String { server.baseURL + pathAndQuery }

  /// Requests received for `path`.
  func count(_ path: String) -> Int { box.state.withLock { $0.countsByPath[path, default: 0] } }

  var requests: [ServerRequest] { box.state.withLock { $0.requests } }

  /// The most requests answered at the same time.
  var maxConcurrent: Int { box.state.withLock { $0.maxActive } }

  /// When each request arrived, in order.
  var arrivals: [ContinuousClock.Instant] { box.state.withLock { $0.starts } }
}

/// Quick retries and no politeness pauses, so fault tests take milliseconds, not seconds.
enum FastPolicies {
  static let retry = FetchRetryPolicy(
    maxAttempts: 3, initialDelay: .milliseconds(10), maxDelay: .milliseconds(50), jitter: 0.5,
    maxRetryAfter: .seconds(10))
  static let politeness = PolitenessPolicy(minimumDelay: .zero, jitter: .zero)
  static let client = HTTPClientConfiguration(connectTimeout: .seconds(2), totalTimeout: .seconds(5))
}
