import Foundation
import MartExport
import MartFiles
import TestSupport
import Testing

/// The run's day lives in `latest.json` and the manifest: the same recordings replayed on the
/// next day make a bundle that is mostly hard links of the day before's, and still the bytes a
/// fresh output gets.
@Suite struct ConsecutiveDaysSharingTests {
  let cli = CommandLineContractTests()

  func run(_ output: URL, asOf: String, _ extra: [String] = []) throws -> CommandLineContractTests.Outcome {
    let outcome = try cli.run(
      ["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", asOf] + extra)
    try #require(outcome.status == 0, "stderr: \(outcome.stderr)")
    return outcome
  }

  func bundle(_ output: URL) throws -> URL {
    let pointer = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("latest.json")))
    let path = try #require((pointer as? [String: Any])?["bundle"] as? String)
    return output.appendingPathComponent(path)
  }

  func inode(_ url: URL) -> UInt64? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.systemFileNumber] as? UInt64
  }

  /// The `change.files` counts of the output's `report.json`.
  func fileCounts(_ output: URL) throws -> (written: Int, linked: Int) {
    let report = try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
    let change = try #require((report as? [String: Any])?["change"] as? [String: Any])
    let files = try #require(change["files"] as? [String: Int])
    return (try #require(files["written"]), try #require(files["linked"]))
  }

  @Test func theNextDaysBundleIsMostlyHardLinksOfTheDayBefores() throws {
    // The first day: the replay as of the recordings' date, 2026-11-20, into a new output
    // directory, which is what `PublishedOutput` holds.
    let output = try PublishedOutput.copy("consecutive")
    defer {
      try? FileManager.default.removeItem(at: output)
      try? FileManager.default.removeItem(atPath: output.path + "-state")
    }
    let first = try bundle(output)
    #expect(try fileCounts(output).linked == 0)
    let second = try run(output, asOf: "2026-11-21")
    let next = try bundle(output)
    #expect(next.lastPathComponent.hasPrefix("2026-11-21-") && first.lastPathComponent.hasPrefix("2026-11-20-"))

    // Shared files counted on disk, by inode, not from what the run says.
    let files = PlainFiles.regularFiles(under: next.path).sorted()
    let shared = files.filter { path in
      inode(next.appendingPathComponent(path)).map { $0 == inode(first.appendingPathComponent(path)) } ?? false
    }
    #expect(files.count > 200)
    #expect(Double(shared.count) >= 0.8 * Double(files.count), "\(shared.count) of \(files.count) shared")
    // The run's day is the manifest's; the calendars keep their bytes.
    #expect(!shared.contains("manifest.json"))
    #expect(shared.contains("calendars/branches/emart-1059.ics"))
    #expect(shared.contains("index.json") && shared.contains("closures.json"))

    // The run says what it did, in its summary and in report.json.
    let counts = try fileCounts(output)
    #expect(counts.linked == shared.count && counts.written == files.count - shared.count)
    #expect(
      second.stdout.contains("\(counts.written) files written, \(counts.linked) linked to the previous bundle's"),
      "\(second.stdout)")
    let page = try String(contentsOf: output.appendingPathComponent("report.html"), encoding: .utf8)
    #expect(page.contains("\(counts.written) written, \(counts.linked) linked to the previous bundle"))

    // Deterministic: a fresh output given the same two days (a bundle keeps what the one before
    // knew of the past days, so the day before is input too) gets the very same bytes.
    // Its first day is the second publishing run from scratch, made apart from the first.
    let fresh = try PublishedOutput.copyOfSecondRun("consecutive-fresh")
    defer {
      try? FileManager.default.removeItem(at: fresh)
      try? FileManager.default.removeItem(atPath: fresh.path + "-state")
    }
    #expect(try bundle(fresh).lastPathComponent == first.lastPathComponent)
    _ = try run(fresh, asOf: "2026-11-21")
    let alone = try bundle(fresh)
    #expect(alone.lastPathComponent == next.lastPathComponent)
    #expect(PlainFiles.regularFiles(under: alone.path).sorted() == files)
    for path in files {
      #expect(
        try Data(contentsOf: alone.appendingPathComponent(path)) == Data(contentsOf: next.appendingPathComponent(path)),
        "\(path)")
    }

    // The day before's bundle is as it was, and pruning it leaves the new one whole.
    #expect(try cli.run(["validate", first.path]).status == 0)
    // Pruning is the same whichever brands a run fetches: one small brand is enough (the others
    // are kept as they are).
    _ = try run(output, asOf: "2026-11-21", ["--keep", "1", "--brand", "megamart"])
    #expect(!FileManager.default.fileExists(atPath: first.path))
    let validate = try cli.run(["validate", output.path])
    #expect(validate.status == 0, "\(validate.stderr)")
  }
}
