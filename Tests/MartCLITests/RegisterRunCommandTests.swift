import Foundation
import MartFetch
import MartReplay
import Synchronization
import TestSupport
import Testing

/// `mart-holiday run --source register=URL`: the register is asked of the mirror, once, with its
/// `Referer`, and `report.json` says what it read, even when no brand could be fetched.
@Suite struct RegisterRunCommandTests {
  @Test func aRegisterMirrorIsReadAndReported() throws {
    let register = try FixturePaths.data("register/register-2026.csv")
    let referers = Mutex<[String]>([])
    let server = try LocalHTTPServer { request in
      guard request.path == "/file/download/large_scale_retail_stores/info" else {
        return .text("no such page", status: 404)
      }
      referers.withLock { $0.append(request.headers.first { $0.name.lowercased() == "referer" }?.value ?? "none") }
      return ServerResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/csv")], body: register)
    }
    defer { server.stop() }
    let root = Scratch.directory.appendingPathComponent("register-run-\(UUID().uuidString)")
    let output = root.appendingPathComponent("output")
    let outcome = try ProcessRunner.run(
      CommandLineContractTests.binary,
      [
        "run", "--output", output.path, "--as-of", "2026-11-20", "--brand", "megamart", "--source",
        "register=\(server.baseURL)", "--source", "megamart=\(server.baseURL)", "--retries", "0", "--request-delay",
        "0",
        "--ignore-robots",
      ])
    // 메가마트's pages are not on the mirror: nothing is published, and the register is read anyway.
    #expect(outcome.status == 1, "\(outcome.stderrText)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let summary = try #require(report["register"] as? [String: Any])
    #expect(summary["origin"] as? String == "fetched")
    #expect(summary["openStores"] as? Int == 20)
    #expect(referers.withLock { $0 } == ["https://file.localdata.go.kr/file/large_scale_retail_stores/info"])
    let kept = root.appendingPathComponent("output-state/cache/register.csv")
    #expect(try Data(contentsOf: kept) == register)
  }
}
