import Foundation
import TestSupport
import Testing

/// The site in a real browser: `scripts/site-browser-check.py` serves the bootstrap site on
/// 127.0.0.1 and checks its pages in headless Chromium at 1280 and 390 pixels (layout without
/// overlap, an axe-style check of headings, labels, tables, links and contrast, JSON-LD that
/// parses, links that resolve, a search that finds a branch). Skipped, saying why, only when
/// no Chromium is installed (scripts/setup.sh installs it).
@Suite struct SiteBrowserTests {
  static let chromium: String? = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
    .lazy.compactMap { name in
      (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }.first

  /// The pages checked, and the shares of them one browser each checks (every third page, from
  /// the first, second or third): a test each, so that no test runs long.
  static let pages = 100
  static let shards = 3

  @Test(.enabled(if: chromium != nil, skipReason), .timeLimit(.minutes(10)))
  func theFirstThirdOfThePagesRenderAndPassTheChecksInChromium() throws { try checkPages(shard: 1) }

  @Test(.enabled(if: chromium != nil, skipReason), .timeLimit(.minutes(10)))
  func theSecondThirdOfThePagesRenderAndPassTheChecksInChromium() throws { try checkPages(shard: 2) }

  @Test(.enabled(if: chromium != nil, skipReason), .timeLimit(.minutes(10)))
  func theLastThirdOfThePagesRenderAndPassTheChecksInChromium() throws { try checkPages(shard: 3) }

  static let skipReason: Comment =
    "chromium is not installed (scripts/setup.sh installs it): the browser checks are skipped"

  /// Checks the `shard`-th share of the pages at both widths.
  func checkPages(shard: Int) throws {
    let site = try SiteFixture.bootstrapSite.get()
    let script = FixturePaths.repositoryRoot.appendingPathComponent("scripts/site-browser-check.py").path
    // Every page kind, and an even sample of 80 branch pages beside them: 100 pages, this test's
    // share of them (the three tests check all 100, the home page and its search in the first).
    let python = Python3.invocation([
      script, site.path, "--pages", "\(Self.pages)", "--shard", "\(shard)/\(Self.shards)",
    ])
    let outcome = try ProcessRunner.run(python.executable, python.arguments, in: FixturePaths.repositoryRoot)
    let share = (Self.pages - shard + Self.shards) / Self.shards
    #expect(outcome.status == 0, "\(outcome.stderrText)")
    #expect(
      outcome.stdoutText.contains("shard \(shard)/\(Self.shards): \(share) of \(Self.pages) pages"),
      "\(outcome.stdoutText)")
    #expect(outcome.stdoutText.contains("1280 px: \(share) pages checked, 0 failures"), "\(outcome.stdoutText)")
    #expect(outcome.stdoutText.contains("390 px: \(share) pages checked, 0 failures"), "\(outcome.stdoutText)")
  }

  /// The checks can fail: a page whose text overlaps, whose field has no label, whose contrast
  /// is too low and whose link leads nowhere fails each of them. The home page, broken so, is
  /// the one page checked.
  @Test(.enabled(if: chromium != nil, "chromium is not installed: the browser checks are skipped"))
  func theChecksFailABrokenPage() throws {
    let work = try SiteFixture.temporaryDirectory()
    let site = work.appendingPathComponent("site")
    try FileManager.default.copyItem(at: SiteFixture.bootstrapSite.get(), to: site)
    let css = site.appendingPathComponent("style.css")
    try (try Data(contentsOf: css) + Data("footer{color:#bbb}h2{margin-top:-2.5rem}\n".utf8)).write(to: css)
    let index = site.appendingPathComponent("index.html")
    let broken = try String(contentsOf: index, encoding: .utf8)
      .replacingOccurrences(of: "<label for=\"q\">", with: "<span>").replacingOccurrences(
        of: "</label>", with: "</span>"
      )
      .replacingOccurrences(of: "href=\"emart/index.html\"", with: "href=\"emart/missing.html\"")
    try Data(broken.utf8).write(to: index)
    let script = FixturePaths.repositoryRoot.appendingPathComponent("scripts/site-browser-check.py").path
    let python = Python3.invocation([script, site.path, "--only", "index.html"])
    let outcome = try ProcessRunner.run(python.executable, python.arguments, in: FixturePaths.repositoryRoot)
    #expect(outcome.status == 1)
    #expect(outcome.stdoutText.contains("390 px: 1 pages checked"), "\(outcome.stdoutText)")
    for failure in [
      "overlap at 390 px", "overlap at 1280 px", "form field without a label", "contrast",
      "emart/missing.html answers 404",
    ] {
      #expect(outcome.stderrText.contains(failure), "\(failure) not reported: \(outcome.stderrText.prefix(2000))")
    }
  }
}
