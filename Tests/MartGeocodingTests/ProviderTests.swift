import Foundation
import MartCore
import MartFetch
import MartGeocoding
import MartReplay
import Testing

/// The real clients (libcurl) against a local server replaying `fixtures/web`.
@Suite("Geocoding providers against recorded responses")
struct ProviderTests {
  let replay: GeocodingReplay
  /// libcurl, with every provider origin sent to the replay server.
  let fetcher: OriginRedirectingFetcher

  init() throws {
    replay = try GeocodingReplay()
    fetcher = OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: replay.server.baseURLOverrides)
  }

  /// libcurl, with Kakao's origin sent to `baseURL`.
  func kakaoFetcher(_ baseURL: String) -> OriginRedirectingFetcher {
    OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: [KakaoGeocoder.origin: baseURL])
  }

  func kakao(key: String = "replay-kakao-key") throws -> KakaoGeocoder {
    KakaoGeocoder(restAPIKey: key, fetcher: fetcher, retryPolicy: .immediate)
  }

  func naver() throws -> NaverGeocoder {
    NaverGeocoder(
      clientID: "replay-naver-id", clientSecret: "replay-naver-secret", fetcher: fetcher, retryPolicy: .immediate)
  }

  func vworld(key: String = "replay-vworld-key") throws -> VWorldGeocoder {
    VWorldGeocoder(key: key, fetcher: fetcher, retryPolicy: .immediate)
  }

  // MARK: Kakao

  @Test("Kakao: a road address match is precise to the building, x is the longitude")
  func kakaoRoad() async throws {
    let match = try #require(try await kakao().geocode(GeocodingQuery("서울특별시 송파구 올림픽로 240", kind: .road)))
    #expect(match.point == GeoPoint(latitude: 37.5112210, longitude: 127.0980440))
    #expect(match.precision == .building)
    #expect(match.matchedAddress == "서울 송파구 올림픽로 240")
  }

  @Test("Kakao: a lot-number match (REGION_ADDR) is precise to the parcel")
  func kakaoParcel() async throws {
    let match = try #require(try await kakao().geocode(GeocodingQuery("충청북도 청주시 흥덕구 비하동 332-1", kind: .parcel)))
    #expect(match.precision == .parcel)
    #expect(match.point == GeoPoint(latitude: 36.6370180, longitude: 127.4310540))
  }

  @Test("Kakao: no documents is not found")
  func kakaoNotFound() async throws {
    #expect(try await kakao().geocode(GeocodingQuery("서울특별시 송파구 올림픽로 9999", kind: .road)) == nil)
  }

  @Test("Kakao: 401 is an authorization error carrying Kakao's errorType")
  func kakaoUnauthorized() async throws {
    let error = await #expect(throws: GeocodingError.self) {
      try await kakao().geocode(GeocodingQuery("대전광역시 중구 오류로 41", kind: .road))
    }
    #expect(error?.kind == .unauthorized)
    #expect(error?.provider == .kakao)
    #expect(error?.message.contains("AccessDeniedError") == true)
    #expect(error?.disablesProvider == true)
  }

  @Test("Kakao: 429 is retried and the next answer is used")
  func kakaoRateLimitedThenSuccess() async throws {
    let sequence = try SequenceServer([
      try GeocodingReplay.exchange(host: "dapi.kakao.com", name: "search-429-1"),
      try GeocodingReplay.exchange(host: "dapi.kakao.com", name: "search-429-2"),
    ])
    let geocoder = KakaoGeocoder(
      restAPIKey: "replay-kakao-key", fetcher: kakaoFetcher(sequence.server.baseURL), retryPolicy: .immediate)
    let match = try #require(try await geocoder.geocode(GeocodingQuery("부산광역시 부산진구 가야대로 506", kind: .road)))
    #expect(match.point == GeoPoint(latitude: 35.1612070, longitude: 129.0576340))
    #expect(sequence.requestCount == 2)
  }

  @Test("Kakao: a lasting 429 gives up after the allowed attempts with a quota error")
  func kakaoRateLimited() async throws {
    let quota = try GeocodingReplay.exchange(host: "dapi.kakao.com", name: "search-429-1")
    let sequence = try SequenceServer([quota, quota, quota, quota])
    let geocoder = KakaoGeocoder(
      restAPIKey: "replay-kakao-key", fetcher: kakaoFetcher(sequence.server.baseURL),
      retryPolicy: RetryPolicy(maxAttempts: 3, initialDelay: .zero, maxDelay: .zero))
    let error = await #expect(throws: GeocodingError.self) {
      try await geocoder.geocode(GeocodingQuery("부산광역시 부산진구 가야대로 506", kind: .road))
    }
    #expect(error?.kind == .quotaExceeded)
    #expect(error?.message.contains("RequestThrottled") == true)
    #expect(sequence.requestCount == 3)
  }

  @Test("Kakao: 503 with an HTML body is a server error after retries")
  func kakaoServerError() async throws {
    let error = await #expect(throws: GeocodingError.self) {
      try await kakao().geocode(GeocodingQuery("서울특별시 금천구 가산로 106", kind: .road))
    }
    #expect(error?.kind == .serverError(status: 503))
    #expect(error?.message.hasPrefix("HTTP 503") == true)
  }

  // MARK: Naver

  @Test("Naver: a match with a building number is precise to the building")
  func naverRoad() async throws {
    let match = try #require(try await naver().geocode(GeocodingQuery("서울특별시 중구 한강대로 405", kind: .road)))
    #expect(match.point == GeoPoint(latitude: 37.5559140, longitude: 126.9723810))
    #expect(match.precision == .building)
    #expect(match.matchedAddress == "서울특별시 중구 한강대로 405 서울역")
  }

  @Test("Naver: a match with only a lot number is precise to the parcel")
  func naverParcel() async throws {
    let match = try #require(try await naver().geocode(GeocodingQuery("경상남도 창원시 성산구 중앙동 92", kind: .parcel)))
    #expect(match.precision == .parcel)
    #expect(match.matchedAddress == "경상남도 창원시 성산구 중앙동 92")
  }

  @Test("Naver: status OK with no addresses is not found")
  func naverNotFound() async throws {
    #expect(try await naver().geocode(GeocodingQuery("서울특별시 송파구 올림픽로 9999", kind: .road)) == nil)
  }

  @Test(
    "Naver: HTTP errors are classified with Naver's error message",
    arguments: [
      ("대전광역시 중구 오류로 41", GeocodingError.Kind.unauthorized, "Authentication Failed"),
      ("부산광역시 부산진구 가야대로 506", .quotaExceeded, "Quota Exceeded"),
      ("서울특별시 금천구 가산로 106", .serverError(status: 500), "Internal Server Error"),
    ])
  func naverErrors(query: String, kind: GeocodingError.Kind, message: String) async throws {
    let error = await #expect(throws: GeocodingError.self) {
      try await naver().geocode(GeocodingQuery(query, kind: .road))
    }
    #expect(error?.kind == kind)
    #expect(error?.message.contains(message) == true)
    #expect(error?.query == query)
  }

  // MARK: VWorld

  @Test(
    "VWorld: road and parcel queries use the matching type and precision",
    arguments: [
      ("경상남도 창원시 성산구 중앙대로 123", GeocodingQuery.Kind.road, 35.223726, 128.681746, CoordinatePrecision.building),
      ("경상남도 창원시 성산구 중앙동 92", .parcel, 35.226316, 128.681206, .parcel),
    ])
  func vworldFound(
    query: String, kind: GeocodingQuery.Kind, latitude: Double, longitude: Double, precision: CoordinatePrecision
  ) async throws {
    let match = try #require(try await vworld().geocode(GeocodingQuery(query, kind: kind)))
    #expect(match.point == GeoPoint(latitude: latitude, longitude: longitude))
    #expect(match.precision == precision)
  }

  @Test("VWorld: NOT_FOUND is not found")
  func vworldNotFound() async throws {
    #expect(try await vworld().geocode(GeocodingQuery("서울특별시 송파구 올림픽로 9999", kind: .road)) == nil)
  }

  @Test(
    "VWorld: errors inside HTTP 200 and HTTP 5xx are classified",
    arguments: [
      ("revoked-vworld-key", "대전광역시 중구 오류로 41", GeocodingError.Kind.unauthorized, "INCORRECT_KEY"),
      ("replay-vworld-key", "부산광역시 부산진구 가야대로 506", .quotaExceeded, "OVER_REQUEST_LIMIT"),
      ("replay-vworld-key", "서울특별시 금천구 가산로 106", .serverError(status: 502), "HTTP 502"),
    ])
  func vworldErrors(key: String, query: String, kind: GeocodingError.Kind, message: String) async throws {
    let error = await #expect(throws: GeocodingError.self) {
      try await vworld(key: key).geocode(GeocodingQuery(query, kind: .road))
    }
    #expect(error?.kind == kind)
    #expect(error?.message.contains(message) == true)
  }

  @Test("a provider that cannot be reached is a transport error")
  func unreachable() async throws {
    let geocoder = KakaoGeocoder(
      restAPIKey: "k", fetcher: kakaoFetcher("http://127.0.0.1:9"), retryPolicy: RetryPolicy(maxAttempts: 1))
    let error = await #expect(throws: GeocodingError.self) {
      try await geocoder.geocode(GeocodingQuery("서울특별시 송파구 올림픽로 240", kind: .road))
    }
    #expect(error?.kind == .transport)
  }

  @Test("every request the clients made was recorded")
  func noUnmatchedRequests() async throws {
    _ = try await kakao().geocode(GeocodingQuery("서울특별시 송파구 올림픽로 240", kind: .road))
    _ = try await naver().geocode(GeocodingQuery("서울특별시 중구 한강대로 405", kind: .road))
    _ = try await vworld().geocode(GeocodingQuery("경상남도 창원시 성산구 중앙대로 123", kind: .road))
    #expect(replay.server.unmatchedRequests.isEmpty)
  }
}
