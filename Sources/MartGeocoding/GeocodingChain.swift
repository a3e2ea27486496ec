import Foundation
import MartCore
import MartFetch
import MartSQLite
import Synchronization

/// One step of locating a branch: which provider was asked what, and what came of it.
public struct GeocodingAttempt: Hashable, Sendable, CustomStringConvertible {
  public enum Result: Hashable, Sendable {
    /// A point was found (and accepted or rejected by validation; see the warnings).
    case found
    /// The provider knows no such address.
    case notFound
    /// The request failed.
    case failed(String)
  }

  public var provider: CoordinateSource
  public var query: String
  /// Whether the answer came from the cache instead of the provider.
  public var fromCache: Bool
  public var result: Result

  public var description: String {
    let answer: String =
      switch result {
      case .found: "found"
      case .notFound: "not found"
      case .failed(let message): "failed: \(message)"
      }
    return "\(provider.rawValue)\(fromCache ? " (cached)" : ""): \"\(query)\" → \(answer)"
  }
}

/// The result of locating one branch.
public struct GeocodingOutcome: Hashable, Sendable {
  /// The validated coordinate, or `nil` when no source or provider gave a point inside Korea.
  public var coordinate: Coordinate?
  /// Rejected or corrected points, provider failures, cache problems.
  public var warnings: [String]
  /// The queries sent to providers (or answered by the cache), in order, without repeats.
  public var queriesTried: [String]
  /// Every step, in order.
  public var attempts: [GeocodingAttempt]

  public init(
    coordinate: Coordinate? = nil, warnings: [String] = [], queriesTried: [String] = [],
    attempts: [GeocodingAttempt] = []
  ) {
    self.coordinate = coordinate
    self.warnings = warnings
    self.queriesTried = queriesTried
    self.attempts = attempts
  }
}

/// Locates branches: the source's own coordinates when valid, then the cache, then the providers
/// in order, for each query candidate in turn (road form, lot-number form, district).
///
/// Every point is validated (domestic range, swapped axes repaired). A provider whose key is
/// rejected or whose quota is exhausted is not asked again by this chain.
public final class GeocodingChain: Sendable {
  /// The providers in the order they are asked.
  public let geocoders: [any Geocoder]
  public let cache: GeocodeCache?
  /// How long a remembered "not found" stands before the provider is asked again.
  public let notFoundLifetime: Duration
  /// What the cache's answers are dated by and their age counted on (the run's clock).
  public let clock: any FetchClock
  /// Providers switched off for the rest of the run (rejected key, exhausted quota).
  private let disabledProviders = Mutex<Set<CoordinateSource>>([])

  public init(
    geocoders: [any Geocoder], cache: GeocodeCache?, notFoundLifetime: Duration = .seconds(30 * 86_400),
    clock: any FetchClock = SystemFetchClock()
  ) {
    self.geocoders = geocoders
    self.cache = cache
    self.notFoundLifetime = notFoundLifetime
    self.clock = clock
  }

  /// Builds the chain from the environment:
  /// - `KAKAO_REST_API_KEY`: Kakao Local REST API key;
  /// - `NAVER_CLIENT_ID`, `NAVER_CLIENT_SECRET`: Naver Cloud Platform Maps application keys;
  /// - `VWORLD_API_KEY`: VWorld open API key;
  /// - `MART_GEOCODERS`: the order, comma-separated (default `kakao,naver,vworld`).
  ///
  /// A provider without its key is skipped. Providers address their real sites; to reach a
  /// replay server or mirror instead, pass a redirecting fetcher (`OriginRedirectingFetcher`).
  /// `cachePath` `nil` disables the cache.
  public static func fromEnvironment(
    cachePath: String?, fetcher: any HTTPFetching,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    retryPolicy: FetchRetryPolicy = .geocoding, clock: any FetchClock = SystemFetchClock()
  ) throws(GeocodeCacheError) -> GeocodingChain {
    fromEnvironment(
      cache: try cachePath.map { path throws(GeocodeCacheError) in try GeocodeCache(path: path) }, fetcher: fetcher,
      environment: environment, retryPolicy: retryPolicy, clock: clock)
  }

  /// The chain the environment asks for (see above), over an open cache (`nil`: none).
  public static func fromEnvironment(
    cache: GeocodeCache?, fetcher: any HTTPFetching,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    retryPolicy: FetchRetryPolicy = .geocoding, clock: any FetchClock = SystemFetchClock()
  ) -> GeocodingChain {
    func value(_ name: String) -> String? {
      environment[name].map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    }
    let order = (value("MART_GEOCODERS") ?? "kakao,naver,vworld")
      .split(separator: ",").compactMap {
        CoordinateSource(rawValue: $0.trimmingCharacters(in: .whitespaces).lowercased())
      }
    var geocoders: [any Geocoder] = []
    for provider in order {
      switch provider {
      case .kakao:
        if let key = value("KAKAO_REST_API_KEY") {
          geocoders.append(
            KakaoGeocoder(
              restAPIKey: key, fetcher: fetcher, retryPolicy: retryPolicy, clock: clock))
        }
      case .naver:
        if let id = value("NAVER_CLIENT_ID"), let secret = value("NAVER_CLIENT_SECRET") {
          geocoders.append(
            NaverGeocoder(
              clientID: id, clientSecret: secret, fetcher: fetcher,
              retryPolicy: retryPolicy, clock: clock))
        }
      case .vworld:
        if let key = value("VWORLD_API_KEY") {
          geocoders.append(
            VWorldGeocoder(
              key: key, fetcher: fetcher, retryPolicy: retryPolicy, clock: clock))
        }
      case .site:
        continue
      }
    }
    return GeocodingChain(geocoders: geocoders, cache: cache, clock: clock)
  }

  /// The real origins of every provider the chain can ask.
  public static let providerOrigins = [KakaoGeocoder.origin, NaverGeocoder.origin, VWorldGeocoder.origin]

  /// The keys the recordings under `fixtures/web` were made with: pass them as
  /// `environment` to `fromEnvironment` when replaying.
  public static let replayEnvironment: [String: String] = [
    "KAKAO_REST_API_KEY": "replay-kakao-key",
    "NAVER_CLIENT_ID": "replay-naver-id",
    "NAVER_CLIENT_SECRET": "replay-naver-secret",
    "VWORLD_API_KEY": "replay-vworld-key",
  ]

  /// Locates one branch from the coordinate its source published (if any) and its address.
  /// Without an address only the site's coordinate can be used.
  public func locate(siteCoordinate: GeoPoint?, address: KoreanAddress?) async -> GeocodingOutcome {
    var outcome = GeocodingOutcome()
    if let siteCoordinate {
      let (coordinate, warning) = CoordinateValidation.validate(
        siteCoordinate, source: .site,
        precision: CoordinatePrecision(publishedFractionDigits: siteCoordinate.fractionDigits))
      if let warning { outcome.warnings.append(warning) }
      if let coordinate {
        outcome.coordinate = coordinate
        return outcome
      }
    }
    guard let address else {
      if siteCoordinate == nil { outcome.warnings.append("no address and no coordinates") }
      return outcome
    }
    let queries = GeocodingQuery.candidates(for: address)
    if queries.isEmpty {
      let unparsed = address.unparsed.isEmpty ? "" : " (not understood: \(address.unparsed.joined(separator: ", ")))"
      outcome.warnings.append("no geocoding query can be built from \"\(address.raw)\"\(unparsed)")
      return outcome
    }
    for query in queries {
      for geocoder in geocoders where !isDisabled(geocoder.provider) {
        if !outcome.queriesTried.contains(query.text) { outcome.queriesTried.append(query.text) }
        if let coordinate = await attempt(query, with: geocoder, outcome: &outcome) {
          outcome.coordinate = coordinate
          return outcome
        }
      }
    }
    return outcome
  }

  /// Asks the cache, then the provider; records the step. Returns a validated coordinate or nil.
  private func attempt(
    _ query: GeocodingQuery, with geocoder: any Geocoder, outcome: inout GeocodingOutcome
  ) async -> Coordinate? {
    let provider = geocoder.provider
    var match: GeocodeMatch?
    var fromCache = false
    do {
      if let cached = try cache?.lookup(provider: provider, query: query.text) {
        if let found = cached.match {
          match = found
          fromCache = true
        } else if clock.date.timeIntervalSince(cached.storedAt) < notFoundLifetime.seconds {
          outcome.attempts.append(
            GeocodingAttempt(provider: provider, query: query.text, fromCache: true, result: .notFound))
          return nil
        }
      }
    } catch {
      outcome.warnings.append(error.description)
    }
    if !fromCache {
      do {
        match = try await geocoder.geocode(query)
      } catch {
        outcome.warnings.append(error.description)
        outcome.attempts.append(
          GeocodingAttempt(provider: provider, query: query.text, fromCache: false, result: .failed(error.message)))
        if error.disablesProvider, disabledProviders.withLock({ $0.insert(provider).inserted }) {
          let reason = error.kind == .quotaExceeded ? "its quota is used up" : "its key was rejected"
          outcome.warnings.append("\(provider.rawValue) is not asked again in this run: \(reason)")
        }
        return nil
      }
      do {
        try cache?.store(provider: provider, query: query.text, match: match, at: clock.date)
      } catch {
        outcome.warnings.append(error.description)
      }
    }
    outcome.attempts.append(
      GeocodingAttempt(
        provider: provider, query: query.text, fromCache: fromCache, result: match == nil ? .notFound : .found))
    guard let match else { return nil }
    let (coordinate, warning) = CoordinateValidation.validate(match.point, source: provider, precision: match.precision)
    if let warning { outcome.warnings.append("\(warning) for \"\(query.text)\"") }
    return coordinate
  }
}

extension GeocodingChain {
  private func isDisabled(_ provider: CoordinateSource) -> Bool {
    disabledProviders.withLock { $0.contains(provider) }
  }
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
