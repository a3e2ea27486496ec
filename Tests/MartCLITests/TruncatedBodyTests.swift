import Foundation
import MartCore
import MartExport
import MartFetch
import MartReplay
import ReplayTestSupport
import TestSupport
import Testing

/// A body cut short fails its request: a Content-Length the body falls short of (the server
/// closes early), and JSON that ends mid-value (the length right, the text cut). The brand keeps
/// its last data, stale, with an error naming the URL; nothing cut is published.
@Suite(.serialized) struct TruncatedBodyTests {
  static let feedPath = "/rest/v2/korea/stores"

  func run(_ arguments: [String]) throws -> ProcessRunner.Outcome {
    try ProcessRunner.run(CommandLineContractTests.binary, arguments, in: FixturePaths.repositoryRoot)
  }

  static func recordedFeed() throws -> Data {
    let folder = FixturePaths.web.appendingPathComponent("www.costco.co.kr")
    let feed = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".body.json") })
    return try Data(contentsOf: folder.appendingPathComponent(feed))
  }

  @Test(arguments: ["content-length", "json"])
  func aCutBodyLeavesTheBrandStaleWithTheURLNamed(cut: String) throws {
    let output = Scratch.directory.appendingPathComponent("cut-\(UUID().uuidString)")
    let clean = try run([
      "run", "--replay", FixturePaths.web.path, "--output", output.path, "--brand", "costco", "--as-of", "2026-11-20",
    ])
    #expect(clean.status == 0, "\(clean.stderrText)")
    let before = try #require(try BundleStore(outputDirectory: output).latest())

    let feed = try Self.recordedFeed()
    let half = feed.count / 2
    let server = try LocalHTTPServer { request in
      if request.path == "/robots.txt" { return .text("User-agent: *\nAllow: /\n") }
      guard request.path == Self.feedPath else { return .text("no such page", status: 404) }
      let headers = [HTTPHeader("Content-Type", "application/json; charset=utf-8")]
      return cut == "json"
        ? ServerResponse(headers: headers, body: feed.prefix(half))
        : ServerResponse(headers: headers, body: feed, delivery: ServerFault.truncated(sentBytes: half))
    }
    let outcome = try run([
      "run", "--output", output.path, "--brand", "costco", "--as-of", "2026-11-21", "--source",
      "costco=\(server.baseURL)", "--request-delay", "0", "--retries", "0",
    ])
    // The one brand of the run failed: nothing new is published, the clean bundle stays.
    #expect(outcome.status == 1, "\(outcome.stderrText)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let costco = try #require((report["brands"] as? [[String: Any]])?.first { $0["slug"] as? String == "costco" })
    #expect(costco["status"] as? String == "stale", "\(costco)")
    let error = try #require(costco["error"] as? String)
    #expect(error.contains("https://www.costco.co.kr\(Self.feedPath)"), "\(error)")
    #expect(error.contains(cut == "json" ? "JSON" : "body cut short"), "\(error)")
    let after = try #require(try BundleStore(outputDirectory: output).latest())
    #expect(after.manifest.version == before.manifest.version)
    #expect(after.branches.branches == before.branches.branches)
  }
}
