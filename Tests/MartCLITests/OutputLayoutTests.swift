import Foundation
import MartCore
import MartExport
import MartFetch
import MartFiles
import MartReplay
import ReplayTestSupport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The output directory holds only what may be served, and `current/` gives each branch and
/// brand an address that outlives bundles.
@Suite struct OutputLayoutTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()

  @Test func anOldLayoutIsMovedToTheStateDirectoryOnceWithOneLine() throws {
    let output = try safety.publishedOutput("old-layout")
    // What an older version kept among the served files.
    let manager = FileManager.default
    try manager.createDirectory(at: output.appendingPathComponent("cache"), withIntermediateDirectories: true)
    try Data("validators".utf8).write(to: output.appendingPathComponent("cache/http-validators.sqlite"))
    try manager.createDirectory(
      at: output.appendingPathComponent("raw/2026-11-19-101010"), withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: output.appendingPathComponent("raw/2026-11-19-101010/replay.json"))
    try Data().write(to: output.appendingPathComponent(".mart-holiday.lock"))
    try Data("old diff".utf8).write(to: output.appendingPathComponent("diff.md"))

    // The move is the run's, whichever brands it fetches: one small brand (the others are kept).
    let run = try cli.run([
      "run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-21", "--brand", "megamart",
    ])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let moved = safety.lines(run.stderr).filter { $0.hasPrefix("moved ") }
    #expect(moved.count == 1, "\(run.stderr)")
    #expect(moved.first?.contains("to the state directory \(safety.state(output).path)") == true)
    #expect(
      try manager.contentsOfDirectory(atPath: output.path).sorted() == [
        "bundles", "current", "latest.json", "report.html", "report.json",
      ])
    let state = safety.state(output)
    #expect(
      try Data(contentsOf: state.appendingPathComponent("cache/http-validators.sqlite")) == Data("validators".utf8))
    #expect(manager.fileExists(atPath: state.appendingPathComponent("raw/2026-11-19-101010/replay.json").path))
    #expect(try Data(contentsOf: state.appendingPathComponent("diff.md")) == Data("old diff".utf8))

    // Once moved, nothing is said again.
    let again = try cli.run([
      "run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-22", "--brand", "megamart",
    ])
    #expect(again.status == 0)
    #expect(!again.stderr.contains("moved "))
  }

  @Test func aStateDirectoryInsideTheOutputIsRefused() throws {
    let output = Scratch.directory.appendingPathComponent("state-in-\(UUID().uuidString)")
    let run = try cli.run([
      "run", "--replay", "fixtures/web", "--output", output.path, "--state",
      output.appendingPathComponent("private").path,
    ])
    #expect(run.status == 1)
    #expect(run.stderr.contains("error: --state:") && run.stderr.contains("inside the output directory"))
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  /// A second output tree inside a published one, or one holding it, or an archive inside
  /// another run's state: refused with one `error:` line, nothing written anywhere.
  @Test func aPlaceInsideAnotherRunsOutputOrStateIsRefusedWithNothingWritten() throws {
    let output = try safety.publishedOutput("nested")
    let state = safety.state(output)
    let before = try TreeSnapshot(output)
    let stateBefore = try TreeSnapshot(state)
    let elsewhere = output.deletingLastPathComponent().appendingPathComponent("elsewhere-\(UUID().uuidString)")
    let cases: [(arguments: [String], setting: String, says: String)] = [
      (
        ["--output", output.appendingPathComponent("bundles").path], "--output",
        "is inside \(output.path), the output directory of another run"
      ),
      (
        ["--output", output.appendingPathComponent("fresh").path], "--output",
        "is inside \(output.path), the output directory of another run"
      ),
      (
        ["--output", elsewhere.path, "--state", state.appendingPathComponent("inner").path], "--state",
        "the state directory of another run"
      ),
      (
        ["--output", elsewhere.path, "--archive", state.appendingPathComponent("raw/mine").path], "--archive",
        "the state directory of another run"
      ),
    ]
    for (arguments, setting, says) in cases {
      let run = try cli.run(["run", "--replay", "fixtures/web", "--as-of", "2026-11-21"] + arguments)
      #expect(run.status == 1, "\(arguments): \(run.stderr)")
      let errors = safety.lines(run.stderr).filter { $0.hasPrefix("error: ") }
      #expect(errors.count == 1, "\(arguments): \(run.stderr)")
      #expect(errors.first?.hasPrefix("error: \(setting):") == true, "\(arguments): \(run.stderr)")
      #expect(errors.first?.contains(says) == true, "\(arguments): \(run.stderr)")
      #expect(try TreeSnapshot(output) == before, "\(arguments) wrote into the published output")
      #expect(try TreeSnapshot(state) == stateBefore, "\(arguments) wrote into the state")
    }
    #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
    // Either way round: an output directory that holds a published one.
    let holder = Scratch.directory.appendingPathComponent("holder-\(UUID().uuidString)")
    let inner = holder.appendingPathComponent("output")
    // A run published into holder/output (its state directory beside it, in holder too).
    try FileManager.default.createDirectory(at: holder, withIntermediateDirectories: true)
    try PublishedOutput.copy(to: inner)
    let innerBefore = try TreeSnapshot(holder)
    let holding = try cli.run([
      "run", "--replay", "fixtures/web", "--as-of", "2026-11-21", "--output", holder.path, "--state",
      elsewhere.path,
    ])
    #expect(holding.status == 1, "\(holding.stderr)")
    #expect(holding.stderr.contains("error: --output: \(holder.path) holds"), "\(holding.stderr)")
    #expect(try TreeSnapshot(holder) == innerBefore)
    #expect(try TreeSnapshot(output) == before)
  }

  @Test func currentFilesFollowLatestAndChangeOnlyWithTheirContent() throws {
    let output = try safety.publishedOutput("current")
    let current = output.appendingPathComponent("current")
    let store = BundleStore(outputDirectory: output)
    let first = try #require(try store.latest())
    for branch in first.branches.branches {
      let json = try Data(contentsOf: current.appendingPathComponent("branches/\(branch.id).json"))
      let file = try BundleJSON.decode(CurrentBranchFile.self, from: json)
      #expect(file.listed && file.branch == branch && file.window == first.manifest.window)
      // The as-of date is latest.json's alone: the file changes only with what it says of the store.
      let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
      #expect(object["asOf"] == nil && object["schemaVersion"] as? Int == 2)
      // The bundle's calendar itself, under a second name: nothing copied.
      #expect(
        PlainFiles.isSameFile(
          current.appendingPathComponent("calendars/branches/\(branch.id).ics").path,
          first.directory.appendingPathComponent("calendars/branches/\(branch.id).ics").path))
    }
    let brands = Set(first.branches.branches.map(\.brand.rawValue))
    #expect(
      Set(try FileManager.default.contentsOfDirectory(atPath: current.appendingPathComponent("calendars/brands").path))
        == Set(brands.map { "\($0).ics" }))

    // A rerun with the same data rewrites nothing (the file keeps its inode): a rerun of the
    // store's brand, which fetches and writes its data again (the other brands are kept).
    let calendar = current.appendingPathComponent("calendars/branches/emart-1059.ics")
    let inode = try FileManager.default.attributesOfItem(atPath: calendar.path)[.systemFileNumber] as? UInt64
    let rerun = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--brand", "emart"])
    #expect(rerun.status == 0)
    #expect(try FileManager.default.attributesOfItem(atPath: calendar.path)[.systemFileNumber] as? UInt64 == inode)

    // A branch that disappears from its source is kept with its last data, marked missing, and
    // is removed once the operator says the chain closed it (or after the grace period); then
    // it keeps a final calendar and JSON saying so. The branch is Costco's: these runs fetch
    // Costco alone (the other brands are kept as they are).
    let recordings = Scratch.directory.appendingPathComponent("web-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: recordings)
    let page = recordings.appendingPathComponent("www.costco.co.kr")
    let feed = try #require(
      try FileManager.default.contentsOfDirectory(atPath: page.path).first { $0.hasSuffix(".body.json") })
    var records = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: page.appendingPathComponent(feed))) as? [String: Any])
    var rows = try #require(records["stores"] as? [[String: Any]])
    rows.removeAll { $0["name"] as? String == "Daejeon" }
    records["stores"] = rows
    try JSONSerialization.data(withJSONObject: records).write(to: page.appendingPathComponent(feed))
    let missing = try cli.run([
      "run", "--replay", recordings.path, "--output", output.path, "--as-of", "2026-11-21", "--brand", "costco",
    ])
    #expect(missing.status == 0, "stderr: \(missing.stderr)")
    let kept = try BundleJSON.decode(
      CurrentBranchFile.self, from: Data(contentsOf: current.appendingPathComponent("branches/costco-Daejeon.json")))
    #expect(kept.listed)
    #expect(
      kept.branch.missingFromSource == MissingFromSource(since: CalendarDate(year: 2026, month: 11, day: 21)!, runs: 1))
    let later = try cli.run([
      "run", "--replay", recordings.path, "--output", output.path, "--as-of", "2026-11-21", "--brand", "costco",
      "--accept-shrink", "costco",
    ])
    #expect(later.status == 0, "stderr: \(later.stderr)")
    let gone = try BundleJSON.decode(
      CurrentBranchFile.self, from: Data(contentsOf: current.appendingPathComponent("branches/costco-Daejeon.json")))
    #expect(!gone.listed)
    #expect(gone.lastListedIn != first.pointer.version && gone.branch.missingFromSource != nil)
    let finalCalendar = try String(
      contentsOf: current.appendingPathComponent("calendars/branches/costco-Daejeon.ics"), encoding: .utf8)
    #expect(finalCalendar.contains("UID:costco-Daejeon-unlisted@mart-holiday"))
    #expect(!finalCalendar.contains("UID:costco-Daejeon-2026"))
    let validate = try cli.run(["validate", output.path])
    #expect(validate.status == 0, "stderr: \(validate.stderr)")
    // A kept bundle whose index.json cannot be read still counts, through its branches.json.
    try Data("garbage".utf8).write(to: first.directory.appendingPathComponent("index.json"))
    let stillFollows = try cli.run(["validate", output.path])
    #expect(stillFollows.status == 0, "stderr: \(stillFollows.stderr)")

    // Once no kept bundle has it, its files go.
    let pruned = try cli.run([
      "run", "--replay", recordings.path, "--output", output.path, "--as-of", "2026-11-22", "--brand", "costco",
      "--keep", "1",
    ])
    #expect(pruned.status == 0)
    #expect(
      !FileManager.default.fileExists(atPath: current.appendingPathComponent("branches/costco-Daejeon.json").path))
  }

  @Test func aRerunSaysUnchangedAndTheReportSaysWhatChanged() throws {
    let output = try safety.publishedOutput("rerun")
    let before = try TreeSnapshot(output)
    let again = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--log-format", "json"])
    #expect(again.status == 0)
    #expect(again.stdout.contains("unchanged: \(output.path)/bundles/"), "stdout: \(again.stdout)")
    #expect(!again.stdout.contains("published new bundle"))
    // An unchanged rerun writes nothing in the output: no file created, replaced or touched,
    // report.json and report.html included (they stay the report of the run that published).
    let after = try TreeSnapshot(output)
    #expect(after == before, "changed: \(after.differences(from: before))")
    #expect(after.inodeCount == before.inodeCount)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let change = try #require(report["change"] as? [String: Any])
    #expect(change["bundle"] as? String == "new")
    #expect((report["toolVersion"] as? String)?.isEmpty == false)
    let started = try #require(report["startedAt"] as? String)
    let finished = try #require(report["finishedAt"] as? String)
    #expect(ISO8601DateFormatter().date(from: started) != nil && started <= finished)
    let warnings = try #require(report["warnings"] as? [[String: Any]])
    let keys = warnings.map { "\($0["kind"] ?? "")\u{0}\($0["brand"] ?? "")\u{0}\($0["branch"] ?? "")" }
    #expect(keys == keys.sorted(), "warnings are sorted by kind, brand and branch")
    // JSON log lines carry fields, counts as numbers.
    let lines = again.stderr.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    let finishedLine = try #require(lines.first { ($0["message"] as? String)?.hasPrefix("run finished") == true })
    #expect(finishedLine["bundle"] as? String == "unchanged")
    #expect(finishedLine["branches"] as? Int == (try FixturePaths.replayTotal()))
    #expect(lines.contains { $0["brands"] as? [String] == ["costco"] && $0["requests"] as? Int == 1 })

    // A later as-of date makes a new bundle, and says how it differs with the counts `diff` gives
    // (whichever brands the run fetches: one small brand, the others kept).
    let earlier = try #require(try BundleStore(outputDirectory: output).latest())
    let later = try cli.run([
      "run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-25", "--brand", "megamart",
    ])
    #expect(later.stdout.contains("published new bundle \(output.path)/bundles/2026-11-25-"), "stdout: \(later.stdout)")
    let diff = try cli.run(["diff", earlier.directory.path, output.path, "--format", "json"])
    let diffJSON = try #require(try JSONSerialization.jsonObject(with: Data(diff.stdout.utf8)) as? [String: Any])
    let counts = try #require(diffJSON["summary"] as? [String: Any])
    let numbers = ["added", "removed", "changed"].map { counts[$0] as? Int ?? -1 }
    let said =
      numbers == [0, 0, 0]
      ? "no branch changed"
      : "branches \(numbers[0]) added, \(numbers[1]) removed, \(numbers[2]) changed (mart-holiday diff says which)"
    #expect(later.stdout.contains("against \(earlier.manifest.version): \(said)\n"), "\(later.stdout)")
    #expect(!later.stdout.contains("closing days changed"))
    #expect(later.stdout.contains("warnings: "))
  }

  /// A rerun in which one store changed (Costco 대전점 renamed 대전둔산점 in a copy of the
  /// recordings, same as-of date) writes new files in the bundle only for what differs from the
  /// previous bundle: the store's calendar, the files listing every branch or its brand's, the
  /// manifest. Every other file of the new bundle is the previous bundle's, linked.
  @Test func aRerunWithOneStoreChangedWritesOnlyWhatDiffers() throws {
    let output = try safety.publishedOutput("one-changed")
    let first = try #require(try BundleStore(outputDirectory: output).latest())
    let recordings = Scratch.directory.appendingPathComponent("web-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: recordings)
    let feed = recordings.appendingPathComponent("www.costco.co.kr/occ-stores-0.body.json")
    let text = try String(contentsOf: feed, encoding: .utf8)
    try #require(text.components(separatedBy: "\"대전점\"").count == 2, "one store named 대전점")
    try Data(text.replacingOccurrences(of: "\"대전점\"", with: "\"대전둔산점\"").utf8).write(to: feed)
    let before = try TreeSnapshot(output)

    let rerun = try cli.run(["run", "--replay", recordings.path, "--output", output.path, "--as-of", "2026-11-20"])
    #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
    let second = try #require(try BundleStore(outputDirectory: output).latest())
    #expect(second.pointer != first.pointer)
    var differing: Set<String> = []
    for (path, entry) in try TreeSnapshot(second.directory).entries where entry.isRegularFile {
      let old = first.directory.appendingPathComponent(path).path
      if FileManager.default.contents(atPath: old)
        != (try Data(contentsOf: second.directory.appendingPathComponent(path)))
      {
        differing.insert(path)
      }
    }
    #expect(differing.contains("calendars/branches/costco-Daejeon.ics"))
    #expect(differing.filter { $0.hasPrefix("calendars/branches/") } == ["calendars/branches/costco-Daejeon.ics"])
    let createdAnywhere = try TreeSnapshot(output).newFiles(since: before)
    let created = createdAnywhere.filter { $0.hasPrefix("bundles/") }
    #expect(created == Set(differing.map { "\(second.pointer.bundle)/\($0)" }))
    #expect(created.count < 20, "\(created.sorted())")
    // Outside the bundle: the store's and its brand's files in current/, the pointer and the
    // reports. Every other branch's current/ files keep their inode.
    #expect(
      createdAnywhere.subtracting(created) == [
        "current/branches/costco-Daejeon.json", "current/calendars/branches/costco-Daejeon.ics",
        "current/calendars/brands/costco.ics", "latest.json", "report.json", "report.html",
      ])
    let validate = try cli.run(["validate", output.path])
    #expect(validate.status == 0, "stderr: \(validate.stderr)")
  }

  @Test func badUsageExitsOneAsDocumented() throws {
    for arguments in [
      ["run", "--keep", "0"], ["run", "--bogus"], ["rule"], ["validate"], ["address", "--format", "xml", "a"],
    ] {
      let outcome = try cli.run(arguments)
      #expect(outcome.status == 1, "\(arguments): \(outcome.status)")
      #expect(outcome.stdout.isEmpty, "\(arguments)")
      #expect(outcome.stderr.hasPrefix("error: "), "\(arguments): \(outcome.stderr)")
      #expect(outcome.stderr.split(separator: "\n").count == 1, "\(arguments): one line, got \(outcome.stderr)")
    }
    // diff keeps diff(1)'s 2 for trouble.
    #expect(try cli.run(["diff", "only-one"]).status == 2)
    // A command that does not exist is said to be one, not an option of it.
    let unknown = try cli.run(["frobnicate", "--output", "x"])
    #expect(unknown.status == 1)
    #expect(unknown.stdout.isEmpty)
    #expect(
      unknown.stderr.hasPrefix("error: unknown subcommand 'frobnicate' (the commands: run, rule, "), "\(unknown.stderr)"
    )
    #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")
    #expect(!unknown.stderr.contains("--output"), "\(unknown.stderr)")
  }

  /// Recordings whose `replay.json` lists no exchange (and no exchange file beside it): one
  /// `error:` line naming the folder, and nothing created.
  @Test func aReplayFolderWithoutExchangesIsOneErrorAndCreatesNothing() throws {
    let folder = Scratch.directory.appendingPathComponent("no-exchanges-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(#"{"recordedOn": "2026-11-20", "exchanges": []}"#.utf8).write(
      to: folder.appendingPathComponent("replay.json"))
    let output = folder.deletingLastPathComponent().appendingPathComponent("out-\(UUID().uuidString)")
    let run = try cli.run(["run", "--replay", folder.path, "--output", output.path])
    #expect(run.status == 1)
    let lines = safety.lines(run.stderr)
    #expect(lines.count == 1, "\(run.stderr)")
    #expect(
      lines.first?.hasPrefix("error: --replay: \(folder.path): holds no recorded exchange") == true, "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
    #expect(!FileManager.default.fileExists(atPath: output.path + "-state"))
  }

  /// `scripts/scheduled-run.sh output arguments…` with the built binary and `KEEP=1`: its status
  /// and stdout.
  func scheduled(_ output: URL, _ arguments: [String], environment extra: [String: String] = [:]) throws -> (
    status: Int32, stdout: String
  ) {
    var environment = ProcessInfo.processInfo.environment
    environment["MART_HOLIDAY"] = CommandLineContractTests.binary.path
    environment["KEEP"] = "1"
    environment.merge(extra) { _, new in new }
    let ended = try ChildProcess.run(
      URL(fileURLWithPath: "/bin/bash"),
      [FixturePaths.repositoryRoot.appendingPathComponent("scripts/scheduled-run.sh").path, output.path] + arguments,
      in: FixturePaths.repositoryRoot, environment: environment, stderr: .handle(FileHandle.nullDevice)
    ).ended
    return (ended.status, ended.stdoutText)
  }

  /// A brand kept from an earlier bundle turns the scheduled run red (exit 2) once it has
  /// validated and diffed what was published; `ALLOW_STALE=1` keeps it green.
  @Test func aStaleBrandMakesTheScheduledRunExitTwoUnlessAllowed() throws {
    // A small output, of the two brands these runs fetch: validating and diffing it is quicker.
    let output = try PublishedOutput.copy("scheduled-stale", brands: ["lottemart", "megamart"])
    let failing = try safety.recordings(failing: ["company.lottemart.com"], status: 500)
    // One brand of the failing site is enough to make a brand stale: these runs fetch the
    // output's two brands, 롯데마트 and 메가마트 (a run in which no brand is fresh publishes
    // nothing).
    let stale = try scheduled(
      output, ["--replay", failing.path, "--as-of", "2026-11-25", "--brand", "lottemart", "--brand", "megamart"])
    #expect(stale.status == 2, "stdout: \(stale.stdout)")
    #expect(stale.stdout.contains("changes since bundles/2026-11-20-"), "validated and diffed: \(stale.stdout)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    #expect(report["outcome"] as? String == "published-with-stale-brands")
    let allowed = try scheduled(
      output, ["--replay", failing.path, "--as-of", "2026-11-26", "--brand", "lottemart", "--brand", "megamart"],
      environment: ["ALLOW_STALE": "1"])
    #expect(allowed.status == 0, "stdout: \(allowed.stdout)")
    let fresh = try scheduled(
      output, ["--replay", "fixtures/web", "--as-of", "2026-11-27", "--brand", "lottemart", "--brand", "megamart"])
    #expect(fresh.status == 0, "every brand fresh again: \(fresh.stdout)")
  }

  @Test func theScheduledRunDiffsAgainstTheBundleItReplacesEvenWithKeepOne() throws {
    let output = Scratch.directory.appendingPathComponent("scheduled-\(UUID().uuidString)")
    func scheduled(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (
      status: Int32, stdout: String
    ) {
      try self.scheduled(output, arguments, environment: extra)
    }
    // What the script keeps and diffs does not depend on the brands: every run fetches one
    // small brand, 메가마트, and publishes it alone.
    #expect(try scheduled(["--replay", "fixtures/web", "--brand", "megamart"]).status == 0)
    let second = try scheduled(["--replay", "fixtures/web", "--as-of", "2026-11-25", "--brand", "megamart"])
    #expect(second.status == 0)
    #expect(second.stdout.contains("changes since bundles/2026-11-20-"), "stdout: \(second.stdout)")
    let diff = safety.state(output).appendingPathComponent("diff.txt")
    #expect(try String(contentsOf: diff, encoding: .utf8).contains("2026-11-25-"))
    #expect(try safety.bundles(output).count == 1, "KEEP=1 still prunes")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == [
        "bundles", "current", "latest.json", "report.html", "report.json",
      ])
    // A markdown diff bounded for a comment box, a day later with the same recordings: the days
    // from the later as-of date on are compared, and none changed.
    let bounded = try scheduled(
      ["--replay", "fixtures/web", "--as-of", "2026-11-26", "--brand", "megamart"],
      environment: ["DIFF_FORMAT": "markdown", "DIFF_MAX_BYTES": "1200"])
    #expect(bounded.status == 0)
    let markdown = try Data(contentsOf: safety.state(output).appendingPathComponent("diff.md"))
    let text = String(decoding: markdown, as: UTF8.self)
    #expect(markdown.count <= 1200 && text.hasPrefix("### Closing-day dataset: changes\n"), "\(text)")
    #expect(text.contains("No changes."), "\(text)")
    #expect(!FileManager.default.fileExists(atPath: diff.path), "the last run's diff.txt is gone")
  }

  @Test func theCommittedSampleIsWhatTheFixturesProduce() throws {
    let work = Scratch.directory.appendingPathComponent("sample-\(UUID().uuidString)")
    let output = work.appendingPathComponent("output")
    let run = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "emart", "--brand", "megamart", "--output", output.path, "--state",
      work.appendingPathComponent("state").path,
    ])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let sample = FixturePaths.repositoryRoot.appendingPathComponent("docs/sample")
    func files(_ root: URL) -> Set<String> {
      let enumerator = FileManager.default.enumerator(atPath: root.path)
      var found = Set<String>()
      while let path = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory),
          !isDirectory.boolValue, path != "report.json", path != "report.html"
        {
          found.insert(path)
        }
      }
      return found
    }
    let made = files(output)
    #expect(made == files(sample), "docs/sample is out of date: run scripts/make-sample.sh")
    for path in made.sorted() where FileManager.default.fileExists(atPath: sample.appendingPathComponent(path).path) {
      #expect(
        try Data(contentsOf: output.appendingPathComponent(path))
          == Data(contentsOf: sample.appendingPathComponent(path)),
        "docs/sample/\(path) differs from what the fixtures produce: run scripts/make-sample.sh")
    }
  }
}
