import Foundation
import Testing

/// The example executable prints a branch's month from a published output directory.
@Suite struct ClientExampleTests {
  /// Runs the built example with `arguments`: its exit status, standard output and error.
  static func runExample(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("mart-holiday-client-example")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, text, errorText)
  }

  @Test func printsTheMonthWithClosedAndUnknownDays() async throws {
    let output = try await PublishedFixtures.shared.output()
    // homeplus-658 lists 11/25 only (the 4th Wednesday): known from the as-of day (11-20) through 11-25.
    let (status, text, _) = try Self.runExample([output.path, "homeplus-658", "2026-11-20"])
    #expect(status == 0)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasSuffix("(homeplus-658) — 2026-11") == true, "\(text)")
    // November 2026 starts on a Sunday (python3: calendar.monthrange(2026, 11) == (6, 30)).
    #expect(lines.contains("  1?   2?   3?   4?   5?   6?   7? "), "\(text)")
    #expect(lines.contains(" 15?  16?  17?  18?  19?  20   21  "), "\(text)")
    #expect(lines.contains(" 22   23   24  [25]  26?  27?  28? "), "\(text)")
    #expect(lines.contains("data: fresh as of 2026-11-20"), "\(text)")
    #expect(lines.last == "next closing day after 2026-11-20: 2026-11-25")
  }

  @Test func saysFromWhichDayNothingIsKnown() async throws {
    let output = try await PublishedFixtures.shared.output()
    // After 11-25 homeplus-658's source says nothing: 11-26 is the first unknown day.
    let (status, text, _) = try Self.runExample([output.path, "homeplus-658", "2026-11-25"])
    #expect(status == 0)
    #expect(text.hasSuffix("next closing day after 2026-11-25: not known (unknown from 2026-11-26)\n"), "\(text)")
  }

  @Test func tellsARemovedBranchFromAnUnknownId() async throws {
    let output = try await PublishedFixtures.shared.copy()
    try BundleEdits.setRemoved(in: output, #"[{"brand":"emart","id":"emart-2001","lastListed":"2026-11-13"}]"#)
    let removed = try Self.runExample([output.path, "emart-2001", "2026-11-20"])
    #expect(removed.status == 1)
    #expect(removed.error == "error: emart-2001 is no longer listed by its source, last listed 2026-11-13\n")
    let unknown = try Self.runExample([output.path, "emart-2002", "2026-11-20"])
    #expect(unknown.status == 1)
    #expect(unknown.error.hasPrefix("error: no branch emart-2002 in bundle "), "\(unknown.error)")
  }
}
