import Foundation
import MartCore
import MartFetch
import MartFiles
import MartReplay
import Synchronization
import TestSupport

/// The recorded provider responses under `fixtures/web`, served by a `ReplayServer`.
struct GeocodingReplay {
  let server: ReplayServer
  let archive: ReplayArchive

  init() throws {
    let directory = FixturePaths.fixtures.appendingPathComponent("web")
    archive = try ReplayArchive.load(from: directory)
    guard !archive.exchanges.isEmpty else {
      throw FileError(.read, path: directory.path, message: "no recorded exchanges")
    }
    server = try ReplayServer.start(archive: archive)
  }

  /// The exchange recorded in `<host>/<name>.exchange.json`.
  static func exchange(host: String, name: String) throws -> RecordedExchange {
    try ReplayArchive.readExchange(FixturePaths.web.appendingPathComponent("\(host)/\(name).exchange.json"))
  }
}

/// Serves recorded exchanges one after another, whatever is asked: a provider that answers 429
/// and then succeeds. Counts the requests it received.
final class SequenceServer: Sendable {
  /// Counts requests across the server's threads.
  private final class Counter: Sendable {
    private let value = Mutex(0)
    /// Returns the current count and increments it.
    func next() -> Int {
      value.withLock { count in
        defer { count += 1 }
        return count
      }
    }
    var current: Int { value.withLock { $0 } }
  }

  let server: LocalHTTPServer
  private let counter = Counter()

  init(_ exchanges: [RecordedExchange]) throws {
    let counter = self.counter
    server = try LocalHTTPServer { _ in
      let index = counter.next()
      guard index < exchanges.count else { return .text("no more recorded responses", status: 599) }
      let exchange = exchanges[index]
      return ServerResponse(status: exchange.status, headers: exchange.headers, body: exchange.body)
    }
  }

  var requestCount: Int { counter.current }

  deinit { server.stop() }
}

/// Wraps a fetcher and remembers every requested URL.
final class RecordingFetcher: HTTPFetching {
  private let base: any HTTPFetching
  private let urls = Mutex<[String]>([])

  init(_ base: any HTTPFetching) { self.base = base }

  var requestedURLs: [String] { urls.withLock { $0 } }

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    urls.withLock { $0.append(request.url) }
    return try await base.fetch(request)
  }
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
  let url = Scratch.directory.appendingPathComponent("mart-geocoding-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
