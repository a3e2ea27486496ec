import Foundation
import MartCore
import MartFetch
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
    for path in ["latest.json", "report.json", "cache/geocoding.sqlite", "cache/http-validators.sqlite"] {
      #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path), "\(path)")
    }
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let hosts = try #require((report["fetch"] as? [String: Any])?["hosts"] as? [String: [String: Int]])
    #expect(hosts["www.costco.co.kr"]?["requests"] == 1)
    // The lock is gone once the run is over.
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(".mart-holiday.lock").path))
    // The finished archive carries its final name, and can be replayed.
    let archives = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("raw").path)
    #expect(archives.count == 1 && archives.allSatisfy { $0.hasPrefix("2026-11-20-") }, "\(archives)")
    #expect(outcome.stdout.contains("responses kept in \(output.path)/raw/2026-11-20-"))
  }

  @Test func oneBrandServerFailingKeepsItsPreviousDataAndPublishesTheOthers() throws {
    let output = try publishedOutput("one-fails")
    let before = try #require(try JSONSerialization.jsonObject(with: latest(output)) as? [String: Any])
    let failing = try LocalHTTPServer { _ in .text("down for maintenance", status: 500) }
    defer { failing.stop() }

    let outcome = try cli.run([
      "run", "--replay", "fixtures/web", "--source", "lottemart=\(failing.baseURL)", "--output", output.path,
    ])
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

  @Test func aRunInWhichEveryBrandFailsPublishesNothingOverAnExistingBundle() throws {
    let output = try publishedOutput("all-fail")
    let before = try latest(output)
    let failing = try LocalHTTPServer { _ in .text("down for maintenance", status: 503) }
    defer { failing.stop() }

    let outcome = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "costco", "--brand", "lottemart",
      "--source", "costco=\(failing.baseURL)", "--source", "lottemart=\(failing.baseURL)", "--output", output.path,
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
    let lockPath = output.appendingPathComponent(".mart-holiday.lock").path

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
    let raw = output.appendingPathComponent("raw")
    // The archive a killed run was still writing: a leftover, never one of the kept archives.
    let partial = raw.appendingPathComponent(".partial-2026-11-20-235959")
    try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
    let old = Date(timeIntervalSinceNow: -86_400)
    for name in ["2026-11-01-010101", "2026-11-02-010101", "2026-11-03-010101"] {
      let folder = raw.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder.path)
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
        "2026-11-02-010101", "2026-11-03-010101",
      ])
    #expect(!FileManager.default.fileExists(atPath: partial.path))
  }

  @Test("SIGINT and SIGTERM stop the transfers and publish nothing", arguments: [SIGINT, SIGTERM])
  func aSignalStopsTheTransfersAndPublishesNothing(signal: Int32) async throws {
    let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
    let output = try publishedOutput("sigint")
    let before = try latest(output)
    let reached = Mutex(false)
    let slow = try LocalHTTPServer { request in
      if request.path == "/robots.txt" { return .text("no robots here", status: 404) }
      reached.withLock { $0 = true }
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
    let deadline = ContinuousClock.now + .seconds(20)
    while !reached.withLock({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
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
    let raw = output.appendingPathComponent("raw").path
    let archives =
      FileManager.default.fileExists(atPath: raw) ? try FileManager.default.contentsOfDirectory(atPath: raw) : []
    #expect(archives.isEmpty, "a cancelled run keeps no partial archive")
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(".mart-holiday.lock").path))
  }
}
