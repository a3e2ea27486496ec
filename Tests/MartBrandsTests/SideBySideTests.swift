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

  /// Homeplus over the fixtures (one list, then 40 store pages), each answer `latency` late, at
  /// `maxPerHost` requests per host: the branches, and the most requests the server answered
  /// at once.
  private func homeplus(
    maxPerHost: Int, latency: Duration
  ) async throws -> (branches: [RawBranch], mostAtOnce: Int) {
    let server = try ReplayServer.start(archive: try ReplayArchive.load(from: FixturePaths.web), latency: latency)
    defer { server.stop() }
    let stack = FetchStack(
      overrides: server.baseURLOverrides,
      politeness: PolitenessPolicy(
        maxConcurrentRequestsPerHost: maxPerHost, minimumDelay: .zero, jitter: .zero, obeysRobotsTxt: false),
      retry: FetchRetryPolicy(maxAttempts: 1))
    let session = SourceSession(
      for: HomeplusSource.self, fetcher: stack.fetcher, asOf: Self.asOf, brands: [.homeplus, .homeplusExpress])
    let branches = try await HomeplusSource().collect(session)
    #expect(server.unmatchedRequests.isEmpty)
    return (branches, server.maxConcurrentRequestsPerHost)
  }

  @Test func storePagesAreFetchedUpToTheLimitPerHostAtOnce() async throws {
    let one = try await homeplus(maxPerHost: 1, latency: .milliseconds(60))
    #expect(one.mostAtOnce == 1)
    for limit in [4, 8] {
      let side = try await homeplus(maxPerHost: limit, latency: .milliseconds(300))
      // 40 store pages, each held 300 ms (long enough for a loaded machine to start them all):
      // the limit is reached, never passed.
      #expect(side.mostAtOnce == limit)
      #expect(side.branches == one.branches)
    }
  }
}
