import Foundation
import MartCore
import MartFetch

/// Kakao Local address search (`GET /v2/local/search/address.json`), authorised with a REST API
/// key (`Authorization: KakaoAK <key>`).
public struct KakaoGeocoder: Geocoder {
  /// The real site's origin; to reach a mirror or the replay server, give the geocoder a
  /// redirecting fetcher (`OriginRedirectingFetcher`).
  public static let origin = "https://dapi.kakao.com"

  public let provider = CoordinateSource.kakao
  private let restAPIKey: String
  private let transport: ProviderTransport

  public init(
    restAPIKey: String, fetcher: any HTTPFetching,
    retryPolicy: FetchRetryPolicy = .geocoding, clock: any FetchClock = SystemFetchClock()
  ) {
    self.restAPIKey = restAPIKey
    self.transport = ProviderTransport(provider: .kakao, fetcher: fetcher, retryPolicy: retryPolicy, clock: clock)
  }

  public func geocode(_ query: GeocodingQuery) async throws(GeocodingError) -> GeocodeMatch? {
    let request = HTTPRequest.get(
      "\(Self.origin)/v2/local/search/address.json?query=\(FormEncoding.escape(query.text))",
      headers: [HTTPHeader("Authorization", "KakaoAK \(restAPIKey)")])
    return try await transport.perform(
      request, query: query.text,
      classify: { response in
        let body = try? JSONDecoder().decode(KakaoError.self, from: response.body)
        let detail = body.map { [$0.errorType, $0.message].compactMap { $0 }.joined(separator: ": ") }
        // Kakao answers a used-up daily quota with 429 RequestThrottled; a 429 without it is a
        // short-term throttle.
        let quota = response.status == 429 && body?.errorType == "RequestThrottled"
        return transport.error(
          status: response.status, query: query.text, detail: detail, kind: quota ? .quotaExceeded : nil)
      },
      decode: { response throws(GeocodingError) in try Self.decode(response.body, query: query) })
  }

  /// Reads a search response: the first document's `x` (longitude) and `y` (latitude), with the
  /// precision its `address_type` implies. `nil` when there are no documents.
  static func decode(_ body: Data, query: GeocodingQuery) throws(GeocodingError) -> GeocodeMatch? {
    let response: KakaoResponse
    do {
      response = try JSONDecoder().decode(KakaoResponse.self, from: body)
    } catch {
      throw GeocodingError(
        .malformedResponse, provider: .kakao, query: query.text, message: "unreadable response: \(error)")
    }
    guard let document = response.documents.first else { return nil }
    guard let point = GeoPoint(x: document.x, y: document.y) else {
      throw GeocodingError(
        .malformedResponse, provider: .kakao, query: query.text,
        message: "document without numeric x/y: \(document.x ?? "nil"), \(document.y ?? "nil")")
    }
    let precision: CoordinatePrecision =
      switch document.address_type {
      case "ROAD_ADDR": .building
      case "REGION_ADDR": .parcel
      default: .district  // REGION, ROAD: a place or a whole road, not an address
      }
    return GeocodeMatch(
      point: point, precision: precision.coarsened(to: query.kind.precision), matchedAddress: document.address_name)
  }

  private struct KakaoResponse: Decodable {
    struct Document: Decodable {
      var address_name: String?
      var address_type: String?
      var x: String?
      var y: String?
    }
    var documents: [Document]
  }

  private struct KakaoError: Decodable {
    var errorType: String?
    var message: String?
  }
}
