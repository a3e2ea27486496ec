import Foundation
import MartCore
import MartFetch

/// Naver Cloud Platform Maps geocoding (`GET /map-geocode/v2/geocode`), authorised with the
/// `x-ncp-apigw-api-key-id` and `x-ncp-apigw-api-key` headers.
public struct NaverGeocoder: Geocoder {
  /// The real site's origin; to reach a mirror or the replay server, give the geocoder a
  /// redirecting fetcher (`OriginRedirectingFetcher`).
  public static let origin = "https://maps.apigw.ntruss.com"

  public let provider = CoordinateSource.naver
  private let clientID: String
  private let clientSecret: String
  private let transport: ProviderTransport

  public init(
    clientID: String, clientSecret: String, fetcher: any HTTPFetching, retryPolicy: FetchRetryPolicy = .geocoding,
    clock: any FetchClock = SystemFetchClock()
  ) {
    self.clientID = clientID
    self.clientSecret = clientSecret
    self.transport = ProviderTransport(provider: .naver, fetcher: fetcher, retryPolicy: retryPolicy, clock: clock)
  }

  public func geocode(_ query: GeocodingQuery) async throws(GeocodingError) -> GeocodeMatch? {
    let request = HTTPRequest.get(
      "\(Self.origin)/map-geocode/v2/geocode?query=\(FormEncoding.escape(query.text))",
      headers: [
        HTTPHeader("x-ncp-apigw-api-key-id", clientID), HTTPHeader("x-ncp-apigw-api-key", clientSecret),
        HTTPHeader("Accept", "application/json"),
      ])
    return try await transport.perform(
      request, query: query.text,
      classify: { response in
        let body = NaverError.read(response.body)
        return transport.error(
          status: response.status, query: query.text, detail: body?.detail,
          kind: Self.classify(status: response.status, code: body?.code,
            retryAfter: response.headers.value(named: "Retry-After")))
      },
      decode: { response throws(GeocodingError) in try Self.decode(response.body, query: query) })
  }

  /// Reads a geocode response: `status` must be `OK`; the first address's `x`/`y`, precise to the
  /// building when it has a building number, to the parcel when it has a lot number. `nil` when
  /// `addresses` is empty.
  static func decode(_ body: Data, query: GeocodingQuery) throws(GeocodingError) -> GeocodeMatch? {
    let response: NaverResponse
    do {
      response = try JSONDecoder().decode(NaverResponse.self, from: body)
    } catch {
      throw GeocodingError(
        .malformedResponse, provider: .naver, query: query.text, message: "unreadable response: \(error)")
    }
    guard response.status == "OK" else {
      let message = "status \(response.status)" + (response.errorMessage.map { ": \($0)" } ?? "")
      let kind: GeocodingError.Kind = response.status == "SYSTEM_ERROR" ? .serverError(status: 200) : .invalidRequest
      throw GeocodingError(kind, provider: .naver, query: query.text, message: message)
    }
    guard let address = response.addresses?.first else { return nil }
    guard let point = GeoPoint(x: address.x, y: address.y) else {
      throw GeocodingError(
        .malformedResponse, provider: .naver, query: query.text,
        message: "address without numeric x/y: \(address.x ?? "nil"), \(address.y ?? "nil")")
    }
    func element(_ type: String) -> String? {
      address.addressElements?.first { $0.types.contains(type) }.flatMap { $0.longName.isEmpty ? nil : $0.longName }
    }
    let precision: CoordinatePrecision =
      element("BUILDING_NUMBER") != nil ? .building : element("LAND_NUMBER") != nil ? .parcel : .district
    let matched = [address.roadAddress, address.jibunAddress].compactMap { $0 }.first { !$0.isEmpty }
    return GeocodeMatch(point: point, precision: precision.coarsened(to: query.kind.precision), matchedAddress: matched)
  }

  private struct NaverResponse: Decodable {
    struct Address: Decodable {
      struct Element: Decodable {
        var types: [String]
        var longName: String
      }
      var roadAddress: String?
      var jibunAddress: String?
      var addressElements: [Element]?
      var x: String?
      var y: String?
    }
    var status: String
    var addresses: [Address]?
    var errorMessage: String?
  }

  /// The error kind Naver's own code implies (API Gateway codes): 400 "Quota Exceeded" is a
  /// used-up quota; 410 "Throttle Limited", 420 "Rate Limited" or a `Retry-After` is a
  /// short-term throttle; 900 "Unexpected Error" is a server error. Nil: classify by status.
  static func classify(status: Int, code: String?, retryAfter: String?) -> GeocodingError.Kind? {
    switch code {
    case "400" where status == 429: return .quotaExceeded
    case "410", "420": return .rateLimited
    case "900": return .serverError(status: status)
    default: return retryAfter != nil && status == 429 ? .rateLimited : nil
    }
  }

  /// Naver's two error bodies: the API Gateway's `{"error": {"errorCode", "message", "details"}}`
  /// and the service's `{"status", "errorMessage"}`; codes may be strings or numbers.
  struct NaverError: Decodable {
    var code: String?
    var detail: String

    static func read(_ body: Data) -> NaverError? {
      guard let error = try? JSONDecoder().decode(NaverError.self, from: body), !error.detail.isEmpty else {
        return nil
      }
      return error
    }

    private struct Gateway: Decodable {
      var errorCode: LooseString?
      var message: String?
      var details: String?
    }
    private enum Keys: String, CodingKey { case error, status, errorMessage }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: Keys.self)
      if let gateway = try container.decodeIfPresent(Gateway.self, forKey: .error) {
        code = gateway.errorCode?.value
        detail = [gateway.errorCode?.value, gateway.message, gateway.details].compactMap { $0 }
          .filter { !$0.isEmpty }.joined(separator: ": ")
      } else {
        let status = try container.decodeIfPresent(LooseString.self, forKey: .status)?.value
        code = status
        detail = [status, try container.decodeIfPresent(String.self, forKey: .errorMessage)].compactMap { $0 }
          .filter { !$0.isEmpty }.joined(separator: ": ")
      }
    }
  }

  /// A JSON string or number, as text.
  private struct LooseString: Decodable {
    var value: String

    init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let text = try? container.decode(String.self) {
        value = text
      } else if let number = try? container.decode(Int.self) {
        value = String(number)
      } else {
        value = String(try container.decode(Double.self))
      }
    }
  }
}
