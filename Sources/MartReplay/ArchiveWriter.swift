import Foundation
import MartCore
import MartFetch
import MartFiles
import Synchronization

/// Writes the responses a run receives (the archive layer of its ``FetchStack``), so that the run
/// can be parsed again later without the network: `mart-holiday run --replay <archive>`. A run's
/// archive is one WARC file (``WARCWriter``); a recording folder (`replay.json` plus one folder
/// per host, the format of `fixtures/web`) is kept when asked for (`--archive DIR`).
///
/// Writing never fails a fetch: a response that cannot be written is listed in `writeFailures`.
public final class ArchiveWriter: ResponseKeeping {
  /// The WARC file or the recording folder.
  public let location: URL
  private let warc: WARCWriter?
  private let sequence = Mutex(0)
  private let failures = Mutex<[String]>([])

  /// Keeps responses in a recording folder: creates `directory` and its `replay.json`, dated
  /// `recordedOn` (`YYYY-MM-DD`).
  public init(directory: URL, recordedOn: String) throws(FileError) {
    self.location = directory
    warc = nil
    try ReplayArchive.writeManifest(
      recordedOn: recordedOn, description: "Responses received by a mart-holiday run.", to: directory)
  }

  /// Keeps responses in the WARC file `warcFile`, created now with its `warcinfo` record dated
  /// `recordedOn`; `userAgent` is what the transport sends with every request. Records are
  /// dated by `clock` (the run's).
  public init(
    warcFile: URL, recordedOn: String, userAgent: String?, clock: any FetchClock = SystemFetchClock()
  ) throws(FileError) {
    self.location = warcFile
    warc = try WARCWriter(creating: warcFile, recordedOn: recordedOn, userAgent: userAgent, clock: clock)
  }

  public func keep(_ request: HTTPRequest, _ response: HTTPResponse) {
    do {
      if let warc {
        try warc.append(request, response)
      } else {
        let number = sequence.withLock { value in
          value += 1
          return value
        }
        let name = String(format: "%04d-", number) + Self.slug(forURL: request.url)
        try ReplayArchive.write(RecordedExchange(request: request, response: response), name: name, to: location)
      }
    } catch {
      failures.withLock { $0.append("\(request.url): \(error)") }
    }
  }

  /// Makes what was kept durable, once, when the run ends: the WARC file flushed and closed, or
  /// the recording folder flushed with one barrier.
  public func finish() throws(FileError) {
    if let warc {
      try warc.finish()
    } else {
      try ReplayArchive.makeDurable(location)
    }
  }

  /// Responses that could not be written, with the reason: each one, including every exchange
  /// of a WARC chunk whose write failed.
  public var writeFailures: [String] { failures.withLock { $0 } + (warc?.unwritten ?? []) }

  /// The last path segment of a URL, reduced to letters, digits, `.`, `_` and `-`.
  static func slug(forURL url: String) -> String {
    let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
    let last = path.split(separator: "/").last.map(String.init) ?? "root"
    let cleaned = String(
      last.unicodeScalars.map { scalar -> Character in
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
          ? Character(scalar) : "_"
      })
    return String(cleaned.prefix(60))
  }
}
