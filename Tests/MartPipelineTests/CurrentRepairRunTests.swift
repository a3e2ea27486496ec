import Foundation
import MartCore
import MartExport
import MartGeocoding
import MartPipeline
import TestSupport
import Testing

/// `current/` repairs what stands in its way: a folder where one of its files belongs, or a
/// file where one of its folders belongs, is removed and reported, and the rest is written.
@Suite(.serialized) struct CurrentRepairRunTests {
  let asOf = CalendarDate(iso: "2026-11-20")!

  func run(_ output: URL) async throws -> RunReport {
    try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: asOf, geocodingRetryPolicy: .immediate)
    ).report
  }

  @Test func whatStandsInTheWayIsRemovedAndTheRunFinishesTheJob() async throws {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("current-\(UUID().uuidString)/output")
    _ = try await run(output)
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
}
