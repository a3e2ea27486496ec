import Foundation
import MartFetch
import MartReplay
import Synchronization
import Testing

@Suite(.serialized) struct ArchivingFetcherTests {
  @Test func anArchivedRunReplaysTheSameResponses() async throws {
    let site = try LocalHTTPServer { request in
      switch (request.method, request.path) {
      case ("GET", "/branch/holidayList.do"):
        return ServerResponse(
          headers: [HTTPHeader("Content-Type", "application/json;charset=UTF-8")],
          body: Data(#"{"dateList":[{"JIJUM_ID":"1059","query":"\#(request.query)"}]}"#.utf8))
      case ("POST", "/branch/searchList.do"):
        return ServerResponse(
          headers: [HTTPHeader("Content-Type", "application/json;charset=UTF-8")],
          body: Data(
            #"{"dataList":[{"ID":"1059","NAME":"창원점"}],"form":"\#(String(decoding: request.body, as: UTF8.self))"}"#
              .utf8))
      default:
        return .text("not found", status: 404)
      }
    }
    defer { site.stop() }

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)")
    let writer = try ArchiveWriter(directory: directory, recordedOn: "2026-11-20")
    let archiving = ArchivingFetcher(wrapping: CurlHTTPClient(), keeper: writer)
    let requests: [HTTPRequest] = [
      .get(site.baseURL + "/branch/holidayList.do?year=2026&month=11"),
      .postForm(site.baseURL + "/branch/searchList.do", fields: [("jMode", "true"), ("searchType", "EM")]),
      .get(site.baseURL + "/missing"),
    ]
    var live: [HTTPResponse] = []
    for request in requests { live.append(try await archiving.fetch(request)) }
    #expect(writer.writeFailures.isEmpty)
    #expect(live.map(\.status) == [200, 200, 404])

    let archive = try ReplayArchive.load(from: directory)
    #expect(archive.recordedOn == "2026-11-20")
    #expect(archive.exchanges.count == 3)

    let replay = try ReplayServer.start(archive: archive)
    defer { replay.stop() }
    let base = try #require(replay.baseURL(forOrigin: site.baseURL))
    let client = CurlHTTPClient()
    for (request, original) in zip(requests, live) {
      var replayed = request
      replayed.url = base + request.url.dropFirst(site.baseURL.count)
      let response = try await client.fetch(replayed)
      #expect(response.status == original.status)
      #expect(response.body == original.body)
      #expect(response.headers.value(named: "Content-Type") == original.headers.value(named: "Content-Type"))
    }
    #expect(replay.unmatchedRequests.isEmpty)
  }
}

/// Header values that would end their line early never leave the client, and an archive that
/// holds two answers to one request replays the later one.
@Suite struct HeaderAndOrderTests {
  @Test func aHeaderWithAControlCharacterIsNeverSent() async throws {
    let received = Mutex<[ServerRequest]>([])
    let site = try LocalHTTPServer { request in
      received.withLock { $0.append(request) }
      return .text("ok")
    }
    defer { site.stop() }
    let cases: [(HTTPClientConfiguration, HTTPRequest)] = [
      (HTTPClientConfiguration(userAgent: "mart\r\nX-Injected: yes"), .get(site.baseURL + "/a")),
      (HTTPClientConfiguration(), HTTPRequest(url: site.baseURL + "/b", headers: [HTTPHeader("Accept", "a\nX-Injected: yes")])),
      (HTTPClientConfiguration(), HTTPRequest(url: site.baseURL + "/c", headers: [HTTPHeader("X Bad", "value")])),
      (HTTPClientConfiguration(defaultHeaders: [HTTPHeader("Accept", "a\u{0}b")]), .get(site.baseURL + "/d")),
    ]
    for (configuration, request) in cases {
      do {
        _ = try await CurlHTTPClient(configuration: configuration).fetch(request)
        Issue.record("\(request.url) was sent")
      } catch {
        #expect(error.message.hasPrefix("not sent: header "), "\(error.message)")
      }
    }
    #expect(received.withLock { $0.isEmpty }, "the server received nothing")
    // A tab is allowed inside a value, as HTTP allows it.
    let tab = try await CurlHTTPClient().fetch(
      HTTPRequest(url: site.baseURL + "/e", headers: [HTTPHeader("X-Note", "a\tb")]))
    #expect(tab.status == 200)
    #expect(HTTPHeader.problem(inValue: "mart\r\n") == "holds the control character U+000D")
  }

  @Test func aRequestRecordedTwiceReplaysTheLaterAnswerPastNumber9999() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("order-\(UUID().uuidString)")
    let url = "https://store.example/list?page=1"
    // Compared as text, "10000-list" sorts before "9999-list"; as numbers it comes after.
    for (name, body) in [("9999-list", "{}"), ("10000-list", #"{"stores":[1]}"#)] {
      try ReplayArchive.write(
        RecordedExchange(
          method: "GET", url: url, status: 200, headers: [HTTPHeader("Content-Type", "application/json")],
          body: Data(body.utf8)), name: name, to: directory)
    }
    let archive = try ReplayArchive.load(from: directory)
    #expect(archive.exchanges.map { String(decoding: $0.body, as: UTF8.self) } == ["{}", #"{"stores":[1]}"#])
    #expect(archive.match(.get(url)).map { String(decoding: $0.body, as: UTF8.self) } == #"{"stores":[1]}"#)
  }
}
