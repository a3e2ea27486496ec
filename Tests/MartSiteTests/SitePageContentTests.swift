import Foundation
import TestSupport
import Testing

/// What the branch pages say, checked against the bundle read as plain JSON: every calendar
/// day's word (closing, expected, unknown and shut days told apart in text), and the refusals
/// of the command.
@Suite struct SitePageContentTests {
  /// The word a calendar cell must carry for `day`, worked out from the branch's JSON the way
  /// docs/bundle-format.md tells clients to read it.
  static func expectedWord(_ day: String, branch: [String: Any], asOf: String, window: (from: String, through: String))
    throws -> String
  {
    let closing = try #require(branch["closing"] as? [String: Any])
    let status = try #require(branch["storeStatus"] as? [String: Any])
    let state = try #require(status["state"] as? String)
    // Shut: a closed store, or a temporary closure (through `until`), from the as-of day; a
    // store closing for good from `closesOn`.
    if state != "trading", day >= asOf, day <= (status["until"] as? String ?? "9999-12-31") { return "중단" }
    if state == "trading", let closesOn = status["closesOn"] as? String, day >= closesOn { return "중단" }
    if try #require(closing["dates"] as? [String]).contains(day) { return "휴무" }
    if let expected = (closing["expected"] as? [String: Any])?["dates"] as? [String], expected.contains(day) {
      return "예상"
    }
    let ranges = try #require(closing["unknownRanges"] as? [[String: String]])
    if closing["status"] as? String == "unknown"
      || ranges.contains(where: { ($0["from"] ?? "") <= day && day <= ($0["through"] ?? "") })
    {
      return "미확인"
    }
    return ""
  }

  @Test func everyCalendarDayCarriesTheWordOfItsStatus() throws {
    let site = try SiteFixture.bootstrapSite.get()
    let (asOf, window, branches) = try SiteFixture.publishedBranches()
    var seen: Set<String> = []
    for branch in branches {
      let id = try #require(branch["id"] as? String)
      let brand = try #require(branch["brand"] as? String)
      let html = try String(
        contentsOf: site.appendingPathComponent("\(brand)/\(id.dropFirst(brand.count + 1)).html"), encoding: .utf8)
      let tables = try SiteBuildTests.matches(#"(<table class="cal">.*?</table>)"#, in: html)
      #expect(tables.count == 3, "\(id)")
      var days = 0
      for table in tables {
        let month = try SiteBuildTests.matches(#"<caption>(\d+년 \d+월)</caption>"#, in: table).first ?? ""
        let parts = month.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        try #require(parts.count == 2)
        let cells = try SiteBuildTests.matches(#"(<td[^>]*>\d+(?:<span>[^<]*</span>)?</td>)"#, in: table)
        for (index, cell) in cells.enumerated() {
          let day = String(format: "%04d-%02d-%02d", parts[0], parts[1], index + 1)
          #expect(cell.contains(">\(index + 1)<") || cell.hasSuffix(">\(index + 1)</td>"), "\(id) \(day): \(cell)")
          var words = try SiteBuildTests.matches("<span>([^<]*)</span>", in: cell).first?
            .split(separator: "·").map(String.init) ?? []
          if day == asOf {
            #expect(words.last == "오늘", "\(id) \(day)")
            words.removeLast()
          }
          let wanted = try Self.expectedWord(day, branch: branch, asOf: asOf, window: window)
          #expect(words == (wanted.isEmpty ? [] : [wanted]), "\(id) \(day): \(cell)")
          seen.insert(wanted)
          days += 1
        }
      }
      #expect(days == 92, "\(id): the window's three months")
    }
    // The bootstrap bundle has every kind of day.
    #expect(seen == ["", "휴무", "예상", "미확인", "중단"])
  }

  @Test func aBundleThatFailsValidationIsRefusedAndNothingIsWritten() throws {
    let work = try SiteFixture.temporaryDirectory()
    let output = work.appendingPathComponent("output")
    try FileManager.default.copyItem(at: SiteFixture.bootstrapOutput.get(), to: output)
    let latest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("latest.json")))
        as? [String: Any])
    // One calendar damaged after publication: its digest no longer matches the manifest.
    let calendar = output.appendingPathComponent(try #require(latest["bundle"] as? String))
      .appendingPathComponent("calendars/branches/emart-1059.ics")
    var bytes = try Data(contentsOf: calendar)
    bytes[bytes.count / 2] ^= 0x20
    try bytes.write(to: calendar)
    let target = work.appendingPathComponent("site")
    let outcome = try ProcessRunner.run(SiteFixture.binary, ["site", output.path, "--to", target.path])
    #expect(outcome.status == 1)
    let lines = outcome.stderrText.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("error: ") == true)
    #expect(outcome.stderrText.contains("emart-1059.ics"))
    #expect(!FileManager.default.fileExists(atPath: target.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == ["output"])
  }

  @Test func aFolderThatIsNotASiteIsLeftAlone() throws {
    let work = try SiteFixture.temporaryDirectory()
    let target = work.appendingPathComponent("site")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    try Data("mine\n".utf8).write(to: target.appendingPathComponent("notes.txt"))
    let outcome = try ProcessRunner.run(
      SiteFixture.binary, ["site", try SiteFixture.bootstrapOutput.get().path, "--to", target.path])
    #expect(outcome.status == 1)
    #expect(outcome.stderrText.hasPrefix("error: ") && outcome.stderrText.split(separator: "\n").count == 1)
    #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == ["notes.txt"])
  }

  @Test func aSiteIsReplacedWhole() throws {
    let work = try SiteFixture.temporaryDirectory()
    let target = work.appendingPathComponent("site")
    let output = try SiteFixture.bootstrapOutput.get().path
    // What a killed build left beside the site goes; a folder of a build still running stays.
    let gone = try ProcessRunner.exitedProcessIdentifier()
    for leftover in [".site.\(gone)", ".site.old.\(gone)", ".site.\(getpid())"] {
      try FileManager.default.createDirectory(
        at: work.appendingPathComponent(leftover).appendingPathComponent("emart"), withIntermediateDirectories: true)
    }
    // The site an earlier build left (a copy of the shared build of the same bundle), with a
    // file no build writes.
    try FileManager.default.copyItem(at: SiteFixture.bootstrapSite.get(), to: target)
    try Data("stale\n".utf8).write(to: target.appendingPathComponent("emart/gone.html"))
    let again = try ProcessRunner.run(SiteFixture.binary, ["site", output, "--to", target.path])
    #expect(again.status == 0)
    #expect(again.stdoutText.contains("wrote \(target.path): "))
    #expect(!FileManager.default.fileExists(atPath: target.appendingPathComponent("emart/gone.html").path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == [".site.\(getpid())", "site"])
    let reference = try SiteFixture.files(under: SiteFixture.bootstrapSite.get())
    #expect(try SiteFixture.files(under: target) == reference)
  }
}

/// `scripts/scheduled-run.sh` with `SITE_DIR`: the site follows the published bundle.
@Suite struct ScheduledSiteTests {
  @Test func aScheduledRunWritesTheSiteOfItsBundle() throws {
    let work = try SiteFixture.temporaryDirectory()
    let output = work.appendingPathComponent("output")
    let site = work.appendingPathComponent("site")
    let script = FixturePaths.repositoryRoot.appendingPathComponent("scripts/scheduled-run.sh").path
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "MART_HOLIDAY=\(SiteFixture.binary.path)", "SITE_DIR=\(site.path)", "SITE_BASE_URL=https://example.org/mart/",
        "bash", script, output.path, "--replay", FixturePaths.web.path,
      ], in: FixturePaths.repositoryRoot)
    #expect(outcome.status == 0 || outcome.status == 2, "\(outcome.stderrText)")
    #expect(outcome.stdoutText.contains("wrote \(site.path): "), "\(outcome.stdoutText)")
    let files = try SiteFixture.files(under: site)
    #expect(files["sitemap.xml"] != nil)
    #expect(files == (try SiteFixture.files(under: SiteFixture.bootstrapSiteWithBase.get())))
  }
}
