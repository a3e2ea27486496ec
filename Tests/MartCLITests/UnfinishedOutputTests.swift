import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Failures after the pointer switch, run as the built binary: `current/` on a full disk or
/// one that cannot be written, `report.json` that cannot be replaced. Each is an error (exit
/// `1`), `report.json` says what failed when it can be written, and the next run finishes the
/// job even when the bundle is unchanged.
///
/// A full disk is a real one: a small tmpfs mounted over `current/`, which needs root (the
/// tests are skipped without it). Root also ignores file modes, so an unwritable `current/` is
/// a read-only mount for root and a folder without write permission for anyone else.
@Suite(.serialized) struct UnfinishedOutputTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()

  /// Whether this process may mount filesystems (root with the capability to: a container may
  /// deny it), found by mounting a tmpfs once.
  static let canMount: Bool = {
    guard geteuid() == 0 else { return false }
    let probe = Scratch.directory.appendingPathComponent("mount-probe-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
      defer { rmdir(probe.path) }
      let mounted = try ProcessRunner.run(
        URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe.path])
      guard mounted.status == 0 else { return false }
      return try ProcessRunner.run(URL(fileURLWithPath: "/bin/umount"), [probe.path]).status == 0
    } catch {
      return false
    }
  }()

  func mount(_ arguments: [String]) throws {
    let mounted = try ProcessRunner.run(URL(fileURLWithPath: "/bin/mount"), arguments)
    try #require(mounted.status == 0, "mount \(arguments): \(mounted.stderrText)")
  }

  func unmount(_ path: URL) {
    do {
      let ended = try ProcessRunner.run(URL(fileURLWithPath: "/bin/umount"), [path.path])
      #expect(ended.status == 0, "umount \(path.path): \(ended.stderrText)")
    } catch {
      Issue.record("umount \(path.path): \(error)")
    }
  }

  func report(_ output: URL) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
  }

  func errors(_ report: [String: Any]) -> [(kind: String, message: String)] {
    ((report["errors"] as? [[String: Any]]) ?? []).map { ($0["kind"] as? String ?? "", $0["message"] as? String ?? "") }
  }

  /// Runs the fixtures into `output` as of `asOf`, of 메가마트 alone unless `everyBrand`; the
  /// outcome. One brand is mostly enough here: a run of some brands publishes a whole bundle (the
  /// others kept from the last one) and writes `current/` (what differs from the bundle, all of it
  /// when `current/` is empty), the pointer and the reports as a run of every brand does, and what
  /// these tests are about happens after the fetching, at a fraction of the cost of every brand.
  func replay(_ output: URL, asOf: String, everyBrand: Bool = false) throws -> CommandLineContractTests.Outcome {
    try cli.run(
      ["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", asOf]
        + (everyBrand ? [] : ["--brand", "megamart"]))
  }

  /// After a run that could not write `current/`: the new bundle is published and named,
  /// the run ended with `1` and one error naming `current/` and `reason`, and `report.json`
  /// carries that error beside the `published` outcome.
  func expectPublishedButUnfinished(
    _ run: CommandLineContractTests.Outcome, output: URL, before: Data, reason: String
  ) throws {
    #expect(run.status == 1, "\(run.stderr)")
    let errorLines = safety.lines(run.stderr).filter { $0.hasPrefix("error: ") }
    #expect(errorLines.count == 1, "\(run.stderr)")
    #expect(errorLines.first?.contains("current/ could not follow latest.json") == true, "\(run.stderr)")
    #expect(errorLines.first?.contains(reason) == true, "\(run.stderr)")
    #expect(try safety.latest(output) != before, "the bundle of the new day is published")
    #expect(run.stdout.contains("published new bundle"), "\(run.stdout)")
    #expect(run.stdout.contains("unfinished: current/ not written (see the errors)"), "\(run.stdout)")
    let written = try report(output)
    #expect(written["outcome"] as? String == "published")
    #expect(
      errors(written).contains { $0.kind == "current" && $0.message.contains(reason) },
      "\(errors(written))")
    // The page says what the run and report.json say: published but unfinished, the failed
    // step at the top, and the error counted.
    let page = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(page.contains("Outcome: <strong>published, unfinished</strong>"), "the page's outcome")
    let banner = try #require(page.firstRange(of: "id=\"unfinished\""), "the page has no unfinished banner")
    #expect(page[banner.upperBound...].prefix(600).contains("<strong>current/</strong>: current/ could not follow latest.json"))
    #expect(page[banner.upperBound...].prefix(900).contains(reason))
    #expect(!page.contains("<dt>Errors</dt><dd>0</dd>"), "the page counts no error")
    #expect(page.range(of: "id=\"unfinished\"")!.lowerBound < page.range(of: "<main")!.lowerBound)
  }

  /// The next run, with room again, finishes the job: the same bundle (unchanged), `current/`
  /// brought in line, exit `0`, and `validate` passes.
  func expectTheNextRunFinishes(_ output: URL, asOf: String) throws {
    let latest = try safety.latest(output)
    let next = try replay(output, asOf: asOf)
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stdout.contains("unchanged"), "\(next.stdout)")
    #expect(try safety.latest(output) == latest)
    #expect(try errors(report(output)).isEmpty)
    let validate = try cli.run(["validate", output.path])
    #expect(validate.status == 0, "\(validate.stderr)")
  }

  @Test(.enabled(if: canMount, "mounting a full filesystem needs root"))
  func aFullDiskWhileCurrentIsWrittenIsAnErrorAndTheNextRunFinishes() throws {
    // An output of 메가마트 alone (see `replay`), whose validation costs a tenth of every brand's.
    let output = try PublishedOutput.copy("unfinished-full", brands: ["megamart"])
    let before = try safety.latest(output)
    let current = output.appendingPathComponent("current")
    try FileManager.default.removeItem(at: current)
    try FileManager.default.createDirectory(at: current, withIntermediateDirectories: true)
    // 16 KiB: a few of current/'s two dozen files, each a page of tmpfs.
    try mount(["-t", "tmpfs", "-o", "size=16k", "tmpfs", current.path])
    var mounted = true
    defer { if mounted { unmount(current) } }

    let run = try replay(output, asOf: "2026-11-21")
    try expectPublishedButUnfinished(run, output: output, before: before, reason: String(cString: strerror(ENOSPC)))
    // The error names the file that was not written, not the temporary it was written as
    // (which is removed): `…/current/branches/<id>.json: not written: write failed: …`.
    let errorLine = try #require(safety.lines(run.stderr).first { $0.hasPrefix("error: ") })
    let named = try #require(errorLine.firstMatch(of: #/ (/[^ ]+): not written: /#)?.1, "\(errorLine)")
    #expect(!(String(named) as NSString).lastPathComponent.hasPrefix("."), "\(errorLine)")
    #expect(String(named).hasPrefix(current.path + "/"), "\(errorLine)")
    // Nothing half-written is left where the served files are: no temporary in the full current/.
    #expect(
      (FileManager.default.enumerator(atPath: current.path)?.allObjects as? [String] ?? []).allSatisfy {
        !($0 as NSString).lastPathComponent.hasPrefix(".")
      })

    unmount(current)
    mounted = false
    try expectTheNextRunFinishes(output, asOf: "2026-11-21")
  }

  /// A disk that fills while the bundle is staged: nothing is published, nothing half-written is
  /// left in `bundles/`, and the next run, with room again, publishes.
  @Test(.enabled(if: canMount, "mounting a full filesystem needs root"))
  func aFullDiskWhileTheBundleIsStagedPublishesNothingAndLeavesNothing() throws {
    let output = Scratch.directory.appendingPathComponent("unfinished-staging-\(UUID().uuidString)")
    let bundles = output.appendingPathComponent("bundles")
    try FileManager.default.createDirectory(at: bundles, withIntermediateDirectories: true)
    // 64 KiB: a handful of the bundle's files (two dozen of a run of 메가마트 alone into a new
    // output directory), each a page of tmpfs.
    try mount(["-t", "tmpfs", "-o", "size=64k", "tmpfs", bundles.path])
    var mounted = true
    defer { if mounted { unmount(bundles) } }

    let run = try replay(output, asOf: "2026-11-21")
    #expect(run.status == 1, "\(run.stderr)")
    // The error names bundles/ and the file of the bundle, not the staging folder it was
    // written in (which is gone).
    let errorLine = try #require(safety.lines(run.stderr).first { $0.hasPrefix("error: ") }, "\(run.stderr)")
    #expect(errorLine.contains("\(bundles.path): the new bundle was not written (at "), "\(errorLine)")
    #expect(errorLine.contains(String(cString: strerror(ENOSPC))), "\(errorLine)")
    #expect(!errorLine.contains(".staging-"), "\(errorLine)")
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("latest.json").path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: bundles.path).isEmpty)
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("current").path))

    unmount(bundles)
    mounted = false
    let next = try replay(output, asOf: "2026-11-21")
    #expect(next.status == 0, "\(next.stderr)")
    let validate = try cli.run(["validate", output.path])
    #expect(validate.status == 0, "\(validate.stderr)")
  }

  @Test(.enabled(if: geteuid() != 0 || canMount, "as root, only a read-only mount keeps current/ from being written"))
  func anUnwritableCurrentIsAnErrorAndTheNextRunFinishes() throws {
    let root = geteuid() == 0
    let output = try safety.publishedOutput("unfinished-unwritable")
    let before = try safety.latest(output)
    let current = output.appendingPathComponent("current")
    let folders = [current] + ["branches", "calendars", "calendars/branches", "calendars/brands"].map {
      current.appendingPathComponent($0)
    }
    if root {
      // A read-only view of current/ over itself.
      try mount(["--bind", current.path, current.path])
      try mount(["-o", "remount,bind,ro", current.path])
    } else {
      for folder in folders { try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path) }
    }
    var locked = true
    func unlock() {
      guard locked else { return }
      locked = false
      if root {
        unmount(current)
      } else {
        for folder in folders where chmod(folder.path, 0o755) != 0 {
          Issue.record("chmod \(folder.path): \(String(cString: strerror(errno)))")
        }
      }
    }
    defer { unlock() }

    // Every brand: a run of 메가마트 alone a day later changes no file of a full current/, so it
    // would not meet the unwritable folder.
    let run = try replay(output, asOf: "2026-11-21", everyBrand: true)
    try expectPublishedButUnfinished(
      run, output: output, before: before, reason: String(cString: strerror(root ? EROFS : EACCES)))
    unlock()
    try expectTheNextRunFinishes(output, asOf: "2026-11-21")
  }

  /// `report.json` that cannot be replaced after the switch (here: a file mounted over it, which
  /// no rename may replace) fails the run, said on stderr, and the next run writes it.
  @Test(.enabled(if: canMount, "mounting over report.json needs root"))
  func aReportThatCannotBeWrittenIsAnError() throws {
    // An output of 메가마트 alone (see `replay`), whose validation costs a tenth of every brand's.
    let output = try PublishedOutput.copy("unfinished-report", brands: ["megamart"])
    let before = try safety.latest(output)
    let reportFile = output.appendingPathComponent("report.json")
    let stand = Scratch.directory.appendingPathComponent("report-\(UUID().uuidString).json")
    try Data(contentsOf: reportFile).write(to: stand)
    try mount(["--bind", stand.path, reportFile.path])
    var mounted = true
    defer { if mounted { unmount(reportFile) } }

    let run = try replay(output, asOf: "2026-11-21")
    #expect(run.status == 1, "\(run.stderr)")
    #expect(
      safety.lines(run.stderr).contains { $0.hasPrefix("error: writing report.json failed: ") }, "\(run.stderr)")
    #expect(try safety.latest(output) != before, "the bundle of the new day is published")

    unmount(reportFile)
    mounted = false
    try expectTheNextRunFinishes(output, asOf: "2026-11-21")
  }

  /// An output directory on a disk without room for a new bundle: the run stops before it
  /// stages anything, says how much is free and needed, and publishes nothing.
  @Test(.enabled(if: canMount, "mounting a small filesystem needs root"))
  func aDiskWithoutRoomForABundleIsRefusedBeforeStaging() throws {
    let output = Scratch.directory.appendingPathComponent("no-room-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    // 4 MiB: less than the 16 MiB a run asks for at least.
    try mount(["-t", "tmpfs", "-o", "size=4m", "tmpfs", output.path])
    defer { unmount(output) }

    // One brand: the space is checked before staging whatever the run fetched.
    let run = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "megamart", "--output", output.path, "--state",
      output.path + "-state",
    ])
    #expect(run.status == 1, "\(run.stderr)")
    let line = try #require(
      safety.lines(run.stderr).first { $0.contains("not enough free disk space") }, "\(run.stderr)")
    #expect(line.contains("16.0 MB needed"), "\(line)")
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("latest.json").path))
    let bundles = output.appendingPathComponent("bundles")
    if FileManager.default.fileExists(atPath: bundles.path) {
      let staged = try FileManager.default.contentsOfDirectory(atPath: bundles.path)
      #expect(staged.isEmpty, "nothing staged: \(staged)")
    }
    #expect(
      errors(try report(output)).contains { $0.kind == "publish" && $0.message.contains("free space, then run again") })
  }

  /// `report.html` that cannot be replaced (a file mounted over it) fails the run, and the page
  /// of the earlier run stays: the operator still has a page, and the error says it is old.
  @Test(.enabled(if: canMount, "mounting over report.html needs root"))
  func aReportPageThatCannotBeWrittenKeepsTheEarlierOne() throws {
    // An output of 메가마트 alone (see `replay`), whose validation costs a tenth of every brand's.
    let output = try PublishedOutput.copy("unfinished-page", brands: ["megamart"])
    let pageFile = output.appendingPathComponent("report.html")
    let earlier = try Data(contentsOf: pageFile)
    let stand = Scratch.directory.appendingPathComponent("report-\(UUID().uuidString).html")
    try earlier.write(to: stand)
    try mount(["--bind", stand.path, pageFile.path])
    var mounted = true
    defer { if mounted { unmount(pageFile) } }

    let run = try replay(output, asOf: "2026-11-21")
    #expect(run.status == 1, "\(run.stderr)")
    let line = try #require(safety.lines(run.stderr).first { $0.hasPrefix("error: report.html could not be written: ") })
    // No rename may replace a mounted file, so the marked page cannot take its place either.
    #expect(line.contains("the page of an earlier run is kept as it was"), "\(line)")
    #expect(try Data(contentsOf: pageFile) == earlier)
    #expect(errors(try report(output)).contains { $0.kind == "report" && $0.message.contains("kept as it was") })

    unmount(pageFile)
    mounted = false
    try expectTheNextRunFinishes(output, asOf: "2026-11-21")
  }
}
