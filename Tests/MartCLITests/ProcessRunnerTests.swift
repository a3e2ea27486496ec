import Foundation
import TestSupport
import Testing

/// The runner the command-line tests start the binary with: both pipes are read together, so a
/// child that writes more to stderr than a pipe holds (about 64 KB) before closing stdout finishes.
@Suite struct ProcessRunnerTests {
  @Test func aChildFillingStderrBeforeStdoutIsReadToTheEnd() throws {
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "head -c 300000 /dev/zero >&2; printf done"])
    #expect(outcome.status == 0)
    #expect(outcome.stderr.count == 300_000)
    #expect(outcome.stdoutText == "done")
  }
}
