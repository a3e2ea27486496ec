import Foundation
import MartCharset
import MartFetch
import MartHTML
import MartReplay
import MartSQLite
import ReplayTestSupport
import Synchronization
import TestSupport
import Testing

/// The fetcher stack (libcurl, politeness, retries, revalidation) against a local server that
/// injects faults. The layers wait on a `ManualClock`: waits are asserted exactly and take no
/// real time (libcurl's own timeouts keep real time, configured small).
@Suite struct FetchLayersTests {
  /// Retries as a run makes them (1 s, doubled), without jitter, so that waits are exact.
  static let retry = FetchRetryPolicy(
    maxAttempts: 3, initialDelay: .seconds(1), maxDelay: .seconds(30), jitter: 0, maxRetryAfter: .seconds(10))

  /// The stack over `clock`; the validator store is optional.
  func stack(
    client: HTTPClientConfiguration = FastPolicies.client, politeness: PolitenessPolicy = FastPolicies.politeness,
    retry: FetchRetryPolicy = Self.retry, validators: HTTPValidatorStore? = nil, clock: ManualClock = ManualClock()
  ) -> FetchStack {
    FetchStack(client: client, politeness: politeness, retry: retry, validators: validators, clock: clock)
  }

  /// The error `request` fails with; records an issue if it succeeds.
  func failure(of request: HTTPRequest, using fetcher: any HTTPFetching) async -> FetchError? {
    do {
      let response = try await fetcher.fetch(request)
      Issue.record("expected a failure, got HTTP \(response.status)")
      return nil
    } catch {
      return error
    }
  }

  // MARK: Retries

  @Test func a503ThenA200IsRetried() async throws {
    let server = try FaultServer { _, earlier in
      earlier == 0 ? .text("busy", status: 503) : .text("fresh page")
    }
    let clock = ManualClock()
    let stack = stack(clock: clock)
    let response = try await stack.fetcher.fetch(.get(server.url("/page")))
    #expect(response.status == 200)
    #expect(String(decoding: response.body, as: UTF8.self) == "fresh page")
    #expect(server.count("/page") == 2)
    #expect(clock.pauses == [.seconds(1)])
    let counts = try #require(stack.statistics.byHost["127.0.0.1:\(server.server.port)"])
    #expect(counts.requests == 2)
    #expect(counts.retries == 1)
    #expect(counts.failures == 0)
    #expect(counts.bytes == "busy".utf8.count + "fresh page".utf8.count)
  }

  @Test func theClockGivesTheJitterOfBackoffsAndTurns() async throws {
    let server = try FaultServer { _, earlier in
      earlier == 0 ? .text("busy", status: 503) : .text("fresh page")
    }
    // A quarter of the jitter taken: the 1 s backoff loses a quarter of its half (0.875 s), and
    // the host's next turn comes after its 2 s delay plus a quarter of its 1 s jitter.
    let clock = ManualClock(jitter: 0.25)
    var retry = Self.retry
    retry.jitter = 0.5
    let stack = stack(
      politeness: PolitenessPolicy(minimumDelay: .seconds(2), jitter: .seconds(1), obeysRobotsTxt: false),
      retry: retry, clock: clock)
    let response = try await stack.fetcher.fetch(.get(server.url("/page")))
    #expect(response.status == 200)
    #expect(clock.pauses == [.milliseconds(875), .milliseconds(1375)])
  }

  @Test func a429WithRetryAfterIsWaitedOut() async throws {
    let server = try FaultServer { _, earlier in
      guard earlier == 0 else { return .text("ok") }
      var response = ServerResponse.text("slow down", status: 429)
      response.headers.append(HTTPHeader("Retry-After", "3"))
      return response
    }
    let clock = ManualClock()
    let response = try await stack(clock: clock).fetcher.fetch(.get(server.url("/limited")))
    #expect(response.status == 200)
    #expect(server.arrivals.count == 2)
    // The server's 3 s, longer than the 1 s backoff: the host's next turn and the retry both
    // wait for it, and the retry's turn comes at once after the retry's own wait.
    #expect(clock.pauses == [.seconds(3)])
    #expect(clock.elapsed == .seconds(3))
  }

  @Test func a404FailsAtOnceWithOneRequest() async throws {
    let server = try FaultServer { _, _ in .text("no such branch", status: 404) }
    let stack = stack()
    let response = try await stack.fetcher.fetch(.get(server.url("/missing")))
    #expect(response.status == 404)
    #expect(server.count("/missing") == 1)
    #expect(stack.statistics.total.retries == 0)
    #expect(stack.statistics.total.failures == 1)
    let error = #expect(throws: FetchError.self) { try response.requireSuccess() }
    #expect(error?.code == .httpStatus(404))
  }

  @Test func lastingFailuresEndInAClearErrorAfterTheAllowedAttempts() async throws {
    let server = try FaultServer { _, _ in .text("down", status: 503) }
    let clock = ManualClock()
    let stack = stack(clock: clock)
    let url = server.url("/down")
    let error = try #require(await failure(of: .get(url), using: stack.fetcher))
    #expect(error.code == .httpStatus(503))
    #expect(error.url == url)
    #expect(error.description.contains(url))
    #expect(error.message.contains("503"))
    #expect(error.message.contains("gave up after 3 attempts"))
    #expect(server.count("/down") == 3)
    #expect(stack.statistics.total.failures == 1)
    // The backoff doubles: 1 s before the second attempt, 2 s before the third.
    #expect(clock.pauses == [.seconds(1), .seconds(2)])
  }

  @Test func theSharedRetryBudgetRunsOut() async throws {
    let server = try FaultServer { _, _ in .text("down", status: 500) }
    var retry = FastPolicies.retry
    retry.retryBudget = 1
    let fetcher = stack(retry: retry).fetcher
    let first = try #require(await failure(of: .get(server.url("/a")), using: fetcher))
    #expect(first.message.contains("retry budget of 1 retries is used up"))
    let second = try #require(await failure(of: .get(server.url("/b")), using: fetcher))
    #expect(second.message.contains("retry budget"))
    // One retry in all: /a twice, /b once.
    #expect(server.count("/a") == 2)
    #expect(server.count("/b") == 1)
  }

  @Test func aRetryAfterBeyondTheLimitFailsAtOnce() async throws {
    let server = try FaultServer { _, _ in
      var response = ServerResponse.text("come back tomorrow", status: 503)
      response.headers.append(HTTPHeader("Retry-After", "86400"))
      return response
    }
    let error = try #require(await failure(of: .get(server.url("/later")), using: stack().fetcher))
    #expect(error.message.contains("Retry-After"))
    #expect(server.count("/later") == 1)
  }

  @Test func aConnectionResetMidBodyIsRetriedThenFails() async throws {
    let server = try FaultServer { _, _ in
      ServerResponse(body: Data(repeating: UInt8(ascii: "r"), count: 50_000), delivery: .reset(sentBytes: 100))
    }
    let error = try #require(await failure(of: .get(server.url("/reset")), using: stack().fetcher))
    #expect(error.code == .connection || error.code == .bodyCutShort)
    #expect(error.message.contains("gave up after 3 attempts"))
    #expect(server.count("/reset") == 3)
  }

  @Test func aBodyCutShortIsRetriedAndTheCompleteOneUsed() async throws {
    let server = try FaultServer { _, earlier in
      let body = Data("complete branch list".utf8)
      return earlier == 0 ? ServerResponse(body: body, delivery: .truncated(sentBytes: 5)) : ServerResponse(body: body)
    }
    let response = try await stack().fetcher.fetch(.get(server.url("/list")))
    #expect(String(decoding: response.body, as: UTF8.self) == "complete branch list")
    #expect(server.count("/list") == 2)
  }

  // MARK: Limits

  @Test func aDrippingBodyTimesOut() async throws {
    let server = try FaultServer { _, _ in
      ServerResponse(
        body: Data(repeating: UInt8(ascii: "d"), count: 200), delivery: .slow(chunkSize: 1, pause: .milliseconds(300)))
    }
    var client = FastPolicies.client
    client.lowSpeedLimit = 100
    client.lowSpeedTime = .seconds(1)
    client.totalTimeout = .seconds(20)
    var retry = FastPolicies.retry
    retry.maxAttempts = 1
    let error = try #require(
      await failure(of: .get(server.url("/drip")), using: stack(client: client, retry: retry).fetcher))
    #expect(error.code == .timeout)
    // The low-speed limit, not the 20 s total timeout, ended it.
    #expect(error.message.contains("too slow"))
  }

  @Test func anEndlessBodyStopsAtTheSizeLimit() async throws {
    let server = try FaultServer { _, _ in ServerResponse(delivery: .endless) }
    var client = FastPolicies.client
    client.maxBodyBytes = 100_000
    let error = try #require(await failure(of: .get(server.url("/endless")), using: stack(client: client).fetcher))
    #expect(error.code == .bodyTooLarge(limit: 100_000))
    #expect(server.count("/endless") == 1)
  }

  @Test func aGzipBombIsStopped() async throws {
    let server = try FaultServer { _, _ in
      ServerResponse(headers: [HTTPHeader("Content-Encoding", "gzip")], body: TestServerRoutes.gzippedFiveThousandA)
    }
    var client = FastPolicies.client
    client.maxBodyBytes = 1000
    let error = try #require(await failure(of: .get(server.url("/bomb")), using: stack(client: client).fetcher))
    // 41 bytes on the wire, 5000 decoded: the decoded size is what counts.
    #expect(error.code == .bodyTooLarge(limit: 1000))
  }

  @Test func aRedirectLoopFails() async throws {
    let server = try FaultServer { request, _ in .redirect(to: request.path == "/a" ? "/b" : "/a") }
    let error = try #require(await failure(of: .get(server.url("/a")), using: stack().fetcher))
    #expect(error.code == .redirect)
    // Five redirects allowed: six requests, then the failure; not retried.
    #expect(server.arrivals.count == 6)
  }

  @Test func aRedirectToAFileURLIsRefused() async throws {
    let server = try FaultServer { _, _ in .redirect(to: "file:///etc/passwd") }
    let error = try #require(await failure(of: .get(server.url("/go")), using: stack().fetcher))
    #expect(error.code == .redirect)
    #expect(server.count("/go") == 1)
  }

  @Test func cancellingTheTaskStopsARunningTransfer() async throws {
    // 200 bytes, one every 300 ms: sixty seconds unless the transfer is stopped.
    let body = WatchedSlowBody(chunkSize: 1, pause: .milliseconds(300))
    let server = try FaultServer { _, _ in
      var answer = ServerResponse(body: Data(repeating: UInt8(ascii: "s"), count: 200))
      answer.delivery = body
      return answer
    }
    // No low-speed limit: the slow body would trip it after 15 s, before a cancellation that a
    // loaded machine delays; only the cancellation may stop this transfer.
    let client = CurlHTTPClient(configuration: HTTPClientConfiguration(totalTimeout: .seconds(120), lowSpeedLimit: 0))
    let url = server.url("/slow")
    let task = Task { () -> FetchError? in
      do throws(FetchError) {
        _ = try await client.fetch(.get(url))
        return nil
      } catch {
        return error
      }
    }
    // Polled between sleeps: a blocking wait would hold a thread the transfer's task needs.
    for _ in 0..<3_000 where !body.hasStarted { try await Task.sleep(for: .milliseconds(20)) }
    try #require(body.hasStarted, "the transfer never started")
    task.cancel()
    let error = await task.value
    #expect(error?.code == .cancelled)
    // The slow body would take sixty seconds (and end without an error): the client hung up
    // before its end, which a transfer that ran on after the cancellation would not have done,
    // however busy the machine.
    for _ in 0..<4_500 where body.currentEnding == nil { try await Task.sleep(for: .milliseconds(20)) }
    let ending = body.currentEnding
    #expect(
      { if case .clientHungUp(let sent) = ending { sent < 200 } else { false } }(),
      "the slow body's delivery: \(String(describing: ending))")
  }

  // MARK: Charset

  /// `롯데마트 똠방각하점 휴무` in CP949 (python3: `.encode("cp949")`); 똠 (8C 63) is outside
  /// EUC-KR proper, as on real Korean sites that label CP949 as euc-kr.
  static let cp949Bytes = Data(hex: "b7d4b5a5b8b6c6ae208c63b9e6b0a2c7cfc1a120c8deb9ab")
  static let cp949Text = "롯데마트 똠방각하점 휴무"

  /// A Content-Type, named in the test log by its charset.
  struct ContentType: CustomTestStringConvertible, Sendable {
    var value: String
    var testDescription: String { value.components(separatedBy: "charset=").last ?? value }
  }

  @Test(arguments: [
    ContentType(value: "text/html; charset=euc-kr"), ContentType(value: "text/html; charset=ks_c_5601-1987"),
  ])
  func aKoreanPageDeclaredInTheHeaderIsDecoded(contentType: ContentType) async throws {
    let server = try FaultServer { _, _ in
      ServerResponse(
        headers: [HTTPHeader("Content-Type", contentType.value)],
        body: Data("<html><body><p>".utf8) + Self.cp949Bytes + Data("</p></body></html>".utf8))
    }
    let response = try await stack().fetcher.fetch(.get(server.url("/store")))
    let document = try HTMLDocument(data: response.body, url: response.requestURL, charset: response.charset)
    #expect(try document.first("//p")?.text == Self.cp949Text)
    #expect(document.decoding.encoding == "CP949")
    #expect(document.decoding.source == .contentType)
    #expect(document.decoding.warnings.isEmpty)
  }

  @Test func aKoreanPageDeclaredOnlyInMetaIsDecoded() async throws {
    let server = try FaultServer { _, _ in
      ServerResponse(
        headers: [HTTPHeader("Content-Type", "text/html")],
        body: Data("<html><head><meta charset=\"euc-kr\"></head><body><p>".utf8) + Self.cp949Bytes
          + Data("</p></body></html>".utf8))
    }
    let response = try await stack().fetcher.fetch(.get(server.url("/store")))
    #expect(response.charset == nil)
    let document = try HTMLDocument(data: response.body, url: response.requestURL, charset: response.charset)
    #expect(try document.first("//p")?.text == Self.cp949Text)
    #expect(document.decoding.source == .metaTag)
  }

  @Test func anUnknownCharsetIsAWarningAndASniffNotLatin1() throws {
    let body = Data("<p>".utf8) + Self.cp949Bytes + Data("</p>".utf8)
    let decoded = CharsetDecoder.decode(body, declaredCharset: "x-mart-unknown")
    #expect(decoded.text == "<p>\(Self.cp949Text)</p>")
    #expect(decoded.encoding == "CP949")
    #expect(decoded.source == .sniffed)
    #expect(decoded.warnings.count == 1)
    #expect(decoded.warnings.first?.contains("x-mart-unknown") == true)
    let utf8 = CharsetDecoder.decode(Data("이마트".utf8), declaredCharset: "bogus")
    #expect(utf8.text == "이마트")
    #expect(utf8.encoding == "UTF-8")
  }

  @Test func aDeclaredCharsetThatDoesNotFitTheBytesIsAWarning() throws {
    let decoded = CharsetDecoder.decode(Self.cp949Bytes, declaredCharset: "utf-8", isHTML: false)
    #expect(decoded.text == Self.cp949Text)
    #expect(decoded.warnings.first?.contains("not valid UTF-8") == true)
  }

  // MARK: Conditional requests

  /// The path of a validator database in a folder of its own under the tests' scratch folder
  /// (removed with it when the process ends).
  static func scratchValidatorPath() throws -> String {
    let directory = Scratch.directory.appendingPathComponent("mart-validators-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("http.sqlite").path
  }

  @Test func a304ReusesTheStoredBody() async throws {
    let path = try Self.scratchValidatorPath()
    let server = try FaultServer { request, _ in
      if request.headers.value(named: "If-None-Match") == "\"v1\"" { return ServerResponse(status: 304) }
      return ServerResponse(
        headers: [
          HTTPHeader("Content-Type", "application/json"), HTTPHeader("ETag", "\"v1\""),
          HTTPHeader("Last-Modified", "Sun, 01 Nov 2026 00:00:00 GMT"),
        ],
        body: Data(#"{"stores":["성수점"]}"#.utf8))
    }
    let url = server.url("/stores.json")
    let first = stack(validators: try HTTPValidatorStore(path: path))
    let fresh = try await first.fetcher.fetch(.get(url))
    #expect(fresh.status == 200)

    // A later run, with the store reopened from disk.
    let second = stack(validators: try HTTPValidatorStore(path: path))
    let reused = try await second.fetcher.fetch(.get(url))
    #expect(reused.status == 200)
    #expect(reused.body == fresh.body)
    #expect(reused.headers.value(named: "Content-Type") == "application/json")
    let requests = server.requests.filter { $0.path == "/stores.json" }
    #expect(requests.count == 2)
    #expect(requests.first?.headers.value(named: "If-None-Match") == nil)
    #expect(requests.last?.headers.value(named: "If-None-Match") == "\"v1\"")
    #expect(requests.last?.headers.value(named: "If-Modified-Since") == "Sun, 01 Nov 2026 00:00:00 GMT")
    #expect(second.statistics.total.notModifiedReuses == 1)
    #expect(second.statistics.total.bytes == 0)
    #expect(second.conditional?.storeFailures == [])
  }

  @Test func aStoredBodyThatNoLongerMatchesItsDigestIsFetchedAgainInFull() async throws {
    let path = try Self.scratchValidatorPath()
    let page = Data(#"{"stores":["성수점","월계점"]}"#.utf8)
    let server = try FaultServer { request, _ in
      if request.headers.value(named: "If-None-Match") == "\"v1\"" { return ServerResponse(status: 304) }
      return ServerResponse(
        headers: [HTTPHeader("Content-Type", "application/json"), HTTPHeader("ETag", "\"v1\"")], body: page)
    }
    let url = server.url("/stores.json")
    _ = try await stack(validators: try HTTPValidatorStore(path: path)).fetcher.fetch(.get(url))

    // The stored body is damaged on disk (a byte changed, as a bad sector or a bad copy would).
    let database = try SQLiteConnection(path: path)
    try database.run(
      "UPDATE http_validators SET body = ?1 WHERE url = ?2", [.blob(Data(#"{"stores":[]}"#.utf8)), .text(url)])

    let second = stack(validators: try HTTPValidatorStore(path: path))
    let response = try await second.fetcher.fetch(.get(url))
    #expect(response.body == page)
    let requests = server.requests.filter { $0.path == "/stores.json" }
    #expect(requests.count == 2)
    #expect(requests.last?.headers.value(named: "If-None-Match") == nil, "asked without conditions")
    #expect(second.statistics.total.notModifiedReuses == 0)
    let failures = second.conditional?.storeFailures ?? []
    #expect(failures.count == 1 && failures[0].contains("does not match its digest"), "\(failures)")

    // What was fetched again is stored again, intact: the run after that revalidates as usual.
    let third = stack(validators: try HTTPValidatorStore(path: path))
    #expect(try await third.fetcher.fetch(.get(url)).body == page)
    #expect(third.statistics.total.notModifiedReuses == 1)
  }

  @Test func postsAreNeverConditional() async throws {
    let store = try HTTPValidatorStore(path: try Self.scratchValidatorPath())
    let server = try FaultServer { _, _ in
      ServerResponse(headers: [HTTPHeader("ETag", "\"p\"")], body: Data("search results".utf8))
    }
    let fetcher = stack(validators: store).fetcher
    _ = try await fetcher.fetch(.postForm(server.url("/search"), fields: [("q", "성수")]))
    _ = try await fetcher.fetch(.postForm(server.url("/search"), fields: [("q", "성수")]))
    #expect(server.requests.filter { $0.headers.value(named: "If-None-Match") != nil }.isEmpty)
    #expect(try store.count() == 0)
  }

  /// A request asked on a connection of its own (fresh, or a lane's, its closing proof included)
  /// is a check of what the server sends now: a `304` would be filled with the stored body,
  /// which proves nothing of the connection, so such a request carries no validators.
  @Test func requestsOnAConnectionOfTheirOwnAreNeverConditional() async throws {
    let store = try HTTPValidatorStore(path: try Self.scratchValidatorPath())
    let server = try FaultServer { request, _ in
      if request.headers.value(named: "If-None-Match") == "\"v1\"" { return ServerResponse(status: 304) }
      return ServerResponse(headers: [HTTPHeader("ETag", "\"v1\"")], body: Data("page of \(request.path)".utf8))
    }
    let layers = stack(validators: store)
    _ = try await layers.fetcher.fetch(.get(server.url("/holidays")))
    _ = try await layers.fetcher.fetch(.get(server.url("/stores")))
    #expect(try store.count() == 2)

    var fresh = HTTPRequest.get(server.url("/holidays"))
    fresh.connection = .fresh
    var onTheLane = HTTPRequest.get(server.url("/holidays"))
    let lane = ConnectionLane()
    onTheLane.connection = .lane(lane, closing: false)
    var proof = HTTPRequest.get(server.url("/stores"))
    proof.connection = .lane(lane, closing: true)
    for request in [fresh, onTheLane, proof] {
      let response = try await layers.fetcher.fetch(request)
      #expect(response.status == 200)
      #expect(String(decoding: response.body, as: UTF8.self) == "page of \(URLParts(request.url).path)")
    }
    let asked = server.requests.filter { ["/holidays", "/stores"].contains($0.path) }.dropFirst(2)
    #expect(asked.count == 3)
    #expect(asked.allSatisfy { $0.headers.value(named: "If-None-Match") == nil }, "no validators on own connections")
    #expect(layers.statistics.total.notModifiedReuses == 0)
  }

  // MARK: Politeness

  static let robots = """
    User-agent: *
    Disallow: /

    # Our own group replaces the * group.
    User-agent: mart-holiday
    Disallow: /branch/private
    Allow: /branch/private/open
    Disallow: /*.pdf$
    """

  @Test func robotsTxtIsFetchedOnceAndObeyed() async throws {
    let server = try FaultServer(robots: Self.robots) { request, _ in .text("page \(request.path)") }
    let fetcher = stack().fetcher
    let blocked = server.url("/branch/private/1001")
    let error = try #require(await failure(of: .get(blocked), using: fetcher))
    #expect(error.code == .disallowedByRobots)
    #expect(error.url == blocked)
    #expect(error.message.contains("robots.txt"))
    #expect(try await fetcher.fetch(.get(server.url("/branch/private/open/1"))).status == 200)
    #expect(try await fetcher.fetch(.get(server.url("/branch/list"))).status == 200)
    let pdf = try #require(await failure(of: .get(server.url("/notice/holidays.pdf")), using: fetcher))
    #expect(pdf.code == .disallowedByRobots)
    #expect(server.count("/branch/private/1001") == 0)
    #expect(server.count("/robots.txt") == 1)
  }

  @Test func robotsTxtCanBeIgnoredForOwnMirrors() async throws {
    let server = try FaultServer(robots: "User-agent: *\nDisallow: /\n") { _, _ in .text("mirrored") }
    var politeness = FastPolicies.politeness
    politeness.obeysRobotsTxt = false
    let response = try await stack(politeness: politeness).fetcher.fetch(.get(server.url("/branch/list")))
    #expect(String(decoding: response.body, as: UTF8.self) == "mirrored")
    #expect(server.count("/robots.txt") == 0)
  }

  @Test func crawlDelayAndMinimumDelaySpaceRequestsToAHost() async throws {
    let server = try FaultServer(robots: "User-agent: *\nCrawl-delay: 0.3\n") { _, _ in .text("ok") }
    var politeness = FastPolicies.politeness
    politeness.minimumDelay = .milliseconds(100)
    let clock = ManualClock()
    let (fetcher, turns) = politeFetcher(politeness, clock: clock)
    for index in 0..<3 { _ = try await fetcher.fetch(.get(server.url("/page/\(index)"))) }
    #expect(server.arrivals.count == 3)
    // robots.txt's Crawl-delay of 0.3 s raises the 100 ms minimum: the pages start 300 ms apart
    // at the client (robots.txt itself is fetched before the first, outside the turns), the
    // answers taking no time on the clock.
    let started = turns.inOrderOfStart.map(\.started)
    #expect(started.count == 3)
    for (earlier, later) in zip(started, started.dropFirst()) {
      #expect(later - earlier == .milliseconds(300))
    }
    #expect(clock.pauses == [.milliseconds(300), .milliseconds(300)])
  }

  @Test func oneRequestAtATimePerHostWhileHostsRunInParallel() async throws {
    let hold = Duration.milliseconds(150)
    // The first host's first answer waits (up to 5 s) until the second host has answered a
    // request: that happens only if the hosts are served in parallel.
    let secondAnswered = Flag()
    let firstSawSecond = Flag()
    let first = try FaultServer(hold: hold) { _, earlier in
      if earlier == 0 {
        for _ in 0..<100 where !secondAnswered.isSet { Thread.sleep(forTimeInterval: 0.05) }
        if secondAnswered.isSet { firstSawSecond.set() }
      }
      return .text("first")
    }
    let second = try FaultServer(hold: hold) { _, _ in
      secondAnswered.set()
      return .text("second")
    }
    let fetcher = stack().fetcher
    try await withThrowingTaskGroup(of: Void.self) { group in
      for server in [first, second] {
        for index in 0..<4 {
          group.addTask {
            _ = try await fetcher.fetch(.get(server.url("/branch/\(index)")))
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(firstSawSecond.isSet)
    #expect(first.maxConcurrent == 1)
    #expect(second.maxConcurrent == 1)
    #expect(first.arrivals.count == 4)
    #expect(second.arrivals.count == 4)
  }

  @Test func twoAtATimeWhenConfigured() async throws {
    let server = try FaultServer(gather: 2) { _, _ in .text("ok") }
    var politeness = FastPolicies.politeness
    politeness.maxConcurrentRequestsPerHost = 2
    let fetcher = stack(politeness: politeness).fetcher
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<6 {
        group.addTask { _ = try await fetcher.fetch(.get(server.url("/p/\(index)"))) }
      }
      try await group.waitForAll()
    }
    #expect(server.maxConcurrent == 2)
  }

  @Test func eightAtATimeWhenConfigured() async throws {
    let server = try FaultServer(gather: 8) { _, _ in .text("ok") }
    var politeness = FastPolicies.politeness
    politeness.maxConcurrentRequestsPerHost = 8
    let fetcher = stack(politeness: politeness).fetcher
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<16 {
        group.addTask { _ = try await fetcher.fetch(.get(server.url("/p/\(index)"))) }
      }
      try await group.waitForAll()
    }
    // Sixteen requests, each held until eight are in flight: eight at once, never nine.
    #expect(server.maxConcurrent == 8)
    #expect(server.arrivals.count == 16)
  }

  /// A polite fetcher straight over libcurl (no retries) and the turns it gives, as it measured
  /// them: delays are counted at the client, where a server's view of them would also include
  /// connection setup and the load on the machine.
  private func politeFetcher(_ politeness: PolitenessPolicy, clock: ManualClock) -> (PoliteFetcher, TurnLog) {
    let turns = TurnLog()
    let fetcher = PoliteFetcher(
      wrapping: CurlHTTPClient(configuration: FastPolicies.client), policy: politeness, clock: clock,
      observeTurn: turns.record)
    return (fetcher, turns)
  }

  /// Requests issued together to one host, each answer taking `latency` on `clock` (the server
  /// moves the clock on before answering), with `delay` between starts: each request's turn in
  /// order of start, and how many the server answered at once.
  private func turnsAtOneHost(
    requests: Int, latency: Duration, delay: Duration, clock: ManualClock
  ) async throws -> (turns: [PoliteFetcher.Turn], maxConcurrent: Int) {
    let server = try FaultServer { _, _ in
      clock.advance(by: latency)
      return .text("ok")
    }
    var politeness = FastPolicies.politeness
    politeness.minimumDelay = delay
    let (fetcher, turns) = politeFetcher(politeness, clock: clock)
    try await withThrowingTaskGroup(of: Void.self) { group in
      for index in 0..<requests {
        group.addTask { _ = try await fetcher.fetch(.get(server.url("/p/\(index)"))) }
      }
      try await group.waitForAll()
    }
    #expect(server.arrivals.count == requests)
    return (turns.inOrderOfStart, server.maxConcurrent)
  }

  @Test func theDelayRunsFromStartToStartAndOverlapsTheAnswer() async throws {
    // 4 s between starts, each answer taking 3 s. Counted from the answer, the wait after each
    // answer would be the whole 4 s; counted from the start it is the 1 s left.
    let clock = ManualClock()
    let (turns, maxConcurrent) = try await turnsAtOneHost(
      requests: 3, latency: .seconds(3), delay: .seconds(4), clock: clock)
    #expect(turns.count == 3)
    #expect(maxConcurrent == 1)
    for (previous, next) in zip(turns, turns.dropFirst()) {
      #expect(previous.finished - previous.started == .seconds(3))
      #expect(next.started - previous.started == .seconds(4))
      // The previous request had finished, and the delay ran while it was answered.
      #expect(next.started - previous.finished == .seconds(1))
    }
    #expect(clock.pauses == [.seconds(1), .seconds(1)])
  }

  @Test func atOneAtATimeAnAnswerSlowerThanTheDelayHoldsTheNextStart() async throws {
    // 100 ms between starts, 350 ms to answer: the previous request must finish first, so
    // starts are at least the 350 ms the server holds each request apart.
    let clock = ManualClock()
    let (turns, maxConcurrent) = try await turnsAtOneHost(
      requests: 4, latency: .milliseconds(350), delay: .milliseconds(100), clock: clock)
    #expect(turns.count == 4)
    #expect(maxConcurrent == 1)
    for (previous, next) in zip(turns, turns.dropFirst()) {
      #expect(next.started == previous.finished)
      #expect(next.started - previous.started == .milliseconds(350))
    }
    // The delay had always passed by the time the slot was free: nothing waited for it.
    #expect(clock.pauses.isEmpty)
  }
}

/// The turns a `PoliteFetcher` reports, kept for a test to read.
final class TurnLog: Sendable {
  private let turns = Mutex<[PoliteFetcher.Turn]>([])

  func record(_ turn: PoliteFetcher.Turn) { turns.withLock { $0.append(turn) } }

  /// The turns, earliest start first.
  var inOrderOfStart: [PoliteFetcher.Turn] { turns.withLock { $0 }.sorted { $0.started < $1.started } }
}

/// A one-way switch shared with server threads.
final class Flag: Sendable {
  private let value = Atomic(false)

  func set() { value.store(true, ordering: .sequentiallyConsistent) }

  var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
}
