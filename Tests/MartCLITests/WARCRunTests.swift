import Foundation
import MartFetch
import MartReplay
import TestSupport
import Testing

/// A live run keeps its responses as one WARC file that warcio reads and verifies, and that
/// replays into the same bundle, byte for byte.
@Suite struct WARCRunTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()

  /// Every file of `folder`, by relative path.
  func files(_ folder: URL) throws -> [String: Data] {
    var found: [String: Data] = [:]
    let enumerator = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
    for case let url as URL in enumerator {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
        continue
      }
      found[String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count))] = try Data(
        contentsOf: url)
    }
    return found
  }

  /// The bundle `latest.json` of `output` names.
  func bundle(_ output: URL) throws -> URL {
    let latest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("latest.json")))
        as? [String: Any])
    return output.appendingPathComponent(try #require(latest["bundle"] as? String))
  }

  @Test func aLiveRunsWARCPassesWarcioAndReplaysIntoTheSameBundle() throws {
    // Costco and the national register (which a run asks whatever brands it fetches) on a mirror.
    let mirror = try safety.costcoMirror()
    defer { mirror.stop() }
    let work = Scratch.directory.appendingPathComponent("warc-run-\(UUID().uuidString)")
    let live = work.appendingPathComponent("live")
    let run = try cli.run(
      ["run", "--brand", "costco"] + safety.costcoMirrorSources(mirror) + [
        "--request-delay", "0", "--output", live.path, "--as-of", "2026-11-20",
      ])
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let raw = safety.state(live).appendingPathComponent("raw")
    let names = try FileManager.default.contentsOfDirectory(atPath: raw.path)
    try #require(
      names.count == 1 && names[0].hasPrefix("2026-11-20-") && names[0].hasSuffix(".warc.gz")
        && !names[0].contains("incomplete"), "\(names)")
    let warc = raw.appendingPathComponent(names[0])
    #expect(run.stdout.contains("responses kept in \(warc.path)"), "\(run.stdout)")

    // warcio reads every record and verifies every digest; each record is its own gzip member.
    let python = Python3.invocation(["scripts/check_warc.py", warc.path])
    let check = try ProcessRunner.run(python.executable, python.arguments, in: FixturePaths.repositoryRoot)
    #expect(check.status == 0, "\(check.stdoutText)\(check.stderrText)")
    // Costco's recordings are one page of the store API (fixtures/web/www.costco.co.kr), asked for
    // once; the register (fixtures/web/file.localdata.go.kr) is one download, asked for once after
    // the brands.
    let exchanges = try ReplayArchive.load(from: warc).exchanges
    #expect(
      exchanges.map(\.url) == [
        "https://www.costco.co.kr/rest/v2/korea/stores?fields=FULL&pageSize=50&currentPage=0",
        "https://file.localdata.go.kr/file/download/large_scale_retail_stores/info",
      ])
    #expect(check.stdoutText.contains("2 requests, 2 responses"), "\(check.stdoutText)")

    // Replayed without --as-of, the run takes the date the archive was recorded on and
    // publishes the same bundle, byte for byte (the register's ids in it included).
    let replayed = work.appendingPathComponent("replayed")
    let replay = try cli.run(["run", "--replay", warc.path, "--brand", "costco", "--output", replayed.path])
    #expect(replay.status == 0, "stderr: \(replay.stderr)")
    let liveBundle = try bundle(live)
    let replayedBundle = try bundle(replayed)
    #expect(liveBundle.lastPathComponent == replayedBundle.lastPathComponent)
    #expect(liveBundle.lastPathComponent.hasPrefix("2026-11-20"))
    let liveFiles = try files(liveBundle)
    #expect(liveFiles.count > 20)
    #expect(try files(replayedBundle) == liveFiles)
  }
}
