import Foundation
import TestSupport
import Testing

/// `scripts/scheduled-run.sh` diffs against a copy of the bundle it replaces and of the report
/// of the run that made it, so its diff lists the register's cross-checks the new run reported
/// and the last one did not (docs/scheduling.md), and no other.
@Suite struct RegisterScheduledDiffTests {
  /// The recorded register without the rows of 관리번호 `left`: each line holding one goes (the
  /// numbers are ASCII in CP949 too).
  static func register(without left: [String]) throws -> Data {
    let full = try FixturePaths.data("register/register-2026.csv")
    let lines = full.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).filter { line in
      !left.contains { line.range(of: Data($0.utf8)) != nil }
    }
    return Data(lines.joined(separator: [UInt8(ascii: "\n")]))
  }

  @Test func theScheduledDiffListsTheRegistersNewFindings() throws {
    // fixtures/README.md: 이마트 청계천점 is open in the register and not among 이마트's stores
    // (register-unlisted); 트레이더스 마곡점 is a permit of 2026-11-15 (register-new-permit).
    let unlisted = "2008301010007500002"
    let permit = "2026350010807500001"
    let full = try FixturePaths.data("register/register-2026.csv")
    let first = try Self.register(without: [unlisted, permit])
    try #require(first.count < full.count)
    let root = Scratch.directory.appendingPathComponent("register-scheduled-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    // The recordings of the first day: the fixtures' with the register lacking the two rows.
    let recordings = root.appendingPathComponent("web")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: FixturePaths.web, to: recordings)
    let body = recordings.appendingPathComponent("file.localdata.go.kr/register.body.csv")
    try #require(try Data(contentsOf: body) == full)
    try FileManager.default.removeItem(at: body)
    try first.write(to: body)
    let output = root.appendingPathComponent("output")
    let state = root.appendingPathComponent("output-state")
    let script = FixturePaths.repositoryRoot.appendingPathComponent("scripts/scheduled-run.sh").path
    func scheduled(asOf: String, replay: URL) throws -> ProcessRunner.Outcome {
      try ProcessRunner.run(
        URL(fileURLWithPath: "/usr/bin/env"),
        [
          "MART_HOLIDAY=\(CommandLineContractTests.binary.path)", "KEEP=1", "ALLOW_STALE=1", "bash", script,
          output.path, "--replay", replay.path, "--as-of", asOf,
        ], in: FixturePaths.repositoryRoot)
    }

    let day1 = try scheduled(asOf: "2026-11-20", replay: recordings)
    #expect(day1.status == 0, "stderr: \(day1.stderrText)")
    let day2 = try scheduled(asOf: "2026-11-21", replay: FixturePaths.web)
    #expect(day2.status == 0, "stderr: \(day2.stderrText)")
    let diff = try String(contentsOf: state.appendingPathComponent("diff.txt"), encoding: .utf8)
    // The two stores the first register lacked are new findings; those both runs reported are not.
    let findings = diff.split(separator: "\n").filter { $0.contains("(관리번호 ") }
    #expect(findings.count == 2, "\(diff)")
    #expect(findings.contains { $0.contains("register-unlisted") && $0.contains(unlisted) }, "\(diff)")
    #expect(findings.contains { $0.contains("register-new-permit") && $0.contains(permit) }, "\(diff)")
  }
}
