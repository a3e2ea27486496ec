import Foundation
import MartCore
import TestSupport
import Testing

/// What the people at the other end see from one day to the next: a day rolling over is no
/// change, and a stale brand says so in every run's log, report and calendars.
@Suite struct HistoryAndStalenessTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()
  let firstAsOf = CalendarDate(iso: "2026-11-20")!

  /// The bundle `latest.json` of `output` names: its `closures.json` as JSON.
  func closures(_ output: URL) throws -> [String: Any] {
    let latest = try #require(
      try JSONSerialization.jsonObject(with: safety.latest(output)) as? [String: Any])
    let bundle = try #require(latest["bundle"] as? String)
    let file = output.appendingPathComponent(bundle).appendingPathComponent("closures.json")
    return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
  }

  /// The ids a `closures.json` lists under `key` (`dates`, `unknown`) on `day`.
  func ids(_ file: [String: Any], _ key: String, on day: CalendarDate) -> Set<String> {
    Set(((file[key] as? [String: Any])?[day.iso] as? [String]) ?? [])
  }

  @Test func theSameRecordingsADayLaterAreNoChangeAndKeepYesterday() throws {
    let output = try safety.publishedOutput("day-later")
    let previous = Scratch.directory.appendingPathComponent("day-before-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: output, to: previous)
    func run(asOf: CalendarDate) throws {
      let run = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", asOf.iso])
      try #require(run.status == 0, "stderr: \(run.stderr)")
      let strict = try cli.run(["diff", previous.path, output.path, "--fail-on", "removed,closing-dates"])
      #expect(strict.status == 0, "as of \(asOf.iso): \(strict.stdout)")
      let plain = try cli.run(["diff", previous.path, output.path])
      #expect(plain.status == 0, "as of \(asOf.iso): \(plain.stdout)")
      #expect(plain.stdout.contains("no changes"))
      #expect(try cli.run(["validate", output.path]).status == 0)
    }
    try run(asOf: firstAsOf.adding(days: 1))

    // The day after the first Sunday after the first run: that Sunday, a closing day of many
    // stores, is now yesterday, and stays as the first bundle knew it: no day it knew turns
    // unknown, no closing day it listed is forgotten (a store shut since is closed that day).
    let sunday = try #require((1...7).map { firstAsOf.adding(days: $0) }.first { $0.weekday == .sunday })
    try run(asOf: sunday.adding(days: 1))
    let before = try closures(previous)
    let after = try closures(output)
    #expect(!ids(before, "dates", on: sunday).isEmpty, "the fixtures close stores on \(sunday.iso)")
    #expect(ids(before, "dates", on: sunday).isSubset(of: ids(after, "dates", on: sunday)))
    #expect(ids(after, "unknown", on: sunday).isSubset(of: ids(before, "unknown", on: sunday)))
  }

  /// `scripts/scheduled-run.sh output arguments…` with the built binary, `KEEP=1` and `extra`.
  func scheduled(_ output: URL, _ arguments: [String], environment extra: [String: String]) throws
    -> ProcessRunner.Outcome
  {
    let script = FixturePaths.repositoryRoot.appendingPathComponent("scripts/scheduled-run.sh").path
    let environment = ["MART_HOLIDAY=\(CommandLineContractTests.binary.path)", "KEEP=1"]
      + extra.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"), environment + ["bash", script, output.path] + arguments,
      in: FixturePaths.repositoryRoot)
  }

  /// Every line of `text` as a JSON object.
  func jsonLines(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
    }
  }

  @Test func aBrandFailingForThreeDaysStaysVisibleAndEscalates() throws {
    // An output of the failing brand and of one that stays fresh (메가마트, one request), and runs
    // of them: every day's run, validation and diff cost a fraction of every brand's, and the
    // other brands would only stay fresh beside 메가마트.
    let fetched = ["lottemart", "megamart"]
    let output = try PublishedOutput.copy("stale-days", brands: fetched)
    let failing = try safety.recordings(failing: ["company.lottemart.com"], status: 500)
    for days in 1...3 {
      let asOf = firstAsOf.adding(days: days)
      let outcome = try scheduled(
        output,
        ["--replay", failing.path, "--as-of", asOf.iso, "--log-format", "json"] + fetched.flatMap { ["--brand", $0] },
        environment: ["STALE_DAYS": "3", "DIFF_FORMAT": "markdown", "DIFF_MAX_BYTES": "1000"])
      #expect(outcome.status == (days < 3 ? 2 : 3), "stderr: \(outcome.stderrText)")
      // The Markdown diff fits its limit: never empty, never a failure that hides the status.
      let diff = try Data(contentsOf: safety.state(output).appendingPathComponent("diff.md"))
      #expect(!diff.isEmpty && diff.count <= 1000, "diff.md: \(diff.count) bytes")
      #expect(String(decoding: diff, as: UTF8.self).contains("`lottemart`"))
      // Nothing but JSON on either stream.
      let logged = try jsonLines(outcome.stdoutText) + jsonLines(outcome.stderrText)
      let stale = try #require(
        logged.first { $0["kind"] as? String == "brand-stale" && $0["brand"] as? String == "lottemart" })
      #expect(stale["staleSince"] as? String == firstAsOf.iso)
      #expect(stale["daysStale"] as? Int == days)
      #expect((stale["reason"] as? String)?.contains("500") == true, "\(stale)")
      let escalated = logged.filter {
        $0["level"] as? String == "error" && $0["brand"] as? String == "lottemart" && $0["daysStale"] as? Int == days
      }
      #expect(escalated.count == (days < 3 ? 0 : 1), "\(escalated)")

      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
          as? [String: Any])
      let brands = try #require(report["brands"] as? [[String: Any]])
      let lottemart = try #require(brands.first { $0["slug"] as? String == "lottemart" })
      #expect(lottemart["staleSince"] as? String == firstAsOf.iso)
      #expect(lottemart["daysStale"] as? Int == days)
      let megamart = try #require(brands.first { $0["slug"] as? String == "megamart" })
      #expect(megamart["staleSince"] is NSNull && megamart["daysStale"] is NSNull)
      let html = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
      #expect(html.contains("stale since \(firstAsOf.iso)"), "report.html names the day")
    }
    // The stale brand's calendars say so; every calendar says how often to fetch it again.
    let calendars = output.appendingPathComponent("current/calendars/brands")
    // Long lines are folded (RFC 5545): read them unfolded.
    let stale = try String(contentsOf: calendars.appendingPathComponent("lottemart.ics"), encoding: .utf8)
      .replacingOccurrences(of: "\r\n ", with: "")
    let fresh = try String(contentsOf: calendars.appendingPathComponent("megamart.ics"), encoding: .utf8)
      .replacingOccurrences(of: "\r\n ", with: "")
    #expect(stale.contains("\(firstAsOf.iso) 이후"))
    #expect(!fresh.contains("\(firstAsOf.iso) 이후"))
    for calendar in [stale, fresh] { #expect(calendar.contains("REFRESH-INTERVAL;VALUE=DURATION:P1D\r\n")) }
  }
}
