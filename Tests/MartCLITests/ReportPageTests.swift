import Foundation
import TestSupport
import Testing

/// `report.html` of the bootstrap run, rendered by headless Chromium, and the `report` command.
@Suite struct ReportPageTests {
  let cli = CommandLineContractTests()

  /// Chromium's executable on `PATH` (Debian's `chromium`, which scripts/setup.sh installs), if any.
  static let chromium: URL? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      for name in ["chromium", "chromium-browser", "google-chrome"] {
        let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      }
    }
    return nil
  }()

  /// An output directory with the bootstrap run (the recorded fixtures) published into it.
  func bootstrapOutput(_ label: String) throws -> URL {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    let outcome = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path])
    try #require(outcome.status == 0, "stderr: \(outcome.stderr)")
    return output
  }

  func json(_ url: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  /// Every match of `pattern` in `text`, as the captured groups.
  func matches(_ pattern: String, in text: String) throws -> [[String]] {
    let expression = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
    let range = NSRange(text.startIndex..., in: text)
    return expression.matches(in: text, range: range).map { match in
      (1..<match.numberOfRanges).map { index in
        Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
      }
    }
  }

  /// Opens `page` in headless Chromium and returns the DOM after its script ran, and Chromium's log.
  func renderInBrowser(_ browser: URL, page: URL) throws -> (dom: String, log: String) {
    let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: profile) }
    let process = Process()
    process.executableURL = browser
    process.arguments = [
      "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
      "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000",
      "--window-size=1280,900", "--dump-dom", page.absoluteString,
    ]
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // A browser that hangs must not hang the suite.
    let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
    DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    try #require(process.terminationStatus == 0, "chromium exited \(process.terminationStatus)")
    return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
  }

  @Test(
    .enabled(
      if: chromium != nil,
      "skipped: no Chromium to render report.html in (scripts/setup.sh installs Debian's chromium package)"))
  func theBootstrapReportRendersInABrowser() throws {
    let browser = try #require(Self.chromium)
    let output = try bootstrapOutput("report-browser")
    let page = output.appendingPathComponent("report.html")
    let (dom, log) = try renderInBrowser(browser, page: page)

    // The script ran to its end, and neither it nor the page logged anything to the console
    // (errors, blocked loads).
    #expect(dom.contains("data-script=\"ready\""), "the page's script did not finish")
    let scriptErrors = try matches(#"id="script-errors"[^>]*>([^<]*)"#, in: dom)
    #expect(scriptErrors.isEmpty, "\(scriptErrors)")
    let consoleLines = log.split(separator: "\n").filter { $0.contains(":CONSOLE") || $0.contains("Uncaught") }
    #expect(consoleLines.isEmpty, "console: \(consoleLines.joined(separator: "\n"))")

    let latest = try json(output.appendingPathComponent("latest.json"))
    let bundle = output.appendingPathComponent(try #require(latest["bundle"] as? String))

    // One mark per branch with coordinates.
    let branches = try #require(
      try json(bundle.appendingPathComponent("branches.json"))["branches"] as? [[String: Any]])
    let located = Set(branches.filter { !($0["coordinate"] is NSNull) }.compactMap { $0["id"] as? String })
    let marks = try matches(#"<(?:circle|rect) [^>]*data-branch-id="([^"]+)""#, in: dom).map { $0[0] }
    #expect(marks.count == located.count)
    #expect(Set(marks) == located)
    #expect(located.count > 150)

    // The brand table's counts are report.json's.
    let report = try json(output.appendingPathComponent("report.json"))
    let reported = try #require(report["brands"] as? [[String: Any]])
    var expectedCounts: [String: Int] = [:]
    for brand in reported { expectedCounts[try #require(brand["slug"] as? String)] = brand["branchCount"] as? Int }
    let rows = try matches(#"<tr data-brand="([^"]+)">.*?<td class="num branches">(\d+)</td>"#, in: dom)
    var tableCounts: [String: Int] = [:]
    for row in rows { tableCounts[row[0]] = Int(row[1]) }
    #expect(tableCounts == expectedCounts)
    #expect(expectedCounts == (try FixturePaths.branchCounts()))

    // The calendar's counts are closures.json's, on every day of the window.
    let closures = try json(bundle.appendingPathComponent("closures.json"))
    let dates = try #require(closures["dates"] as? [String: [String]])
    let cells = try matches(#"<td [^>]*data-date="([0-9-]+)" data-closed="(\d+)"[^>]*>(.*?)</td>"#, in: dom)
    #expect(cells.count == 92, "every day of 2026-11-01 … 2027-01-31")
    for cell in cells {
      let expected = dates[cell[0]]?.count ?? 0
      #expect(Int(cell[1]) == expected, "\(cell[0])")
      let listed = try matches(#"data-closed-id="([^"]+)""#, in: cell[2]).map { $0[0] }
      #expect(listed == (dates[cell[0]] ?? []), "\(cell[0])")
    }
    #expect(Set(cells.map { $0[0] }).isSuperset(of: dates.keys))
  }

  @Test func theReportCommandWritesAPageForAnyOutput() throws {
    let first = try bootstrapOutput("report-command")
    let second = FileManager.default.temporaryDirectory.appendingPathComponent("report-command-\(UUID().uuidString)")
    let run = try cli.run(["run", "--replay", "fixtures/web", "--output", second.path, "--as-of", "2026-11-25"])
    try #require(run.status == 0, "stderr: \(run.stderr)")

    let file = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).html")
    let outcome = try cli.run(["report", second.path, "--previous", first.path, "--output", file.path])
    #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
    #expect(outcome.stderr.isEmpty)
    let html = try String(contentsOf: file, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    // The changes against the first run, grouped as diff groups them.
    #expect(html.contains("0 added, 0 removed, 21 changed"))
    #expect(html.contains("<strong>closing-dates</strong>"))
    // Self-contained: nothing is loaded from elsewhere.
    #expect(!html.contains("<script src") && !html.contains("<link") && !html.contains("url("))
    #expect(html.contains("default-src 'none'"))

    // Without --previous and --output: OUTPUT/report.html, the run's own comparison.
    let again = try cli.run(["report", second.path])
    #expect(again.status == 0, "stderr: \(again.stderr)")
    #expect(FileManager.default.fileExists(atPath: second.appendingPathComponent("report.html").path))

    // Bad input: one error line, exit 1.
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("report-empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    for arguments in [["report", empty.path], ["report", second.path, "--previous", empty.path]] {
      let bad = try cli.run(arguments)
      #expect(bad.status == 1, "\(arguments)")
      #expect(bad.stderr.hasPrefix("error: "), "\(arguments): \(bad.stderr)")
      #expect(bad.stderr.split(separator: "\n").count == 1, "\(arguments): \(bad.stderr)")
    }
  }

  /// The page a run writes from the bundles it holds in memory is the page `report` renders
  /// from the disk afterwards, byte for byte, with a previous bundle to compare with.
  @Test func theRunsPageIsTheOneTheReportCommandRendersFromDisk() throws {
    let output = try bootstrapOutput("report-same")
    let run = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-25"])
    try #require(run.status == 0, "stderr: \(run.stderr)")
    let page = output.appendingPathComponent("report.html")
    let written = try Data(contentsOf: page)
    #expect(String(decoding: written, as: UTF8.self).contains("0 added, 0 removed, 21 changed"))
    let again = try cli.run(["report", output.path])
    #expect(again.status == 0, "stderr: \(again.stderr)")
    #expect(try Data(contentsOf: page) == written)
  }

  @Test func aRunThatPublishesNothingSaysSoInItsPage() throws {
    let output = try bootstrapOutput("report-failed")
    // Every source pointed at a closed port: no brand is fresh, nothing is published.
    let outcome = try cli.run([
      "run", "--output", output.path, "--brand", "costco", "--source", "costco=http://127.0.0.1:9",
      "--retries", "0", "--request-delay", "0", "--as-of", "2026-11-21",
    ])
    #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
    let html = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(html.contains("This run published nothing (failed)"))
    #expect(html.contains("<td class=\"status warn\">stale</td>"))
  }
}
