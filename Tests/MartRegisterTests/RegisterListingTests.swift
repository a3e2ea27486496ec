import Foundation
import MartBrands
import MartCore
import MartProjection
import MartRegister
import TestSupport
import Testing

/// The register recordings of `fixtures/register/` read end to end: the stores the law binds,
/// exactly, in both layouts.
@Suite("Register: the stores the law binds")
struct RegisterListingTests {
  /// What a listed store must be: class, state, covered brand, district, and the point its
  /// coordinates were made from (the store's map point; `nil` where the register has none).
  struct Expected {
    var kind: StoreClass
    var status: RegisterStoreStatus
    var brand: BrandSlug?
    var sido: String
    var sigungu: String
    var point: (latitude: Double, longitude: Double)?
  }

  static let stores2026: [String: Expected] = [
    "2001323010807500009": Expected(
      kind: .hypermarket, status: .open, brand: "homeplus", sido: "서울특별시", sigungu: "송파구", point: (37.509, 127.0996)),
    "2002370010807500002": Expected(
      kind: .hypermarket, status: .open, brand: "emart", sido: "울산광역시", sigungu: "남구", point: (35.539205, 129.338556)),
    "2003322010807500004": Expected(
      kind: .hypermarket, status: .open, brand: nil, sido: "서울특별시", sigungu: "서초구", point: (37.5087, 127.0105)),
    "2003650010107500001": Expected(
      kind: .hypermarket, status: .open, brand: "emart", sido: "제주특별자치도", sigungu: "제주시", point: (33.516541, 126.526451)
    ),
    "2005331010807500001": Expected(
      kind: .hypermarket, status: .open, brand: "megamart", sido: "부산광역시", sigungu: "동래구", point: (35.2043, 129.078)),
    "2005651010107500003": Expected(
      kind: .hypermarket, status: .open, brand: "homeplus", sido: "제주특별자치도", sigungu: "서귀포시", point: (33.2531, 126.5631)
    ),
    "2006336010807500001": Expected(
      kind: .hypermarket, status: .open, brand: "costco", sido: "부산광역시", sigungu: "수영구", point: (35.172538, 129.105213)),
    "2008301010007500002": Expected(
      kind: .hypermarket, status: .open, brand: "emart", sido: "서울특별시", sigungu: "중구", point: (37.570978, 127.021434)),
    "2008321010807500005": Expected(
      kind: .hypermarket, status: .open, brand: nil, sido: "서울특별시", sigungu: "서초구", point: (37.4622, 127.0438)),
    "2009310010807500001": Expected(
      kind: .hypermarket, status: .open, brand: "emart", sido: "서울특별시", sigungu: "도봉구", point: (37.652381, 127.047465)),
    "2010329010807500002": Expected(
      kind: .hypermarket, status: .open, brand: nil, sido: "부산광역시", sigungu: "남구", point: (35.1370, 129.0998)),
    "2011323020207500003": Expected(
      kind: .ssm, status: .open, brand: "lotte-super", sido: "서울특별시", sigungu: "송파구", point: (37.511221, 127.098044)),
    "2011469010807500001": Expected(
      kind: .hypermarket, status: .open, brand: nil, sido: "경기도", sigungu: "광주시", point: (37.4095, 127.2570)),
    "2012405010807500007": Expected(
      kind: .hypermarket, status: .open, brand: "traders", sido: "경기도", sigungu: "용인시 기흥구",
      point: (37.298593, 127.103547)),
    "2012505010807500001": Expected(
      kind: .hypermarket, status: .open, brand: "lottemart", sido: "경상북도", sigungu: "구미시",
      point: (36.121756, 128.342517)),
    "2013313020207500011": Expected(
      kind: .ssm, status: .open, brand: "homeplus-express", sido: "서울특별시", sigungu: "마포구", point: (37.5563, 126.9043)),
    "2015416010807500003": Expected(
      kind: .hypermarket, status: .open, brand: nil, sido: "대전광역시", sigungu: "대덕구", point: nil),
    "2016321020207500004": Expected(
      kind: .ssm, status: .open, brand: "gs-thefresh", sido: "서울특별시", sigungu: "서초구", point: (37.48712345, 126.99012345)
    ),
    "2019333020207500001": Expected(
      kind: .ssm, status: .open, brand: nil, sido: "부산광역시", sigungu: "해운대구", point: (35.2050, 129.1220)),
    // brand-sources.md §11.1's verbatim row: the point PROJ's cs2cs gives for its X and Y.
    "2022300020207500001": Expected(
      kind: .ssm, status: .open, brand: "gs-thefresh", sido: "서울특별시", sigungu: "종로구", point: (37.575381, 126.960805)),
    "2026350010807500001": Expected(
      kind: .hypermarket, status: .notYetOpen, brand: "traders", sido: "서울특별시", sigungu: "강서구",
      point: (37.5602, 126.8256)),
  ]

  func listing(_ file: String) throws -> RegisterListing {
    let rows = try RegisterReader.rows(try FixturePaths.data("register/\(file)"))
    return RegisterSelector(converter: try RegisterCoordinateConverter()).select(rows)
  }

  func check(_ listing: RegisterListing, against expected: [String: Expected]) {
    #expect(listing.stores.map(\.id) == expected.keys.sorted())
    for store in listing.stores {
      guard let want = expected[store.id] else { continue }
      #expect(store.kind == want.kind, "\(store.id)")
      #expect(store.status == want.status, "\(store.id)")
      #expect(store.brand == want.brand, "\(store.id)")
      #expect(store.sido == want.sido, "\(store.id)")
      #expect(store.sigungu == want.sigungu, "\(store.id)")
      if let point = want.point {
        let limit = 1e-4
        #expect(
          abs((store.point?.latitude ?? 0) - point.latitude) < limit, "\(store.id) \(String(describing: store.point))")
        #expect(
          abs((store.point?.longitude ?? 0) - point.longitude) < limit, "\(store.id) \(String(describing: store.point))"
        )
      } else {
        #expect(store.point == nil, "\(store.id)")
      }
    }
  }

  @Test func the2026LayoutInCP949() throws {
    let listing = try listing("register-2026.csv")
    check(listing, against: Self.stores2026)
    #expect(
      listing.skipped == [
        .closed: 3, .suspended: 1, .cancelled: 1, .legacy: 2, .notAMart: 4, .duplicateID: 1, .sameStore: 1,
      ])
  }

  @Test func the2025LayoutInCP949() throws {
    let listing = try listing("register-2025.csv")
    var expected = Self.stores2026.filter { id, _ in
      [
        "2001323010807500009", "2002370010807500002", "2003322010807500004", "2003650010107500001",
        "2005651010107500003", "2006336010807500001", "2008321010807500005", "2009310010807500001",
        "2010329010807500002", "2011469010807500001", "2012405010807500007", "2012505010807500001",
        "2015416010807500003", "2019333020207500001",
      ].contains(id)
    }
    // brand-sources.md §11.1's verbatim 2025 row: 탑마트 구포점, an SSM of no covered brand (its
    // point as PROJ's cs2cs gives it).
    expected["2014332008807500002"] = Expected(
      kind: .ssm, status: .open, brand: nil, sido: "부산광역시", sigungu: "북구", point: (35.199029, 128.996984))
    check(listing, against: expected)
    #expect(listing.skipped == [.closed: 2, .duplicateID: 1, .sameStore: 1])
  }

  /// Names decide only with the brands' data: a covered banner, a register brand, or no mart.
  @Test func namesAreReadWithTheBrandsData() {
    let catalog = StoreNameCatalog.brands
    #expect(catalog.owner(of: "주식회사 이마트 트레이더스 비산점") == .covered("traders"))
    #expect(catalog.owner(of: "(주)이마트에브리데이 서교점") == .covered("everyday"))
    #expect(catalog.owner(of: "홈플러스 익스프레스 망원점") == .covered("homeplus-express"))
    #expect(catalog.owner(of: "롯데쇼핑(주) 제타플렉스 잠실점") == .covered("lottemart"))
    #expect(catalog.owner(of: "GS the fresh 방배점") == .covered("gs-thefresh"))
    #expect(catalog.owner(of: "하나로마트 양재점") == .registerBrand("nonghyup-hanaro"))
    #expect(catalog.owner(of: "홈마트 신림점") == .registerBrand("independent-mart"))
    #expect(catalog.owner(of: "광장시장") == nil)
    #expect(!catalog.isMartName("롯데하이마트 명동점"))
    #expect(catalog.isMartName("탑마트 구포점"))
    // 킴스클럽 under its host is of the brand, but the host's name alone makes no mart: it runs
    // NC백화점 too, which only a 대형마트 업태 would admit.
    #expect(catalog.owner(of: "(주)이랜드리테일 강남점") == .registerBrand("kimsclub"))
    #expect(!catalog.isMartName("(주)이랜드리테일 NC강서점"))
    #expect(catalog.owner(of: "서울농협 로컬푸드직매장") == .registerBrand("nonghyup-hanaro"))
    #expect(!catalog.isMartName("서울농협 로컬푸드직매장"))
  }
}
