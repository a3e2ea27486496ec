import Foundation
import MartBrands
import MartCore
import MartFetch
import MartReplay
import Synchronization
import TestSupport
import Testing

@Suite struct SideBySideTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  /// Waits without throwing, so the work below fails only where it says so.
  static func pause(milliseconds: Int) async {
    await withCheckedContinuation { continuation in
      DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { continuation.resume() }
    }
  }

  @Test func resultsWarningsAndTheErrorFollowTheItemsOrder() async throws {
    let session = SourceSession(
      baseURL: "http://127.0.0.1:9", fetcher: CurlHTTPClient(), asOf: Self.asOf, brands: [.homeplus],
      sourceName: "test")
    // Item 0 takes longest and item 4 is quickest, so they finish in reverse order; items 1 and
    // 3 fail. Worked one after another, item 1's failure would stop the work after item 1.
    let error = await #expect(throws: SourceError.self) {
      try await session.sideBySide(Array(0..<5)) { session, item throws(SourceError) -> Int in
        await Self.pause(milliseconds: 50 * (5 - item))
        session.warn("item \(item)")
        if item == 1 || item == 3 {
          throw SourceError(source: "test", url: "item \(item)", reason: .unexpectedContent("failed"))
        }
        return item * 10
      }
    }
    #expect(error?.url == "item 1")
    #expect(session.warnings.map(\.message) == ["item 0", "item 1"])

    let results = await session.sideBySide(Array(0..<5)) { session, item -> Int in
      await Self.pause(milliseconds: 20 * (5 - item))
      return item * 10
    }
    #expect(results == [0, 10, 20, 30, 40])
  }

  @Test func atMostAFewDozenItemsAreWorkedAtOnceAndResultsKeepTheirOrder() async throws {
    let session = SourceSession(
      baseURL: "http://127.0.0.1:9", fetcher: CurlHTTPClient(), asOf: Self.asOf, brands: [.homeplus],
      sourceName: "test")
    let running = Mutex((now: 0, most: 0))
    let count = SourceSession.itemsInFlight * 5
    let results = await session.sideBySide(Array(0..<count)) { _, item -> Int in
      running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
      await Self.pause(milliseconds: 2)
      running.withLock { $0.now -= 1 }
      return item * 2
    }
    #expect(results == (0..<count).map { $0 * 2 })
    let most = running.withLock { $0.most }
    // Every item waits, so the items in flight overlap; never more than the bound.
    #expect(most > 1 && most <= SourceSession.itemsInFlight, "\(most)")
  }

  /// Homeplus's recordings served from 127.0.0.1, each store page held until `limit` requests
  /// are in flight at once, then `hold` more: a client that keeps `limit` requests going reaches
  /// the limit however slowly a loaded machine starts them, and one that sends more is seen with
  /// more in flight. A page is let go without the limit reached only when no request has come
  /// for `quiet` (the client has fewer left, or is waiting for one of them). The list is
  /// answered at once.
  final class GatedHomeplusServer: Sendable {
    let server: LocalHTTPServer
    private let gate: Gate

    private final class Gate: Sendable {
      struct State {
        var now = 0
        var most = 0
        /// Counts the times `limit` requests were in flight: a held request goes when it moves.
        var reached = 0
        var lastArrival = ContinuousClock.now
        var unmatched: [String] = []
      }
      let limit: Int
      let state = Mutex(State())
      init(limit: Int) { self.limit = limit }
    }

    init(limit: Int, hold: Duration, quiet: Duration) throws {
      let index = RecordingIndex(try ReplayArchive.load(from: FixturePaths.web).restricted(toHosts: ["my.homeplus.co.kr"]))
      let gate = Gate(limit: limit)
      self.gate = gate
      server = try LocalHTTPServer { request in
        let reached = gate.state.withLock { state in
          state.now += 1
          state.most = max(state.most, state.now)
          state.lastArrival = .now
          if state.now >= gate.limit { state.reached += 1 }
          return state.reached
        }
        defer { gate.state.withLock { $0.now -= 1 } }
        if request.path.hasSuffix("/store_detail") {
          while gate.state.withLock({
            $0.reached == reached && $0.now < gate.limit && ContinuousClock.now - $0.lastArrival < quiet
          }) {
            Thread.sleep(forTimeInterval: 0.001)
          }
          let (seconds, attoseconds) = hold.components
          Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        }
        guard let exchange = index.match(request, host: "my.homeplus.co.kr") else {
          gate.state.withLock { $0.unmatched.append("\(request.method) \(request.path)?\(request.query)") }
          return .text("no recording", status: 404)
        }
        return ServerResponse(
          status: exchange.status, headers: exchange.headers.filter { $0.name.lowercased() != "content-encoding" },
          body: exchange.body)
      }
    }

    var mostAtOnce: Int { gate.state.withLock { $0.most } }
    var unmatchedRequests: [String] { gate.state.withLock { $0.unmatched } }
  }

  /// Homeplus over the fixtures (one list, then 40 store pages) at `maxPerHost` requests per
  /// host: the branches, and the most requests the server answered at once.
  private func homeplus(maxPerHost: Int) async throws -> (branches: [RawBranch], mostAtOnce: Int) {
    let gated = try GatedHomeplusServer(limit: maxPerHost, hold: .milliseconds(25), quiet: .milliseconds(200))
    defer { gated.server.stop() }
    let stack = FetchStack(
      overrides: [HomeplusSource.origin: gated.server.baseURL],
      politeness: PolitenessPolicy(
        maxConcurrentRequestsPerHost: maxPerHost, minimumDelay: .zero, jitter: .zero, obeysRobotsTxt: false),
      retry: FetchRetryPolicy(maxAttempts: 1))
    let session = SourceSession(
      for: HomeplusSource.self, fetcher: stack.fetcher, asOf: Self.asOf, brands: [.homeplus, .homeplusExpress])
    let branches = try await HomeplusSource().collect(session)
    #expect(gated.unmatchedRequests.isEmpty)
    return (branches, gated.mostAtOnce)
  }

  @Test func storePagesAreFetchedUpToTheLimitPerHostAtOnce() async throws {
    let one = try await homeplus(maxPerHost: 1)
    #expect(one.mostAtOnce == 1)
    for limit in [4, 8] {
      let side = try await homeplus(maxPerHost: limit)
      // 40 store pages, each held until `limit` are in flight: the limit is reached, never passed.
      #expect(side.mostAtOnce == limit)
      #expect(side.branches == one.branches)
    }
  }
}
