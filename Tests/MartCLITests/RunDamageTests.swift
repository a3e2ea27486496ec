import Foundation
import MartExport
import MartReplay
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `mart-holiday run`, as the built binary, on an operator's bad day: a damaged bundle or cache
/// on disk, a signal while publishing, mirrors that contradict each other, an archive that could
/// not be written whole.
@Suite struct RunDamageTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()

  func report(_ output: URL) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
  }

  func currentBundle(_ output: URL) throws -> URL {
    let pointer = try #require(
      try JSONSerialization.jsonObject(with: safety.latest(output)) as? [String: Any])
    return output.appendingPathComponent(try #require(pointer["bundle"] as? String))
  }

  @Test func aDamagedCurrentBundleIsRebuiltByARunWithTheSameData() throws {
    let output = try safety.publishedOutput("damaged-rerun")
    let before = try safety.latest(output)
    try Data("garbage".utf8).write(to: try currentBundle(output).appendingPathComponent("manifest.json"))
    #expect(try cli.run(["validate", output.path]).status != 0)

    let rerun = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path])
    #expect(rerun.status == 0, "stderr: \(rerun.stderr)")
    #expect(rerun.stderr.contains("was damaged"), "stderr: \(rerun.stderr)")
    #expect(try safety.latest(output) == before, "same data, same version")
    let validate = try cli.run(["validate", output.path])
    #expect(validate.status == 0, "stderr: \(validate.stderr)")
  }

  @Test func aDamagedCurrentBundleStopsARunOfSomeBrandsBeforeAnyRequest() throws {
    let output = try safety.publishedOutput("damaged-brand")
    let before = try safety.latest(output)
    let branches = try currentBundle(output).appendingPathComponent("branches.json")
    var data = try Data(contentsOf: branches)
    data[data.count / 3] ^= 0x20
    try data.write(to: branches)
    let requests = Mutex(0)
    let server = try LocalHTTPServer { _ in
      requests.withLock { $0 += 1 }
      return .text("not found", status: 404)
    }
    defer { server.stop() }

    let run = try cli.run([
      "run", "--brand", "costco", "--source", "costco=\(server.baseURL)", "--request-delay", "0", "--output",
      output.path, "--as-of", "2026-11-20",
    ])
    #expect(run.status == 1)
    #expect(run.stderr.contains("error: the current bundle is damaged"), "stderr: \(run.stderr)")
    #expect(run.stderr.contains("run every brand to rebuild it"))
    #expect(requests.withLock { $0 } == 0)
    #expect(try safety.latest(output) == before)
    #expect(try report(output)["outcome"] as? String == "failed")
  }

  @Test func brandsSharingASourceGivenDifferentMirrorsAreBadInput() throws {
    let requests = Mutex(0)
    let server = try LocalHTTPServer { _ in
      requests.withLock { $0 += 1 }
      return .text("not found", status: 404)
    }
    defer { server.stop() }
    let output = Scratch.directory.appendingPathComponent("mirrors-\(UUID().uuidString)")
    let run = try cli.run([
      "run", "--source", "emart=http://127.0.0.1:9", "--source", "traders=\(server.baseURL)", "--source",
      "nobrand=\(server.baseURL)", "--output", output.path,
    ])
    #expect(run.status == 1)
    let errors = safety.lines(run.stderr).filter { $0.hasPrefix("error: ") }
    #expect(errors.count == 1, "stderr: \(run.stderr)")
    #expect(errors.first?.contains("--source: emart=http://127.0.0.1:9") == true)
    #expect(errors.first?.contains("share one source") == true)
    #expect(run.stdout.isEmpty)
    #expect(requests.withLock { $0 } == 0)
    #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is created")

    // The same URL for several of them, or one of them alone, redirects the shared source.
    let agreed = try cli.run([
      "run", "--brand", "emart", "--source", "emart=\(server.baseURL)", "--source", "traders=\(server.baseURL)",
      "--request-delay", "0", "--retries", "0", "--output", output.path, "--as-of", "2026-11-20",
    ])
    #expect(agreed.status == 1, "every E-mart request answers 404: nothing to publish")
    #expect(requests.withLock { $0 } > 0)
  }

  @Test func damagedCacheFilesAreSetAsideAndTheRunGoesOn() throws {
    let mirror = try safety.costcoMirror()
    defer { mirror.stop() }
    let sources = try safety.costcoMirrorSources(mirror)
    let output = Scratch.directory.appendingPathComponent("caches-\(UUID().uuidString)")
    let cache = safety.state(output).appendingPathComponent("cache")
    try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
    let garbage = Data(repeating: 0x41, count: 8192)
    for name in ["http-validators.sqlite", "geocoding.sqlite"] {
      try garbage.write(to: cache.appendingPathComponent(name))
    }

    let run = try cli.run(
      ["run", "--brand", "costco"] + sources + [
        "--request-delay", "0", "--output", output.path, "--as-of", "2026-11-20",
      ])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let warnings = safety.lines(run.stderr).filter { $0.contains("was not a readable database") }
    #expect(warnings.count == 2, "stderr: \(run.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
    for name in ["http-validators.sqlite", "geocoding.sqlite"] {
      let aside = try #require(files.first { $0.hasPrefix("\(name).damaged-") }, "\(files)")
      #expect(try Data(contentsOf: cache.appendingPathComponent(aside)) == garbage, "kept as it was")
      #expect(try Data(contentsOf: cache.appendingPathComponent(name)) != garbage, "a new database")
    }
    // The next run finds working caches and says nothing about them.
    let next = try cli.run(
      ["run", "--brand", "costco"] + sources + [
        "--request-delay", "0", "--output", output.path, "--as-of", "2026-11-20",
      ])
    #expect(next.status == 0, "stderr: \(next.stderr)")
    #expect(!next.stderr.contains("readable database"))
  }

  @Test func anArchiveThatCouldNotBeWrittenWholeIsNotAnnouncedAsReplayable() throws {
    let mirror = try safety.costcoMirror()
    defer { mirror.stop() }
    let output = Scratch.directory.appendingPathComponent("archive-\(UUID().uuidString)")
    let archive = Scratch.directory.appendingPathComponent("archive-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
    // A file where the host's folder belongs: every Costco response fails to be written.
    try Data().write(to: archive.appendingPathComponent("www.costco.co.kr"))

    let run = try cli.run(
      ["run", "--brand", "costco"] + safety.costcoMirrorSources(mirror) + [
        "--request-delay", "0", "--output", output.path, "--as-of", "2026-11-20", "--archive", archive.path,
      ])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    #expect(!run.stdout.contains("replay with --replay"), "stdout: \(run.stdout)")
    #expect(run.stdout.contains("responses partly kept in \(archive.path)"), "stdout: \(run.stdout)")
    #expect(run.stdout.contains("cannot replay this run"))
    #expect(run.stderr.contains("warning: archive: could not keep"))
  }

  @Test func aSignalWhilePublishingLeavesThePreviousBundleCurrent() async throws {
    let output = try safety.publishedOutput("signal-publish")
    let bundles = output.appendingPathComponent("bundles")
    var cancelledWhilePublishing = 0
    // Each try has a new as-of date, so a run that finishes publishes a new version. A loaded
    // machine may let a run finish before the signal lands: try until one is stopped mid-publish.
    for day in 21...28 where cancelledWhilePublishing == 0 {
      let before = try safety.latest(output)
      let process = Process()
      process.executableURL = CommandLineContractTests.binary
      process.currentDirectoryURL = FixturePaths.repositoryRoot
      process.arguments = ["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-\(day)"]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      var signalled = false
      let deadline = ContinuousClock.now + .seconds(60)
      while process.isRunning, ContinuousClock.now < deadline {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundles.path)) ?? []
        if names.contains(where: { $0.hasPrefix(".staging-") }) {
          kill(process.processIdentifier, SIGTERM)
          signalled = true
          break
        }
        usleep(200)
      }
      process.waitUntilExit()
      let outcome = try report(output)["outcome"] as? String
      if process.terminationStatus == 143 {
        // Stopped: nothing new became current, no staging folder is left, the report says so.
        #expect(try safety.latest(output) == before)
        #expect(outcome == "cancelled")
        #expect(try safety.bundles(output).allSatisfy { !$0.hasPrefix(".staging-") })
        if signalled { cancelledWhilePublishing += 1 }
      } else {
        // The signal came after the pointer switch: the new bundle is complete.
        #expect(process.terminationStatus == 0)
        #expect(outcome == "published")
        #expect(try safety.latest(output) != before)
      }
      let validate = try cli.run(["validate", output.path])
      #expect(validate.status == 0, "stderr: \(validate.stderr)")
    }
    #expect(cancelledWhilePublishing > 0, "no signal reached a run while it was publishing")
  }
}
