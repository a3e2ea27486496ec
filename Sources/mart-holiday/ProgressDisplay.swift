import Foundation
import Logging
import MartFetch
import MartPipeline

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shows a run's progress on stderr while it goes on: on a terminal, one live line per brand
/// source, redrawn in place; otherwise a plain log line per source that moved, every
/// `interval`, and one when it finishes.
struct ProgressDisplay {
  let progress: RunProgress
  let logger: Logger
  let interval: Duration
  /// Whether stderr is a terminal (and the log format is text).
  let live: Bool
  /// Whether log lines pad the brands into a column (text); JSON messages are not padded.
  let padded: Bool
  /// What the lines are spaced on: the run's clock.
  let clock: any FetchClock

  /// Runs until cancelled, then draws the last state once more.
  func run() async {
    var drawnLines = 0
    var logged: [String: RunProgress.Counts] = [:]
    while true {
      let cancelled = Task.isCancelled
      let snapshot = progress.snapshot
      if live {
        var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        for counts in snapshot { text += "\u{1B}[2K" + Self.line(counts, padded: true) + "\n" }
        drawnLines = snapshot.count
        StandardStreams.err(text)
      } else {
        // A line for each source that moved since its last line.
        for counts in snapshot where logged[counts.label] != counts {
          logged[counts.label] = counts
          logger.info(
            "\(Self.line(counts, padded: padded))",
            metadata: [
              "brands": .array(counts.brands.map { .string($0) }), "state": .string(counts.done ? "done" : "fetching"),
              "requests": .stringConvertible(counts.started), "finished": .stringConvertible(counts.finished),
              "failed": .stringConvertible(counts.failed), "bytes": .stringConvertible(counts.bytes),
            ])
        }
      }
      if cancelled { return }
      do { try await clock.sleep(for: live ? .milliseconds(200) : interval) } catch {}
    }
  }

  /// `emart+traders     fetching 12/14 requests, 0 failed, 1.2 MB` (`done` at the end) with the
  /// brands padded into a column; unpadded, `emart, traders: fetching …`.
  static func line(_ counts: RunProgress.Counts, padded: Bool) -> String {
    let label =
      padded
      ? counts.label.padding(toLength: max(17, counts.label.count), withPad: " ", startingAt: 0)
      : counts.brands.joined(separator: ", ") + ":"
    let state = counts.done ? "done" : "fetching"
    return
      "\(label) \(state) \(counts.finished)/\(counts.started) requests, \(counts.failed) failed, \(ByteCount.text(counts.bytes))"
  }

  /// Whether stderr is a terminal.
  static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
