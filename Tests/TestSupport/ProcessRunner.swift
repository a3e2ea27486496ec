import Foundation

/// Runs programs to the end for tests: the built `mart-holiday`, `python3`, a process that has
/// exited. ``ChildProcess`` is under it, for a test that sends a stream elsewhere or limits the
/// time.
public enum ProcessRunner {
  /// How a finished process ended and what it wrote.
  public typealias Outcome = ChildProcess.Ended

  /// Runs `executable` with `arguments` (in `directory`, when given; with `environment` added
  /// to the inherited one) and waits for it, both pipes read at the same time
  /// (``ChildProcess/run(_:_:in:environment:stdout:stderr:limit:)``).
  public static func run(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
  ) throws -> Outcome {
    let inherited = ProcessInfo.processInfo.environment
    return try ChildProcess.run(
      executable, arguments, in: directory,
      environment: environment.isEmpty ? nil : inherited.merging(environment) { _, added in added }
    ).ended
  }

  /// `cp -a source target`: a copy that keeps hard links (an output's `current/` files are
  /// links to its bundle's, which a run checks and keeps; `FileManager.copyItem` makes separate
  /// files of them), times, modes and symbolic links, in one child process.
  public static func copyTree(_ source: URL, to target: URL) throws {
    let copied = try run(URL(fileURLWithPath: "/bin/cp"), ["-a", source.path, target.path])
    guard copied.status == 0 else {
      throw CopyFailed(description: "cp -a \(source.path) \(target.path) exited \(copied.status): \(copied.stderrText)")
    }
  }

  /// `cp -a` did not exit 0.
  public struct CopyFailed: Error, CustomStringConvertible {
    public var description: String
  }

  /// The id of a process that has exited, standing in for a run that was killed.
  public static func exitedProcessIdentifier() throws -> Int32 {
    let gone = Process()
    gone.executableURL = URL(fileURLWithPath: "/bin/true")
    try gone.run()
    gone.waitUntilExit()
    return gone.processIdentifier
  }

}
