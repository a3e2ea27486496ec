import Foundation
import MartCore
import MartFetch

/// VWorld (공간정보 오픈플랫폼) address-to-coordinate service
/// (`GET /req/address?service=address&request=getcoord`), authorised with a `key` parameter.
///
/// VWorld answers HTTP 200 for its own errors; the outcome is in `response.status`
/// (`OK`, `NOT_FOUND`, `ERROR` with `response.error.code`).
public struct VWorldGeocoder: Geocoder {
  /// The real site's origin; to reach a mirror or the replay server, give the geocoder a
  /// redirecting fetcher (`OriginRedirectingFetcher`).
  public static let origin = "https://api.vworld.kr"

  public let provider = CoordinateSource.vworld
  private let key: String
  private let transport: ProviderTransport

  public init(
    key: String, fetcher: any HTTPFetching,
    retryPolicy: FetchRetryPolicy = .geocoding, clock: any FetchClock = SystemFetchClock()
  ) {
    self.key = key
    self.transport = ProviderTransport(provider: .vworld, fetcher: fetcher, retryPolicy: retryPolicy, clock: clock)
  }

  public func geocode(_ query: GeocodingQuery) async throws(GeocodingError) -> GeocodeMatch? {
    let type = query.kind == .road ? "road" : "parcel"
    let parameters: [(name: String, value: String)] = [
      ("service", "address"), ("request", "getcoord"), ("version", "2.0"), ("crs", "epsg:4326"),
      ("address", query.text), ("refine", "true"), ("simple", "false"), ("format", "json"),
      ("type", type), ("key", key),
    ]
    let request = HTTPRequest.get("\(Self.origin)/req/address?\(FormEncoding.encode(parameters))")
    return try await transport.perform(
      request, query: query.text,
      classify: { response in
        let body = try? JSONDecoder().decode(VWorldResponse.self, from: response.body)
        let detail = body?.response.error.map { [$0.code, $0.text].compactMap { $0 }.joined(separator: ": ") }
        return transport.error(status: response.status, query: query.text, detail: detail)
      },
      decode: { response throws(GeocodingError) in try Self.decode(response.body, query: query) })
  }

  /// Reads a getcoord response: `OK` with `result.point.x/y`, `NOT_FOUND` (nil), or `ERROR`,
  /// classified by its code.
  static func decode(_ body: Data, query: GeocodingQuery) throws(GeocodingError) -> GeocodeMatch? {
    let envelope: VWorldResponse
    do {
      envelope = try JSONDecoder().decode(VWorldResponse.self, from: body)
    } catch {
      throw GeocodingError(
        .malformedResponse, provider: .vworld, query: query.text, message: "unreadable response: \(error)")
    }
    let response = envelope.response
    switch response.status {
    case "OK":
      guard let point = GeoPoint(x: response.result?.point?.x, y: response.result?.point?.y) else {
        throw GeocodingError(
          .malformedResponse, provider: .vworld, query: query.text, message: "OK without a numeric point")
      }
      return GeocodeMatch(point: point, precision: query.kind.precision, matchedAddress: response.refined?.text)
    case "NOT_FOUND":
      return nil
    default:
      let code = response.error?.code ?? ""
      let message = "status \(response.status)" + (response.error.map { ": \($0.code ?? "") \($0.text ?? "")" } ?? "")
      let kind: GeocodingError.Kind =
        switch code {
        case "INVALID_KEY", "INCORRECT_KEY", "UNAVAILABLE_KEY", "UNREGISTERED_KEY": .unauthorized
        case "OVER_REQUEST_LIMIT", "LIMIT_EXCEEDED": .quotaExceeded
        case "SYSTEM_ERROR", "UNKNOWN_ERROR": .serverError(status: 200)
        default: .invalidRequest
        }
      throw GeocodingError(kind, provider: .vworld, query: query.text, message: message)
    }
  }

  private struct VWorldResponse: Decodable {
    struct Body: Decodable {
      struct Refined: Decodable { var text: String? }
      struct Result: Decodable {
        struct Point: Decodable {
          var x: String?
          var y: String?
        }
        var point: Point?
      }
      struct Failure: Decodable {
        var code: String?
        var text: String?
      }
      var status: String
      var refined: Refined?
      var result: Result?
      var error: Failure?
    }
    var response: Body
  }
}
