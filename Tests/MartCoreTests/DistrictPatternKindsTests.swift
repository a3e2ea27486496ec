import Testing

@testable import MartCore

/// Designations beyond "the 2nd and 4th X": days of the month, mixed weekdays, 세종 as one
/// district, and what counts as evidence. The window is 2026-11-01 … 2027-01-31; the dates are
/// worked out with Python's `calendar` (the nth weekday of each month, the 10th and 25th).
@Suite("District patterns: days of the month, mixed days, evidence")
struct DistrictPatternKindsTests {
  static let window = DateWindow.threeMonths(startingAt: CalendarDate(iso: "2026-11-20")!)
  static let exempt: Set<BrandSlug> = ["toysrus", "bottle-bunker"]

  static func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }

  /// A trading branch whose source publishes `dates` (speaking of their months), or none.
  static func store(_ brand: BrandSlug, _ id: String, sido: String, sigungu: String?, _ dates: [String]?) -> Branch {
    let schedule =
      dates.map { ClosingSchedule(status: .closures, dates: $0.map(day), text: nil) }
      ?? ClosingSchedule(status: .unknown, text: nil)
    return Branch(
      id: BranchID(brand: brand, storeID: id), name: "\(id)점",
      address: BranchAddress(published: "\(sido) \(sigungu ?? "") 어딘가로 1", sido: sido, sigungu: sigungu),
      phone: nil, phonePublished: nil, openingHours: nil, coordinate: nil,
      closing: BranchClosing(schedule: schedule, window: window), sourceURL: "https://example.com/\(id)")
  }

  struct Designation: CustomTestStringConvertible, Sendable {
    var sido: String
    var sigungu: String
    var dates: [String]
    var pattern: [DesignatedDay]
    var description: String
    var testDescription: String { "\(sigungu): \(description)" }
  }

  static let designations: [Designation] = [
    // 안산: the 10th and the 4th Sunday (11-22, 12-27, 01-24).
    Designation(
      sido: "경기도", sigungu: "안산시",
      dates: ["2026-11-10", "2026-11-22", "2026-12-10", "2026-12-27", "2027-01-10", "2027-01-24"],
      pattern: [DesignatedDay(ordinal: 4, weekday: .sunday), DesignatedDay(dayOfMonth: 10)],
      description: "4th sunday, 10th of the month"),
    // 충주: the 10th and the 25th, its market days (12-25 is also 성탄절).
    Designation(
      sido: "충청북도", sigungu: "충주시",
      dates: ["2026-11-10", "2026-11-25", "2026-12-10", "2026-12-25", "2027-01-10", "2027-01-25"],
      pattern: [DesignatedDay(dayOfMonth: 10), DesignatedDay(dayOfMonth: 25)],
      description: "10th of the month, 25th of the month"),
    // 제주: the 2nd Friday (11-13, 12-11, 01-08) and the 4th Saturday (11-28, 12-26, 01-23).
    Designation(
      sido: "제주특별자치도", sigungu: "제주시",
      dates: ["2026-11-13", "2026-11-28", "2026-12-11", "2026-12-26", "2027-01-08", "2027-01-23"],
      pattern: [DesignatedDay(ordinal: 2, weekday: .friday), DesignatedDay(ordinal: 4, weekday: .saturday)],
      description: "2nd friday, 4th saturday"),
    // 울산 남구: the 2nd Wednesday (11-11, 12-09, 01-13) and the 4th Sunday (11-22, 12-27, 01-24).
    Designation(
      sido: "울산광역시", sigungu: "남구",
      dates: ["2026-11-11", "2026-11-22", "2026-12-09", "2026-12-27", "2027-01-13", "2027-01-24"],
      pattern: [DesignatedDay(ordinal: 2, weekday: .wednesday), DesignatedDay(ordinal: 4, weekday: .sunday)],
      description: "2nd wednesday, 4th sunday"),
  ]

  @Test("a district's days of the month and mixed weekdays are its pattern", arguments: designations)
  func designation(_ example: Designation) throws {
    let branches = [
      Self.store("emart", "1", sido: example.sido, sigungu: example.sigungu, example.dates),
      Self.store("homeplus", "2", sido: example.sido, sigungu: example.sigungu, example.dates),
      Self.store("gs-thefresh", "3", sido: example.sido, sigungu: example.sigungu, nil),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt)
    let district = try #require(inference.districts.first)
    #expect(district.pattern == example.pattern)
    #expect(district.patternDescription == example.description)
    // The store without days is expected to close on the same days.
    #expect(inference.expected(for: branches[2])?.dates == example.dates.map(Self.day))
  }

  @Test("세종특별자치시 has no 시·군·구 and is one district")
  func sejong() throws {
    let sundays = ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]
    let branches = [
      Self.store("costco", "Sejong", sido: "세종특별자치시", sigungu: nil, sundays),
      Self.store("gs-thefresh", "1", sido: "세종특별자치시", sigungu: nil, sundays),
      Self.store("lotte-super", "2", sido: "세종특별자치시", sigungu: nil, nil),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt)
    let district = try #require(inference.districts.first)
    #expect(district.district.description == "세종특별자치시")
    #expect(inference.expected(for: branches[2])?.district == "세종특별자치시")
  }

  /// 서초구's Wednesdays (11-11, 11-25, 12-09, 12-23, 01-13, 01-27) and a warehouse keeping
  /// Sundays of its own: two of three stores are a majority, below the 70 % asked before.
  @Test("a store keeping its own day does not erase its district's pattern")
  func ownDayIsAMismatch() throws {
    let wednesdays = ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]
    let sundays = ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]
    let branches = [
      Self.store("emart", "1008", sido: "서울특별시", sigungu: "서초구", wednesdays),
      Self.store("gs-thefresh", "10112", sido: "서울특별시", sigungu: "서초구", wednesdays),
      Self.store("costco", "Yangjae", sido: "서울특별시", sigungu: "서초구", sundays),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt)
    let district = try #require(inference.districts.first)
    #expect(
      district.pattern == [
        DesignatedDay(ordinal: 2, weekday: .wednesday), DesignatedDay(ordinal: 4, weekday: .wednesday),
      ])
    #expect(inference.mismatches.map(\.branch.description) == ["costco-Yangjae"])
  }

  /// E-mart's four brands, published together by store.emart.com, as the brands' data gives
  /// their source (`KnownBrands.independentSources`, checked in MartBrandsTests).
  static let emartSources: [BrandSlug: String] = [
    "emart": "store.emart.com", "traders": "store.emart.com", "nobrand": "store.emart.com",
    "everyday": "store.emart.com",
  ]

  @Test("E-mart's four brands are one source: they alone set no pattern")
  func oneSourceManyBrands() {
    let sundays = ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]
    let branches = ["emart", "traders", "nobrand", "everyday"].enumerated().map { index, brand in
      Self.store(BrandSlug(rawValue: brand)!, "\(index)", sido: "경기도", sigungu: "파주시", sundays)
    }
    let sources = Self.emartSources
    #expect(
      DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt, sources: sources)
        .districts.isEmpty)
    // With a store of another source on the same days, the pattern holds.
    let withCostco = branches + [Self.store("costco", "Paju", sido: "경기도", sigungu: "파주시", sundays)]
    #expect(
      DistrictDesignations.infer(from: withCostco, window: Self.window, exempt: Self.exempt, sources: sources)
        .districts.count == 1)
  }

  @Test("a brand no source is given for is a source of its own")
  func brandsWithoutSource() {
    let sundays = ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]
    let branches = ["emart", "traders"].enumerated().map { index, brand in
      Self.store(BrandSlug(rawValue: brand)!, "\(index)", sido: "경기도", sigungu: "파주시", sundays)
    }
    #expect(DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt).districts.count == 1)
    // Named apart, two brands are two sources as well.
    let apart: [BrandSlug: String] = ["emart": "store.emart.com", "traders": "traders.example"]
    #expect(
      DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt, sources: apart)
        .districts.count == 1)
  }

  /// Three stores of brands whose run failed (stale, so left out with the exempt brands) close on
  /// Sundays; the only fresh store closes on Wednesdays: no pattern, so no expected days.
  @Test("stale stores are no evidence, and give no expected days")
  func staleStores() {
    let sundays = ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]
    let wednesdays = ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]
    let branches = [
      Self.store("emart", "1", sido: "서울특별시", sigungu: "동대문구", sundays),
      Self.store("traders", "2", sido: "서울특별시", sigungu: "동대문구", sundays),
      Self.store("nobrand", "3", sido: "서울특별시", sigungu: "동대문구", sundays),
      Self.store("homeplus", "4", sido: "서울특별시", sigungu: "동대문구", wednesdays),
      Self.store("gs-thefresh", "5", sido: "서울특별시", sigungu: "동대문구", nil),
      Self.store("lotte-super", "6", sido: "서울특별시", sigungu: "동대문구", nil),
    ]
    let stale: Set<BrandSlug> = ["emart", "traders", "nobrand"]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt.union(stale))
    #expect(inference.districts.isEmpty)
    #expect(inference.withExpectedDays(branches).allSatisfy { $0.closing.expected == nil })
  }
}
