import Foundation
import MartCore
import MartFetch
import MartGeocoding
import MartReplay
import TestSupport
import Testing

@Suite("Geocoding chain")
struct GeocodingChainTests {
  let replay: GeocodingReplay

  init() throws {
    replay = try GeocodingReplay()
  }

  /// A chain over the replay server with the replay keys, a fresh cache, and a fetcher that
  /// remembers what it was asked.
  func makeChain(
    order: String = "kakao,naver,vworld", cachePath: String? = nil
  ) throws -> (GeocodingChain, RecordingFetcher) {
    let fetcher = RecordingFetcher(
      OriginRedirectingFetcher(wrapping: CurlHTTPClient(), overrides: replay.server.baseURLOverrides))
    var environment = GeocodingChain.replayEnvironment
    environment["MART_GEOCODERS"] = order
    let chain = try GeocodingChain.fromEnvironment(
      cachePath: try cachePath ?? temporaryDirectory().appendingPathComponent("geocode.sqlite").path,
      fetcher: fetcher, environment: environment,
      retryPolicy: .immediate)
    return (chain, fetcher)
  }

  @Test("a valid site coordinate is used without asking any provider")
  func siteCoordinate() async throws {
    let (chain, fetcher) = try makeChain()
    let outcome = await chain.locate(
      siteCoordinate: GeoPoint(latitude: 37.6523810, longitude: 127.0474650),
      address: KoreanAddress(parsing: "서울특별시 도봉구 노해로 65"))
    #expect(
      outcome.coordinate
        == Coordinate(latitude: 37.6523810, longitude: 127.0474650, source: .site, precision: .building))
    #expect(outcome.warnings.isEmpty)
    #expect(fetcher.requestedURLs.isEmpty)
  }

  @Test("a swapped site coordinate is corrected and reported")
  func swappedSiteCoordinate() async throws {
    let (chain, fetcher) = try makeChain()
    let outcome = await chain.locate(
      siteCoordinate: GeoPoint(latitude: 129.36009447, longitude: 36.02490301),
      address: KoreanAddress(parsing: "경북 포항시 북구 중흥로 244(죽도동 607-1)"))
    #expect(outcome.coordinate?.latitude == 36.02490301)
    #expect(outcome.coordinate?.longitude == 129.36009447)
    #expect(outcome.coordinate?.source == .site)
    #expect(outcome.warnings.count == 1)
    #expect(fetcher.requestedURLs.isEmpty)
  }

  @Test("a (0,0) site coordinate is rejected and the address geocoded instead")
  func nullSiteCoordinate() async throws {
    let (chain, _) = try makeChain()
    let outcome = await chain.locate(
      siteCoordinate: GeoPoint(latitude: 0, longitude: 0),
      address: KoreanAddress(parsing: "서울특별시 송파구 올림픽로 240 (잠실동)"))
    #expect(
      outcome.coordinate
        == Coordinate(latitude: 37.5112210, longitude: 127.0980440, source: .kakao, precision: .building))
    #expect(outcome.warnings.contains { $0.contains("null point") })
    #expect(outcome.queriesTried == ["서울특별시 송파구 올림픽로 240"])
  }

  @Test("when Kakao finds nothing the next provider is asked for the same query")
  func fallsThroughProviders() async throws {
    let (chain, fetcher) = try makeChain()
    let outcome = await chain.locate(
      siteCoordinate: nil, address: KoreanAddress(parsing: "서울특별시 중구 한강대로 405, 서울역 2층 (봉래동2가)"))
    #expect(
      outcome.coordinate
        == Coordinate(latitude: 37.5559140, longitude: 126.9723810, source: .naver, precision: .building))
    #expect(outcome.attempts.map(\.provider) == [.kakao, .naver])
    #expect(outcome.attempts.map(\.result) == [.notFound, .found])
    #expect(fetcher.requestedURLs.count == 2)
  }

  @Test("a mixed old/new address is sent as its clean road form")
  func mixedAddressUsesRoadForm() async throws {
    let (chain, fetcher) = try makeChain()
    let outcome = await chain.locate(
      siteCoordinate: nil, address: KoreanAddress(parsing: "서울 송파구 잠실동 올림픽로 240 롯데월드몰 1층"))
    #expect(outcome.coordinate?.source == .kakao)
    #expect(outcome.queriesTried == ["서울특별시 송파구 올림픽로 240"])
    let url = try #require(fetcher.requestedURLs.first)
    let query = FormEncoding.decode(String(url.split(separator: "?", maxSplits: 1)[1]))
    #expect(query.map(\.value) == ["서울특별시 송파구 올림픽로 240"])
  }

  @Test("a provider that knows 전남광주통합특별시 finds the branch under the new name, with no other request")
  func mergedProvinceUnderItsNewName() async throws {
    let (chain, fetcher) = try makeChain(order: "kakao")
    let outcome = await chain.locate(siteCoordinate: nil, address: KoreanAddress(parsing: "광주광역시 광산구 장신로 98 (장덕동)"))
    #expect(
      outcome.coordinate
        == Coordinate(latitude: 35.1895720, longitude: 126.8119190, source: .kakao, precision: .building))
    #expect(outcome.queriesTried == ["전남광주통합특별시 광산구 장신로 98"])
    #expect(fetcher.requestedURLs.count == 1)
  }

  @Test("a provider that knows only 전라남도 finds the branch by the former name's road form, not a district")
  func mergedProvinceUnderItsFormerName() async throws {
    let (chain, _) = try makeChain(order: "kakao")
    let outcome = await chain.locate(siteCoordinate: nil, address: KoreanAddress(parsing: "전남 순천시 장명로 30"))
    #expect(
      outcome.coordinate
        == Coordinate(latitude: 34.9506000, longitude: 127.4872000, source: .kakao, precision: .building))
    #expect(outcome.queriesTried == ["전남광주통합특별시 순천시 장명로 30", "전라남도 순천시 장명로 30"])
    #expect(outcome.attempts.map(\.result) == [.notFound, .found])
    #expect(outcome.warnings.isEmpty)
  }

  @Test("a lot-number address is located precise to the parcel")
  func lotNumberAddress() async throws {
    let (chain, _) = try makeChain(order: "vworld")
    let outcome = await chain.locate(siteCoordinate: nil, address: KoreanAddress(parsing: "경남 창원시 성산구 중앙동 92"))
    #expect(
      outcome.coordinate == Coordinate(latitude: 35.226316, longitude: 128.681206, source: .vworld, precision: .parcel))
    #expect(outcome.queriesTried == ["경상남도 창원시 성산구 중앙동 92"])
  }

  @Test("answers are cached: a second chain on the same database asks no provider")
  func cacheAvoidsRequests() async throws {
    let cachePath = try temporaryDirectory().appendingPathComponent("geocode.sqlite").path
    let address = KoreanAddress(parsing: "서울특별시 중구 한강대로 405, 서울역 2층 (봉래동2가)")
    let (first, firstFetcher) = try makeChain(cachePath: cachePath)
    let firstOutcome = await first.locate(siteCoordinate: nil, address: address)
    #expect(firstFetcher.requestedURLs.count == 2)

    let (second, secondFetcher) = try makeChain(cachePath: cachePath)
    let secondOutcome = await second.locate(siteCoordinate: nil, address: address)
    #expect(secondFetcher.requestedURLs.isEmpty)
    #expect(secondOutcome.coordinate == firstOutcome.coordinate)
    #expect(secondOutcome.attempts.allSatisfy { $0.fromCache })
    #expect(secondOutcome.attempts.map(\.result) == [.notFound, .found])
  }

  @Test("a rejected key switches the provider off for the rest of the run")
  func unauthorizedProviderIsSkipped() async throws {
    let (chain, fetcher) = try makeChain(order: "kakao")
    let failed = await chain.locate(siteCoordinate: nil, address: KoreanAddress(parsing: "대전광역시 중구 오류로 41"))
    #expect(failed.coordinate == nil)
    #expect(failed.warnings.contains { $0.contains("HTTP 401") })
    let skipped = await chain.locate(siteCoordinate: nil, address: KoreanAddress(parsing: "서울특별시 송파구 올림픽로 240"))
    #expect(skipped.coordinate == nil)
    #expect(skipped.attempts.isEmpty)
    #expect(fetcher.requestedURLs.count == 1)
  }

  @Test("a branch no provider can locate has no coordinate, every query tried, and the reasons")
  func notGeocodable() async throws {
    let (chain, _) = try makeChain()
    let outcome = await chain.locate(
      siteCoordinate: nil, address: KoreanAddress(parsing: "서울특별시 송파구 잠실동 올림픽로 9999"))
    #expect(outcome.coordinate == nil)
    #expect(outcome.queriesTried == ["서울특별시 송파구 올림픽로 9999", "서울특별시 송파구 잠실동"])
    #expect(outcome.attempts.count == 6)
    // The district query was not recorded: the replay server answers 404 and that is reported.
    #expect(outcome.warnings.contains { $0.contains("HTTP 404") })
  }

  @Test("an address with no usable form is reported without any request")
  func unparsableAddress() async throws {
    let (chain, fetcher) = try makeChain()
    let outcome = await chain.locate(siteCoordinate: nil, address: KoreanAddress(parsing: "영업시간 10:00~23:00"))
    #expect(outcome.coordinate == nil)
    #expect(outcome.warnings.count == 1)
    #expect(outcome.warnings.first?.contains("영업시간") == true)
    #expect(fetcher.requestedURLs.isEmpty)
  }

  @Test("providers without keys are skipped and the order comes from MART_GEOCODERS")
  func environment() throws {
    let fetcher = CurlHTTPClient()
    let onlyVWorld = try GeocodingChain.fromEnvironment(
      cachePath: nil, fetcher: fetcher, environment: ["VWORLD_API_KEY": "k", "NAVER_CLIENT_ID": "id"])
    #expect(onlyVWorld.geocoders.map(\.provider) == [.vworld])
    #expect(onlyVWorld.cache == nil)
    let reordered = try GeocodingChain.fromEnvironment(
      cachePath: nil, fetcher: fetcher,
      environment: GeocodingChain.replayEnvironment.merging(["MART_GEOCODERS": "vworld, kakao"]) { $1 })
    #expect(reordered.geocoders.map(\.provider) == [.vworld, .kakao])
    let none = try GeocodingChain.fromEnvironment(cachePath: nil, fetcher: fetcher, environment: [:])
    #expect(none.geocoders.isEmpty)
  }

  /// Every Lotte Mart branch in `fixtures/web` publishes no coordinates; the recordings locate each.
  static let lotteMartAddresses = [
    "제주특별자치도 제주시 연북로 1 (노형동)", "강원도 춘천시 세실로 108 (석사동)", "강원도 춘천시 방송길 84 (온의동)",
    "경남 창원시 성산구 중앙대로 123", "경기도 성남시 분당구 판교역로146번길 20, 현대백화점 지하2층 (백현동)",
    "경남 창원시 진해구 진해대로 762", "서울특별시 송파구 올림픽로 240 (잠실동)",
    "서울특별시 중구 한강대로 405, 서울역 2층 (봉래동2가)", "서울특별시 동대문구 왕산로 214, 롯데백화점 지하2층",
    "대구광역시 동구 안심로 80 (율하동)", "광주광역시 광산구 장신로 98 (장덕동)",
    "충북 청주시 흥덕구 비하로12번길 52 (비하동 332-1)", "부산광역시 동래구 중앙대로 1393 (온천동)",
    "경기도 화성시 동탄대로 181 (오산동)", "경상남도 김해시 김해대로 2360 (외동)", "전북특별자치도 군산시 조촌로 48 (조촌동)",
  ]

  @Test("the Lotte Mart branches of the replayed web are all located")
  func lotteMartBranches() async {
    await forEachCase(Self.lotteMartAddresses, named: { $0 }) { address, name in
      let (chain, _) = try makeChain()
      let outcome = await chain.locate(siteCoordinate: nil, address: KoreanAddress(parsing: address))
      let coordinate = try #require(outcome.coordinate, "\(address): \(outcome.warnings)")
      #expect(coordinate.precision == .building, name)
      #expect(CoordinateValidation.isDomestic(coordinate.point), name)
      #expect(outcome.warnings.isEmpty, name)
    }
  }
}
