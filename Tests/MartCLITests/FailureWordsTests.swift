import Foundation
import TestSupport
import Testing

/// A source that answers a maintenance page instead of its data is told by what it answered, in
/// the run's error, `report.json` and `report.html`.
@Suite struct FailureWordsTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()

  /// A copy of `fixtures/web` in which `host` answers every request with `page` as `text/html`.
  func recordings(_ host: String, answering page: String) throws -> URL {
    let copy = Scratch.directory.appendingPathComponent("maintenance-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    let folder = copy.appendingPathComponent(host)
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".exchange.json") {
      let file = folder.appendingPathComponent(name)
      var exchange = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
      var response = try #require(exchange["response"] as? [String: Any])
      let body = name.replacingOccurrences(of: ".exchange.json", with: ".maintenance.html")
      try Data(page.utf8).write(to: folder.appendingPathComponent(body))
      response["bodyFile"] = body
      response["headers"] = [["Content-Type", "text/html; charset=utf-8"]]
      exchange["response"] = response
      try JSONSerialization.data(withJSONObject: exchange).write(to: file)
    }
    return copy
  }

  @Test func aMaintenancePageIsToldByItsTitle() throws {
    let page = """
      <!DOCTYPE html><html><head><title>시스템 점검 안내</title></head>
      <body><p>보다 나은 서비스를 위해 점검 중입니다.</p></body></html>
      """
    // An output of 메가마트 and of one brand that publishes (for the exit status 2 of a run that
    // published with a stale brand), and a run of them: the other brands add nothing but their cost.
    let output = try PublishedOutput.copy("maintenance", brands: ["lottemart", "megamart"])
    let replay = try recordings("home.megamart.com", answering: page)
    let run = try cli.run([
      "run", "--replay", replay.path, "--brand", "lottemart", "--brand", "megamart", "--output", output.path,
    ])
    #expect(run.status == 2, "stderr: \(run.stderr)")
    let said =
      "megamart: unexpected content at https://home.megamart.com/boardApi/query: it answered an HTML page titled"
      + " '시스템 점검 안내'"
      + " (HTTP 200, text/html; charset=utf-8) — expected a JSON object"
    #expect(run.stderr.contains(said), "stderr: \(run.stderr)")
    #expect(!run.stderr.contains("DecodingError"))
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let megamart = try #require((report["brands"] as? [[String: Any]])?.first { $0["slug"] as? String == "megamart" })
    #expect((megamart["error"] as? String)?.contains(said) == true, "\(megamart)")
    let html = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(html.contains("answered an HTML page titled &#39;시스템 점검 안내&#39;"))
  }
}
