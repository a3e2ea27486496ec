import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output and standard error as every command writes them. A write that fails (a reader
/// that went away, a full disk behind a redirection) never stops the process: the failure is
/// remembered, and the command ends with its own exit status once its work is done (see
/// ``MartHoliday/main()``). Broken pipes give `EPIPE` instead of `SIGPIPE`.
enum StandardStreams {
  private static let outputFailure = Mutex<String?>(nil)

  /// Makes a write to a closed pipe fail with `EPIPE` instead of ending the process.
  static func ignoreBrokenPipes() {
    signal(SIGPIPE, SIG_IGN)
  }

  /// Writes `text` to standard output; a failure is kept for ``outputProblem``.
  static func out(_ text: String) {
    if let problem = writeAll(text, to: STDOUT_FILENO) {
      outputFailure.withLock { failure in failure = failure ?? problem }
    }
  }

  /// Writes `text` and a line break to standard output.
  static func outLine(_ text: String) { out(text + "\n") }

  /// Writes `text` to standard error. A failure there has nowhere to be told, and changes
  /// nothing: the exit status still says what the command did.
  static func err(_ text: String) {
    _ = writeAll(text, to: STDERR_FILENO)
  }

  /// Why the first write to standard output failed, if one did (`No space left on device`).
  static var outputProblem: String? { outputFailure.withLock { $0 } }

  /// Writes every byte of `text` to `descriptor`, retrying interrupted and partial writes.
  /// Returns the error's description when the write fails.
  private static func writeAll(_ text: String, to descriptor: Int32) -> String? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBytes { buffer -> String? in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return String(cString: strerror(errno))
        }
        offset += written
      }
      return nil
    }
  }
}
