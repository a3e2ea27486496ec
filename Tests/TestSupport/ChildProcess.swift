import Foundation

/// Starts a child process and waits for it through its termination handler.
///
/// `Process.waitUntilExit()` in swift-corelibs-foundation (Linux) runs the run loop until it
/// notices the exit, which here takes tens of milliseconds after the child has ended (measured
/// on the development machine: `/bin/true` waited for so took ~40 ms, through the termination
/// handler ~3 ms; `mart-holiday rule` stopping at a bad option ~85 ms against ~41 ms), the test
/// holding its lane idle the while. The termination handler is called as soon as the child is
/// reaped, so a semaphore it signals ends the wait at once. Same outcome.
public enum ChildProcess {
  /// How a child ended and what it wrote on the pipes it was given.
  public struct Ended: Sendable {
    public var status: Int32
    public var reason: Process.TerminationReason
    public var stdout: Data
    public var stderr: Data

    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
  }

  /// Where a child's standard output or error goes: a pipe read to its end, or a file handle
  /// (such as `/dev/full`, or an open file) it writes to directly.
  public enum Stream {
    case pipe
    case handle(FileHandle)
  }

  /// Runs `executable` with `arguments` (in `directory`, with `environment` replacing the
  /// inherited one when given) and waits for it. Piped streams are read at the same time, so
  /// that a child filling one pipe while the other is being read cannot wait for ever. After
  /// `limit` seconds a child still running is sent SIGTERM, and `timedOut` says so.
  public static func run(
    _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil,
    stdout: Stream = .pipe, stderr: Stream = .pipe, limit: TimeInterval? = nil
  ) throws -> (ended: Ended, timedOut: Bool) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if let environment { process.environment = environment }
    // A pipe only for a stream that is read: the process closes this side's copy of its
    // writing end once the child has it, so that the pipe ends when the child does.
    let outPipe = stdout.isPipe ? Pipe() : nil
    let errPipe = stderr.isPipe ? Pipe() : nil
    switch stdout {
    case .pipe: process.standardOutput = outPipe
    case .handle(let handle): process.standardOutput = handle
    }
    switch stderr {
    case .pipe: process.standardError = errPipe
    case .handle(let handle): process.standardError = handle
    }
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    let errorReader = errPipe.map { EndReader($0.fileHandleForReading) }
    let out = outPipe?.fileHandleForReading.readDataToEndOfFile() ?? Data()
    let err = errorReader?.waitForEnd() ?? Data()
    var timedOut = false
    if let limit {
      if exited.wait(timeout: .now() + limit) == .timedOut {
        timedOut = true
        process.terminate()
        exited.wait()
      }
    } else {
      exited.wait()
    }
    return (
      Ended(status: process.terminationStatus, reason: process.terminationReason, stdout: out, stderr: err),
      timedOut
    )
  }

}

extension ChildProcess.Stream {
  fileprivate var isPipe: Bool {
    if case .pipe = self { return true }
    return false
  }
}

/// Reads a pipe to its end on a thread of its own, while the caller reads another one.
private final class EndReader: @unchecked Sendable {
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

  func waitForEnd() -> Data {
    finished.wait()
    return data
  }
}
