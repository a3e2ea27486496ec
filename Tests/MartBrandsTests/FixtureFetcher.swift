import Foundation
import MartFetch
import TestSupport

/// Answers requests from the recorded exchanges under `fixtures/web/<host>/`, matching them the
/// way the replay server does (method, path, query and form body as multisets), and keeps the
/// requests it saw. Unrecorded requests get a 404.
actor FixtureFetcher: HTTPFetching {
  private struct Exchange: Decodable {
    struct Request: Decodable {
      let method: String
      let url: String
      let body: String?
    }
    struct Response: Decodable {
      let bodyFile: String?
      let headers: [[String]]
      let status: Int
    }
    let request: Request
    let response: Response
  }

  private var exchanges: [(exchange: Exchange, folder: URL)] = []
  private(set) var requests: [HTTPRequest] = []

  init(hosts: [String]) throws {
    for host in hosts {
      let folder = FixturePaths.web.appendingPathComponent(host)
      let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
      for name in names where name.hasSuffix(".exchange.json") {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        exchanges.append((try JSONDecoder().decode(Exchange.self, from: data), folder))
      }
    }
  }

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    requests.append(request)
    let requestBody = request.body.map { String(decoding: $0, as: UTF8.self) } ?? ""
    for (exchange, folder) in exchanges
    where exchange.request.method == request.method.rawValue
      && Self.sameResource(exchange.request.url, request.url)
      && Self.fields(exchange.request.body ?? "") == Self.fields(requestBody)
    {
      var body = Data()
      if let bodyFile = exchange.response.bodyFile {
        do {
          body = try Data(contentsOf: folder.appendingPathComponent(bodyFile))
        } catch {
          throw FetchError(.transport, url: request.url, message: "missing fixture body \(bodyFile)")
        }
      }
      return HTTPResponse(
        requestURL: request.url, finalURL: request.url, status: exchange.response.status,
        headers: exchange.response.headers.map { HTTPHeader($0[0], $0[1]) }, body: body)
    }
    return HTTPResponse(requestURL: request.url, finalURL: request.url, status: 404, headers: [], body: Data())
  }

  /// Same host, path and query-parameter multiset.
  private static func sameResource(_ recorded: String, _ requested: String) -> Bool {
    guard let left = URLComponents(string: recorded), let right = URLComponents(string: requested) else {
      return false
    }
    return left.host == right.host && left.path == right.path
      && fields(left.percentEncodedQuery ?? "") == fields(right.percentEncodedQuery ?? "")
  }

  /// Form fields as a sorted list, for multiset comparison.
  private static func fields(_ form: String) -> [String] {
    FormEncoding.decode(form).map { "\($0.name)=\($0.value)" }.sorted()
  }
}
