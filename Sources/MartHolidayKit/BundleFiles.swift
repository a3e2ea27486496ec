import Foundation
internal import MartCore

// The bundle files as the kit reads them (docs/bundle-format.md). Dates, windows, store
// statuses and closing schedules decode with the pipeline's own `Codable` types; brands are
// plain slugs, so brands the kit has never heard of load too.

/// The schema versions of the bundles the kit understands: 2, and 1, whose `branches.json`
/// also carries the as-of date the kit reads from the manifest in both.
let supportedSchemaVersions = 1...2

/// `latest.json`.
struct LatestFile: Codable, Hashable, Sendable {
  var schemaVersion: Int
  var version: String
  var bundle: String
  var asOf: CalendarDate
  var manifestSHA256: String
}

/// `manifest.json`.
struct ManifestFile: Decodable, Hashable, Sendable {
  struct File: Decodable, Hashable, Sendable {
    var path: String
    var sha256: String
    var bytes: Int
  }

  struct Brand: Decodable, Hashable, Sendable {
    var slug: String
    var name: String?
    /// `fresh`, `stale` or `missing`.
    var freshness: String?
    /// The as-of day of the last run that read the brand's source; `null` while never read.
    var lastFetchedAsOf: CalendarDate?
    /// Whether its stores keep their district's closing days; absent in bundles made before the
    /// field existed, which means they do.
    var designated: Bool?

    /// `hypermarket` or `ssm`; `null` for specialty stores; absent in bundles made before
    /// classes, which means `hypermarket`.
    var storeClass: String??

    private enum CodingKeys: String, CodingKey { case slug, name, freshness, lastFetchedAsOf, designated, storeClass }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      slug = try container.decode(String.self, forKey: .slug)
      name = try container.decodeIfPresent(String.self, forKey: .name)
      freshness = try container.decodeIfPresent(String.self, forKey: .freshness)
      lastFetchedAsOf = try container.decodeIfPresent(CalendarDate.self, forKey: .lastFetchedAsOf)
      designated = try container.decodeIfPresent(Bool.self, forKey: .designated)
      storeClass =
        container.contains(.storeClass) ? .some(try container.decodeIfPresent(String.self, forKey: .storeClass)) : nil
    }

    /// The brand as the kit shows it.
    var martBrand: MartBrand {
      let storeClass: MartStoreClass? =
        switch self.storeClass {
        case nil: .hypermarket
        case .some(nil): nil
        case .some(let value?): MartStoreClass(rawValue: value)
        }
      return MartBrand(slug: slug, name: name ?? slug, isDesignated: designated ?? true, storeClass: storeClass)
    }
  }

  var schemaVersion: Int
  var version: String
  var asOf: CalendarDate
  var window: DateWindow
  var brands: [Brand]
  var files: [File]
}

/// `branches.json` (and `brands/<slug>.json`).
struct BranchesFileRecord: Decodable, Sendable {
  /// One id the sources stopped listing: `{"id", "brand", "lastListed"}`.
  struct RemovedRecord: Decodable, Sendable {
    var id: String
    /// The as-of day of the last bundle that listed the id, or `null`.
    var lastListed: CalendarDate?
  }

  var schemaVersion: Int
  var window: DateWindow
  var branches: [BranchRecord]
  /// The ids the sources stopped listing; `nil` in bundles written before the field existed.
  var removed: [RemovedRecord]?
}

/// One branch of `branches.json`.
struct BranchRecord: Decodable, Sendable {
  struct Address: Decodable, Sendable {
    var published: String?
    var road: String?
    var jibun: String?
    var sido: String?
    var sigungu: String?
  }

  struct Hours: Decodable, Sendable {
    var open: String
    var close: String
  }

  struct Point: Decodable, Sendable {
    var latitude: Double
    var longitude: Double
  }

  struct Closing: Decodable, Sendable {
    /// `closing.expected`: days inferred from the branch's district (bundles made before it
    /// existed have none).
    struct Expected: Decodable, Sendable {
      var dates: [CalendarDate]
      var district: String
      /// `learned`, `cited` or `store-exception` (`district` before `cited` existed).
      var basis: String?
      var storeClass: String?
    }

    var status: ClosingStatus
    var dates: [CalendarDate]
    var unknownRanges: [DateWindow]
    /// `.some(nil)` for JSON `null` (no end); `nil` when the key is absent (older bundles:
    /// recompute).
    var knownThrough: CalendarDate??
    var schedule: ClosingSchedule
    var expected: Expected?

    private enum CodingKeys: String, CodingKey { case status, dates, unknownRanges, knownThrough, schedule, expected }

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      status = try container.decode(ClosingStatus.self, forKey: .status)
      dates = try container.decode([CalendarDate].self, forKey: .dates)
      unknownRanges = try container.decodeIfPresent([DateWindow].self, forKey: .unknownRanges) ?? []
      knownThrough =
        container.contains(.knownThrough)
        ? .some(try container.decodeIfPresent(CalendarDate.self, forKey: .knownThrough)) : nil
      schedule = try container.decode(ClosingSchedule.self, forKey: .schedule)
      expected = try container.decodeIfPresent(Expected.self, forKey: .expected)
    }
  }

  var id: String
  var brand: String
  var banner: String?
  var name: String
  var address: Address?
  var phone: String?
  var openingHours: String?
  var hours: Hours?
  var coordinate: Point?
  var closing: Closing
  var storeStatus: StoreStatus?
  var pageURL: String?
  var formerIds: [String]?
  var missingFromSource: MissingFromSource?
  var registerId: String?
  var source: String?
  var storeClass: String?
}

extension MartBranch {
  /// The branch a record describes, in a bundle of `day` (its as-of and window). A brand
  /// `brands` does not hold is named by its slug and ``MartBrandFreshness/missing``.
  init(record: BranchRecord, brands: BundleReader.BrandEntries, day: RunDay) {
    let (asOf, window) = (day.asOf, day.window)
    let storeStatus = record.storeStatus ?? .trading
    let closing = record.closing
    self.id = record.id
    self.brand = brands[record.brand]?.brand ?? MartBrand(slug: record.brand, name: record.brand)
    self.freshness = brands[record.brand]?.freshness ?? .missing
    self.banner = record.banner
    self.name = record.name
    self.address = MartAddress(
      published: record.address?.published, road: record.address?.road, jibun: record.address?.jibun,
      sido: record.address?.sido, sigungu: record.address?.sigungu)
    self.coordinate = record.coordinate.map { MartCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
    self.phone = record.phone
    self.openingHours = record.openingHours
    self.hours = record.hours.map { MartHours(open: $0.open, close: $0.close) }
    self.storeStatus = MartStoreStatus(
      state: MartStoreStatus.State(rawValue: storeStatus.state.rawValue) ?? .trading, text: storeStatus.text,
      until: storeStatus.until.map(MartDay.init), closesOn: storeStatus.closesOn.map(MartDay.init))
    let knownThrough = closing.knownThrough ?? closing.schedule.knownThrough(from: window.from, through: window.through)
    self.schedule = MartSchedule(
      status: MartSchedule.Status(rawValue: closing.status.rawValue) ?? .unknown,
      closingDays: closing.dates.map(MartDay.init),
      unknownRanges: closing.unknownRanges.map { MartDay($0.from)...MartDay($0.through) },
      knownThrough: knownThrough.map(MartDay.init), text: closing.schedule.text, warnings: closing.schedule.warnings,
      expectedDays: (closing.expected?.dates ?? []).map(MartDay.init), expectedFrom: closing.expected?.district,
      expectedBasis: closing.expected.flatMap { MartExpectedBasis(bundleValue: $0.basis ?? "district") },
      expectedStoreClass: closing.expected?.storeClass.flatMap(MartStoreClass.init(rawValue:)))
    self.pageURL = record.pageURL.flatMap(URL.init(string:))
    self.formerIDs = record.formerIds ?? []
    self.missingFromSourceSince = record.missingFromSource.map { MartDay($0.since) }
    self.registerID = record.registerId
    self.isFromRegister = record.source == "register"
    self.ownStoreClass = record.storeClass.flatMap(MartStoreClass.init(rawValue:))
    self.core = BranchCore(
      asOf: asOf, window: window, storeStatus: storeStatus, schedule: closing.schedule,
      closedInWindow: Set(closing.dates.filter { window.contains($0) }), unknownInWindow: closing.unknownRanges,
      knownThrough: knownThrough, expectedInWindow: Set((closing.expected?.dates ?? []).filter { window.contains($0) }),
      shutDays: ShutDays(storeStatus, asOf: asOf, closingDates: closing.dates))
  }
}
