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

  /// A fresh output directory with one bundle published from `fixtures/web` (as of 2026-11-20):
  /// a private copy of `PublishedOutput`.
  func publishedOutput(_ label: String) throws -> URL { try PublishedOutput.copy(label) }

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

  /// A mirror of the recorded Costco answers, and of the recorded national register, on
  /// 127.0.0.1, answering robots.txt with 404.
  func costcoMirror() throws -> ReplayServer {
    let archive = try ReplayArchive.load(from: FixturePaths.web).restricted(toHosts: [
      "www.costco.co.kr", "file.localdata.go.kr",
    ])
    return try ReplayServer.start(archive: archive)
  }

  /// The `--source` options of a run of Costco against `mirror` (a ``costcoMirror()``): Costco's
  /// and the national register's. A run asks the register whatever brands it fetches; left to
  /// the real host (unreachable here) it would wait out its retries, about 5 s, for nothing a
  /// test of a mirror run asserts.
  func costcoMirrorSources(_ mirror: ReplayServer) throws -> [String] {
    let costco = try #require(mirror.baseURL(forOrigin: "https://www.costco.co.kr"))
    let register = try #require(mirror.baseURL(forOrigin: "https://file.localdata.go.kr"))
    return ["--source", "costco=\(costco)", "--source", "register=\(register)"]
  }

  @Test func badInputStopsWithOneLineAndTouchesNothing() throws {
    let output = try publishedOutput("bad-input")
    let before = try latest(output)
    let reportBefore = try Data(contentsOf: output.appendingPathComponent("report.json"))
    let empty = Scratch.directory.appendingPathComponent("empty-\(UUID().uuidString)")
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
    let output = Scratch.directory.appendingPathComponent("new/deeper-\(UUID().uuidString)")
    let outcome = try cli.run(
      ["run", "--brand", "costco"] + costcoMirrorSources(mirror) + [
        "--request-delay", "0", "--output", output.path, "--as-of", "2026-11-20",
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
    let copy = Scratch.directory.appendingPathComponent("failing-\(UUID().uuidString)")
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

    // The same in text: one warning line naming the brand and the reason. The failing brand and
    // one that publishes (for the exit status 2 of a run that published with a stale brand) are
    // all this needs; the JSON run above had every brand's lines.
    let text = try cli.run(arguments + ["--brand", "lottemart", "--brand", "megamart"])
    #expect(text.status == 2)
    #expect(
      lines(text.stderr).contains { $0.hasPrefix("warning: lottemart: ") && $0.contains(reason) }, "\(text.stderr)")

    // With nothing to keep, the brand is an error.
    let fresh = Scratch.directory.appendingPathComponent("failing-new-\(UUID().uuidString)")
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
    let output = Scratch.directory.appendingPathComponent("dir-latest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: output.appendingPathComponent("latest.json"), withIntermediateDirectories: true)
    let outcome = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path])
    #expect(outcome.status == 1)
    #expect(lines(outcome.stderr) == ["error: --output: \(output.path)/latest.json: is a directory, not a file"])
    #expect(outcome.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("bundles").path))
  }

  @Test func aLiveLockStopsASecondRunAndAStaleOneIsTakenOver() throws {
    // An output of 메가마트 alone, and runs of it: the lock is the run's, whatever it fetches.
    let output = try PublishedOutput.copy("lock", brands: ["megamart"])
    let before = try latest(output)
    let lockPath = state(output).appendingPathComponent("run.lock").path

    // A live run: this process holds the lock.
    let fd = open(lockPath, O_RDWR | O_CREAT, 0o644)
    try #require(fd >= 0)
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
    _ = "\(getpid())\n".withCString { write(fd, $0, strlen($0)) }
    let refused = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "megamart", "--output", output.path, "--as-of", "2026-11-21",
    ])
    close(fd)
    #expect(refused.status == 1)
    #expect(lines(refused.stderr).count == 1)
    #expect(refused.stderr.contains("in use by another run (process \(getpid())"))
    #expect(try latest(output) == before)

    // A killed run: the file is left, its process is gone, nobody holds the lock.
    let gone = try ProcessRunner.exitedProcessIdentifier()
    try Data("\(gone)\n".utf8).write(to: URL(fileURLWithPath: lockPath))
    let taken = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "megamart", "--output", output.path, "--as-of", "2026-11-21",
    ])
    #expect(taken.status == 0, "stderr: \(taken.stderr)")
    #expect(taken.stderr.contains("warning: took over the lock"))
    #expect(taken.stderr.contains("process \(gone)"))
    #expect(try latest(output) != before)
    #expect(!FileManager.default.fileExists(atPath: lockPath))
  }

  @Test func keepPrunesOldBundlesAndArchivesAndLeftoversGo() throws {
    // An output of 메가마트 alone, and runs of it: each run publishes a new bundle and prunes as
    // any run does, at a fraction of the cost of every brand's.
    let output = try PublishedOutput.copy("keep", brands: ["megamart"])
    let staging = output.appendingPathComponent("bundles/.staging-2026-11-20-abc-999999")
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    let raw = state(output).appendingPathComponent("raw")
    // The archive a killed run was still writing: a leftover, never one of the kept archives.
    let partial = raw.appendingPathComponent(".partial-2026-11-20-235959")
    try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
    // A file of current/ written beside its place by a run killed before renaming it.
    let halfWritten = output.appendingPathComponent("current/branches/.megamart-1001.json.999999")
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
        "run", "--replay", "fixtures/web", "--brand", "megamart", "--output", output.path, "--as-of", day, "--keep",
        "2",
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
    let (process, stderr, slow, body) = try startRunAgainstASlowServer(output: output)
    defer { slow.stop() }
    kill(process.processIdentifier, signal)
    let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // The body would take 40 s: the run hung up before its end (a run that waited the body
    // out would have let it complete, however busy the machine).
    for _ in 0..<3_000 where body.currentEnding == nil { try await Task.sleep(for: .milliseconds(20)) }
    let ending = body.currentEnding
    #expect(
      { if case .clientHungUp(let sent) = ending { sent < 400 } else { false } }(),
      "the slow body's delivery: \(String(describing: ending))")
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

extension RunSafetyTests {
  /// Starts `run` of Costco into `output` against a server that sends its answer (400 bytes) one
  /// byte every 100 ms, and returns once the run's transfer is under way, for a test to signal
  /// it, with the answer's delivery to watch. The caller stops the server.
  func startRunAgainstASlowServer(
    output: URL
  ) throws -> (process: Process, stderr: Pipe, server: LocalHTTPServer, body: WatchedSlowBody) {
    let reached = Mutex(false)
    // Signalled from the server's thread: the wait below needs no turn of the test's executor,
    // which other tests' blocking work can hold up on two cores.
    let reachedSignal = DispatchSemaphore(value: 0)
    let body = WatchedSlowBody(chunkSize: 1, pause: .milliseconds(100))
    let slow = try LocalHTTPServer { request in
      if request.path == "/robots.txt" { return .text("no robots here", status: 404) }
      reached.withLock { $0 = true }
      reachedSignal.signal()
      var answer = ServerResponse(
        status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Data(repeating: 0x20, count: 400))
      answer.delivery = body
      return answer
    }
    let process = Process()
    process.executableURL = CommandLineContractTests.binary
    process.arguments = [
      "run", "--brand", "costco", "--source", "costco=\(slow.baseURL)", "--request-delay", "0", "--output",
      output.path, "--as-of", "2026-11-21",
    ]
    let stderr = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    do {
      try process.run()
      _ = reachedSignal.wait(timeout: .now() + 20)
      try #require(reached.withLock { $0 }, "the run never reached the slow server")
    } catch {
      if process.isRunning { process.terminate() }
      slow.stop()
      throw error
    }
    return (process, stderr, slow, body)
  }
}
