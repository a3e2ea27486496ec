import Foundation
@testable import MartBrands
import MartCore
import MartFetch
import MartReplay
import ReplayTestSupport
import Synchronization
import TestSupport
import Testing

/// Store pages that carry nothing of their request, read one at a time over one kept-alive
/// connection to a loopback server that sends one answer twice: every later answer on that
/// connection is shifted by one, and only shows as a repeat once the request before it is asked
/// again. No store takes another store's page.
@Suite(.serialized)
struct RepeatedStorePageTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  /// A copy of the E-mart recordings whose store pages name no store and link no map: the page
  /// proves nothing of whose it is, and only the comparison with the run's answers is left.
  static func namelessStorePages() throws -> URL {
    let folder = try AnswerProofTests.copyOfRecordings("store.emart.com")
    let site = folder.appendingPathComponent("store.emart.com")
    for name in try FileManager.default.contentsOfDirectory(atPath: site.path)
    where name.hasPrefix("view-") && name.hasSuffix(".body.html") {
      let file = site.appendingPathComponent(name)
      var page = try String(contentsOf: file, encoding: .utf8)
      for pattern in [#"<title>[^<]*</title>"#, #"<h2 class="tit">[^<]*</h2>"#, #"<li><span class="tit">점포명</span><p>[^<]*</p></li>"#, #"<a href="/branch/list\.do\?id=[^"]*"[^>]*>[^<]*</a>"#] {
        page = page.replacingOccurrences(of: pattern, with: "", options: .regularExpression)
      }
      #expect(!page.contains("점포명") && !page.contains("list.do"), "\(name)")
      try Data(page.utf8).write(to: file)
    }
    return folder
  }

  /// A server for the recordings in `folder`; with `repeatingFirstStorePage`, the first store
  /// page's answer is sent twice, the copy 30 ms later (after the client's next request), and
  /// every later store page 30 ms late.
  static func server(folder: URL, repeatingFirstStorePage: Bool) throws -> LocalHTTPServer {
    let index = RecordingIndex(try ReplayArchive.load(from: folder).restricted(toHosts: ["store.emart.com"]))
    let repeated = Atomic(false)
    return try LocalHTTPServer { request in
      guard let exchange = index.match(request, host: "store.emart.com") else { return .text("no recording\n", status: 404) }
      let response = ServerResponse(
        status: exchange.status, headers: exchange.headers.filter { $0.name.lowercased() != "content-encoding" },
        body: exchange.body)
      guard repeatingFirstStorePage, request.path.hasSuffix("/branch/view.do") else { return response }
      // Every later page comes a little late, so that the client has sent its next request on
      // the connection by then, and reads there the answer of the request before it.
      guard !repeated.exchange(true, ordering: .relaxed) else {
        Thread.sleep(forTimeInterval: 0.03)
        return response
      }
      return response.delivered(by: RepeatedAnswer(delay: .milliseconds(30)))
    }
  }

  /// What E-mart's source reads of 노브랜드 from `server`, one request at a time (one kept-alive
  /// connection), and its warnings.
  static func collectNobrand(from server: LocalHTTPServer) async throws -> (branches: [RawBranch], warnings: [String]) {
    let fetcher = PoliteFetcher(
      wrapping: OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: [EmartSource.origin: server.baseURL]),
      policy: PolitenessPolicy(maxConcurrentRequestsPerHost: 1, minimumDelay: .zero, jitter: .zero, obeysRobotsTxt: false))
    let session = SourceSession(for: EmartSource.self, fetcher: fetcher, asOf: asOf, brands: [.nobrand])
    let branches = try await EmartSource().collect(session)
    return (branches, session.warnings.map(\.description))
  }

  @Test func aShiftedNobrandStorePageGivesNoStoreAnotherStoresPhone() async throws {
    let folder = try Self.namelessStorePages()
    defer { try? FileManager.default.removeItem(at: folder) }
    let clean = try Self.server(folder: folder, repeatingFirstStorePage: false)
    let cleanRead = try await Self.collectNobrand(from: clean)
    clean.stop()
    // The recorded pages give the phones (the list rows give none).
    let cleanPhones = Dictionary(uniqueKeysWithValues: cleanRead.branches.map { ($0.id, $0.phone) })
    #expect(cleanPhones.values.compactMap { $0 }.count >= 3, "\(cleanPhones)")
    #expect(Set(cleanPhones.values.compactMap { $0 }).count == cleanPhones.values.compactMap { $0 }.count)

    let shifting = try Self.server(folder: folder, repeatingFirstStorePage: true)
    defer { shifting.stop() }
    let read = try await Self.collectNobrand(from: shifting)
    #expect(read.branches.map(\.id) == cleanRead.branches.map(\.id))
    // Every store has its own phone, from its own page: a shifted page was asked again.
    for branch in read.branches {
      #expect(branch.phone == cleanPhones[branch.id] ?? nil, "\(branch.id): \(branch.phone ?? "none")")
    }
    #expect(shifting.acceptedConnections > 2, "no page was asked again on a fresh connection")
  }
}
