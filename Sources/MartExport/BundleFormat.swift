import Foundation
import MartCore

/// The bundle format version. Clients check it before reading; it changes only when a
/// field is removed or changes meaning (new optional fields do not bump it). Version 2 keeps
/// the run's day in `latest.json` and `manifest.json` alone, so that a bundle's other files
/// keep their bytes (and are hard links of the previous bundle's) from one day to the next.
public let bundleSchemaVersion = 2

/// `output/latest.json`: the pointer clients and jobs read first.
public struct LatestPointer: Codable, Hashable, Sendable {
  public var schemaVersion: Int
  /// The bundle's version, e.g. `2026-11-20-3f2a9c1d0b7e`.
  public var version: String
  /// The bundle's directory relative to the output directory, e.g. `bundles/2026-11-20-3f2a9c1d0b7e`.
  public var bundle: String
  public var asOf: CalendarDate
  /// SHA-256 of the bundle's `manifest.json`.
  public var manifestSHA256: String
}

/// `manifest.json` in each bundle: what the bundle holds and how to verify it.
public struct BundleManifest: Codable, Hashable, Sendable {
  public struct File: Codable, Hashable, Sendable {
    /// Path relative to the bundle directory.
    public var path: String
    public var sha256: String
    public var bytes: Int
  }

  public var schemaVersion: Int
  public var version: String
  public var asOf: CalendarDate
  /// The window of the concrete closing dates.
  public var window: DateWindow
  public var brands: [BrandSummary]
  public var files: [File]

  /// The day the bundle was published for: its as-of date and window.
  public var day: RunDay { RunDay(asOf: asOf, window: window) }
}

/// One brand's outcome: its state in a bundle's manifest, and what a run did with it in the
/// run report. The manifest lists it without the run-only fields (`status`, `error`).
public struct BrandSummary: Codable, Hashable, Sendable {
  /// The state of the brand's data in the bundle.
  public enum Freshness: String, Codable, Sendable {
    /// Fetched and parsed in the run that made the bundle.
    case fresh
    /// The run failed for the brand; its branches are carried over from the last good bundle.
    case stale
    /// The run failed for the brand and there was nothing to carry over: no branches.
    case missing
  }

  /// What the run did with the brand (run reports only).
  public enum Status: String, Codable, Sendable {
    /// Fetched and parsed now.
    case fresh
    /// Failed now; carried over from the last good bundle.
    case stale
    /// Failed now, with no earlier data to fall back on; published without branches.
    case missing
    /// Not requested in this run; kept unchanged from the last bundle.
    case kept
  }

  public var slug: BrandSlug
  public var name: String
  public var branchCount: Int
  public var freshness: Freshness
  /// The as-of date of the run that last fetched this brand successfully; absent while the
  /// brand has never been fetched.
  public var lastFetchedAsOf: CalendarDate?
  /// What the run did with the brand; only in run reports.
  public var status: Status?
  /// Why the run could not fetch the brand; only in run reports.
  public var error: String?
  /// Which of its source's pages gave a fresh brand's data this run (the primary pages, or the
  /// fallback that stood in for them); only in run reports, `null` for brands not fresh.
  public var dataSource: String?
  /// Whether the brand's stores keep the closing days their 시·군·구 designates (의무휴업일:
  /// hypermarkets and SSMs), so that they are evidence for their district's pattern
  /// (``DistrictDesignations``); `false` for specialty stores (토이저러스, 보틀벙커). Written in the
  /// manifest only; an entry without it (a bundle made before the field existed, a report) reads
  /// as `true`.
  public var designated: Bool
  /// The class of store a designated brand's stores are (대규모점포 `hypermarket` or 준대규모점포
  /// `ssm`): the designation they keep is their class's in their district. Written in the
  /// manifest only, `null` for a brand not designated; an entry without it (a bundle made before
  /// the field existed) reads as `hypermarket` when designated, one pattern per district as then.
  public var storeClass: StoreClass?
  /// For a stale brand, the as-of date of its last good fetch (``lastFetchedAsOf``); `nil`
  /// otherwise. Only in run reports.
  public var staleSince: CalendarDate?
  /// For a stale brand, the days from ``staleSince`` to the run's as-of date; `nil` otherwise.
  /// Only in run reports.
  public var daysStale: Int?

  /// A brand's summary; `name` is its Korean name (the slug when none is known).
  public init(
    slug: BrandSlug, name: String, branchCount: Int, freshness: Freshness, lastFetchedAsOf: CalendarDate?,
    designated: Bool = true, storeClass: StoreClass? = nil, status: Status? = nil, error: String? = nil,
    dataSource: String? = nil
  ) {
    self.slug = slug
    self.name = name
    self.branchCount = branchCount
    self.freshness = freshness
    self.lastFetchedAsOf = lastFetchedAsOf
    self.designated = designated
    self.storeClass = designated ? storeClass ?? .hypermarket : nil
    self.status = status
    self.error = error
    self.dataSource = dataSource
  }

  private enum CodingKeys: String, CodingKey {
    case slug, name, branchCount, freshness, lastFetchedAsOf, designated, storeClass, status, error, staleSince,
      daysStale
    case dataSource
  }

  /// Reads an entry; one without `designated` reads as designated.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    slug = try container.decode(BrandSlug.self, forKey: .slug)
    name = try container.decode(String.self, forKey: .name)
    branchCount = try container.decode(Int.self, forKey: .branchCount)
    freshness = try container.decode(Freshness.self, forKey: .freshness)
    lastFetchedAsOf = try container.decodeIfPresent(CalendarDate.self, forKey: .lastFetchedAsOf)
    designated = try container.decodeIfPresent(Bool.self, forKey: .designated) ?? true
    storeClass = designated ? try container.decodeIfPresent(StoreClass.self, forKey: .storeClass) ?? .hypermarket : nil
    status = try container.decodeIfPresent(Status.self, forKey: .status)
    error = try container.decodeIfPresent(String.self, forKey: .error)
    staleSince = try container.decodeIfPresent(CalendarDate.self, forKey: .staleSince)
    daysStale = try container.decodeIfPresent(Int.self, forKey: .daysStale)
    dataSource = try container.decodeIfPresent(String.self, forKey: .dataSource)
  }

  /// Run-only fields (`status`, `error`, `staleSince`, `daysStale`) are written only in report
  /// entries, `null` when they do not apply, and `designated` only in manifest entries;
  /// `lastFetchedAsOf` is always written (`null` while never fetched).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(slug, forKey: .slug)
    try container.encode(name, forKey: .name)
    try container.encode(branchCount, forKey: .branchCount)
    try container.encode(freshness, forKey: .freshness)
    if let lastFetchedAsOf {
      try container.encode(lastFetchedAsOf, forKey: .lastFetchedAsOf)
    } else {
      try container.encodeNil(forKey: .lastFetchedAsOf)
    }
    // A report entry (it has a status) always carries `error`, `null` when there was none.
    if let status {
      try container.encode(status, forKey: .status)
      if let error { try container.encode(error, forKey: .error) } else { try container.encodeNil(forKey: .error) }
      try container.encode(staleSince, forKey: .staleSince)
      try container.encode(daysStale, forKey: .daysStale)
      if let dataSource {
        try container.encode(dataSource, forKey: .dataSource)
      } else {
        try container.encodeNil(forKey: .dataSource)
      }
    } else {
      try container.encode(designated, forKey: .designated)
      try container.encode(storeClass, forKey: .storeClass)
    }
  }

  /// This entry with ``staleSince`` and ``daysStale`` set for a run as of `asOf` when the brand
  /// is stale (since its ``lastFetchedAsOf``), cleared otherwise.
  public func withStaleness(asOf: CalendarDate) -> BrandSummary {
    var entry = self
    entry.staleSince = freshness == .stale ? lastFetchedAsOf : nil
    entry.daysStale = entry.staleSince.map { max(0, asOf.dayNumber - $0.dayNumber) }
    return entry
  }

  /// The outcome as a manifest lists it: without the run's status and error.
  public var manifestEntry: BrandSummary {
    var entry = self
    entry.status = nil
    entry.error = nil
    entry.staleSince = nil
    entry.daysStale = nil
    entry.dataSource = nil
    return entry
  }
}

extension Sequence<BrandSummary> {
  /// The brands whose stores the district inference leaves out: those these summaries say are
  /// not subject to the designation (`designated: false`), and the `stale` ones, whose branches
  /// were kept from an earlier bundle (what their source said then is no evidence now; a brand a
  /// run limited to other brands did not ask for keeps the freshness it had). A brand without a
  /// summary is subject to it.
  public var exemptFromDesignation: Set<BrandSlug> {
    Set(filter { !$0.designated || $0.freshness == .stale }.map(\.slug))
  }

  /// The class of each designated brand's stores (``BrandSummary/storeClass``).
  public var storeClasses: [BrandSlug: StoreClass] {
    Dictionary(
      compactMap { summary in summary.storeClass.map { (summary.slug, $0) } }, uniquingKeysWith: { first, _ in first })
  }

  /// For each stale brand, the as-of date of its last good fetch (``BrandSummary/lastFetchedAsOf``).
  public var staleSince: [BrandSlug: CalendarDate] {
    Dictionary(
      filter { $0.freshness == .stale }.compactMap { summary in summary.lastFetchedAsOf.map { (summary.slug, $0) } },
      uniquingKeysWith: { first, _ in first })
  }
}

/// `branches.json`: every branch of every brand in the bundle, sorted by id, and the ids the
/// sources stopped listing.
public struct BranchesFile: Codable, Hashable, Sendable {
  public var schemaVersion: Int
  /// The days every branch's closing dates cover. The as-of date is the manifest's alone
  /// (schema version 2): a file of version 1 carries one too, which is not read.
  public var window: DateWindow
  public var branches: [Branch]
  /// The ids the sources stopped listing, sorted by id (see ``RemovedBranch``); empty when
  /// none were, and in bundles written before the field existed.
  public var removed: [RemovedBranch]

  public init(
    schemaVersion: Int, window: DateWindow, branches: [Branch], removed: [RemovedBranch] = []
  ) {
    self.schemaVersion = schemaVersion
    self.window = window
    self.branches = branches
    self.removed = removed
  }

  private enum CodingKeys: String, CodingKey { case schemaVersion, window, branches, removed }

  /// Reads the file; one written before `removed` existed reads with none removed.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    window = try container.decode(DateWindow.self, forKey: .window)
    branches = try container.decode([Branch].self, forKey: .branches)
    removed = try container.decodeIfPresent([RemovedBranch].self, forKey: .removed) ?? []
  }
}

/// An id a source stopped listing, as `branches.json`'s `removed` keeps it, so that a saved
/// favourite whose store left its brand's site is told from an id that never existed.
public struct RemovedBranch: Codable, Hashable, Sendable {
  public var id: BranchID
  public var brand: BrandSlug
  /// The as-of day of the last bundle that listed the id; `nil` (JSON `null`) when not known.
  public var lastListed: CalendarDate?

  public init(id: BranchID, lastListed: CalendarDate?) {
    self.id = id
    self.brand = id.brand
    self.lastListed = lastListed
  }

  private enum CodingKeys: String, CodingKey { case id, brand, lastListed }

  /// Reads an entry; its id is read as an id of its `brand`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    brand = try container.decode(BrandSlug.self, forKey: .brand)
    id = try container.decode(BranchID.self, forKey: .id, brand: brand)
    lastListed = try container.decodeIfPresent(CalendarDate.self, forKey: .lastListed)
  }

  /// Writes every key, `lastListed` as `null` when not known.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(brand, forKey: .brand)
    try container.encode(id, forKey: .id)
    try container.encode(lastListed, forKey: .lastListed)
  }

  /// The `removed` list of a bundle following `previous`: each id `previous` listed, of a brand
  /// in `freshBrands` (read from its source by this run), that `listed` lacks, last listed on
  /// `previous`'s as-of day; and each entry of `previous`'s own `removed` whose id `listed`
  /// lacks, unchanged. A brand carried over or missing removes nothing. Sorted by id.
  public static func following(
    _ previous: PublishedBundle?, freshBrands: Set<BrandSlug>, listed: Set<BranchID>
  ) -> [RemovedBranch] {
    guard let previous else { return [] }
    var removed: [BranchID: RemovedBranch] = [:]
    for entry in previous.branches.removed where !listed.contains(entry.id) { removed[entry.id] = entry }
    for branch in previous.branches.branches where freshBrands.contains(branch.brand) && !listed.contains(branch.id) {
      removed[branch.id] = RemovedBranch(id: branch.id, lastListed: previous.manifest.asOf)
    }
    return removed.values.sorted { $0.id < $1.id }
  }
}

/// `brands/<slug>.json` has the same shape as `branches.json`, holding one brand's branches.
public typealias BrandFile = BranchesFile

/// `index.json`: one compact row per branch, for search and maps.
public struct IndexFile: Codable, Hashable, Sendable {
  public struct Row: Codable, Hashable, Sendable {
    public var id: BranchID
    public var brand: BrandSlug
    public var name: String
    public var sido: String?
    public var sigungu: String?
    public var latitude: Double?
    public var longitude: Double?
    /// The branch's trading state alone, so near-me views can hide or grey out shut stores.
    public var storeStatus: State

    /// `{"state": "trading" | "temporarily-closed" | "closed"}`.
    public struct State: Codable, Hashable, Sendable {
      public var state: StoreStatus.State

      public init(state: StoreStatus.State) { self.state = state }
    }

    private enum CodingKeys: String, CodingKey {
      case id, brand, name, sido, sigungu, latitude, longitude, storeStatus
    }

    /// Reads a row; its id is read as an id of its `brand`.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      brand = try container.decode(BrandSlug.self, forKey: .brand)
      id = try container.decode(BranchID.self, forKey: .id, brand: brand)
      name = try container.decode(String.self, forKey: .name)
      sido = try container.decodeIfPresent(String.self, forKey: .sido)
      sigungu = try container.decodeIfPresent(String.self, forKey: .sigungu)
      latitude = try container.decodeIfPresent(Double.self, forKey: .latitude)
      longitude = try container.decodeIfPresent(Double.self, forKey: .longitude)
      storeStatus = try container.decode(State.self, forKey: .storeStatus)
    }

    public init(_ branch: Branch) {
      self.id = branch.id
      self.brand = branch.brand
      self.name = branch.name
      self.sido = branch.address.sido
      self.sigungu = branch.address.sigungu
      self.latitude = branch.coordinate?.latitude
      self.longitude = branch.coordinate?.longitude
      self.storeStatus = State(state: branch.storeStatus.state)
    }
  }

  public var schemaVersion: Int
  /// Sorted by id.
  public var branches: [Row]

  public init(branches: [Branch]) {
    self.schemaVersion = bundleSchemaVersion
    self.branches = branches.sorted { $0.id < $1.id }.map(Row.init)
  }
}

/// `closures.json`: which branches close on which day, for push servers and "closed today"
/// views. Only days with at least one closure are listed; ids are sorted. A branch that is not
/// trading is listed once under `shut` instead of on each day it is shut; the closing days it
/// has after a temporary closure ends are listed by date as usual. A trading branch announced
/// to close for good is listed once under `closingForGood`, on that day, never as daily
/// closures from then on. The days on which nobody knows whether a branch is closed are listed
/// by date under `unknown` (``UnknownClosingDays``), so that a day in neither list is open for
/// every trading branch.
public struct ClosuresFile: Codable, Hashable, Sendable {
  public var schemaVersion: Int
  public var window: DateWindow
  /// `YYYY-MM-DD` → ids of the branches closed that day.
  public var dates: [String: [BranchID]]
  /// Ids of the branches that are temporarily closed or closed for good, sorted.
  public var shut: [BranchID]
  /// `YYYY-MM-DD` → ids of the trading branches that close for good that day (their
  /// `storeStatus.closesOn`), whether or not the day is inside the window.
  public var closingForGood: [String: [BranchID]]
  /// `YYYY-MM-DD` → ids of the branches whose closing status that day is unknown (never open),
  /// for every day of the window on which there is one; empty in bundles written before the
  /// field existed.
  public var unknown: [String: [BranchID]]
  /// `YYYY-MM-DD` → ids of the branches expected to close that day (`closing.expected`): days
  /// inferred from their district, never confirmed, so kept apart from `dates`.
  public var expected: [String: [BranchID]]

  public init(branches: [Branch], day: RunDay) {
    let window = day.window
    // Branches in id order, so that every list below comes out sorted as it is collected.
    let branches = branches.sorted { $0.id < $1.id }
    // Days by their place in the window while collecting (every day collected lies in it): no
    // hashing per closure, and one `YYYY-MM-DD` text per day.
    let first = window.from.dayNumber
    let dayCount = max(0, window.through.dayNumber - first + 1)
    var dates = [[BranchID]](repeating: [], count: dayCount)
    var expected = [[BranchID]](repeating: [], count: dayCount)
    var unknown = [[BranchID]](repeating: [], count: dayCount)
    var shut: [BranchID] = []
    var closingForGood: [String: [BranchID]] = [:]
    for branch in branches {
      let id = branch.id
      for range in branch.unknownClosingDays(in: window).ranges {
        for day in range.from.dayNumber...range.through.dayNumber { unknown[day - first].append(id) }
      }
      let shutDays = branch.shutDays(asOf: day.asOf).range(in: window)
      if !branch.storeStatus.isTrading {
        shut.append(id)
      } else if let closesOn = branch.storeStatus.closesOn {
        closingForGood[closesOn.iso, default: []].append(id)
      }
      for date in branch.closing.dates where date >= window.from && date <= window.through {
        if let shutDays, shutDays.contains(date) { continue }
        dates[date.dayNumber - first].append(id)
      }
      for date in branch.closing.expected?.dates ?? [] where window.contains(date) {
        expected[date.dayNumber - first].append(id)
      }
    }
    self.schemaVersion = bundleSchemaVersion
    self.window = window
    func byISODate(_ days: [[BranchID]]) -> [String: [BranchID]] {
      var result: [String: [BranchID]] = [:]
      for (offset, ids) in days.enumerated() where !ids.isEmpty {
        result[CalendarDate(dayNumber: first + offset).iso] = ids
      }
      return result
    }
    self.dates = byISODate(dates)
    self.shut = shut
    self.closingForGood = closingForGood
    self.unknown = byISODate(unknown)
    self.expected = byISODate(expected)
  }

  private enum CodingKeys: String, CodingKey {
    case schemaVersion, window, dates, shut, closingForGood, unknown, expected
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
    window = try container.decode(DateWindow.self, forKey: .window)
    dates = try container.decode([String: [BranchID]].self, forKey: .dates)
    shut = try container.decodeIfPresent([BranchID].self, forKey: .shut) ?? []
    closingForGood = try container.decodeIfPresent([String: [BranchID]].self, forKey: .closingForGood) ?? [:]
    unknown = try container.decodeIfPresent([String: [BranchID]].self, forKey: .unknown) ?? [:]
    expected = try container.decodeIfPresent([String: [BranchID]].self, forKey: .expected) ?? [:]
  }
}

/// The one JSON encoding used for every bundle file: canonical JSON (compact, sorted keys,
/// unescaped UTF-8 and slashes, `null` for absent optionals) and a final newline, so equal
/// content gives equal bytes.
public enum BundleJSON {
  public static func encode(_ value: some Encodable) throws -> Data {
    var data = try CanonicalJSON.encode(value)
    data.append(0x0A)
    return data
  }

  /// Decodes a bundle file. Ids that stand without their branch's `brand` field (`closures.json`)
  /// are read against `brands`, the bundle's own brands.
  public static func decode<T: Decodable>(_ type: T.Type, from data: Data, brands: [BrandSlug] = []) throws -> T {
    let decoder = JSONDecoder()
    decoder.userInfo[BranchID.bundleBrands] = brands
    return try decoder.decode(T.self, from: data)
  }
}
