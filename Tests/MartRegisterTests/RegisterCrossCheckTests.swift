import Foundation
import MartBrands
import MartCore
import MartProjection
import MartRegister
import TestSupport
import Testing

/// The register read against published branches (the fixture stores of `fixtures/web/`, as a
/// replayed run publishes them), and the days expected of stores outside the brands.
@Suite("Register: cross-checks and expected days")
struct RegisterCrossCheckTests {
  static func branch(_ id: String, _ brand: BrandSlug, _ latitude: Double, _ longitude: Double, _ address: String)
    -> PublishedBranch
  {
    PublishedBranch(
      id: BranchID(brand: brand, storeID: String(id.dropFirst(brand.rawValue.count + 1))),
      point: GeoPoint(latitude: latitude, longitude: longitude), address: address, isTrading: true)
  }

  /// Branches as the replayed fixture run publishes them (id, point, road address).
  static let branches = [
    branch("emart-1000", "emart", 37.652381, 127.047465, "서울특별시 도봉구 노해로 65"),
    branch("emart-1044", "emart", 35.539205, 129.338556, "울산광역시 남구 삼산로 300"),
    branch("homeplus-603", "homeplus", 37.5734, 127.0379, "서울특별시 동대문구 천호대로 133"),
    branch("homeplus-685", "homeplus", 37.509, 127.0996, "서울특별시 송파구 송파대로 558"),
    branch("everyday-4701", "everyday", 37.553512, 126.917034, "서울특별시 마포구 양화로 45"),
    // 이마트 양재점: 60 m from 하나로마트 양재점, a store of another brand.
    branch("emart-1008", "emart", 37.463694, 127.042882, "서울특별시 서초구 매헌로 16"),
    // Its own point 120 m off the register's, and its address written otherwise: matched by distance.
    branch("lottemart-구미점", "lottemart", 36.1228, 128.3425, "경북 구미시 신시로 10번길"),
  ]

  func crossCheck() throws -> RegisterCrossCheck {
    let rows = try RegisterReader.rows(try FixturePaths.data("register/register-2026.csv"))
    let selector = RegisterSelector(converter: try RegisterCoordinateConverter())
    return RegisterCrossCheck.check(
      branches: Self.branches, rows: rows, listing: selector.select(rows), selector: selector,
      asOf: try #require(CalendarDate(iso: "2026-11-20")))
  }

  @Test func branchesGetTheirRegisterIDs() throws {
    let check = try crossCheck()
    let ids = Dictionary(uniqueKeysWithValues: check.registerIDs.map { ($0.key.description, $0.value) })
    #expect(
      ids == [
        "emart-1000": "2009310010807500001", "emart-1044": "2002370010807500002",
        "homeplus-685": "2001323010807500009", "lottemart-구미점": "2012505010807500001",
      ])
  }

  @Test func tradingBranchesTheRegisterClosedOrSuspended() throws {
    let shut = try crossCheck().shutInRegister
    #expect(shut.map(\.branch.description) == ["everyday-4701", "homeplus-603"])
    #expect(shut.first?.state == .suspended)
    #expect(shut.first?.since?.iso == "2026-11-01")
    #expect(shut.first?.until?.iso == "2027-01-31")
    #expect(shut.last?.state == .closed)
    #expect(shut.last?.registerID == "2001305010807500003")
    #expect(shut.last?.since?.iso == "2026-10-31")
    #expect(shut.last?.until == nil)
  }

  /// Open stores of covered brands no branch is (the fixture sources list a few stores each),
  /// and the permit of 2026-11-15 (트레이더스 마곡, not yet open).
  @Test func unlistedStoresAndNewPermits() throws {
    let check = try crossCheck()
    #expect(
      check.unlisted.map(\.id) == [
        "2003650010107500001", "2005331010807500001", "2005651010107500003", "2006336010807500001",
        "2008301010007500002", "2011323020207500003", "2012405010807500007", "2013313020207500011",
        "2016321020207500004", "2022300020207500001",
      ])
    #expect(check.newPermits.map(\.id) == ["2026350010807500001"])
  }

  /// The open stores no brand source covers, as branches of the register brands: fixtures/README.md
  /// names 하나로마트 양재, 탑마트 대연, 킴스클럽 under its host, 골드마트 광주, 다농엘마트 회덕 (0, 0) and
  /// the SSM 해피마트 반여.
  @Test func storesOutsideTheBrandsAreBranchesOfTheRegisterBrands() throws {
    let rows = try RegisterReader.rows(try FixturePaths.data("register/register-2026.csv"))
    let listing = RegisterSelector(converter: try RegisterCoordinateConverter()).select(rows)
    let asOf = try #require(CalendarDate(iso: "2026-11-20"))
    let normalizer = BranchNormalizer(day: RunDay(asOf: asOf))
    let brands = RegisterBranches.branches(of: listing, normalizer: normalizer)
    let ids = brands.mapValues { $0.map(\.id.description) }
    #expect(
      ids == [
        "nonghyup-hanaro": ["nonghyup-hanaro-2008321010807500005"], "topmart": ["topmart-2010329010807500002"],
        "kimsclub": ["kimsclub-2003322010807500004"],
        "independent-mart": [
          "independent-mart-2011469010807500001", "independent-mart-2015416010807500003",
          "independent-mart-2019333020207500001",
        ],
      ])
    let branches = Dictionary(uniqueKeysWithValues: brands.values.joined().map { ($0.id.description, $0) })
    let kims = try #require(branches["kimsclub-2003322010807500004"])
    #expect(kims.name == "강남점")
    #expect(kims.banner == nil)
    #expect(kims.namePublished == "(주)이랜드리테일 강남점")
    #expect(kims.address.sido == "서울특별시")
    #expect(kims.address.sigungu == "서초구")
    #expect(kims.source == .register)
    #expect(kims.registerID == "2003322010807500004")
    #expect(kims.storeClass == .hypermarket)
    #expect(kims.sourceURL == RegisterDownload.url)
    // No days of its own: unknown over the whole window, never a plain closure.
    #expect(kims.closing.status == .unknown)
    #expect(kims.closing.dates.isEmpty)
    #expect(kims.closing.unknownRanges == [normalizer.day.window])
    #expect(kims.storeStatus.isTrading)
    let gold = try #require(branches["independent-mart-2011469010807500001"])
    #expect(gold.banner == "골드마트")
    #expect(gold.name == "광주점")
    #expect(gold.coordinate?.source == .site)
    let happy = try #require(branches["independent-mart-2019333020207500001"])
    #expect(happy.storeClass == .ssm)
    #expect(happy.banner == "해피마트")
    // (0, 0) in the register: no point, never 33.48 N 124.85 E.
    #expect(branches["independent-mart-2015416010807500003"]?.coordinate == nil)
  }

  /// A register store's expected days are its class's pattern in its district (its own class,
  /// not its brand's), and none for 농협 하나로마트, whose exemption is decided store by store.
  @Test func expectedDaysComeFromTheDistrictPatternForTheStoresClassOrAreUnknown() throws {
    let rows = try RegisterReader.rows(try FixturePaths.data("register/register-2026.csv"))
    let listing = RegisterSelector(converter: try RegisterCoordinateConverter()).select(rows)
    let asOf = try #require(CalendarDate(iso: "2026-11-20"))
    let window = DateWindow.threeMonths(startingAt: asOf)
    let brands = RegisterBranches.branches(
      of: listing, normalizer: BranchNormalizer(day: RunDay(asOf: asOf, window: window)))
    // 서초구 hypermarkets: the 2nd and 4th Wednesdays of 2026-12 (12-09 and 12-23 are
    // Wednesdays in the calendar); 해운대구 SSMs: the 2nd and 4th Sundays (12-13, 12-27).
    let wednesdays = [try #require(CalendarDate(iso: "2026-12-09")), try #require(CalendarDate(iso: "2026-12-23"))]
    let sundays = [try #require(CalendarDate(iso: "2026-12-13")), try #require(CalendarDate(iso: "2026-12-27"))]
    let seocho = District(sido: "서울특별시", sigungu: "서초구")
    let haeundae = District(sido: "부산광역시", sigungu: "해운대구")
    let exempt = Set(RegisterBrands.entries.filter { !$0.designated }.map(\.slug))
    let inference = DistrictInference(
      districts: [], mismatches: [],
      expectedDates: [
        DesignationKey(district: seocho, storeClass: .hypermarket): wednesdays,
        DesignationKey(district: haeundae, storeClass: .ssm): sundays,
        // The hypermarkets' days in 해운대구, which its SSM must not take.
        DesignationKey(district: haeundae, storeClass: .hypermarket): wednesdays,
      ],
      exempt: exempt, storeClasses: [:], asOf: asOf)
    let expected = Dictionary(
      uniqueKeysWithValues: inference.withExpectedDays(Array(brands.values.joined())).map {
        ($0.id.description, $0.closing.expected)
      })
    let kims = try #require(expected["kimsclub-2003322010807500004"] ?? nil)
    #expect(kims.dates == wednesdays)
    #expect(kims.district == "서울특별시 서초구")
    #expect(kims.storeClass == .hypermarket)
    let happy = try #require(expected["independent-mart-2019333020207500001"] ?? nil)
    #expect(happy.dates == sundays)
    #expect(happy.storeClass == .ssm)
    // 하나로마트 양재점, in 서초구 too: unknown, never expected.
    #expect(expected["nonghyup-hanaro-2008321010807500005"] == .some(nil))
    // 골드마트 (경기 광주시): no pattern there.
    #expect(expected["independent-mart-2011469010807500001"] == .some(nil))
  }
}

/// The gate before a fetched register replaces the last good one.
@Suite("Register: sanity gate")
struct RegisterSanityTests {
  @Test func aRegisterThatLostMostOfItsStoresIsRefused() throws {
    let rows = try RegisterReader.rows(try FixturePaths.data("register/register-2026.csv"))
    let listing = RegisterSelector(converter: try RegisterCoordinateConverter()).select(rows)
    // The fixture lists 20 open stores (21, one not yet open).
    try RegisterSanity.check(listing, lastGoodOpenStores: 25)
    try RegisterSanity.check(listing, lastGoodOpenStores: nil)
    #expect(throws: RegisterSanity.Refusal(openStores: 20, lastGoodOpenStores: 26)) {
      try RegisterSanity.check(listing, lastGoodOpenStores: 26)
    }
    let empty = RegisterListing(stores: [], skipped: [:])
    #expect(throws: RegisterSanity.Refusal.self) { try RegisterSanity.check(empty, lastGoodOpenStores: nil) }
  }
}
