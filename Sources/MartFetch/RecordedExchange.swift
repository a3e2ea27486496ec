import Foundation

/// One recorded request and the response it got: what a recording (MartReplay, in the format of
/// `docs/recordings.md`) holds and the replay server answers, and what the brands' sample data
/// generators make.
public struct RecordedExchange: Sendable, Hashable {
  /// The request method, e.g. `POST`.
  public var method: String
  /// The absolute, percent-encoded request URL.
  public var url: String
  /// The request body as text; nil means empty.
  public var requestBody: String?
  public var status: Int
  /// The response headers, in order.
  public var headers: [HTTPHeader]
  /// The response body, verbatim (already decoded from any Content-Encoding).
  public var body: Data

  public init(
    method: String, url: String, requestBody: String? = nil, status: Int, headers: [HTTPHeader], body: Data
  ) {
    self.method = method
    self.url = url
    self.requestBody = requestBody
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The recorded response, as a fetcher returns it for `requestURL`.
  public func response(to requestURL: String) -> HTTPResponse {
    HTTPResponse(requestURL: requestURL, finalURL: requestURL, status: status, headers: headers, body: body)
  }

  /// Records a fetched request and its response.
  public init(request: HTTPRequest, response: HTTPResponse) {
    let requestBody = request.body.flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
    self.init(
      method: request.method.rawValue, url: request.url, requestBody: requestBody, status: response.status,
      headers: response.headers, body: response.body)
  }
}

