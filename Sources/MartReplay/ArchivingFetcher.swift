import Foundation
import MartFetch
import Synchronization

/// Wraps a fetcher and keeps every response it receives in the recording format, so that a
/// run can be parsed again later without the network: `mart-holiday run --replay <directory>`.
///
/// Archiving never fails a fetch: a response that cannot be written is still returned, and
/// the problem is listed in `writeFailures`.
public final class ArchivingFetcher: HTTPFetching {
  public let upstream: any HTTPFetching
  /// The recording directory (`replay.json` plus one folder per host).
  public let directory: URL
  private let sequence = Mutex(0)
  private let failures = Mutex<[String]>([])

  /// Creates the directory and its `replay.json`, dated `recordedOn` (`YYYY-MM-DD`).
  public init(wrapping upstream: any HTTPFetching, directory: URL, recordedOn: String) throws(ReplayError) {
    self.upstream = upstream
    self.directory = directory
    try ReplayArchive.writeManifest(
      recordedOn: recordedOn, description: "Responses received by a mart-holiday run.", to: directory)
  }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let response = try await upstream.fetch(request)
    let number = sequence.withLock { value in
      value += 1
      return value
    }
    let name = String(format: "%04d-", number) + Self.slug(forURL: request.url)
    do {
      try ReplayArchive.write(RecordedExchange(request: request, response: response), name: name, to: directory)
    } catch {
      failures.withLock { $0.append("\(request.url): \(error)") }
    }
    return response
  }

  /// Responses that could not be written, with the reason.
  public var writeFailures: [String] { failures.withLock { $0 } }

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
