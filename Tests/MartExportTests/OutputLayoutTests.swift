import Foundation
import MartCore
import MartExport
import MartFiles
import TestSupport
import Testing

/// The one reader of `latest.json` and the one routine that removes what killed runs left,
/// `current/` included.
@Suite struct OutputLayoutReadingAndLeftoverTests {
  let branches = [ExportFixtures.branch("1059", text: "20261108"), ExportFixtures.branch("1000", text: "20261122")]

  @Test func latestIsReadTypedOrSaidToBeMissingOrDamaged() throws {
    let empty = try ExportFixtures.temporaryDirectory("layout-empty")
    #expect(try OutputLayout(empty).readLatest() == nil)

    let (output, pointer) = try ExportFixtures.publish(branches, label: "layout")
    let layout = OutputLayout(output)
    #expect(try layout.readLatest() == pointer)
    #expect(pointer.bundle == OutputLayout.bundlePath(version: pointer.version))

    try Data(#"{"bundle":"bund"#.utf8).write(to: layout.latest)
    #expect(throws: FileError.self) { try layout.readLatest() }
  }

  /// A kill -9 between writing a `current/` file beside its place and renaming it leaves a
  /// hidden `.<name>.<pid>`; the next run removes it (and the other leftovers, and every other
  /// hidden name in `current/`, which holds only what a bundle calls for), but keeps what a
  /// live process is still writing when asked to spare those.
  @Test func leftoversOfKilledRunsGoCurrentIncluded() throws {
    let (output, _) = try ExportFixtures.publish(branches, label: "layout-leftovers")
    let layout = OutputLayout(output)
    try CurrentDirectory(outputDirectory: output).synchronize()
    let gone = try ProcessRunner.exitedProcessIdentifier()
    let live = getpid()
    func touch(_ relative: String) throws {
      let url = output.appendingPathComponent(relative)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("half".utf8).write(to: url)
    }
    let deadOnes = [
      "current/branches/.emart-1059.json.\(gone)", "current/calendars/brands/.emart.ics.\(gone)",
      ".latest.json.\(gone)", ".report.html.\(gone)", "bundles/.staging-2026-11-20-17-\(gone)/branches.json",
    ]
    let liveOnes = ["current/branches/.emart-1000.json.\(live)", ".report.json.\(live)"]
    for path in deadOnes + liveOnes { try touch(path) }
    // Hidden names of no process: no run is writing them, so they go too.
    try touch("current/.keep")
    try touch("current/calendars/.sync/emart.ics")

    let spared = layout.removeLeftovers(onlyOfEndedProcesses: true)
    #expect(
      spared
        == [
          ".latest.json.\(gone)", ".report.html.\(gone)", "bundles/.staging-2026-11-20-17-\(gone)",
          "current/.keep", "current/branches/.emart-1059.json.\(gone)", "current/calendars/.sync",
          "current/calendars/brands/.emart.ics.\(gone)",
        ].sorted())
    for path in liveOnes {
      #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path), "\(path)")
    }
    // Holding the run lock, every leftover goes.
    #expect(layout.removeLeftovers() == liveOnes.sorted())
    #expect(layout.leftovers().isEmpty)
    // What is left in current/ is what latest.json calls for (hidden names are not served files).
    #expect(try CurrentDirectory(outputDirectory: output).mismatches().isEmpty)
  }
}

/// `current/` frames each listed branch's JSON as the publish wrote it, when it has the bundle
/// in memory; the files must be what encoding each branch anew gives.
@Suite struct CurrentFromPublishedBundleTests {
  @Test func filesMadeFromThePublishedBytesAreThoseOfEncodingAnew() throws {
    let branches = [
      ExportFixtures.branch("1059", text: "20261108"), ExportFixtures.branch("1000", name: "은평점", text: "20261122"),
      ExportFixtures.branch(.lottemart, "301", name: "서울역점 \"본점\"", text: "20261108, 20261122"),
    ]
    let output = try ExportFixtures.temporaryDirectory("current-published")
    let result = try BundleStore(outputDirectory: output).publish(
      branches: branches, brands: ExportFixtures.summaries(branches),
      day: RunDay(asOf: ExportFixtures.asOf, window: ExportFixtures.window))
    let published = try #require(result.bundle)
    let done = try CurrentDirectory(outputDirectory: output).synchronize(latest: published)
    #expect(done.written.filter { $0.hasPrefix("branches/") }.count == branches.count)
    for branch in published.branches.branches {
      let expected = try CanonicalJSON.encode(
        CurrentBranchFile(window: published.manifest.window, listed: true, branch: branch))
      let written = try Data(contentsOf: output.appendingPathComponent("current/branches/\(branch.id).json"))
      #expect(written == expected + Data([0x0A]), "\(branch.id)")
    }
    // Read back from disk (no bytes in memory), the same files are expected.
    #expect(try CurrentDirectory(outputDirectory: output).mismatches().isEmpty)
  }
}
