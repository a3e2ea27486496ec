import Foundation
import MartDigest
import MartFetch
import MartHolidayKit
import MartReplay
import Synchronization
import TestSupport
import Testing

/// Serves an output directory over HTTP on 127.0.0.1 as a static web server would: files by
/// path, `latest.json` with an `ETag` and `Last-Modified` and `304` for a matching conditional
/// request. Records every request.
final class OutputDirectoryServer: Sendable {
  /// The requests received, in order.
  final class RequestLog: Sendable {
    let entries = Mutex<[ServerRequest]>([])
  }

  let root: URL
  private let log = RequestLog()
  private let server: LocalHTTPServer

  static let lastModified = "Fri, 20 Nov 2026 03:00:00 GMT"

  init(root: URL) throws {
    self.root = root
    let log = self.log
    server = try LocalHTTPServer { request in
      log.entries.withLock { $0.append(request) }
      return Self.answer(request, root: root)
    }
  }

  var baseURL: URL { URL(string: server.baseURL + "/")! }

  func stop() { server.stop() }

  /// The paths requested so far, and forgets them.
  func takeRequests() -> [ServerRequest] {
    log.entries.withLock { entries in
      defer { entries = [] }
      return entries
    }
  }

  private static func answer(_ request: ServerRequest, root: URL) -> ServerResponse {
    let path = request.path.removingPercentEncoding ?? request.path
    guard request.method == "GET", !path.contains(".."),
      let data = try? Data(contentsOf: root.appendingPathComponent(String(path.dropFirst())))
    else { return .text("not found", status: 404) }
    guard path == "/latest.json" else { return ServerResponse(body: data) }
    let etag = "\"\(SHA256.hex(data).prefix(16))\""
    let headers = [HTTPHeader("ETag", etag), HTTPHeader("Last-Modified", lastModified)]
    if request.headers.value(named: "If-None-Match") == etag {
      return ServerResponse(status: 304, headers: headers)
    }
    return ServerResponse(headers: headers + [HTTPHeader("Content-Type", "application/json")], body: data)
  }
}

/// `MartBundleClient` against a local server holding the fixtures' published output.
@Suite(.serialized) struct BundleClientTests {
  func cacheDirectory() -> URL {
    Scratch.directory.appendingPathComponent("kit-cache-\(UUID().uuidString)")
  }

  @Test func loadsThenReusesWithConditionalRequests() async throws {
    let output = try await PublishedFixtures.shared.copy()
    let server = try OutputDirectoryServer(root: output)
    defer { server.stop() }
    let expected = try await PublishedFixtures.shared.bundle()
    let cache = cacheDirectory()

    let client = MartBundleClient(baseURL: server.baseURL, cacheDirectory: cache)
    let first = try await client.latest()
    #expect(first.version == expected.version)
    #expect(first.branches == expected.branches)
    let firstRequests = server.takeRequests()
    #expect(
      firstRequests.map(\.path).map { $0.hasPrefix("/bundles/") ? String($0.split(separator: "/").last!) : $0 } == [
        "/latest.json", "manifest.json", "branches.json",
      ])
    #expect(firstRequests[0].headers.value(named: "If-None-Match") == nil)

    // Again: latest.json is revalidated (304) and nothing else is asked for.
    let second = try await client.latest()
    #expect(second.version == expected.version)
    let secondRequests = server.takeRequests()
    #expect(secondRequests.map(\.path) == ["/latest.json"])
    #expect(secondRequests[0].headers.value(named: "If-None-Match") != nil)
    #expect(secondRequests[0].headers.value(named: "If-Modified-Since") == OutputDirectoryServer.lastModified)

    // A new client on the same cache (an app started again): one revalidation, the bundle from disk.
    let restarted = MartBundleClient(baseURL: server.baseURL, cacheDirectory: cache)
    let third = try await restarted.latest()
    #expect(third.branches == expected.branches)
    #expect(server.takeRequests().map(\.path) == ["/latest.json"])
  }

  @Test func aBundleFailingItsDigestIsRefusedAndTheLastGoodOneKept() async throws {
    let output = try await PublishedFixtures.shared.copy()
    let server = try OutputDirectoryServer(root: output)
    defer { server.stop() }
    let good = try await PublishedFixtures.shared.bundle()
    let cache = cacheDirectory()
    let client = MartBundleClient(baseURL: server.baseURL, cacheDirectory: cache)
    #expect(try await client.latest().version == good.version)
    _ = server.takeRequests()

    // A new bundle whose branches.json does not match its manifest.
    let raw = try RawBundle(output: output)
    let version = "2026-11-21-000000000000"
    let damaged = output.appendingPathComponent("bundles/\(version)")
    try FileManager.default.copyItem(at: raw.directory, to: damaged)
    var manifest = raw.manifest
    manifest["version"] = version
    let manifestData = try JSONSerialization.data(withJSONObject: manifest)
    try manifestData.write(to: damaged.appendingPathComponent("manifest.json"))
    var branches = try Data(contentsOf: damaged.appendingPathComponent("branches.json"))
    branches[branches.firstIndex(of: UInt8(ascii: "1"))!] = UInt8(ascii: "2")
    try branches.write(to: damaged.appendingPathComponent("branches.json"))
    var latest = raw.latest
    latest["version"] = version
    latest["bundle"] = "bundles/\(version)"
    latest["manifestSHA256"] = SHA256.hex(manifestData)
    try JSONSerialization.data(withJSONObject: latest).write(to: output.appendingPathComponent("latest.json"))

    let branchesURL = server.baseURL.appendingPathComponent("bundles/\(version)/branches.json").absoluteString
    await #expect {
      try await client.latest()
    } throws: { error in
      (error as? MartBundleError)?.code == .digestMismatch && (error as? MartBundleError)?.location == branchesURL
    }
    #expect(await client.lastGoodBundle()?.version == good.version)
    // Nothing of the refused bundle was kept: a new client offline still has the good one.
    server.stop()
    let offline = MartBundleClient(baseURL: server.baseURL, cacheDirectory: cache)
    #expect(await offline.lastGoodBundle()?.version == good.version)
    await #expect {
      try await offline.latest()
    } throws: { error in
      (error as? MartBundleError)?.code == .network
    }
    #expect(await offline.lastGoodBundle()?.branches == good.branches)
  }

  @Test func aServerWithoutABundleGivesAnErrorNamingTheURL() async throws {
    let empty = Scratch.directory.appendingPathComponent("kit-empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let server = try OutputDirectoryServer(root: empty)
    defer { server.stop() }
    let client = MartBundleClient(baseURL: server.baseURL, cacheDirectory: cacheDirectory())
    await #expect {
      try await client.latest()
    } throws: { error in
      let error = error as? MartBundleError
      return error?.code == .missingFile
        && error?.location == server.baseURL.appendingPathComponent("latest.json").absoluteString
    }
    #expect(await client.lastGoodBundle() == nil)
  }
}
