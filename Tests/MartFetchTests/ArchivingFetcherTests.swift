import Foundation
import MartFetch
import MartReplay
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
    let archiving = try ArchivingFetcher(wrapping: CurlHTTPClient(), directory: directory, recordedOn: "2026-11-20")
    let requests: [HTTPRequest] = [
      .get(site.baseURL + "/branch/holidayList.do?year=2026&month=11"),
      .postForm(site.baseURL + "/branch/searchList.do", fields: [("jMode", "true"), ("searchType", "EM")]),
      .get(site.baseURL + "/missing"),
    ]
    var live: [HTTPResponse] = []
    for request in requests { live.append(try await archiving.fetch(request)) }
    #expect(archiving.writeFailures.isEmpty)
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
