import Foundation
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

/// How a test reaches the test server: directly, or through a real TLS terminator whose
/// certificate a test CA signed. Every client behaviour is checked over both.
enum Transport: String, CaseIterable, CustomTestStringConvertible {
  case http, https
  var testDescription: String { rawValue }
}

@Suite(.serialized)
struct CurlHTTPClientTests {
  let server: LocalHTTPServer

  init() throws {
    server = try LocalHTTPServer(handler: TestServerRoutes.handle)
  }

  /// The test server as a client reaches it over one transport.
  final class Site: Sendable {
    let baseURL: String
    let terminator: TLSTerminator?
    let trust: TrustedCertificates

    init(server: LocalHTTPServer, transport: Transport) throws {
      switch transport {
      case .http:
        baseURL = server.baseURL
        terminator = nil
        trust = .system
      case .https:
        let terminator = try TLSTerminator(targetPort: server.port)
        baseURL = terminator.baseURL
        self.terminator = terminator
        trust = .bundle(path: try TLSTerminator.certificateAuthorityFile().path, namedBy: "test")
      }
    }

    func url(_ pathAndQuery: String) -> String { baseURL + pathAndQuery }

    /// A client configured as `configuration`, trusting the test CA.
    func client(_ configuration: HTTPClientConfiguration = HTTPClientConfiguration()) -> CurlHTTPClient {
      var configuration = configuration
      configuration.https.trustedCertificates = trust
      return CurlHTTPClient(configuration: configuration)
    }
  }

  private func site(_ transport: Transport) throws -> Site { try Site(server: server, transport: transport) }

  private func echo(of response: HTTPResponse) throws -> Echo {
    try JSONDecoder().decode(Echo.self, from: response.body)
  }

  /// The error `request` fails with, or nil if it succeeds.
  private func failure(of request: HTTPRequest, using client: CurlHTTPClient) async -> FetchError? {
    do {
      _ = try await client.fetch(request)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: Transport.allCases, [200, 404, 500])
  func statusesAreReturnedWithTheirBodies(over transport: Transport, status: Int) async throws {
    let site = try site(transport)
    let client = site.client()
    let response = try await client.fetch(.get(site.url("/status/\(status)")))
    #expect(response.status == status)
    #expect(String(decoding: response.body, as: UTF8.self) == "status \(status) body")
    #expect(response.headers.value(named: "content-type") == "text/plain; charset=utf-8")
    #expect(response.finalURL == site.url("/status/\(status)"))
    #expect(response.isSuccess == (status == 200))
  }

  @Test(arguments: Transport.allCases)
  func sendsTheConfiguredUserAgentAndRequestHeaders(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client(
      HTTPClientConfiguration(defaultHeaders: [HTTPHeader("Accept-Language", "ko-KR")]))
    let response = try await client.fetch(.get(site.url("/echo"), headers: [HTTPHeader("X-Branch-Code", "1001")]))
    let echo = try echo(of: response)
    #expect(echo.method == "GET")
    #expect(echo.header("User-Agent") == "mart-holiday/\(MartVersion.current) (+Korean mart closing-day dataset)")
    #expect(echo.header("Accept-Language") == "ko-KR")
    #expect(echo.header("X-Branch-Code") == "1001")
  }

  @Test(arguments: Transport.allCases)
  func aRequestUserAgentReplacesTheDefault(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let response = try await client.fetch(.get(site.url("/echo"), headers: [HTTPHeader("User-Agent", "custom/2")]))
    let echo = try echo(of: response)
    #expect(echo.headers.filter { $0[0].lowercased() == "user-agent" }.map { $0[1] } == ["custom/2"])
  }

  @Test(arguments: Transport.allCases)
  func postBodiesArriveByteExact(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let body = Data([0x00, 0x01, 0x7F, 0x80, 0xFF, 0x0D, 0x0A, 0x00]) + Data("{\"a\":\"한\"}".utf8)
    let request = HTTPRequest(
      method: .post, url: site.url("/echo"), headers: [HTTPHeader("Content-Type", "application/octet-stream")],
      body: body)
    let echo = try echo(of: try await client.fetch(request))
    #expect(echo.method == "POST")
    #expect(echo.body == body)
    #expect(echo.header("Content-Type") == "application/octet-stream")
    #expect(echo.header("Content-Length") == String(body.count))
  }

  @Test(arguments: Transport.allCases)
  func anEmptyPostSendsZeroLength(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let echo = try echo(of: try await client.fetch(HTTPRequest(method: .post, url: site.url("/echo"))))
    #expect(echo.method == "POST")
    #expect(echo.body.isEmpty)
    #expect(echo.header("Content-Length") == "0")
  }

  @Test(arguments: Transport.allCases)
  func koreanFormFieldsRoundTrip(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let fields = [(name: "storeNm", value: "이마트 성수점"), (name: "q", value: "a&b=c")]
    let echo = try echo(of: try await client.fetch(.postForm(site.url("/echo"), fields: fields)))
    // Expected bytes from python3: urllib.parse.urlencode([...]).
    #expect(
      String(decoding: echo.body, as: UTF8.self)
        == "storeNm=%EC%9D%B4%EB%A7%88%ED%8A%B8+%EC%84%B1%EC%88%98%EC%A0%90&q=a%26b%3Dc")
    #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
    let decoded = FormEncoding.decode(String(decoding: echo.body, as: UTF8.self))
    #expect(decoded.map(\.name) == ["storeNm", "q"])
    #expect(decoded.map(\.value) == ["이마트 성수점", "a&b=c"])
  }

  @Test(arguments: Transport.allCases, [301, 302, 303])
  func redirectedPostsBecomeGets(over transport: Transport, status: Int) async throws {
    let site = try site(transport)
    let client = site.client()
    let response = try await client.fetch(.postForm(site.url("/redirect/\(status)?to=%2Fecho"), fields: [("a", "1")]))
    #expect(response.status == 200)
    #expect(response.finalURL == site.url("/echo"))
    let echo = try echo(of: response)
    #expect(echo.method == "GET")
    #expect(echo.body.isEmpty)
  }

  @Test(arguments: Transport.allCases)
  func a307RedirectKeepsThePostAndItsBody(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let response = try await client.fetch(.postForm(site.url("/redirect/307?to=%2Fecho"), fields: [("a", "한")]))
    let echo = try echo(of: response)
    #expect(echo.method == "POST")
    #expect(String(decoding: echo.body, as: UTF8.self) == "a=%ED%95%9C")
  }

  @Test(arguments: Transport.allCases)
  func onlyTheFinalResponseHeadersAreKept(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let response = try await client.fetch(.get(site.url("/redirect/302?to=%2Fstatus%2F200")))
    #expect(response.headers.value(named: "Location") == nil)
    #expect(response.headers.value(named: "Content-Type") == "text/plain; charset=utf-8")
    #expect(response.headers.filter { $0.name.lowercased() == "content-length" }.count == 1)
  }

  @Test(arguments: Transport.allCases)
  func tooManyRedirectsFail(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client(HTTPClientConfiguration(maxRedirects: 3))
    let error = try #require(await failure(of: .get(site.url("/loop/0")), using: client))
    #expect(error.code == .redirect)
    #expect(error.url == site.url("/loop/0"))
  }

  @Test(arguments: Transport.allCases)
  func redirectsWithinTheLimitAreFollowed(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client(HTTPClientConfiguration(maxRedirects: 3))
    let response = try await client.fetch(.get(site.url("/redirect/302?to=%2Fredirect%2F301%3Fto%3D%252Fecho")))
    #expect(response.status == 200)
    #expect(response.finalURL == site.url("/echo"))
  }

  @Test(arguments: Transport.allCases, ["ftp://127.0.0.1/holidays.txt", "file:///etc/passwd"])
  func redirectsToOtherSchemesAreRefused(over transport: Transport, target: String) async throws {
    let site = try site(transport)
    let client = site.client()
    let error = try #require(
      await failure(of: .get(site.url("/redirect/302?to=\(FormEncoding.escape(target))")), using: client))
    #expect(error.code == .redirect)
  }

  @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "not a url"])
  func nonHTTPURLsAreInvalid(target: String) async throws {
    let error = try #require(await failure(of: .get(target), using: CurlHTTPClient()))
    #expect(error.code == .invalidURL)
  }

  @Test(arguments: Transport.allCases)
  func aSlowServerTimesOut(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client(HTTPClientConfiguration(totalTimeout: .milliseconds(300)))
    // The answer is held until the client has given up (not for a fixed time the server's
    // thread would then still sleep through).
    let held = "slow-\(transport)-\(UUID().uuidString)"
    defer { HeldAnswers.shared.release(held) }
    let error = try #require(await failure(of: .get(site.url("/held?id=\(held)")), using: client))
    #expect(!HeldAnswers.shared.hasAnswered(held))
    #expect(error.code == .timeout)
    #expect(!error.message.isEmpty)
  }

  @Test func aClosedPortFailsToConnect() async throws {
    let closed = try LocalHTTPServer { _ in .text("unreachable") }
    let closedURL = closed.baseURL + "/"
    closed.stop()
    let error = try #require(await failure(of: .get(closedURL), using: CurlHTTPClient()))
    #expect(error.code == .connection)
    #expect(error.message.contains("onnect"))
  }

  @Test(arguments: Transport.allCases)
  func aDeclaredBodyOverTheLimitFails(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client(HTTPClientConfiguration(maxBodyBytes: 1000))
    let error = try #require(await failure(of: .get(site.url("/bytes?count=1001")), using: client))
    #expect(error.code == .bodyTooLarge(limit: 1000))
    let atLimit = try await client.fetch(.get(site.url("/bytes?count=1000")))
    #expect(atLimit.body.count == 1000)
  }

  @Test(arguments: Transport.allCases)
  func aDecodedBodyOverTheLimitFailsWhileStreaming(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client(HTTPClientConfiguration(maxBodyBytes: 1000))
    let error = try #require(await failure(of: .get(site.url("/gzip-bomb")), using: client))
    #expect(error.code == .bodyTooLarge(limit: 1000))
    let roomy = try await site.client().fetch(.get(site.url("/gzip-bomb")))
    #expect(roomy.body == Data(repeating: UInt8(ascii: "a"), count: 5000))
  }

  @Test(arguments: Transport.allCases)
  func gzipBodiesAreDecoded(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let response = try await client.fetch(.get(site.url("/gzip")))
    #expect(String(decoding: response.body, as: UTF8.self) == TestServerRoutes.koreanText)
  }

  @Test(arguments: Transport.allCases)
  func aTruncatedBodyFails(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let error = try #require(await failure(of: .get(site.url("/truncated")), using: client))
    #expect(error.code == .bodyCutShort)
  }

  @Test(arguments: Transport.allCases)
  func aConnectionClosedWithoutResponseFails(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let error = try #require(await failure(of: .get(site.url("/close")), using: client))
    #expect(error.code == .connection)
  }

  @Test(arguments: Transport.allCases)
  func aSlowBodyArrivesWhole(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let response = try await client.fetch(.get(site.url("/slow-body")))
    #expect(String(decoding: response.body, as: UTF8.self) == "slowly sent body")
  }

  @Test(arguments: Transport.allCases)
  func concurrentFetchesAllComplete(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let bodies = try await withThrowingTaskGroup(of: String.self) { group in
      for id in 0..<12 {
        group.addTask {
          let response = try await client.fetch(.get(site.url("/delay?ms=100&id=\(id)")))
          return String(decoding: response.body, as: UTF8.self)
        }
      }
      return try await group.reduce(into: Set<String>()) { $0.insert($1) }
    }
    #expect(bodies == Set((0..<12).map { "delayed \($0)" }))
  }

  @Test(arguments: Transport.allCases)
  func requestsOneAfterAnotherShareOneConnection(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    for id in 0..<10 {
      let response = try await client.fetch(.get(site.url("/delay?ms=1&id=\(id)")))
      #expect(String(decoding: response.body, as: UTF8.self) == "delayed \(id)")
    }
    // Ten requests, one TCP connection kept alive between them.
    #expect(server.acceptedConnections == 1)
  }

  @Test(arguments: Transport.allCases)
  func concurrentRequestsReuseTheConnectionsOfEarlierOnes(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    // Two rounds of eight requests at once, each held 100 ms by the server so that the eight
    // of a round overlap: the first round opens at most eight connections, the second opens none.
    for round in 0..<2 {
      try await withThrowingTaskGroup(of: Void.self) { group in
        for id in 0..<8 {
          group.addTask {
            let response = try await client.fetch(.get(site.url("/delay?ms=100&id=\(round)-\(id)")))
            #expect(String(decoding: response.body, as: UTF8.self) == "delayed \(round)-\(id)")
          }
        }
        try await group.waitForAll()
      }
      if round == 0 { #expect((1...8).contains(server.acceptedConnections)) }
    }
    #expect((1...8).contains(server.acceptedConnections))
  }

  @Test(arguments: Transport.allCases)
  func aPostAfterAGetReusesTheConnection(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    _ = try await client.fetch(.get(site.url("/echo")))
    let response = try await client.fetch(.postForm(site.url("/echo"), fields: [("store", "1")]))
    #expect(try echo(of: response).body == Data("store=1".utf8))
    #expect(server.acceptedConnections == 1)
  }

  @Test(arguments: Transport.allCases)
  func aQueuedTransferCancelledAmongOthersLeavesThemRunning(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let held = "cancelled-\(transport)-\(UUID().uuidString)"
    defer { HeldAnswers.shared.release(held) }
    let slow = site.url("/held?id=\(held)")
    let cancelled = Task { () -> FetchError? in
      do throws(FetchError) {
        _ = try await client.fetch(.get(slow))
        return nil
      } catch {
        return error
      }
    }
    try await Task.sleep(for: .milliseconds(100))
    cancelled.cancel()
    let fast = try await client.fetch(.get(site.url("/delay?ms=1&id=fast")))
    #expect(await cancelled.value?.code == .cancelled)
    // The cancelled transfer stopped while the server still held its answer: not when it came.
    #expect(!HeldAnswers.shared.hasAnswered(held))
    #expect(String(decoding: fast.body, as: UTF8.self) == "delayed fast")
  }

  @Test(arguments: Transport.allCases)
  func charsetComesFromTheContentType(over transport: Transport) async throws {
    let site = try site(transport)
    let client = site.client()
    let response = try await client.fetch(.get(site.url("/charset")))
    #expect(response.charset == "euc-kr")
    let plain = try await client.fetch(.get(site.url("/bytes?count=1")))
    #expect(plain.charset == nil)
  }

  @Test func anHTTPSServerOutsideTheTrustedAuthoritiesIsRefusedAtOnce() async throws {
    let site = try site(.https)
    let terminator = try #require(site.terminator)
    // The system's authorities did not sign the test CA's certificate.
    let client = CurlHTTPClient(
      configuration: HTTPClientConfiguration(https: HTTPSPolicy(certificateSetting: "--ca-bundle")))
    let error = try #require(await failure(of: .get(site.url("/echo")), using: client))
    #expect(error.code == .transport)
    #expect(error.message.contains("--ca-bundle"))
    #expect(error.message.contains("the system's certificate authorities"))
    #expect(try terminator.statistics().requests == 0)
  }

  @Test func newConnectionsToAnHTTPSHostResumeTheFirstSession() async throws {
    let site = try site(.https)
    let terminator = try #require(site.terminator)
    let client = site.client()
    // One connection first, whose session the client keeps; then three requests, each on a new
    // connection. One after another: a TLS 1.3 ticket is used once (RFC 8446, C.4), so new
    // connections opened at the same instant may race for the one ticket the client holds, and
    // each resumed connection brings the ticket the next one uses.
    _ = try await client.fetch(.get(site.url("/echo")))
    for id in 0..<3 {
      var request = HTTPRequest.get(site.url("/echo?id=\(id)"))
      request.connection = .fresh
      _ = try await client.fetch(request)
    }
    let statistics = try terminator.statistics()
    #expect(statistics.requests == 4)
    #expect(statistics.connections == server.acceptedConnections)
    #expect(statistics.connections >= 2)
    // Every connection after the first resumed a session instead of a full handshake.
    #expect(statistics.resumed == statistics.connections - 1)
  }

  /// The trusted certificates are parsed once per client and shared by every connection, a
  /// lane's included (a lane has a libcurl multi handle of its own, which would parse the file
  /// again): once the first connection has read the file, a lane connects with it gone.
  @Test func lanesTrustTheCertificatesTheClientParsedOnce() async throws {
    let site = try site(.https)
    let bundle = Scratch.directory.appendingPathComponent("trusted-\(UUID().uuidString).pem")
    try FileManager.default.copyItem(at: try TLSTerminator.certificateAuthorityFile(), to: bundle)
    var configuration = HTTPClientConfiguration()
    configuration.https.trustedCertificates = .bundle(path: bundle.path, namedBy: "test")
    let client = CurlHTTPClient(configuration: configuration)
    _ = try await client.fetch(.get(site.url("/echo")))

    try FileManager.default.removeItem(at: bundle)
    let lane = ConnectionLane()
    for index in 0..<2 {
      var request = HTTPRequest.get(site.url("/echo?lane=\(index)"))
      request.connection = .lane(lane, closing: index == 1)
      let response = try await client.fetch(request)
      #expect(response.status == 200)
      #expect(response.connectionsOpened == (index == 0 ? 1 : 0))
    }
    // A client that never read the file cannot trust the server.
    let later = CurlHTTPClient(configuration: configuration)
    let error = try #require(await failure(of: .get(site.url("/echo")), using: later))
    #expect(error.code == .transport)
  }

  /// A lane's connection (opened by an engine of its own) resumes the session the client's
  /// first connection to the host made: no full handshake per lane.
  @Test func aLaneResumesTheClientsSession() async throws {
    let site = try site(.https)
    let terminator = try #require(site.terminator)
    let client = site.client()
    _ = try await client.fetch(.get(site.url("/echo")))
    let lane = ConnectionLane()
    for index in 0..<2 {
      var request = HTTPRequest.get(site.url("/echo?lane=\(index)"))
      request.connection = .lane(lane, closing: index == 1)
      _ = try await client.fetch(request)
    }
    let statistics = try terminator.statistics()
    #expect(statistics.requests == 3)
    #expect(statistics.connections == 2)
    #expect(statistics.resumed == 1, "the lane's connection resumed the first one's session")
  }
}
