import Foundation
import MartCore
import MartExport
import MartFetch
import MartReplay
import Synchronization
import TestSupport
import Testing

/// HTTPS stays HTTPS: an HTTPS mirror (a real TLS terminator on 127.0.0.1) that redirects to
/// plain HTTP is refused with an error naming both URLs, and the brand keeps its last data,
/// stale, unless `--allow-insecure-redirects` says otherwise; then its `dataSource` says that
/// the answer came over plain HTTP.
@Suite(.serialized) struct InsecureRedirectTests {
  /// A server whose every page but robots.txt redirects to its plain-HTTP `/plain` copy, which
  /// answers `body`.
  static func downgradingServer(body: Data) throws -> LocalHTTPServer {
    let port = Mutex(0)
    let server = try LocalHTTPServer { request in
      if request.path == "/robots.txt" { return .text("User-agent: *\nAllow: /\n") }
      if request.path.hasPrefix("/plain/") {
        return ServerResponse(headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")], body: body)
      }
      let query = request.query.isEmpty ? "" : "?" + request.query
      return .redirect(to: "http://127.0.0.1:\(port.withLock { $0 })/plain\(request.path)\(query)")
    }
    port.withLock { $0 = server.port }
    return server
  }

  func run(_ arguments: [String]) throws -> ProcessRunner.Outcome {
    try ProcessRunner.run(CommandLineContractTests.binary, arguments, in: FixturePaths.repositoryRoot)
  }

  @Test func fetchRefusesARedirectFromHTTPSToHTTPUnlessAllowed() throws {
    let server = try Self.downgradingServer(body: Data("{\"ok\":true}".utf8))
    let terminator = try TLSTerminator(targetPort: server.port)
    let authority = try TLSTerminator.certificateAuthorityFile().path
    let url = terminator.baseURL + "/page?x=1"
    let refused = try run(["fetch", "--ca-bundle", authority, url])
    #expect(refused.status == 1)
    #expect(refused.stdout.isEmpty)
    let lines = refused.stderrText.split(separator: "\n")
    #expect(lines.count == 1, "\(refused.stderrText)")
    let plain = "http://127.0.0.1:\(server.port)/plain/page?x=1"
    #expect(lines.first?.hasPrefix("error:") == true)
    #expect(lines.first?.contains(url) == true && lines.first?.contains(plain) == true, "\(refused.stderrText)")
    #expect(lines.first?.contains("--allow-insecure-redirects") == true)

    let allowed = try run(["fetch", "--ca-bundle", authority, "--allow-insecure-redirects", url])
    #expect(allowed.status == 0, "\(allowed.stderrText)")
    #expect(allowed.stdoutText == "{\"ok\":true}")
  }

  @Test func aSourceRedirectedToPlainHTTPGoesStaleUnlessAllowed() throws {
    let output = Scratch.directory.appendingPathComponent("insecure-\(UUID().uuidString)")
    let clean = try run([
      "run", "--replay", FixturePaths.web.path, "--output", output.path, "--brand", "costco", "--as-of", "2026-11-20",
    ])
    #expect(clean.status == 0, "\(clean.stderrText)")
    let store = BundleStore(outputDirectory: output)
    let before = try #require(try store.latest())

    let folder = FixturePaths.web.appendingPathComponent("www.costco.co.kr")
    let feed = try #require(
      try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".body.json") })
    let server = try Self.downgradingServer(body: try Data(contentsOf: folder.appendingPathComponent(feed)))
    let terminator = try TLSTerminator(targetPort: server.port)
    let authority = try TLSTerminator.certificateAuthorityFile().path
    let arguments = [
      "run", "--output", output.path, "--brand", "costco", "--as-of", "2026-11-21", "--source",
      "costco=\(terminator.baseURL)", "--ca-bundle", authority, "--request-delay", "0", "--retries", "0",
    ]
    // The one brand of the run fails: it is kept stale, and with no brand fresh nothing new is
    // published; the last bundle, with the clean run's branches, stays current.
    let refused = try run(arguments)
    #expect(refused.status == 1, "\(refused.stderrText)")
    let error = try #require(refused.stderrText.split(separator: "\n").first { $0.contains("refused redirect") })
    #expect(error.hasPrefix("error:") || error.hasPrefix("warning:"), "\(error)")
    #expect(error.contains("https://") && error.contains("http://127.0.0.1:\(server.port)/plain/"), "\(error)")
    let refusedBrand = try Self.costco(inReportOf: output)
    #expect(refusedBrand["status"] as? String == "stale" && refusedBrand["dataSource"] is NSNull, "\(refusedBrand)")
    #expect((refusedBrand["error"] as? String)?.contains("refused redirect to plain HTTP at http://127.0.0.1:\(server.port)/plain/") == true, "\(refusedBrand)")
    let stale = try #require(try store.latest())
    #expect(stale.manifest.version == before.manifest.version)
    #expect(stale.branches.branches == before.branches.branches)

    let allowed = try run(arguments + ["--allow-insecure-redirects"])
    #expect(allowed.status == 0, "\(allowed.stderrText)")
    let fresh = try Self.costco(inReportOf: output)
    #expect(fresh["freshness"] as? String == "fresh")
    #expect((fresh["dataSource"] as? String)?.contains("read over plain HTTP") == true, "\(fresh)")
  }

  /// Costco's entry in the run's `report.json`.
  static func costco(inReportOf output: URL) throws -> [String: Any] {
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let brands = try #require(report["brands"] as? [[String: Any]])
    return try #require(brands.first { $0["slug"] as? String == "costco" })
  }
}
