import Foundation
import MartCore
import MartFetch

/// One geocoding candidate: the text sent to a provider and what kind of address it is.
public struct GeocodingQuery: Hashable, Sendable {
  public enum Kind: String, Hashable, Sendable {
    /// A road-name address (도로명).
    case road
    /// A lot-number address (지번).
    case parcel
    /// Only the 동, 읍/면 or district.
    case district

    /// The best precision a match for this kind of query can have.
    var precision: CoordinatePrecision {
      switch self {
      case .road: .building
      case .parcel: .parcel
      case .district: .district
      }
    }
  }

  public var text: String
  public var kind: Kind

  public init(_ text: String, kind: Kind) {
    self.text = text
    self.kind = kind
  }

  /// The candidates for an address, best first: `KoreanAddress.queryCandidates` (road form,
  /// lot-number form, district, each also under a former province name where geocoders may still
  /// know only that one).
  public static func candidates(for address: KoreanAddress) -> [GeocodingQuery] {
    address.queryCandidates.map { candidate in
      let kind: Kind =
        switch candidate.form {
        case .road: .road
        case .lot: .parcel
        case .district: .district
        }
      return GeocodingQuery(candidate.text, kind: kind)
    }
  }
}

/// A provider's answer: the point as the provider gave it (not yet validated).
public struct GeocodeMatch: Hashable, Sendable {
  public var point: GeoPoint
  public var precision: CoordinatePrecision
  /// The address the provider matched, as it wrote it.
  public var matchedAddress: String?

  public init(point: GeoPoint, precision: CoordinatePrecision, matchedAddress: String? = nil) {
    self.point = point
    self.precision = precision
    self.matchedAddress = matchedAddress
  }
}

/// A geocoding request that failed: which provider, which query, why.
public struct GeocodingError: LocatedError, Hashable, Sendable {
  public enum Kind: Hashable, Sendable {
    /// The key is missing, wrong or not enabled for this API (HTTP 401/403 or the provider's code).
    case unauthorized
    /// The provider's quota is used up for the day (Kakao `RequestThrottled`, Naver code 400
    /// "Quota Exceeded", VWorld `OVER_REQUEST_LIMIT`): not retried, and the provider is not asked
    /// again in this run.
    case quotaExceeded
    /// A short-term throttle (Naver codes 410 "Throttle Limited" and 420 "Rate Limited", a
    /// `Retry-After`, or any other HTTP 429): retried after a pause; the provider stays in use.
    case rateLimited
    /// The provider rejected the request as malformed.
    case invalidRequest
    /// The provider failed (HTTP 5xx or its own system error).
    case serverError(status: Int)
    /// The response could not be read.
    case malformedResponse
    /// The provider could not be reached.
    case transport
  }

  public var kind: Kind
  public var provider: CoordinateSource
  public var query: String
  public var message: String

  public init(_ kind: Kind, provider: CoordinateSource, query: String, message: String) {
    self.kind = kind
    self.provider = provider
    self.query = query
    self.message = message
  }

  /// Whether trying again later may succeed.
  public var isRetryable: Bool {
    switch kind {
    case .rateLimited, .serverError, .transport: true
    case .quotaExceeded, .unauthorized, .invalidRequest, .malformedResponse: false
    }
  }

  /// Whether the provider is unusable for the rest of the run (bad key, quota gone).
  public var disablesProvider: Bool {
    switch kind {
    case .unauthorized, .quotaExceeded: true
    default: false
    }
  }

  /// The query that failed.
  public var location: String { query }

  public var description: String { "\(provider.rawValue) geocoding of \"\(query)\" failed: \(message)" }
}

/// A geocoding API client.
public protocol Geocoder: Sendable {
  /// Which provider this is; recorded as the coordinate's source.
  var provider: CoordinateSource { get }
  /// The provider's best match for the query, or `nil` when it finds nothing.
  func geocode(_ query: GeocodingQuery) async throws(GeocodingError) -> GeocodeMatch?
}

/// The HTTP exchange shared by the providers: fetch, classify the status, retry when sensible.
/// Retries are the fetch layers' own (`RetryingFetcher`): the one backoff, waited on the run's
/// one clock; what is worth asking again is the provider's to say (a throttle is, a used-up
/// quota is not).
struct ProviderTransport: Sendable {
  var provider: CoordinateSource
  var retrying: RetryingFetcher

  /// - Parameters:
  ///   - fetcher: the polite network (`FetchStack.politeNetwork`).
  ///   - retryPolicy: attempts, backoff and the longest `Retry-After` waited out
  ///     (`FetchRetryPolicy.geocoding` by default).
  ///   - clock: what the backoffs wait on (`FetchStack.clock`).
  init(provider: CoordinateSource, fetcher: any HTTPFetching, retryPolicy: FetchRetryPolicy, clock: any FetchClock) {
    self.provider = provider
    self.retrying = RetryingFetcher(wrapping: fetcher, policy: retryPolicy, clock: clock)
  }

  /// Performs `request` and hands 2xx responses to `decode`; maps other statuses with `classify`
  /// (which reads the provider's error body). Retries retryable failures, waiting between attempts.
  func perform<Result>(
    _ request: HTTPRequest, query: String,
    classify: (HTTPResponse) -> GeocodingError,
    decode: (HTTPResponse) throws(GeocodingError) -> Result
  ) async throws(GeocodingError) -> Result {
    func outcome(_ response: HTTPResponse) -> Swift.Result<Result, GeocodingError> {
      guard response.isSuccess else { return .failure(classify(response)) }
      do throws(GeocodingError) { return .success(try decode(response)) } catch { return .failure(error) }
    }
    let response: HTTPResponse
    do {
      response = try await retrying.fetch(
        request,
        retryingAnswers: { answer in
          if case .failure(let error) = outcome(answer) { error.isRetryable } else { false }
        }, returningTheLastAnswer: true)
    } catch {
      throw GeocodingError(.transport, provider: provider, query: query, message: error.description)
    }
    switch outcome(response) {
    case .success(let value):
      return value
    case .failure(var error):
      let policy = retrying.policy
      if error.isRetryable, let retryAfter = response.headers.value(named: "Retry-After"),
        let asked = RetryAfter.delay(retryAfter, now: retrying.clock.date), asked > policy.maxRetryAfter
      {
        error.message += "; Retry-After \(retryAfter) is longer than the \(policy.maxRetryAfter) allowed"
      }
      throw error
    }
  }

  /// The error for a non-2xx status, with the provider's own message when it sent one. `kind`
  /// overrides the classification by status (a provider's own code tells quota from throttle).
  func error(
    status: Int, query: String, detail: String?, kind: GeocodingError.Kind? = nil
  ) -> GeocodingError {
    let kind =
      kind
      ?? {
        switch status {
        case 401, 403: .unauthorized
        case 429: .rateLimited
        case 500...599: .serverError(status: status)
        default: .invalidRequest
        }
      }()
    var message = "HTTP \(status)" + (detail.map { ": \($0)" } ?? "")
    if kind == .quotaExceeded { message += " (quota used up; not retried)" }
    return GeocodingError(kind, provider: provider, query: query, message: message)
  }
}

extension GeoPoint {
  /// A point from the `x` (longitude) and `y` (latitude) strings the Korean APIs send.
  init?(x: String?, y: String?) {
    guard let x, let y, let longitude = Double(x), let latitude = Double(y) else { return nil }
    self.init(latitude: latitude, longitude: longitude)
  }
}

extension CoordinatePrecision {
  /// The coarser of two precisions.
  func coarsened(to limit: CoordinatePrecision) -> CoordinatePrecision {
    let order: [CoordinatePrecision] = [.building, .parcel, .district]
    return order[max(order.firstIndex(of: self) ?? 2, order.firstIndex(of: limit) ?? 2)]
  }
}
