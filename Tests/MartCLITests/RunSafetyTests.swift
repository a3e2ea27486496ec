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

/// `mart-holiday run` as a scheduler meets it, run as the built binary: bad input stops before
/// any request with one line on stderr, the output directory is locked, signals publish
/// nothing, and a failing brand server leaves the others published. Every test checks that
/// `latest.json` is what it should be afterwards.
@Suite struct RunSafetyTests {
  let cli = CommandLineContractTests()

  /// A fresh output directory with one bundle published from `fixtures/web` (as of 2026-11-20).
  func publishedOutput(_ label: String) throws -> URL {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    let first = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path])
    try #require(first.status == 0, "stderr: \(first.stderr)")
    return output
  }

  /// The state directory a run uses by default for `output`: `<output>-state` beside it.
  func state(_ output: URL) -> URL {
    URL(fileURLWithPath: output.standardizedFileURL.path + "-state")
  }

  func latest(_ output: URL) throws -> Data {
    try Data(contentsOf: output.appendingPathComponent("latest.json"))
  }

  func bundles(_ output: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("bundles").path).sorted()
  }

  /// The stderr lines, without blank ones.
  func lines(_ text: String) -> [String] {
    text.split(separator: "\n").map(String.init)
  }

  /// A mirror of the recorded Costco answers on 127.0.0.1, answering robots.txt with 404.
  func costcoMirror() throws -> ReplayServer {
    let archive = try ReplayArchive.load(from: FixturePaths.web).restricted(toHosts: ["www.costco.co.kr"])
    return try ReplayServer.start(archive: archive)
  }

  @Test func badInputStopsWithOneLineAndTouchesNothing() throws {
    let output = try publishedOutput("bad-input")
    let before = try latest(output)
    let reportBefore = try Data(contentsOf: output.appendingPathComponent("report.json"))
    let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)

    // A typo, an empty folder and a regular file as --replay: one error naming the folder, and
    // no request anywhere (the live sites are not reachable here, but no brand error appears either).
    let cases: [(String, String)] = [
      ("fixtures/wbe", "no such directory"), (empty.path, "holds no recordings"),
      ("README.md", "is a file, not a directory"),
      // The repository root holds recordings only three folders down (fixtures/web/<host>/).
      (".", "holds no recordings"),
    ]
    for (replay, message) in cases {
      let outcome = try cli.run(["run", "--replay", replay, "--output", output.path])
      #expect(outcome.status == 1, "--replay \(replay)")
      #expect(lines(outcome.stderr).count == 1, "--replay \(replay): \(outcome.stderr)")
      #expect(outcome.stderr.hasPrefix("error: --replay: "), "--replay \(replay)")
      #expect(outcome.stderr.contains(message), "--replay \(replay): \(outcome.stderr)")
      #expect(outcome.stdout.isEmpty, "--replay \(replay)")
    }

    // A file where the output directory (or a folder inside it) belongs.
    let file = output.appendingPathComponent("not-a-directory")
    try Data("x".utf8).write(to: file)
    for target in [file, file.appendingPathComponent("output")] {
      let outcome = try cli.run(["run", "--replay", "fixtures/web", "--output", target.path])
      #expect(outcome.status == 1)
      #expect(
        lines(outcome.stderr) == [
          "error: --output: \(target.path): "
            + (target == file ? "is a file, not a directory" : "\(file.path) is a file, not a directory")
        ])
      #expect(!outcome.stderr.contains("NSCocoaErrorDomain"))
      #expect(!outcome.stderr.contains("report.json"))
    }
    #expect(try latest(output) == before)
    #expect(try Data(contentsOf: output.appendingPathComponent("report.json")) == reportBefore)
    #expect(try bundles(output).count == 1)
  }

  @Test func versionAndJSONLogs() throws {
    let version = try cli.run(["--version"])
    #expect(version.status == 0)
    #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == MartVersion.current)

    let outcome = try cli.run(["run", "--replay", "fixtures/wbe", "--log-format", "json", "--output", "/nonexistent-x"])
    #expect(outcome.status == 1)
    let line = try #require(lines(outcome.stderr).first)
    let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(json["level"] as? String == "error")
    #expect((json["message"] as? String)?.contains("no such directory") == true)
    #expect(!FileManager.default.fileExists(atPath: "/nonexistent-x"))
  }

  @Test func aMirrorRunIntoANewOutputDirectoryCreatesWhatItNeeds() throws {
    let mirror = try costcoMirror()
    defer { mirror.stop() }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("new/deeper-\(UUID().uuidString)")
    let baseURL = try #require(mirror.baseURL(forOrigin: "https://www.costco.co.kr"))
    let outcome = try cli.run([
      "run", "--brand", "costco", "--source", "costco=\(baseURL)", "--request-delay", "0", "--output", output.path,
      "--as-of", "2026-11-20",
    ])
    #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
    #expect(outcome.stdout.contains("costco            fresh   19 branches"))
    #expect(!outcome.stdout.contains("error"))
    for path in ["latest.json", "report.json", "current/branches/costco-Daejeon.json"] {
      #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path), "\(path)")
    }
    // Only what may be served is in the output directory; caches and archives are in the state
    // directory beside it.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == [
        "bundles", "current", "latest.json", "report.html", "report.json",
      ])
    for path in ["cache/geocoding.sqlite", "cache/http-validators.sqlite"] {
      #expect(FileManager.default.fileExists(atPath: state(output).appendingPathComponent(path).path), "\(path)")
    }
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let hosts = try #require((report["fetch"] as? [String: Any])?["hosts"] as? [String: [String: Int]])
    #expect(hosts["www.costco.co.kr"]?["requests"] == 1)
    // The lock is gone once the run is over.
    #expect(!FileManager.default.fileExists(atPath: state(output).appendingPathComponent("run.lock").path))
    // The finished archive carries its final name, and can be replayed.
    let archives = try FileManager.default.contentsOfDirectory(
      atPath: state(output).appendingPathComponent("raw").path)
    #expect(archives.count == 1 && archives.allSatisfy { $0.hasPrefix("2026-11-20-") }, "\(archives)")
    #expect(outcome.stdout.contains("responses kept in \(state(output).path)/raw/2026-11-20-"))
  }

  /// A copy of `fixtures/web` in which every recorded answer of `hosts` is `status`.
  func recordings(failing hosts: [String], status: Int) throws -> URL {
    let copy = FileManager.default.temporaryDirectory.appendingPathComponent("failing-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    for host in hosts {
      let folder = copy.appendingPathComponent(host)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".exchange.json") {
        let file = folder.appendingPathComponent(name)
        var exchange = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var response = try #require(exchange["response"] as? [String: Any])
        response["status"] = status
        exchange["response"] = response
        try JSONSerialization.data(withJSONObject: exchange).write(to: file)
      }
    }
    return copy
  }

  @Test func oneBrandServerFailingKeepsItsPreviousDataAndPublishesTheOthers() throws {
    let output = try publishedOutput("one-fails")
    let before = try #require(try JSONSerialization.jsonObject(with: latest(output)) as? [String: Any])
    let failing = try recordings(failing: ["company.lottemart.com"], status: 500)

    let outcome = try cli.run(["run", "--replay", failing.path, "--output", output.path, "--as-of", "2026-11-20"])
    #expect(outcome.status == 2, "stderr: \(outcome.stderr)")
    #expect(outcome.stdout.contains("lottemart         stale   19 branches"))
    let summary = lines(outcome.stdout)
    for brand in ["costco", "emart", "gs-thefresh", "homeplus"] {
      #expect(summary.contains { $0.hasPrefix("  \(brand) ") && $0.contains(" fresh ") }, "\(brand)")
    }
    // One line per problem on stderr, the subject named once.
    #expect(!outcome.stderr.contains("lottemart: lottemart:"))
    #expect(!outcome.stdout.contains("error"))
    let after = try #require(try JSONSerialization.jsonObject(with: latest(output)) as? [String: Any])
    #expect(after["bundle"] as? String != before["bundle"] as? String, "a new bundle with lottemart marked stale")
  }

  /// Each stderr line as a JSON object.
  func jsonLines(_ text: String) throws -> [[String: Any]] {
    try lines(text).map { line in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
    }
  }

  /// A failing brand is a line of its own for a scheduler: a warning when it is kept from the
  /// last bundle, an error when nothing could be kept, each with the
  /// brand's slug, the kind and the reason `report.json` gives; in JSON, messages carry no
  /// column padding, a source of several brands names them in a `brands` array, and the
  /// warning count agrees with its noun.
  @Test func aFailingBrandIsAWarningOrAnErrorLineWithItsReason() throws {
    let output = try publishedOutput("failing-brand-logs")
    let failing = try recordings(failing: ["company.lottemart.com"], status: 500)
    let arguments = ["run", "--replay", failing.path, "--output", output.path, "--as-of", "2026-11-20"]

    let stale = try cli.run(arguments + ["--log-format", "json"])
    #expect(stale.status == 2, "\(stale.stderr)")
    let logged = try jsonLines(stale.stderr)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let lottemart = try #require(
      (report["brands"] as? [[String: Any]])?.first { $0["slug"] as? String == "lottemart" })
    let reason = try #require(lottemart["error"] as? String)
    let warning = try #require(
      logged.first { $0["kind"] as? String == "brand-stale" && $0["brand"] as? String == "lottemart" }, "\(stale.stderr)")
    #expect(warning["level"] as? String == "warning")
    #expect(warning["reason"] as? String == reason)
    #expect((warning["message"] as? String)?.contains(reason) == true)
    for line in logged {
      let message = try #require(line["message"] as? String)
      #expect(!message.contains("  "), "padded: \(message)")
      #expect(!((line["brand"] as? String)?.contains("+") ?? false), "a group as a brand: \(line)")
    }
    // The E-mart source fetches four brands: its progress lines name them in an array.
    let emart = logged.filter { ($0["brands"] as? [String])?.contains("emart") == true }
    #expect(!emart.isEmpty && emart.allSatisfy { ($0["brands"] as? [String])?.count == 4 }, "\(stale.stderr)")
    let summary = try #require(logged.first { $0["warnings"] != nil }, "\(stale.stderr)")
    let count = try #require(summary["warnings"] as? Int)
    #expect((summary["message"] as? String)?.hasPrefix(count == 1 ? "1 warning " : "\(count) warnings ") == true)

    // The same in text: one warning line naming the brand and the reason.
    let text = try cli.run(arguments)
    #expect(text.status == 2)
    #expect(
      lines(text.stderr).contains { $0.hasPrefix("warning: lottemart: ") && $0.contains(reason) }, "\(text.stderr)")

    // With nothing to keep, the brand is an error.
    let fresh = FileManager.default.temporaryDirectory.appendingPathComponent("failing-new-\(UUID().uuidString)")
    let missing = try cli.run([
      "run", "--replay", failing.path, "--output", fresh.path, "--brand", "costco", "--brand", "lottemart",
      "--log-format", "json",
    ])
    #expect(missing.status == 2, "\(missing.stderr)")
    let errors = try jsonLines(missing.stderr).filter { $0["level"] as? String == "error" }
    let byBrand = Dictionary(errors.compactMap { line in (line["brand"] as? String).map { ($0, line) } }) { first, _ in
      first
    }
    #expect(byBrand["lottemart"]?["kind"] as? String == "brand-failed", "\(missing.stderr)")
    #expect((byBrand["lottemart"]?["reason"] as? String)?.contains("500") == true, "\(missing.stderr)")
    #expect(byBrand["costco"] == nil)
  }

  @Test func aRunInWhichEveryBrandFailsPublishesNothingOverAnExistingBundle() throws {
    let output = try publishedOutput("all-fail")
    let before = try latest(output)
    let failing = try recordings(failing: ["www.costco.co.kr", "company.lottemart.com"], status: 503)

    let outcome = try cli.run([
      "run", "--replay", failing.path, "--brand", "costco", "--brand", "lottemart", "--output", output.path,
    ])
    #expect(outcome.status == 1, "stderr: \(outcome.stderr)")
    #expect(!outcome.stdout.contains("published "), "stdout: \(outcome.stdout)")
    #expect(try latest(output) == before)
    #expect(try bundles(output).count == 1)
  }

  @Test func aDirectoryWhereAFileBelongsStopsTheRunBeforeAnyWork() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("dir-latest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: output.appendingPathComponent("latest.json"), withIntermediateDirectories: true)
    let outcome = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path])
    #expect(outcome.status == 1)
    #expect(lines(outcome.stderr) == ["error: --output: \(output.path)/latest.json: is a directory, not a file"])
    #expect(outcome.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("bundles").path))
  }

  @Test func aLiveLockStopsASecondRunAndAStaleOneIsTakenOver() throws {
    let output = try publishedOutput("lock")
    let before = try latest(output)
    let lockPath = state(output).appendingPathComponent("run.lock").path

    // A live run: this process holds the lock.
    let fd = open(lockPath, O_RDWR | O_CREAT, 0o644)
    try #require(fd >= 0)
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
    _ = "\(getpid())\n".withCString { write(fd, $0, strlen($0)) }
    let refused = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-21"])
    close(fd)
    #expect(refused.status == 1)
    #expect(lines(refused.stderr).count == 1)
    #expect(refused.stderr.contains("in use by another run (process \(getpid())"))
    #expect(try latest(output) == before)

    // A killed run: the file is left, its process is gone, nobody holds the lock.
    let gone = try ProcessRunner.exitedProcessIdentifier()
    try Data("\(gone)\n".utf8).write(to: URL(fileURLWithPath: lockPath))
    let taken = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-21"])
    #expect(taken.status == 0, "stderr: \(taken.stderr)")
    #expect(taken.stderr.contains("warning: took over the lock"))
    #expect(taken.stderr.contains("process \(gone)"))
    #expect(try latest(output) != before)
    #expect(!FileManager.default.fileExists(atPath: lockPath))
  }

  @Test func keepPrunesOldBundlesAndArchivesAndLeftoversGo() throws {
    let output = try publishedOutput("keep")
    let staging = output.appendingPathComponent("bundles/.staging-2026-11-20-abc-999999")
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    let raw = state(output).appendingPathComponent("raw")
    // The archive a killed run was still writing: a leftover, never one of the kept archives.
    let partial = raw.appendingPathComponent(".partial-2026-11-20-235959")
    try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
    // A file of current/ written beside its place by a run killed before renaming it.
    let halfWritten = output.appendingPathComponent("current/branches/.emart-1059.json.999999")
    try Data("{\"half".utf8).write(to: halfWritten)
    let old = Date(timeIntervalSinceNow: -86_400)
    for name in ["2026-11-01-010101", "2026-11-02-010101", "2026-11-03-010101"] {
      let folder = raw.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.path)
    }
    // WARC archives count as archives, complete or not: the older one goes, the newer stays.
    let olderWARC = raw.appendingPathComponent("2026-10-30-010101.warc.gz")
    let newerIncomplete = raw.appendingPathComponent("2026-11-04-010101.incomplete.warc.gz")
    for (file, age) in [(olderWARC, -2 * 86_400.0), (newerIncomplete, -3_600.0)] {
      try Data("WARC/1.1".utf8).write(to: file)
      try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: age)], ofItemAtPath: file.path)
    }
    for day in ["2026-11-21", "2026-11-22"] {
      let outcome = try cli.run([
        "run", "--replay", "fixtures/web", "--output", output.path, "--as-of", day, "--keep", "2",
      ])
      #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
    }
    let kept = try bundles(output)
    #expect(kept.count == 2, "\(kept)")
    #expect(kept.allSatisfy { !$0.hasPrefix(".staging-") })
    let current = try #require(try JSONSerialization.jsonObject(with: latest(output)) as? [String: Any])
    #expect((current["bundle"] as? String).map { kept.contains(($0 as NSString).lastPathComponent) } == true)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: raw.path).sorted() == [
        "2026-11-03-010101", "2026-11-04-010101.incomplete.warc.gz",
      ])
    #expect(!FileManager.default.fileExists(atPath: partial.path))
    #expect(!FileManager.default.fileExists(atPath: halfWritten.path))
  }

  @Test("SIGINT and SIGTERM stop the transfers and publish nothing", arguments: [SIGINT, SIGTERM])
  func aSignalStopsTheTransfersAndPublishesNothing(signal: Int32) async throws {
    let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
    let output = try publishedOutput("sigint")
    let before = try latest(output)
    let reached = Mutex(false)
    // Signalled from the server's thread: the wait below needs no turn of the test's executor,
    // which other tests' blocking work can hold up on two cores.
    let reachedSignal = DispatchSemaphore(value: 0)
    let slow = try LocalHTTPServer { request in
      if request.path == "/robots.txt" { return .text("no robots here", status: 404) }
      reached.withLock { $0 = true }
      reachedSignal.signal()
      return ServerResponse(
        status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Data(repeating: 0x20, count: 400),
        delivery: .slow(chunkSize: 1, pause: .milliseconds(100)))
    }
    defer { slow.stop() }

    let process = Process()
    process.executableURL = CommandLineContractTests.binary
    process.arguments = [
      "run", "--brand", "costco", "--source", "costco=\(slow.baseURL)", "--request-delay", "0", "--output",
      output.path, "--as-of", "2026-11-21",
    ]
    let stderr = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    try process.run()
    _ = reachedSignal.wait(timeout: .now() + 20)
    try #require(reached.withLock { $0 }, "the run never reached the slow server")
    let signalled = ContinuousClock.now
    kill(process.processIdentifier, signal)
    let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // The body would take 40 s; the transfer stops within libcurl's progress interval.
    #expect(ContinuousClock.now - signalled < .seconds(10))
    #expect(process.terminationStatus == 128 + signal)
    let errorLines = lines(errors).filter { $0.hasPrefix("error: ") }
    #expect(errorLines == ["error: cancelled by \(name): nothing published; the previous bundle stays current"])
    #expect(try latest(output) == before)
    #expect(try bundles(output).count == 1)
    let raw = state(output).appendingPathComponent("raw").path
    let archives =
      FileManager.default.fileExists(atPath: raw) ? try FileManager.default.contentsOfDirectory(atPath: raw) : []
    // A cancelled run's archive is kept under a name that says it cannot replay the run.
    #expect(
      archives.count == 1 && archives.allSatisfy { $0.hasPrefix("2026-11-21-") && $0.hasSuffix(".incomplete.warc.gz") },
      "\(archives)")
    // The page of the run says it was cancelled; it does not claim the previous run's success.
    let page = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(page.contains("This run published nothing (cancelled)"))
    #expect(!FileManager.default.fileExists(atPath: state(output).appendingPathComponent("run.lock").path))
  }
}

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

    let run = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-21"])
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
    let again = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-22"])
    #expect(again.status == 0)
    #expect(!again.stderr.contains("moved "))
  }

  @Test func aStateDirectoryInsideTheOutputIsRefused() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("state-in-\(UUID().uuidString)")
    let run = try cli.run([
      "run", "--replay", "fixtures/web", "--output", output.path, "--state",
      output.appendingPathComponent("private").path,
    ])
    #expect(run.status == 1)
    #expect(run.stderr.contains("error: --state:") && run.stderr.contains("inside the output directory"))
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func currentFilesFollowLatestAndChangeOnlyWithTheirContent() throws {
    let output = try safety.publishedOutput("current")
    let current = output.appendingPathComponent("current")
    let store = BundleStore(outputDirectory: output)
    let first = try #require(try store.latest())
    for branch in first.branches.branches {
      let json = try Data(contentsOf: current.appendingPathComponent("branches/\(branch.id).json"))
      let file = try BundleJSON.decode(CurrentBranchFile.self, from: json)
      #expect(file.listed && file.branch == branch && file.asOf == first.manifest.asOf)
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

    // A rerun with the same data rewrites nothing (the file keeps its inode).
    let calendar = current.appendingPathComponent("calendars/branches/emart-1059.ics")
    let inode = try FileManager.default.attributesOfItem(atPath: calendar.path)[.systemFileNumber] as? UInt64
    let rerun = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path])
    #expect(rerun.status == 0)
    #expect(try FileManager.default.attributesOfItem(atPath: calendar.path)[.systemFileNumber] as? UInt64 == inode)

    // A branch that disappears from its source keeps a final calendar and JSON saying so.
    let recordings = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
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
    let later = try cli.run(["run", "--replay", recordings.path, "--output", output.path, "--as-of", "2026-11-21"])
    #expect(later.status == 0, "stderr: \(later.stderr)")
    let gone = try BundleJSON.decode(
      CurrentBranchFile.self, from: Data(contentsOf: current.appendingPathComponent("branches/costco-Daejeon.json")))
    #expect(!gone.listed)
    #expect(gone.lastListedIn == first.pointer.version)
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
      "run", "--replay", recordings.path, "--output", output.path, "--as-of", "2026-11-22", "--keep", "1",
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
    #expect(finishedLine["branches"] as? Int == (try FixturePaths.branchTotal()))
    #expect(lines.contains { $0["brands"] as? [String] == ["costco"] && $0["requests"] as? Int == 1 })

    // A later as-of date makes a new bundle, and says how it differs.
    let later = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-25"])
    #expect(later.stdout.contains("published new bundle \(output.path)/bundles/2026-11-25-"), "stdout: \(later.stdout)")
    #expect(later.stdout.contains("closing days changed"))
    #expect(later.stdout.contains("warnings: "))
  }

  /// A rerun in which one store changed (Costco 대전점 renamed 대전둔산점 in a copy of the
  /// recordings, same as-of date) writes new files in the bundle only for what differs from the
  /// previous bundle: the store's calendar, the files listing every branch or its brand's, the
  /// manifest. Every other file of the new bundle is the previous bundle's, linked.
  @Test func aRerunWithOneStoreChangedWritesOnlyWhatDiffers() throws {
    let output = try safety.publishedOutput("one-changed")
    let first = try #require(try BundleStore(outputDirectory: output).latest())
    let recordings = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
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
      if FileManager.default.contents(atPath: old) != (try Data(contentsOf: second.directory.appendingPathComponent(path))) {
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
  }

  /// `scripts/scheduled-run.sh output arguments…` with the built binary and `KEEP=1`: its status
  /// and stdout.
  func scheduled(_ output: URL, _ arguments: [String], environment extra: [String: String] = [:]) throws -> (
    status: Int32, stdout: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments =
      [FixturePaths.repositoryRoot.appendingPathComponent("scripts/scheduled-run.sh").path, output.path]
      + arguments
    process.currentDirectoryURL = FixturePaths.repositoryRoot
    var environment = ProcessInfo.processInfo.environment
    environment["MART_HOLIDAY"] = CommandLineContractTests.binary.path
    environment["KEEP"] = "1"
    environment.merge(extra) { _, new in new }
    process.environment = environment
    let stdout = Pipe()
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text)
  }

  /// A brand kept from an earlier bundle turns the scheduled run red (exit 2) once it has
  /// validated and diffed what was published; `ALLOW_STALE=1` keeps it green.
  @Test func aStaleBrandMakesTheScheduledRunExitTwoUnlessAllowed() throws {
    let output = try safety.publishedOutput("scheduled-stale")
    let failing = try safety.recordings(failing: ["company.lottemart.com"], status: 500)
    let stale = try scheduled(output, ["--replay", failing.path, "--as-of", "2026-11-25"])
    #expect(stale.status == 2, "stdout: \(stale.stdout)")
    #expect(stale.stdout.contains("changes since bundles/2026-11-20-"), "validated and diffed: \(stale.stdout)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    #expect(report["outcome"] as? String == "published-with-stale-brands")
    let allowed = try scheduled(
      output, ["--replay", failing.path, "--as-of", "2026-11-26"], environment: ["ALLOW_STALE": "1"])
    #expect(allowed.status == 0, "stdout: \(allowed.stdout)")
    let fresh = try scheduled(output, ["--replay", "fixtures/web", "--as-of", "2026-11-27"])
    #expect(fresh.status == 0, "every brand fresh again: \(fresh.stdout)")
  }

  @Test func theScheduledRunDiffsAgainstTheBundleItReplacesEvenWithKeepOne() throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("scheduled-\(UUID().uuidString)")
    func scheduled(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (
      status: Int32, stdout: String
    ) {
      try self.scheduled(output, arguments, environment: extra)
    }
    #expect(try scheduled(["--replay", "fixtures/web"]).status == 0)
    let second = try scheduled(["--replay", "fixtures/web", "--as-of", "2026-11-25"])
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
      ["--replay", "fixtures/web", "--as-of", "2026-11-26"],
      environment: ["DIFF_FORMAT": "markdown", "DIFF_MAX_BYTES": "1200"])
    #expect(bounded.status == 0)
    let markdown = try Data(contentsOf: safety.state(output).appendingPathComponent("diff.md"))
    let text = String(decoding: markdown, as: UTF8.self)
    #expect(markdown.count <= 1200 && text.hasPrefix("### Closing-day dataset: changes\n"), "\(text)")
    #expect(text.contains("No changes."), "\(text)")
    #expect(!FileManager.default.fileExists(atPath: diff.path), "the last run's diff.txt is gone")
  }

  @Test func theCommittedSampleIsWhatTheFixturesProduce() throws {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("sample-\(UUID().uuidString)")
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
