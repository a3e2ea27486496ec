import Foundation
import MartFetch
import MartReplay
import TestSupport

/// Answers requests from the recorded exchanges under `fixtures/web/<host>/`, matched exactly
/// as the replay server matches them (`ReplayArchive.match`), and keeps the requests it saw.
/// Unrecorded requests get a 404.
actor FixtureFetcher: HTTPFetching {
  private let archive: ReplayArchive
  private(set) var requests: [HTTPRequest] = []

  /// Serves the recordings of `hosts` in `folder` (`fixtures/web/` unless told).
  init(hosts: Set<String>, folder: URL = FixturePaths.web) throws {
    archive = try ReplayArchive.load(from: folder).restricted(toHosts: hosts)
  }

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    requests.append(request)
    guard let exchange = archive.match(request) else {
      return HTTPResponse(requestURL: request.url, finalURL: request.url, status: 404, headers: [], body: Data())
    }
    return exchange.response(to: request.url)
  }
}
