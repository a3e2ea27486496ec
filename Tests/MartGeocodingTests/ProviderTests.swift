import Foundation
import MartCore
import MartFetch
import MartGeocoding
import MartReplay
import ReplayTestSupport
import TestSupport
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

  /// libcurl, with Naver's origin sent to `baseURL`.
  func naverFetcher(_ baseURL: String) -> OriginRedirectingFetcher {
    OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: [NaverGeocoder.origin: baseURL])
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

  @Test("Kakao: 429 RequestThrottled is a used-up quota: one request, no retry, provider dropped")
  func kakaoQuotaUsedUp() async throws {
    let quota = try GeocodingReplay.exchange(host: "dapi.kakao.com", name: "search-429-1")
    let success = try GeocodingReplay.exchange(host: "dapi.kakao.com", name: "search-429-2")
    let sequence = try SequenceServer([quota, success])
    let geocoder = KakaoGeocoder(
      restAPIKey: "replay-kakao-key", fetcher: kakaoFetcher(sequence.server.baseURL), retryPolicy: .immediate)
    let error = await #expect(throws: GeocodingError.self) {
      try await geocoder.geocode(GeocodingQuery("부산광역시 부산진구 가야대로 506", kind: .road))
    }
    #expect(error?.kind == .quotaExceeded)
    #expect(error?.message.contains("RequestThrottled") == true)
    #expect(error?.disablesProvider == true)
    #expect(sequence.requestCount == 1)
  }

  @Test("Kakao: a 429 with Retry-After is a throttle: waited out on the run's clock, retried, and the answer used")
  func kakaoThrottledThenSuccess() async throws {
    let success = try GeocodingReplay.exchange(host: "dapi.kakao.com", name: "search-429-2")
    var throttle = success
    throttle.status = 429
    throttle.headers = [HTTPHeader("Content-Type", "application/json;charset=UTF-8"), HTTPHeader("Retry-After", "1")]
    throttle.body = Data(#"{"errorType":"TooManyRequests","message":"slow down"}"#.utf8)
    let sequence = try SequenceServer([throttle, success])
    let clock = ManualClock()
    let geocoder = KakaoGeocoder(
      restAPIKey: "replay-kakao-key", fetcher: kakaoFetcher(sequence.server.baseURL), clock: clock)
    let match = try #require(try await geocoder.geocode(GeocodingQuery("부산광역시 부산진구 가야대로 506", kind: .road)))
    // The backoff before the first retry is 0.5 s; the server asked for 1 s, the longer wait.
    #expect(clock.waits == [.seconds(1)])
    #expect(match.point == GeoPoint(latitude: 35.1612070, longitude: 129.0576340))
    #expect(sequence.requestCount == 2)
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

  @Test("Naver: HTTP errors are classified with Naver's error message")
  func naverErrors() async {
    let table = [
      ("대전광역시 중구 오류로 41", GeocodingError.Kind.unauthorized, "Authentication Failed"),
      ("부산광역시 부산진구 가야대로 506", .quotaExceeded, "Quota Exceeded"),
      ("서울특별시 금천구 가산로 106", .serverError(status: 500), "900: Unexpected Error"),
    ]
    await forEachCase(table, named: \.0) { example, name in
      let (query, kind, message) = example
      let error = await #expect(throws: GeocodingError.self, name) {
        try await naver().geocode(GeocodingQuery(query, kind: .road))
      }
      #expect(error?.kind == kind, name)
      #expect(error?.message.contains(message) == true, name)
      #expect(error?.query == query, name)
    }
  }

  /// A Naver answer with HTTP `status` and `body`, for the query the Kakao throttle tests use.
  static func naverAnswer(status: Int, body: String) -> RecordedExchange {
    RecordedExchange(
      method: "GET", url: "https://maps.apigw.ntruss.com/map-geocode/v2/geocode", status: status,
      headers: [HTTPHeader("Content-Type", "application/json;charset=UTF-8")], body: Data(body.utf8))
  }

  @Test("Naver: gateway codes 410 and 420 (string or number) are throttles: retried, provider kept")
  func naverThrottle() async {
    let bodies = [
      #"{"error":{"errorCode":"420","message":"Rate Limited","details":"Rate limited."}}"#,
      #"{"error":{"errorCode":410,"message":"Throttle Limited","details":"Throttle limited."}}"#,
    ]
    await forEachCase(bodies, named: { $0 }) { body, name in
      let found = try GeocodingReplay.exchange(host: "maps.apigw.ntruss.com", name: "geocode-lotte-seoulstation")
      let lasting = try SequenceServer(Array(repeating: Self.naverAnswer(status: 429, body: body), count: 3))
      let geocoder = NaverGeocoder(
        clientID: "replay-naver-id", clientSecret: "replay-naver-secret", fetcher: naverFetcher(lasting.server.baseURL),
        retryPolicy: .immediate)
      let error = await #expect(throws: GeocodingError.self, name) {
        try await geocoder.geocode(GeocodingQuery("서울특별시 중구 한강대로 405", kind: .road))
      }
      #expect(error?.kind == .rateLimited, name)
      #expect(error?.disablesProvider == false, name)
      #expect(error?.message.contains("Limited") == true, name)
      #expect(lasting.requestCount == 3, name)

      let recovering = try SequenceServer([Self.naverAnswer(status: 429, body: body), found])
      let second = NaverGeocoder(
        clientID: "replay-naver-id", clientSecret: "replay-naver-secret",
        fetcher: naverFetcher(recovering.server.baseURL), retryPolicy: .immediate)
      let match = try #require(
        try await second.geocode(GeocodingQuery("서울특별시 중구 한강대로 405", kind: .road)), name)
      #expect(match.point == GeoPoint(latitude: 37.5559140, longitude: 126.9723810), name)
      #expect(recovering.requestCount == 2, name)
    }
  }

  @Test("Naver: code 400 \"Quota Exceeded\" with HTTP 429 stops at once")
  func naverQuotaIsNotRetried() async throws {
    let quota = try GeocodingReplay.exchange(host: "maps.apigw.ntruss.com", name: "geocode-429")
    let sequence = try SequenceServer([quota, quota, quota])
    let geocoder = NaverGeocoder(
      clientID: "replay-naver-id", clientSecret: "replay-naver-secret", fetcher: naverFetcher(sequence.server.baseURL),
      retryPolicy: .immediate)
    let error = await #expect(throws: GeocodingError.self) {
      try await geocoder.geocode(GeocodingQuery("부산광역시 부산진구 가야대로 506", kind: .road))
    }
    #expect(error?.kind == .quotaExceeded)
    #expect(error?.disablesProvider == true)
    #expect(sequence.requestCount == 1)
  }

  @Test("Naver: the service's {status, errorMessage} error body keeps its message")
  func naverServiceErrorShape() async throws {
    let body = #"{"status":"INVALID_REQUEST","errorMessage":"query is INVALID"}"#
    let sequence = try SequenceServer([Self.naverAnswer(status: 400, body: body)])
    let geocoder = NaverGeocoder(
      clientID: "replay-naver-id", clientSecret: "replay-naver-secret", fetcher: naverFetcher(sequence.server.baseURL),
      retryPolicy: .immediate)
    let error = await #expect(throws: GeocodingError.self) {
      try await geocoder.geocode(GeocodingQuery("서울특별시 중구 한강대로 405", kind: .road))
    }
    #expect(error?.kind == .invalidRequest)
    #expect(error?.message == "HTTP 400: INVALID_REQUEST: query is INVALID")
  }

  // MARK: VWorld

  @Test("VWorld: road and parcel queries use the matching type and precision")
  func vworldFound() async {
    let table = [
      ("경상남도 창원시 성산구 중앙대로 123", GeocodingQuery.Kind.road, 35.223726, 128.681746, CoordinatePrecision.building),
      ("경상남도 창원시 성산구 중앙동 92", .parcel, 35.226316, 128.681206, .parcel),
    ]
    await forEachCase(table, named: \.0) { example, name in
      let (query, kind, latitude, longitude, precision) = example
      let match = try #require(try await vworld().geocode(GeocodingQuery(query, kind: kind)), name)
      #expect(match.point == GeoPoint(latitude: latitude, longitude: longitude), name)
      #expect(match.precision == precision, name)
    }
  }

  @Test("VWorld: NOT_FOUND is not found")
  func vworldNotFound() async throws {
    #expect(try await vworld().geocode(GeocodingQuery("서울특별시 송파구 올림픽로 9999", kind: .road)) == nil)
  }

  @Test("VWorld: errors inside HTTP 200 and HTTP 5xx are classified")
  func vworldErrors() async {
    let table = [
      ("revoked-vworld-key", "대전광역시 중구 오류로 41", GeocodingError.Kind.unauthorized, "INCORRECT_KEY"),
      ("replay-vworld-key", "부산광역시 부산진구 가야대로 506", .quotaExceeded, "OVER_REQUEST_LIMIT"),
      ("replay-vworld-key", "서울특별시 금천구 가산로 106", .serverError(status: 502), "HTTP 502"),
    ]
    await forEachCase(table, named: \.1) { example, name in
      let (key, query, kind, message) = example
      let error = await #expect(throws: GeocodingError.self, name) {
        try await vworld(key: key).geocode(GeocodingQuery(query, kind: .road))
      }
      #expect(error?.kind == kind, name)
      #expect(error?.message.contains(message) == true, name)
    }
  }

  @Test("a provider that cannot be reached is a transport error")
  func unreachable() async throws {
    let geocoder = KakaoGeocoder(
      restAPIKey: "k", fetcher: kakaoFetcher("http://127.0.0.1:9"), retryPolicy: FetchRetryPolicy(maxAttempts: 1))
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
