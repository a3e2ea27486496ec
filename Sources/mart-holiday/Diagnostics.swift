import ArgumentParser
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How diagnostics are written to stderr.
enum LogFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// `warning: …` lines for people.
  case text
  /// One JSON object per line (`time`, `level`, `message`, and any metadata) for schedulers;
  /// the message carries no column padding.
  case json
}

/// Writes log messages to stderr, one line each: stdout stays for a command's result.
struct StandardErrorLogHandler: LogHandler {
  let format: LogFormat
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let level = event.level
    let merged = self.metadata.merging(event.metadata ?? [:]) { _, new in new }
    let text = event.message.description.split(whereSeparator: \.isNewline).joined(separator: " ")
    var output: String
    switch format {
    case .text:
      switch level {
      case .trace, .debug, .info, .notice: output = text
      case .warning: output = "warning: \(text)"
      case .error, .critical: output = "error: \(text)"
      }
    // Fields are for schedulers (JSON); the text line already says what they hold.
    case .json:
      var object: [String: Any] = [
        "time": ISO8601DateFormatter().string(from: Date()), "level": level.rawValue, "message": text,
      ]
      for (key, value) in merged where object[key] == nil { object[key] = Self.jsonValue(value) }
      let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
      output = data.map { String(decoding: $0, as: UTF8.self) } ?? "{\"level\":\"error\",\"message\":\"unencodable\"}"
    }
    StandardStreams.err(output + "\n")
  }

  /// A metadata value as JSON: counts stay numbers, so schedulers can add them up; lists (the
  /// brands of a source) stay arrays.
  static func jsonValue(_ value: Logger.MetadataValue) -> Any {
    switch value {
    case .stringConvertible(let convertible): Int(convertible.description) ?? convertible.description
    case .string(let text): text
    case .array(let values): values.map(jsonValue)
    case .dictionary(let fields): fields.mapValues(jsonValue)
    }
  }
}

extension Logger {
  /// A logger writing to stderr in `format`.
  static func standardError(label: String, format: LogFormat) -> Logger {
    Logger(label: label) { _ in StandardErrorLogHandler(format: format) }
  }
}

/// Turns SIGINT and SIGTERM into the cancellation of one task: transfers stop, nothing is
/// published, and the run still writes `report.json` saying it was cancelled. A further signal
/// while it stops does not cut that short: it ends the process only when the stopping run has
/// not finished within ``graceAfterSecondSignal``.
final class SignalCancellation: Sendable {
  private final class Received: Sendable {
    let first = Mutex<Int32?>(nil)
  }

  nonisolated(unsafe) private let sources: [any DispatchSourceSignal]
  private let received = Received()

  /// Starts listening; `cancel` is called on the first signal.
  init(cancel: @escaping @Sendable () -> Void) {
    let received = self.received
    sources = [SIGINT, SIGTERM].map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: SignalCancellation.queue)
      source.setEventHandler {
        let first = received.first.withLock { current in
          defer { if current == nil { current = number } }
          return current == nil
        }
        if first {
          cancel()
        } else {
          let status = 128 + (received.first.withLock { $0 } ?? number)
          DispatchQueue.global().asyncAfter(deadline: .now() + SignalCancellation.graceAfterSecondSignal) {
            exit(status)
          }
        }
      }
      source.resume()
      return source
    }
  }

  /// Where a signal is handled: a serial queue of its own, which gets a thread even while every
  /// worker of the global queues is busy (a run encoding its bundle on one core and compressing
  /// on the other), so a stop reaches the run at once instead of when a worker frees up.
  static let queue = DispatchQueue(label: "mart-holiday.signals")

  /// How long a further signal lets the stopping run finish (its report) before the process ends.
  static let graceAfterSecondSignal: TimeInterval = 10

  /// The signal that arrived first, if any.
  var receivedSignal: Int32? { received.first.withLock { $0 } }

  /// `SIGINT` or `SIGTERM`.
  static func name(_ number: Int32) -> String {
    number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
  }

  /// Stops listening.
  func stop() { for source in sources { source.cancel() } }
}
