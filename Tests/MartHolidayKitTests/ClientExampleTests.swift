import Foundation
import Testing

/// The example executable prints a branch's month from a published output directory.
@Suite struct ClientExampleTests {
  @Test func printsTheMonthWithClosedAndUnknownDays() async throws {
    let output = try await PublishedFixtures.shared.output()
    let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("mart-holiday-client-example")
    let process = Process()
    process.executableURL = binary
    // homeplus-658 lists 11/22 only: known from the as-of day (11-20) through 11-22.
    process.arguments = [output.path, "homeplus-658", "2026-11-20"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lines = text.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasSuffix("(homeplus-658) — 2026-11") == true, "\(text)")
    // November 2026 starts on a Sunday (python3: calendar.monthrange(2026, 11) == (6, 30)).
    #expect(lines.contains("  1?   2?   3?   4?   5?   6?   7? "), "\(text)")
    #expect(lines.contains(" 15?  16?  17?  18?  19?  20   21  "), "\(text)")
    #expect(lines.contains("[22]  23?  24?  25?  26?  27?  28? "), "\(text)")
    #expect(lines.last == "next closing day after 2026-11-20: 2026-11-22")
  }
}
