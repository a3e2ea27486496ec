import Foundation
import MartCore
import MartFetch
import MartReplay
import Testing

@Suite(.serialized)
struct CurlHTTPClientTests {
  let server: LocalHTTPServer
  let client = CurlHTTPClient()

  init() throws {
    server = try LocalHTTPServer(handler: TestServerRoutes.handle)
  }

  private func url(_ pathAndQuery: String) -> String { server.baseURL + pathAndQuery }

  private func echo(of response: HTTPResponse) throws -> Echo {
    try JSONDecoder().decode(Echo.self, from: response.body)
  }

  /// The error `request` fails with, or nil if it succeeds.
  private func failure(
    of request: HTTPRequest, using client: CurlHTTPClient? = nil
  ) async -> FetchError? {
    do {
      _ = try await (client ?? self.client).fetch(request)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [200, 404, 500])
  func statusesAreReturnedWithTheirBodies(status: Int) async throws {
    let response = try await client.fetch(.get(url("/status/\(status)")))
    #expect(response.status == status)
    #expect(String(decoding: response.body, as: UTF8.self) == "status \(status) body")
    #expect(response.headers.value(named: "content-type") == "text/plain; charset=utf-8")
    #expect(response.finalURL == url("/status/\(status)"))
    #expect(response.isSuccess == (status == 200))
  }

  @Test func sendsTheConfiguredUserAgentAndRequestHeaders() async throws {
    let client = CurlHTTPClient(
      configuration: HTTPClientConfiguration(defaultHeaders: [HTTPHeader("Accept-Language", "ko-KR")]))
    let response = try await client.fetch(.get(url("/echo"), headers: [HTTPHeader("X-Branch-Code", "1001")]))
    let echo = try echo(of: response)
    #expect(echo.method == "GET")
    #expect(echo.header("User-Agent") == "mart-holiday/\(MartVersion.current) (+Korean mart closing-day dataset)")
    #expect(echo.header("Accept-Language") == "ko-KR")
    #expect(echo.header("X-Branch-Code") == "1001")
  }

  @Test func aRequestUserAgentReplacesTheDefault() async throws {
    let response = try await client.fetch(.get(url("/echo"), headers: [HTTPHeader("User-Agent", "custom/2")]))
    let echo = try echo(of: response)
    #expect(echo.headers.filter { $0[0].lowercased() == "user-agent" }.map { $0[1] } == ["custom/2"])
  }

  @Test func postBodiesArriveByteExact() async throws {
    let body = Data([0x00, 0x01, 0x7F, 0x80, 0xFF, 0x0D, 0x0A, 0x00]) + Data("{\"a\":\"한\"}".utf8)
    let request = HTTPRequest(
      method: .post, url: url("/echo"), headers: [HTTPHeader("Content-Type", "application/octet-stream")], body: body)
    let echo = try echo(of: try await client.fetch(request))
    #expect(echo.method == "POST")
    #expect(echo.body == body)
    #expect(echo.header("Content-Type") == "application/octet-stream")
    #expect(echo.header("Content-Length") == String(body.count))
  }

  @Test func anEmptyPostSendsZeroLength() async throws {
    let echo = try echo(of: try await client.fetch(HTTPRequest(method: .post, url: url("/echo"))))
    #expect(echo.method == "POST")
    #expect(echo.body.isEmpty)
    #expect(echo.header("Content-Length") == "0")
  }

  @Test func koreanFormFieldsRoundTrip() async throws {
    let fields = [(name: "storeNm", value: "이마트 성수점"), (name: "q", value: "a&b=c")]
    let echo = try echo(of: try await client.fetch(.postForm(url("/echo"), fields: fields)))
    // Expected bytes from python3: urllib.parse.urlencode([...]).
    #expect(
      String(decoding: echo.body, as: UTF8.self)
        == "storeNm=%EC%9D%B4%EB%A7%88%ED%8A%B8+%EC%84%B1%EC%88%98%EC%A0%90&q=a%26b%3Dc")
    #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
    let decoded = FormEncoding.decode(String(decoding: echo.body, as: UTF8.self))
    #expect(decoded.map(\.name) == ["storeNm", "q"])
    #expect(decoded.map(\.value) == ["이마트 성수점", "a&b=c"])
  }

  @Test(arguments: [301, 302, 303])
  func redirectedPostsBecomeGets(status: Int) async throws {
    let response = try await client.fetch(.postForm(url("/redirect/\(status)?to=%2Fecho"), fields: [("a", "1")]))
    #expect(response.status == 200)
    #expect(response.finalURL == url("/echo"))
    let echo = try echo(of: response)
    #expect(echo.method == "GET")
    #expect(echo.body.isEmpty)
  }

  @Test func a307RedirectKeepsThePostAndItsBody() async throws {
    let response = try await client.fetch(.postForm(url("/redirect/307?to=%2Fecho"), fields: [("a", "한")]))
    let echo = try echo(of: response)
    #expect(echo.method == "POST")
    #expect(String(decoding: echo.body, as: UTF8.self) == "a=%ED%95%9C")
  }

  @Test func onlyTheFinalResponseHeadersAreKept() async throws {
    let response = try await client.fetch(.get(url("/redirect/302?to=%2Fstatus%2F200")))
    #expect(response.headers.value(named: "Location") == nil)
    #expect(response.headers.value(named: "Content-Type") == "text/plain; charset=utf-8")
    #expect(response.headers.filter { $0.name.lowercased() == "content-length" }.count == 1)
  }

  @Test func tooManyRedirectsFail() async throws {
    let client = CurlHTTPClient(configuration: HTTPClientConfiguration(maxRedirects: 3))
    let error = try #require(await failure(of: .get(url("/loop/0")), using: client))
    #expect(error.code == .redirect)
    #expect(error.url == url("/loop/0"))
  }

  @Test func redirectsWithinTheLimitAreFollowed() async throws {
    let client = CurlHTTPClient(configuration: HTTPClientConfiguration(maxRedirects: 3))
    let response = try await client.fetch(.get(url("/redirect/302?to=%2Fredirect%2F301%3Fto%3D%252Fecho")))
    #expect(response.status == 200)
    #expect(response.finalURL == url("/echo"))
  }

  @Test(arguments: ["ftp://127.0.0.1/holidays.txt", "file:///etc/passwd"])
  func redirectsToOtherSchemesAreRefused(target: String) async throws {
    let error = try #require(
      await failure(of: .get(url("/redirect/302?to=\(FormEncoding.escape(target))"))))
    #expect(error.code == .redirect)
  }

  @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "not a url"])
  func nonHTTPURLsAreInvalid(target: String) async throws {
    let error = try #require(await failure(of: .get(target)))
    #expect(error.code == .invalidURL)
  }

  @Test func aSlowServerTimesOut() async throws {
    let client = CurlHTTPClient(configuration: HTTPClientConfiguration(totalTimeout: .milliseconds(300)))
    let error = try #require(await failure(of: .get(url("/delay?ms=1500")), using: client))
    #expect(error.code == .timeout)
    #expect(!error.message.isEmpty)
  }

  @Test func aClosedPortFailsToConnect() async throws {
    let closed = try LocalHTTPServer { _ in .text("unreachable") }
    let closedURL = closed.baseURL + "/"
    closed.stop()
    let error = try #require(await failure(of: .get(closedURL)))
    #expect(error.code == .connection)
    #expect(error.message.contains("onnect"))
  }

  @Test func aDeclaredBodyOverTheLimitFails() async throws {
    let client = CurlHTTPClient(configuration: HTTPClientConfiguration(maxBodyBytes: 1000))
    let error = try #require(await failure(of: .get(url("/bytes?count=1001")), using: client))
    #expect(error.code == .bodyTooLarge(limit: 1000))
    let atLimit = try await client.fetch(.get(url("/bytes?count=1000")))
    #expect(atLimit.body.count == 1000)
  }

  @Test func aDecodedBodyOverTheLimitFailsWhileStreaming() async throws {
    let client = CurlHTTPClient(configuration: HTTPClientConfiguration(maxBodyBytes: 1000))
    let error = try #require(await failure(of: .get(url("/gzip-bomb")), using: client))
    #expect(error.code == .bodyTooLarge(limit: 1000))
    let roomy = try await CurlHTTPClient().fetch(.get(url("/gzip-bomb")))
    #expect(roomy.body == Data(repeating: UInt8(ascii: "a"), count: 5000))
  }

  @Test func gzipBodiesAreDecoded() async throws {
    let response = try await client.fetch(.get(url("/gzip")))
    #expect(String(decoding: response.body, as: UTF8.self) == TestServerRoutes.koreanText)
  }

  @Test func aTruncatedBodyFails() async throws {
    let error = try #require(await failure(of: .get(url("/truncated"))))
    #expect(error.code == .bodyCutShort)
  }

  @Test func aConnectionClosedWithoutResponseFails() async throws {
    let error = try #require(await failure(of: .get(url("/close"))))
    #expect(error.code == .connection)
  }

  @Test func aSlowBodyArrivesWhole() async throws {
    let response = try await client.fetch(.get(url("/slow-body")))
    #expect(String(decoding: response.body, as: UTF8.self) == "slowly sent body")
  }

  @Test func concurrentFetchesAllComplete() async throws {
    let bodies = try await withThrowingTaskGroup(of: String.self) { group in
      for id in 0..<12 {
        group.addTask {
          let response = try await client.fetch(.get(url("/delay?ms=100&id=\(id)")))
          return String(decoding: response.body, as: UTF8.self)
        }
      }
      return try await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    #expect(bodies == Set((0..<12).map { "delayed \($0)" }))
  }

  @Test func requestsOneAfterAnotherShareOneConnection() async throws {
    for id in 0..<10 {
      let response = try await client.fetch(.get(url("/delay?ms=1&id=\(id)")))
      #expect(String(decoding: response.body, as: UTF8.self) == "delayed \(id)")
    }
    // Ten requests, one TCP connection kept alive between them.
    #expect(server.acceptedConnections == 1)
  }

  @Test func concurrentRequestsReuseTheConnectionsOfEarlierOnes() async throws {
    // Two rounds of eight requests at once, each held 100 ms by the server so that the eight
    // of a round overlap: the first round opens at most eight connections, the second opens none.
    for round in 0..<2 {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for id in 0..<8 {
          group.addTask {
            let response = try await client.fetch(.get(url("/delay?ms=100&id=\(round)-\(id)")))
            #expect(String(decoding: response.body, as: UTF8.self) == "delayed \(round)-\(id)")
          }
        }
        try await group.waitForAll()
      }
      if round == 0 { #expect((1...8).contains(server.acceptedConnections)) }
    }
    #expect((1...8).contains(server.acceptedConnections))
  }

  @Test func aPostAfterAGetReusesTheConnection() async throws {
    _ = try await client.fetch(.get(url("/echo")))
    let response = try await client.fetch(.postForm(url("/echo"), fields: [("store", "1")]))
    #expect(try echo(of: response).body == Data("store=1".utf8))
    #expect(server.acceptedConnections == 1)
  }

  @Test func aQueuedTransferCancelledAmongOthersLeavesThemRunning() async throws {
    let slow = url("/delay?ms=3000&id=slow")
    let cancelled = Task { () -> FetchError? in
      do throws(FetchError) {
        _ = try await client.fetch(.get(slow))
        return nil
      } catch {
        return error
      }
    }
    try await Task.sleep(for: .milliseconds(100))
    let clock = ContinuousClock()
    let start = clock.now
    cancelled.cancel()
    let fast = try await client.fetch(.get(url("/delay?ms=1&id=fast")))
    #expect(await cancelled.value?.code == .cancelled)
    // The cancelled transfer stops at once, not when the server answers three seconds later.
    #expect(clock.now - start < .seconds(2))
    #expect(String(decoding: fast.body, as: UTF8.self) == "delayed fast")
  }

  @Test func charsetComesFromTheContentType() async throws {
    let response = try await client.fetch(.get(url("/charset")))
    #expect(response.charset == "euc-kr")
    let plain = try await client.fetch(.get(url("/bytes?count=1")))
    #expect(plain.charset == nil)
  }
}
