import Foundation
import MartCore
import MartFetch
import MartFiles
import MartReplay
import Testing

/// A fresh folder under the temporary directory, removed when the value is dropped.
final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("mart-replay-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite(.serialized)
struct ReplayServerTests {
  static let branchListJSON = Data(#"{"branches":[{"name":"성수점"}]}"#.utf8)

  static let exchanges: [(name: String, exchange: RecordedExchange)] = [
    (
      "branchList",
      RecordedExchange(
        method: "GET", url: "https://store.example.com/branch/list.do?b=2&a=1", status: 200,
        headers: [
          HTTPHeader("Content-Type", "application/json;charset=UTF-8"), HTTPHeader("X-Recorded", "yes"),
          HTTPHeader("Content-Length", "999"), HTTPHeader("Content-Encoding", "gzip"),
        ],
        body: branchListJSON)
    ),
    (
      "searchList-EM",
      RecordedExchange(
        method: "POST", url: "https://store.example.com/branch/searchList.do", requestBody: "jMode=true&searchType=EM",
        status: 200, headers: [HTTPHeader("Content-Type", "text/plain")], body: Data("EM list".utf8))
    ),
    (
      "holiday-emart",
      RecordedExchange(
        method: "GET", url: "https://www.other.example.kr/holiday?name=%EC%9D%B4%EB%A7%88%ED%8A%B8&month=11",
        status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
        body: Data("<p>둘째·넷째 일요일</p>".utf8))
    ),
    (
      "raw-json",
      RecordedExchange(
        method: "POST", url: "https://www.other.example.kr/api", requestBody: #"{"page":1}"#, status: 201,
        headers: [], body: Data())
    ),
  ]

  let folder: TemporaryFolder
  let client = CurlHTTPClient()

  init() throws {
    folder = try TemporaryFolder()
    try ReplayArchive.writeManifest(recordedOn: "2026-11-20", description: "test archive", to: folder.url)
    for (name, exchange) in Self.exchanges {
      try ReplayArchive.write(exchange, name: name, to: folder.url)
    }
  }

  private func withServer(_ body: (ReplayServer) async throws -> Void) async throws {
    let server = try ReplayServer.start(archive: try ReplayArchive.load(from: folder.url))
    defer { server.stop() }
    try await body(server)
  }

  @Test func writesTheDocumentedLayout() throws {
    let hostFolder = folder.url.appendingPathComponent("store.example.com")
    let exchangeText = try String(
      contentsOf: hostFolder.appendingPathComponent("searchList-EM.exchange.json"), encoding: .utf8)
    #expect(
      exchangeText == """
        {
          "request" : {
            "body" : "jMode=true&searchType=EM",
            "method" : "POST",
            "url" : "https://store.example.com/branch/searchList.do"
          },
          "response" : {
            "bodyFile" : "searchList-EM.body.txt",
            "headers" : [
              [
                "Content-Type",
                "text/plain"
              ]
            ],
            "status" : 200
          }
        }

        """)
    let jsonBody = try Data(contentsOf: hostFolder.appendingPathComponent("branchList.body.json"))
    #expect(jsonBody == Self.branchListJSON)
    let otherHost = folder.url.appendingPathComponent("www.other.example.kr")
    #expect(FileManager.default.fileExists(atPath: otherHost.appendingPathComponent("holiday-emart.body.html").path))
    #expect(!FileManager.default.fileExists(atPath: otherHost.appendingPathComponent("raw-json.body.txt").path))
  }

  @Test func loadsWhatWasWritten() throws {
    let archive = try ReplayArchive.load(from: folder.url)
    #expect(archive.recordedOn == "2026-11-20")
    #expect(archive.description == "test archive")
    #expect(Set(archive.exchanges) == Set(Self.exchanges.map(\.exchange)))
  }

  @Test func mapsEachRecordedOriginToALocalServer() async throws {
    try await withServer { server in
      #expect(Set(server.baseURLOverrides.keys) == ["https://store.example.com", "https://www.other.example.kr"])
      let store = try #require(server.baseURL(forOrigin: "https://store.example.com"))
      let other = try #require(server.baseURL(forOrigin: "https://www.other.example.kr"))
      #expect(store.hasPrefix("http://127.0.0.1:"))
      #expect(store != other)
      #expect(server.baseURL(forOrigin: "https://unknown.example.com") == nil)
    }
  }

  @Test func servesRecordedStatusHeadersAndBodyWhateverTheQueryOrder() async throws {
    try await withServer { server in
      let base = try #require(server.baseURLOverrides["https://store.example.com"])
      let response = try await client.fetch(.get(base + "/branch/list.do?a=1&b=2"))
      #expect(response.status == 200)
      #expect(response.body == Self.branchListJSON)
      #expect(response.headers.value(named: "X-Recorded") == "yes")
      #expect(response.headers.value(named: "Content-Type") == "application/json;charset=UTF-8")
      #expect(response.headers.value(named: "Content-Length") == String(Self.branchListJSON.count))
      #expect(response.headers.value(named: "Content-Encoding") == nil)
      #expect(server.unmatchedRequests.isEmpty)
    }
  }

  @Test func matchesFormBodiesAsFieldSets() async throws {
    try await withServer { server in
      let base = try #require(server.baseURLOverrides["https://store.example.com"])
      let response = try await client.fetch(
        .postForm(base + "/branch/searchList.do", fields: [("searchType", "EM"), ("jMode", "true")]))
      #expect(response.status == 200)
      #expect(String(decoding: response.body, as: UTF8.self) == "EM list")
    }
  }

  /// A path and query, named in the test log by how it is written.
  struct PathAndQuery: CustomTestStringConvertible, Sendable {
    var text: String
    var testDescription: String
  }

  @Test(arguments: [
    PathAndQuery(text: "/holiday?month=11&name=%EC%9D%B4%EB%A7%88%ED%8A%B8", testDescription: "upper case"),
    PathAndQuery(text: "/holiday?name=%ec%9d%b4%eb%a7%88%ed%8a%b8&month=11", testDescription: "lower case"),
  ])
  func matchesKoreanPercentEncodedQueries(pathAndQuery: PathAndQuery) async throws {
    try await withServer { server in
      let base = try #require(server.baseURLOverrides["https://www.other.example.kr"])
      let response = try await client.fetch(.get(base + pathAndQuery.text))
      #expect(response.status == 200)
      #expect(String(decoding: response.body, as: UTF8.self) == "<p>둘째·넷째 일요일</p>")
    }
  }

  @Test func matchesRawBodiesByBytes() async throws {
    try await withServer { server in
      let base = try #require(server.baseURLOverrides["https://www.other.example.kr"])
      let headers = [HTTPHeader("Content-Type", "application/json")]
      let matched = try await client.fetch(
        HTTPRequest(method: .post, url: base + "/api", headers: headers, body: Data(#"{"page":1}"#.utf8)))
      #expect(matched.status == 201)
      let spaced = try await client.fetch(
        HTTPRequest(method: .post, url: base + "/api", headers: headers, body: Data(#"{"page": 1}"#.utf8)))
      #expect(spaced.status == 404)
    }
  }

  @Test func unmatchedRequestsGet404AndAreListed() async throws {
    try await withServer { server in
      let base = try #require(server.baseURLOverrides["https://store.example.com"])
      let wrongQuery = try await client.fetch(.get(base + "/branch/list.do?a=1&b=3"))
      #expect(wrongQuery.status == 404)
      #expect(String(decoding: wrongQuery.body, as: UTF8.self).contains("GET store.example.com/branch/list.do?a=1&b=3"))

      let wrongBody = try await client.fetch(
        .postForm(base + "/branch/searchList.do", fields: [("jMode", "true"), ("searchType", "HM")]))
      #expect(wrongBody.status == 404)
      #expect(String(decoding: wrongBody.body, as: UTF8.self).contains("searchType=HM"))

      let wrongMethod = try await client.fetch(.get(base + "/branch/searchList.do"))
      #expect(wrongMethod.status == 404)

      #expect(
        server.unmatchedRequests == [
          "GET store.example.com/branch/list.do?a=1&b=3",
          "POST store.example.com/branch/searchList.do body: jMode=true&searchType=HM",
          "GET store.example.com/branch/searchList.do",
        ])
    }
  }

  @Test func aRequestForAnOriginWithoutRecordingsIsListedUnderItsOwnHost() async throws {
    let archive = ReplayArchive(
      exchanges: [
        RecordedExchange(
          request: .get("https://store.example.com/list"),
          response: HTTPResponse(
            requestURL: "https://store.example.com/list", finalURL: "https://store.example.com/list", status: 200,
            headers: [], body: Data("[]".utf8)))
      ], recordedOn: "2026-11-20")
    let server = try ReplayServer.start(archive: archive, unrecordedOrigins: ["https://dapi.kakao.com"])
    defer { server.stop() }
    let base = try #require(server.baseURLOverrides["https://dapi.kakao.com"])
    #expect(base != server.baseURLOverrides["https://store.example.com"])
    let response = try await client.fetch(.get(base + "/v2/local/search/address.json?query=a"))
    #expect(response.status == 404)
    #expect(server.unmatchedRequests == ["GET dapi.kakao.com/v2/local/search/address.json?query=a"])
  }

  @Test func aMalformedExchangeFileIsNamed() throws {
    let bad = folder.url.appendingPathComponent("store.example.com/broken.exchange.json")
    try Data("{ \"request\": ".utf8).write(to: bad)
    let error = #expect(throws: FileError.self) { try ReplayArchive.load(from: folder.url) }
    #expect(error?.location.hasSuffix("store.example.com/broken.exchange.json") == true)
    #expect(error?.message.contains("malformed JSON") == true)
  }

  @Test func aMissingBodyFileIsNamed() throws {
    let body = folder.url.appendingPathComponent("store.example.com/branchList.body.json")
    try FileManager.default.removeItem(at: body)
    let error = #expect(throws: FileError.self) { try ReplayArchive.load(from: folder.url) }
    #expect(error?.location.hasSuffix("branchList.exchange.json") == true)
    #expect(error?.message.contains("branchList.body.json") == true)
  }
}
