import Foundation

/// The Python 3 interpreter the tests run scripts with: the `python3` the `PATH` names,
/// resolved once per test process.
///
/// Where `python3` is a version manager's shim (pyenv's is a shell script that starts a few
/// more processes to choose the version), every run through it cost about 85 ms of CPU before
/// the interpreter started, which itself takes about 12 ms (measured 2026-12-03); the suite
/// starts Python some sixty times.
public enum Python3 {
  /// The program and arguments that run `arguments` (a script and its arguments, or `-c` and
  /// code) with the interpreter.
  public static func invocation(_ arguments: [String]) -> (executable: URL, arguments: [String]) {
    if let interpreter { return (interpreter, arguments) }
    return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments)
  }

  /// The interpreter's own path, as it reports it; nil when it could not be asked (then each
  /// run goes through `env python3`, and fails there as it would have).
  private static let interpreter: URL? = {
    guard
      let ended = try? ProcessRunner.run(
        URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import sys; sys.stdout.write(sys.executable)"]),
      ended.status == 0, !ended.stdoutText.isEmpty,
      FileManager.default.isExecutableFile(atPath: ended.stdoutText)
    else { return nil }
    return URL(fileURLWithPath: ended.stdoutText)
  }()
}
