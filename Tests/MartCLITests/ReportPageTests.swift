import Foundation
import MartExport
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
  func bootstrapOutput(_ label: String) throws -> URL { try PublishedOutput.copy(label) }

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
    let profile = Scratch.directory.appendingPathComponent("chromium-\(UUID().uuidString)")
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

  /// What `layoutCheck` measures in the page at one width.
  struct Layout: Decodable {
    struct Popup: Decodable {
      var date: String
      /// The day's heat level, `1` … `4`.
      var level: String?
      /// The lowest contrast ratio of the popup's text against its background.
      var contrast: Double
      /// Whether the opened popup takes up room on the page.
      var shown: Bool
    }
    struct Table: Decodable {
      var table: String
      var section: String
      /// How far the table (or the box it scrolls in) stays inside its section, on each side.
      var left: Double
      var right: Double
      /// Whether it needs its box's sideways scrolling.
      var scrolls: Bool
    }
    var width: Int
    /// The document's width: wider than `width` when something runs off the page.
    var pageWidth: Int
    /// Whether Hangul is drawn with glyphs of its own, not the same box for every character.
    var hangul: Bool
    var popups: [Popup]
    var tables: [Table]
  }

  /// Opened after the page's own script in a copy of the page, in a frame of the width to check:
  /// opens every day's popup and measures the contrast of its text, measures where each table
  /// ends against its section, and draws two Hangul syllables and an unassigned code point on a
  /// canvas (without a Korean font the three are the same box). Posts the result to the frame's
  /// parent.
  static let layoutCheck = #"""
    (function () {
      "use strict";
      function rgba(text) {
        var m = text.match(/[\d.]+/g).map(Number);
        return { r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1 };
      }
      function background(element) {
        for (; element; element = element.parentElement) {
          var colour = rgba(getComputedStyle(element).backgroundColor);
          if (colour.a > 0) { return colour; }
        }
        return { r: 255, g: 255, b: 255, a: 1 };
      }
      function luminance(c) {
        function channel(v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }
        return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
      }
      function contrast(a, b) {
        var x = luminance(a), y = luminance(b);
        return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
      }
      function pixels(text) {
        var canvas = document.createElement("canvas");
        canvas.width = 80; canvas.height = 40;
        var context = canvas.getContext("2d");
        context.font = "28px " + getComputedStyle(document.body).fontFamily;
        context.fillText(text, 4, 30);
        return canvas.toDataURL();
      }
      var result = { width: window.innerWidth, pageWidth: document.documentElement.scrollWidth, popups: [], tables: [] };
      result.hangul = pixels("마") !== pixels("트") && pixels("마") !== pixels("\u0378");
      document.querySelectorAll("td[data-date] details").forEach(function (details) {
        details.open = true;
        var cell = details.closest("td");
        var list = details.querySelector(".day-list");
        var lowest = Infinity, texts = 0;
        list.querySelectorAll("p, li").forEach(function (text) {
          texts += 1;
          lowest = Math.min(lowest, contrast(rgba(getComputedStyle(text).color), background(text)));
        });
        var box = list.getBoundingClientRect();
        result.popups.push({ date: cell.getAttribute("data-date"), level: (cell.className.match(/heat-(\d)/) || [])[1],
          contrast: texts ? lowest : 0, shown: box.width > 0 && box.height > 0 });
        details.open = false;
      });
      document.querySelectorAll("main table").forEach(function (table) {
        var section = table.parentElement.closest("section");
        var box = table.closest(".scroll") || table;
        var outer = section.getBoundingClientRect(), inner = box.getBoundingClientRect();
        result.tables.push({ table: table.className, section: section.id || section.className,
          left: inner.left - outer.left, right: outer.right - inner.right, scrolls: box.scrollWidth > box.clientWidth + 1 });
      });
      parent.postMessage(JSON.stringify(result), "*");
    })();
    """#

  /// Renders `page` in frames 390 and 1280 pixels wide (a phone's and a desktop's), with
  /// ``layoutCheck`` run in each, and returns what it measured.
  func layouts(_ browser: URL, page: URL) throws -> [Layout] {
    let directory = page.deletingLastPathComponent()
    let html = try String(contentsOf: page, encoding: .utf8)
    let checked = directory.appendingPathComponent("layout-check.html")
    try html.replacingOccurrences(of: "</body>", with: "<script>\(Self.layoutCheck)</script>\n</body>")
      .write(to: checked, atomically: true, encoding: .utf8)
    let frames = directory.appendingPathComponent("layout-frames.html")
    try """
    <!DOCTYPE html><html><head><meta charset="utf-8"></head><body><pre id="layouts">[]</pre>
    <script>var results = []; window.addEventListener("message", function (event) {
    results.push(JSON.parse(event.data)); document.getElementById("layouts").textContent = JSON.stringify(results); });</script>
    <iframe src="layout-check.html" width="390" height="800"></iframe>
    <iframe src="layout-check.html" width="1280" height="800"></iframe>
    </body></html>
    """.write(to: frames, atomically: true, encoding: .utf8)
    let (dom, _) = try renderInBrowser(browser, page: frames)
    let found = try #require(try matches(#"<pre id="layouts">(.*?)</pre>"#, in: dom).first?.first)
    let text = found.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    return try JSONDecoder().decode([Layout].self, from: Data(text.utf8)).sorted { $0.width < $1.width }
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
    let marks = try matches(#"<use [^>]*data-branch-id="([^"]+)""#, in: dom).map { $0[0] }
    #expect(marks.count == located.count)
    #expect(Set(marks) == located)
    #expect(located.count > 150)
    // The capital region's inset (36.85–38.0° N, 126.35–127.9° E) draws again each branch in its
    // box: about a third of them, which overlap on the whole map.
    let capital = Set(
      branches.filter { branch in
        guard let coordinate = branch["coordinate"] as? [String: Any], let latitude = coordinate["latitude"] as? Double,
          let longitude = coordinate["longitude"] as? Double
        else { return false }
        return (36.85...38.0).contains(latitude) && (126.35...127.9).contains(longitude)
      }.compactMap { $0["id"] as? String })
    let insetMarks = try matches(#"<use [^>]*data-inset-branch-id="([^"]+)""#, in: dom).map { $0[0] }
    #expect(insetMarks.count == capital.count)
    #expect(Set(insetMarks) == capital)
    #expect(capital.count > 60)

    // Unknown days mean one thing: the map's caption and the brand table's totals both count the
    // branches with at least one day of the window (2026-11-01 … 2027-01-31: 30 + 31 + 31 = 92
    // days) in their unknown ranges, and those with all 92.
    var someDaysUnknown = 0
    var everyDayUnknown = 0
    for branch in branches {
      let closing = try #require(branch["closing"] as? [String: Any])
      let ranges = try #require(closing["unknownRanges"] as? [[String: String]])
      let days = try ranges.reduce(0) { total, range in
        let from = try #require(range["from"].flatMap(Self.dayNumber))
        let through = try #require(range["through"].flatMap(Self.dayNumber))
        return total + through - from + 1
      }
      if days > 0 { someDaysUnknown += 1 }
      if days == 92 { everyDayUnknown += 1 }
    }
    #expect(someDaysUnknown > everyDayUnknown && everyDayUnknown > 0)
    #expect(
      dom.contains(
        "In all, \(someDaysUnknown) branches, shut ones and those without coordinates included, have at least one unknown day in the window (2026-11-01(일)~2027-01-31(일)), \(everyDayUnknown) of them every day"
      ))
    let totals = try matches(
      #"<tfoot>.*?<td class="num unknown-days">(\d+)</td>\s*<td class="num unknown-every-day">(\d+)</td>"#, in: dom)
    #expect(totals.first == ["\(someDaysUnknown)", "\(everyDayUnknown)"])

    // The brand table's counts are report.json's.
    let report = try json(output.appendingPathComponent("report.json"))
    let reported = try #require(report["brands"] as? [[String: Any]])
    var expectedCounts: [String: Int] = [:]
    for brand in reported { expectedCounts[try #require(brand["slug"] as? String)] = brand["branchCount"] as? Int }
    let rows = try matches(#"<tr data-brand="([^"]+)">.*?<td class="num branches">(\d+)</td>"#, in: dom)
    var tableCounts: [String: Int] = [:]
    for row in rows { tableCounts[row[0]] = Int(row[1]) }
    #expect(tableCounts == expectedCounts)
    #expect(expectedCounts == (try FixturePaths.replayCounts()))

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

    // At a phone's width and a desktop's: Hangul is drawn, every day's popup is readable, and no
    // table runs out of its section.
    let layouts = try layouts(browser, page: page)
    #expect(layouts.map(\.width) == [390, 1280])
    for layout in layouts {
      #expect(layout.hangul, "Hangul is drawn as boxes at \(layout.width) px: scripts/setup.sh installs fonts-noto-cjk")
      #expect(layout.pageWidth <= layout.width, "the page is \(layout.pageWidth) px wide at \(layout.width) px")
      // One popup per day with closures, at every heat level, up to the busiest day's (level 4).
      #expect(layout.popups.count == dates.values.filter { !$0.isEmpty }.count)
      #expect(Set(layout.popups.map(\.level)).isSubset(of: ["1", "2", "3", "4"]))
      #expect(layout.popups.contains { $0.level == "4" })
      for popup in layout.popups {
        // 4.5:1, WCAG 2.1's minimum contrast for text (success criterion 1.4.3).
        #expect(
          popup.shown && popup.contrast >= 4.5, "\(popup.date) (level \(popup.level ?? "?")) at \(layout.width) px")
      }
      #expect(layout.tables.contains { $0.table == "brands" } && layout.tables.contains { $0.table == "problems" })
      for table in layout.tables {
        #expect(table.left >= -0.5 && table.right >= -0.5, "\(table.table) in #\(table.section) at \(layout.width) px")
        // The brand table and the warnings wrap their long texts on a desktop and become cards
        // on a phone (390 px): nothing to scroll sideways, no message off-screen.
        if table.table == "brands" || table.table == "problems" {
          #expect(!table.scrolls, "\(table.table) scrolls at \(layout.width) px")
        }
      }
    }
  }

  /// The day number of `2026-11-01` (days since 1970-01-01), from Foundation's calendar.
  static func dayNumber(_ iso: String) -> Int? {
    let parts = iso.split(separator: "-").compactMap { Int($0) }
    guard parts.count == 3 else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0)!
    guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else {
      return nil
    }
    return Int(date.timeIntervalSince1970 / 86_400)
  }

  @Test func theReportCommandWritesAPageForAnyOutput() throws {
    let first = try bootstrapOutput("report-command")
    let second = Scratch.directory.appendingPathComponent("report-command-\(UUID().uuidString)")
    // The recordings hold no E-mart days for a window that starts in December: a run as of
    // December 2 has E-mart missing, its stores removed, and the districts they kept the
    // pattern of lose it.
    let run = try cli.run(["run", "--replay", "fixtures/web", "--output", second.path, "--as-of", "2026-12-02"])
    try #require(run.status == 2, "stderr: \(run.stderr)")

    let file = Scratch.directory.appendingPathComponent("report-\(UUID().uuidString).html")
    let outcome = try cli.run(["report", second.path, "--previous", first.path, "--output", file.path])
    #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
    #expect(outcome.stderr.isEmpty)
    let html = try String(contentsOf: file, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    // The changes against the first run, grouped as diff groups them, the districts first.
    let diff = try cli.run(["diff", first.path, second.path, "--format", "json"])
    let summary = try #require(try diff.json()["summary"] as? [String: Any])
    let kinds = try #require(summary["kinds"] as? [String: Int])
    let counts = DisplayText.counts(
      added: summary["added"] as? Int ?? -1, removed: summary["removed"] as? Int ?? -1,
      changed: summary["changed"] as? Int ?? -1)
    #expect(html.contains("<strong>\(counts)</strong>"))
    #expect(html.contains("<strong>removed</strong>"))
    let districts = try #require(kinds["district-pattern"])
    #expect(html.contains(" · \(districts) districts changed closing days"))
    let changes = try #require(html.range(of: "<ul class=\"district-changes\">"))
    let firstBrand = try #require(html.range(of: "<section class=\"diff-brand\""))
    #expect(changes.lowerBound < firstBrand.lowerBound)
    // Self-contained: nothing is loaded from elsewhere.
    #expect(!html.contains("<script src") && !html.contains("<link") && !html.contains("url("))
    #expect(html.contains("default-src 'none'"))

    // Without --previous and --output: OUTPUT/report.html, the run's own comparison.
    let again = try cli.run(["report", second.path])
    #expect(again.status == 0, "stderr: \(again.stderr)")
    #expect(FileManager.default.fileExists(atPath: second.appendingPathComponent("report.html").path))

    // Bad input: one error line, exit 1.
    let empty = Scratch.directory.appendingPathComponent("report-empty-\(UUID().uuidString)")
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
    // A run of one small brand (the others kept from the previous bundle): its page is made from
    // every brand's branches in memory all the same.
    let run = try cli.run([
      "run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-25", "--brand", "megamart",
    ])
    try #require(run.status == 0, "stderr: \(run.stderr)")
    let page = output.appendingPathComponent("report.html")
    let written = try Data(contentsOf: page)
    // The same recordings five days later: the days before the later as-of date are history.
    #expect(String(decoding: written, as: UTF8.self).contains("<p>No changes.</p>"))
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
    // Why, from report.json's errors, and each brand not fetched, with its reason and what to do.
    let report = try json(output.appendingPathComponent("report.json"))
    let errors = try #require(report["errors"] as? [[String: Any]])
    let reason = try #require(errors.first { $0["brand"] is NSNull }?["message"] as? String)
    #expect(html.contains("<p>Why:</p><ul><li>\(reason)</li></ul>"))
    let costco = try #require((report["brands"] as? [[String: Any]])?.first { $0["slug"] as? String == "costco" })
    let error = try #require(costco["error"] as? String)
    let item = try #require(try matches(#"<li data-brand="costco">(.*?)</li>"#, in: html).first?.first)
    #expect(item.contains("<strong>stale</strong>"))
    let escaped = error.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "'", with: "&#39;")
      .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
    #expect(item.contains("Why: <q class=\"reason\">\(escaped)</q>"))
    // What to do is said once, for every brand not fetched, and apart from the maintainer's part.
    #expect(!item.contains("What to do"))
    #expect(html.components(separatedBy: "What to do: Run again").count == 2)
    #expect(html.components(separatedBy: "For the maintainer: ").count == 2)
    // Its times are Korean: the run's start as written in report.json, nine hours on.
    let started = try #require(report["startedAt"] as? String)
    let instant = try #require(ISO8601DateFormatter().date(from: started))
    let korean = DateFormatter()
    korean.locale = Locale(identifier: "en_US_POSIX")
    korean.timeZone = TimeZone(identifier: "Asia/Seoul")
    korean.dateFormat = "yyyy-MM-dd HH:mm"
    #expect(html.contains("<dt>Started</dt><dd>\(korean.string(from: instant)) KST (UTC+9)</dd>"))
  }
}
