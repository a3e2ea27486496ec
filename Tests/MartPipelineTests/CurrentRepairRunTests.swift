import Foundation
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// `current/` repairs what stands in its way: a folder where one of its files belongs, or a
/// file where one of its folders belongs, is removed and reported, and the rest is written.
@Suite(.serialized) struct CurrentRepairRunTests {
  let asOf = ReplayedFixtures.asOf

  /// A run over `fixtures/web` into `output`, which starts as a copy of the process's one
  /// published run (``ReplayedFixtures``) as of the same day.
  func run(_ output: URL) async throws -> RunReport {
    try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: asOf, geocodingRetryPolicy: .immediate)
    ).report
  }

  @Test func whatStandsInTheWayIsRemovedAndTheRunFinishesTheJob() async throws {
    let output = try await ReplayedFixtures.shared.copy("current")
    let current = output.appendingPathComponent("current")
    let branchFiles = try FileManager.default.contentsOfDirectory(atPath: current.appendingPathComponent("branches").path)
      .sorted()
    let blocked = try #require(branchFiles.first)
    // A folder (with a file in it) where a branch file belongs; a file where a folder belongs;
    // and the other branch files gone, as if the run that wrote them had been stopped.
    for name in branchFiles { try FileManager.default.removeItem(at: current.appendingPathComponent("branches/\(name)")) }
    let folder = current.appendingPathComponent("branches/\(blocked)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data("stray".utf8).write(to: folder.appendingPathComponent("inside"))
    let brands = current.appendingPathComponent("calendars/brands")
    try FileManager.default.removeItem(at: brands)
    try Data("stray".utf8).write(to: brands)

    let report = try await run(output)
    #expect(report.errors.filter { $0.kind == .current }.isEmpty, "\(report.errors)")
    let repairs = report.warnings.filter { $0.kind == .current }.map(\.message).sorted()
    #expect(repairs == [
      "current/branches/\(blocked): a directory where a regular file belongs, removed",
      "current/calendars/brands: a regular file where a directory belongs, removed",
    ])
    let mismatches = try CurrentDirectory(outputDirectory: output).mismatches()
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: current.appendingPathComponent("branches").path).sorted()
        == branchFiles)
  }

  /// `chattr` with `args` on `path`; whether it worked (it needs root and a filesystem that keeps
  /// the attribute).
  static func chattr(_ args: [String], _ path: String) -> Bool {
    let chattr = URL(fileURLWithPath: "/usr/bin/chattr")
    guard FileManager.default.isExecutableFile(atPath: chattr.path),
      let outcome = try? ProcessRunner.run(chattr, args + [path])
    else { return false }
    return outcome.status == 0
  }

  /// What cannot be removed (a folder holding an immutable file, made with `chattr +i`: root
  /// ignores permission bits, so only an attribute or a mount really refuses) holds back its
  /// own file only: every other file is written, and the error names the path and says it must
  /// be removed by hand, not that the next run finishes it.
  @Test func whatCannotBeRemovedHoldsBackOnlyItsOwnFile() async throws {
    let output = try await ReplayedFixtures.shared.copy("current")
    let current = output.appendingPathComponent("current")
    let branchFiles = try FileManager.default.contentsOfDirectory(atPath: current.appendingPathComponent("branches").path)
      .sorted()
    let blocked = try #require(branchFiles.first)
    let folder = current.appendingPathComponent("branches/\(blocked)")
    try FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let immutable = folder.appendingPathComponent("immutable")
    try Data("stray".utf8).write(to: immutable)
    try #require(
      Self.chattr(["+i"], immutable.path),
      "chattr +i is not available here (needs root and ext4 or a like filesystem), so nothing can refuse removal")
    defer { _ = Self.chattr(["-i"], immutable.path) }
    // Every other file of current/ is stale: a run as of another day changes them all.
    let report = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: CalendarDate(iso: "2026-11-21")!,
        geocodingRetryPolicy: .immediate)
    ).report
    #expect(report.outcome == .published)
    #expect(report.exitCode == 1)
    let errors = report.errors.filter { $0.kind == .current }
    #expect(errors.count == 1, "\(report.errors)")
    let message = try #require(errors.first?.message)
    #expect(message.contains("current/branches/\(blocked)") && message.contains("removed by hand"), "\(message)")
    #expect(!message.contains("next run"), "\(message)")
    #expect(report.summary(outputDirectory: output.path).contains("removed by hand"))
    let mismatches = try CurrentDirectory(outputDirectory: output).mismatches()
    // Only the blocked path (and the file stuck inside it) differ from what latest.json calls for.
    #expect(mismatches.contains("current/branches/\(blocked): missing"), "\(mismatches.prefix(5))")
    #expect(mismatches.allSatisfy { $0.hasPrefix("current/branches/\(blocked)") }, "\(mismatches.prefix(5))")
  }
}
