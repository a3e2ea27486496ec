import Foundation

/// Runs programs to the end for tests: the built `mart-holiday`, `python3`, a process that has
/// exited.
public enum ProcessRunner {
  /// How a finished process ended and what it wrote.
  public struct Outcome: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data

    /// Standard output as UTF-8 text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// Standard error as UTF-8 text.
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
  }

  /// Runs `executable` with `arguments` (in `directory`, when given) and waits for it.
  ///
  /// Both pipes are read at the same time: a child that fills one (a pipe holds about 64 KB)
  /// while the other is being read to its end would otherwise wait for ever.
  public static func run(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
    }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let errorReader = PipeReader(stderr.fileHandleForReading)
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = errorReader.waitForEnd()
    process.waitUntilExit()
    return Outcome(status: process.terminationStatus, stdout: out, stderr: err)
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

/// Reads a pipe to its end on a thread of its own, while the caller reads another one.
private final class PipeReader: @unchecked Sendable {
  // Safe: `data` is written once, by the reading thread before it signals `finished`, and read
  // only after waiting for that signal.
  private var data = Data()
  private let finished = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      finished.signal()
    }
  }

  /// Everything the pipe carried, once its writers have closed it.
  func waitForEnd() -> Data {
    finished.wait()
    return data
  }
}
