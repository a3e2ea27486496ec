/// A normalized branch, as clients receive it in a bundle.
public struct Branch: Hashable, Sendable, Codable {
  /// Permanent id, `<brand>-<store id>`; safe to store as a favourite.
  public var id: BranchID {
    @inlinable _read { yield storage.fields.id }
    _modify { yield &fields.id }
  }
  public var brand: BrandSlug {
    @inlinable _read { yield storage.fields.brand }
    _modify { yield &fields.brand }
  }
  /// The store format the source names when it differs from the brand (`스타필드 마켓`,
  /// `이마트 푸드마켓`, `홈플러스 스페셜`), so a client can show "홈플러스 스페셜 광주하남점" while the
  /// branch stays under its brand; `null` otherwise.
  public var banner: String? {
    @inlinable _read { yield storage.fields.banner }
    _modify { yield &fields.banner }
  }
  /// Branch name without the brand prefix, e.g. `창원점`.
  public var name: String {
    @inlinable _read { yield storage.fields.name }
    _modify { yield &fields.name }
  }
  /// The name as the source published it, when it differs from `name` by more than the brand
  /// (a format code: 롯데슈퍼's `E다산역점`); `null` otherwise.
  public var namePublished: String? {
    @inlinable _read { yield storage.fields.namePublished }
    _modify { yield &fields.namePublished }
  }
  public var address: BranchAddress {
    @inlinable _read { yield storage.fields.address }
    _modify { yield &fields.address }
  }
  /// Phone in `0XX-XXXX-XXXX` form, or `nil` when the published text is not a phone number.
  public var phone: String? {
    @inlinable _read { yield storage.fields.phone }
    _modify { yield &fields.phone }
  }
  /// The phone text as published.
  public var phonePublished: String? {
    @inlinable _read { yield storage.fields.phonePublished }
    _modify { yield &fields.phonePublished }
  }
  /// Opening hours as published, e.g. `10:00 ~ 23:00`.
  public var openingHours: String? {
    @inlinable _read { yield storage.fields.openingHours }
    _modify { yield &fields.openingHours }
  }
  /// `openingHours` read as one daily range, or `nil` when the text is not one (encoded as
  /// JSON `null`, never omitted).
  public var hours: OpeningHours? {
    @inlinable _read { yield storage.fields.hours }
    _modify { yield &fields.hours }
  }
  /// Validated coordinates inside Korea with their source and precision, or `nil` when none
  /// could be established.
  public var coordinate: Coordinate? {
    @inlinable _read { yield storage.fields.coordinate }
    _modify { yield &fields.coordinate }
  }
  public var closing: BranchClosing {
    @inlinable _read { yield storage.fields.closing }
    _modify { yield &fields.closing }
  }
  /// Whether the branch trades; check it before anything else. A branch that does not keeps
  /// its record and id, and every day it is shut is among `closing.dates`.
  public var storeStatus: StoreStatus {
    @inlinable _read { yield storage.fields.storeStatus }
    _modify { yield &fields.storeStatus }
  }
  /// The URL the run read the branch's record from (a list or feed, or the branch's page when
  /// that was read); never a page that answered an error.
  public var sourceURL: String {
    @inlinable _read { yield storage.fields.sourceURL }
    _modify { yield &fields.sourceURL }
  }
  /// The branch's own page on the brand's site, for people to open; `nil` (JSON `null`) when
  /// the source neither gives nor documents one.
  public var pageURL: String? {
    @inlinable _read { yield storage.fields.pageURL }
    _modify { yield &fields.pageURL }
  }
  /// The ids this branch was published under before, newest first, when its source stopped
  /// carrying what its id was made from (Lotte Mart's `brnchCd`): an app's favourite stored
  /// under one of them belongs to this branch. Each former id is listed by one branch only and
  /// is no branch's id; omitted from the JSON when empty.
  public var formerIDs: [BranchID] {
    @inlinable _read { yield storage.fields.formerIDs }
    _modify { yield &fields.formerIDs }
  }
  /// Set while the branch's source no longer lists it: the branch is kept with its last data
  /// for a grace period (``MissingFromSource/graceRuns`` runs) before it is removed, so that a
  /// source answering with fewer stores for a day loses none of them. `nil` (absent from the
  /// JSON) while the source lists the branch.
  public var missingFromSource: MissingFromSource? {
    @inlinable _read { yield storage.fields.missingFromSource }
    _modify { yield &fields.missingFromSource }
  }
  /// The 관리번호 of the national register of large stores' entry this branch is (same brand,
  /// within 150 m or at one road address); `nil` (absent in JSON) when the run matched none.
  public var registerID: String? {
    @inlinable _read { yield storage.fields.registerID }
    _modify { yield &fields.registerID }
  }
  /// Where the branch comes from when not from its brand's own source: ``BranchSource/register``
  /// for a store the national register of large stores alone lists (a branch of a register
  /// brand); `nil` (absent in JSON) for a branch its brand's source lists.
  public var source: BranchSource? {
    @inlinable _read { yield storage.fields.source }
    _modify { yield &fields.source }
  }
  /// The class of store the branch is when it differs from store to store within its brand (a
  /// register brand's stores are 대규모점포 or 준대규모점포 as the register lists them); `nil`
  /// (absent in JSON) when the branch is of its brand's class (the manifest's `storeClass`).
  public var storeClass: StoreClass? {
    @inlinable _read { yield storage.fields.storeClass }
    _modify { yield &fields.storeClass }
  }

  /// The stored properties, in one box that copies of the branch share until one of them is
  /// changed (copy on write): a run copies each branch into sorts, lists and filters many times,
  /// and copying the properties themselves retains each of their strings and arrays. Each
  /// property is read in place (`_read`, no copy of a `closing` to read its `dates`) and changed
  /// in place (`_modify`).
  @usableFromInline var storage: BranchStorage

  /// The properties, for changing in place: the box is copied first when another branch shares it.
  private var fields: BranchFields {
    get { storage.fields }
    _modify {
      if !isKnownUniquelyReferenced(&storage) { storage = BranchStorage(storage.fields) }
      yield &storage.fields
    }
  }

  public init(
    id: BranchID, banner: String? = nil, name: String, namePublished: String? = nil, address: BranchAddress,
    phone: String?, phonePublished: String?,
    openingHours: String?, hours: OpeningHours? = nil, coordinate: Coordinate?, closing: BranchClosing,
    storeStatus: StoreStatus = .trading, sourceURL: String, pageURL: String? = nil
  ) {
    storage = BranchStorage(
      BranchFields(
        id: id, brand: id.brand, banner: banner, name: name, namePublished: namePublished, address: address,
        phone: phone, phonePublished: phonePublished, openingHours: openingHours, hours: hours, coordinate: coordinate,
        closing: closing, storeStatus: storeStatus, sourceURL: sourceURL, pageURL: pageURL, formerIDs: [],
        missingFromSource: nil, registerID: nil, source: nil, storeClass: nil))
  }

  public static func == (one: Branch, other: Branch) -> Bool {
    one.storage === other.storage || one.storage.fields == other.storage.fields
  }

  public func hash(into hasher: inout Hasher) {
    storage.fields.hash(into: &hasher)
  }

  private enum CodingKeys: String, CodingKey {
    case id, brand, banner, name, namePublished, address, phone, phonePublished, openingHours, hours, coordinate,
      closing, storeStatus
    case sourceURL, pageURL
    case formerIDs = "formerIds"
    case missingFromSource
    case registerID = "registerId"
    case source, storeClass
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let brand = try container.decode(BrandSlug.self, forKey: .brand)
    let id = try container.decode(BranchID.self, forKey: .id, brand: brand)
    let banner = try container.decodeIfPresent(String.self, forKey: .banner)
    let name = try container.decode(String.self, forKey: .name)
    let namePublished = try container.decodeIfPresent(String.self, forKey: .namePublished)
    let address = try container.decode(BranchAddress.self, forKey: .address)
    let phone = try container.decodeIfPresent(String.self, forKey: .phone)
    let phonePublished = try container.decodeIfPresent(String.self, forKey: .phonePublished)
    let openingHours = try container.decodeIfPresent(String.self, forKey: .openingHours)
    let hours = try container.decodeIfPresent(OpeningHours.self, forKey: .hours)
    let coordinate = try container.decodeIfPresent(Coordinate.self, forKey: .coordinate)
    let closing = try container.decode(BranchClosing.self, forKey: .closing)
    // Bundles written before stores had a status listed trading stores only.
    let storeStatus = try container.decodeIfPresent(StoreStatus.self, forKey: .storeStatus) ?? .trading
    let sourceURL = try container.decode(String.self, forKey: .sourceURL)
    let pageURL = try container.decodeIfPresent(String.self, forKey: .pageURL)
    let formerIDs = try (container.decodeIfPresent([String].self, forKey: .formerIDs) ?? []).map { text in
      guard let former = BranchID(text, brand: brand) else {
        throw DecodingError.dataCorruptedError(
          forKey: .formerIDs, in: container, debugDescription: "\(text) is not an id of brand \(brand)")
      }
      return former
    }
    let missingFromSource = try container.decodeIfPresent(MissingFromSource.self, forKey: .missingFromSource)
    let registerID = try container.decodeIfPresent(String.self, forKey: .registerID)
    let source = try container.decodeIfPresent(BranchSource.self, forKey: .source)
    let storeClass = try container.decodeIfPresent(StoreClass.self, forKey: .storeClass)
    storage = BranchStorage(
      BranchFields(
        id: id, brand: brand, banner: banner, name: name, namePublished: namePublished, address: address,
        phone: phone, phonePublished: phonePublished, openingHours: openingHours, hours: hours, coordinate: coordinate,
        closing: closing, storeStatus: storeStatus, sourceURL: sourceURL, pageURL: pageURL, formerIDs: formerIDs,
        missingFromSource: missingFromSource, registerID: registerID, source: source, storeClass: storeClass))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(brand, forKey: .brand)
    try container.encode(banner, forKey: .banner)  // explicit null: the brand's own format
    try container.encode(name, forKey: .name)
    try container.encode(namePublished, forKey: .namePublished)  // explicit null: as shown
    try container.encode(address, forKey: .address)
    try container.encodeIfPresent(phone, forKey: .phone)
    try container.encodeIfPresent(phonePublished, forKey: .phonePublished)
    try container.encodeIfPresent(openingHours, forKey: .openingHours)
    try container.encode(hours, forKey: .hours)  // explicit null: "no parsable hours"
    try container.encodeIfPresent(coordinate, forKey: .coordinate)
    try container.encode(closing, forKey: .closing)
    try container.encode(storeStatus, forKey: .storeStatus)
    try container.encode(sourceURL, forKey: .sourceURL)
    try container.encode(pageURL, forKey: .pageURL)  // explicit null: "no page of its own"
    if !formerIDs.isEmpty { try container.encode(formerIDs.map(\.description), forKey: .formerIDs) }
    // Absent, not null, while the source lists the branch.
    if let missingFromSource { try container.encode(missingFromSource, forKey: .missingFromSource) }
    // Absent, not null, when unmatched: bundles before the register read the same.
    if let registerID { try container.encode(registerID, forKey: .registerID) }
    // Absent, not null, for a branch of a brand's own source and of its brand's class.
    if let source { try container.encode(source, forKey: .source) }
    if let storeClass { try container.encode(storeClass, forKey: .storeClass) }
  }
}

/// The stored properties of a ``Branch``, in the order it declares them (its `==` and hash are
/// theirs).
@usableFromInline struct BranchFields: Hashable {
  @usableFromInline var id: BranchID
  @usableFromInline var brand: BrandSlug
  @usableFromInline var banner: String?
  @usableFromInline var name: String
  @usableFromInline var namePublished: String?
  @usableFromInline var address: BranchAddress
  @usableFromInline var phone: String?
  @usableFromInline var phonePublished: String?
  @usableFromInline var openingHours: String?
  @usableFromInline var hours: OpeningHours?
  @usableFromInline var coordinate: Coordinate?
  @usableFromInline var closing: BranchClosing
  @usableFromInline var storeStatus: StoreStatus
  @usableFromInline var sourceURL: String
  @usableFromInline var pageURL: String?
  @usableFromInline var formerIDs: [BranchID]
  @usableFromInline var missingFromSource: MissingFromSource?
  @usableFromInline var registerID: String?
  @usableFromInline var source: BranchSource?
  @usableFromInline var storeClass: StoreClass?
}

/// The box a ``Branch`` keeps its properties in. `@unchecked Sendable`: a box is changed only
/// through ``Branch``'s `fields`, which first copies it unless that branch holds the only
/// reference, so a box one thread can see is never changed by another.
@usableFromInline final class BranchStorage: @unchecked Sendable {
  // Not checked for overlapping accesses at run time: the box is changed only through a
  // branch's `fields`, which holds the only reference to it then, so no other access can
  // overlap; the check cost about 1 % of a run's CPU.
  @exclusivity(unchecked) @usableFromInline var fields: BranchFields

  init(_ fields: BranchFields) {
    self.fields = fields
  }
}

/// Where a branch comes from when not from its brand's own source.
public enum BranchSource: String, Hashable, Sendable, Codable {
  /// The national register of large stores (LOCALDATA 대규모점포): a store no brand source covers,
  /// published with the register's name, address, point and phone, and closing days expected
  /// from its district or unknown, never published ones.
  case register
}

/// A branch its source stopped listing, kept with its last data: since when, and for how many
/// runs that fetched its brand fresh.
public struct MissingFromSource: Hashable, Sendable, Codable {
  /// How many runs in a row a branch may be missing from its source's answer and still be
  /// kept: the third run that does not find it removes it.
  public static let graceRuns = 2

  /// The as-of date of the first run whose answer did not list the branch.
  public var since: CalendarDate
  /// The runs in a row (1 or 2) whose answer did not list it, this one included.
  public var runs: Int

  public init(since: CalendarDate, runs: Int) {
    self.since = since
    self.runs = runs
  }
}

/// A branch's address: the published text and, when it could be parsed, canonical forms.
public struct BranchAddress: Hashable, Sendable, Codable {
  /// The address exactly as the source published it.
  public var published: String?
  /// A separately published lot-number (지번) address, if any.
  public var lotPublished: String?
  /// Canonical road-name address, e.g. `서울특별시 송파구 올림픽로 300`.
  public var road: String?
  /// Canonical lot-number address, e.g. `서울특별시 송파구 신천동 29`.
  public var jibun: String?
  /// 시도 by its current official name, e.g. `강원특별자치도`.
  public var sido: String?
  /// 시군구, e.g. `성남시 분당구`.
  public var sigungu: String?

  /// The published text with the canonical forms the normalizer found in it.
  public init(published: String?, lotPublished: String?, parsed: KoreanAddress?) {
    self.init(
      published: published, lotPublished: lotPublished, road: parsed?.roadAddress,
      jibun: parsed?.jibunAddress, sido: parsed?.province?.officialName, sigungu: parsed?.sigungu)
  }

  public init(
    published: String?, lotPublished: String? = nil, road: String? = nil, jibun: String? = nil,
    sido: String? = nil, sigungu: String? = nil
  ) {
    self.published = published
    self.lotPublished = lotPublished
    self.road = road
    self.jibun = jibun
    self.sido = sido
    self.sigungu = sigungu
  }
}

/// A branch's closing days: concrete dates for the bundle's window plus the structured
/// schedule, so clients can compute dates beyond the window.
public struct BranchClosing: Hashable, Sendable, Codable {
  /// `closures`, `open-all-year` or `unknown` (never to be shown as "open").
  public var status: ClosingStatus
  /// Closed dates within the bundle's window, sorted: the schedule's, plus every day the store
  /// status shuts the store.
  public var dates: [CalendarDate]
  /// Days of the bundle's window the source says nothing about, as maximal ranges in order.
  /// Clients show them as unknown, never as open. A day of the window in neither `dates` nor
  /// these ranges is open.
  public var unknownRanges: [DateWindow]
  /// The last day the schedule speaks of: every day after it is unknown, never open. `nil` when
  /// the schedule is a recurring rule without an end, which clients may expand beyond the
  /// window; the day before the window when it speaks of no day of it. Every day of the
  /// window after it is in `unknownRanges`.
  public var knownThrough: CalendarDate?
  /// The structured schedule, including the published text and warnings.
  public var schedule: ClosingSchedule
  /// The days a branch subject to the designation is expected to close when its source
  /// publishes none (status `unknown`), from its district's stores (``DistrictDesignations``);
  /// `nil` otherwise. Never part of `dates`, `status` or `unknownRanges`: clients show them
  /// apart, as expected, never as confirmed.
  public var expected: ExpectedClosing?

  /// The schedule's dates and unknown ranges within `window`, plus the days `storeStatus` shuts
  /// the store there (``ShutDays``), which are closed days and so never unknown. A store shut on
  /// some day of the window has status `closures` whatever its schedule says. `asOf` is the day a
  /// shut store is known to be shut from.
  public init(
    schedule: ClosingSchedule, window: DateWindow, storeStatus: StoreStatus = .trading, asOf: CalendarDate? = nil
  ) {
    self.status = schedule.status
    var dates = schedule.closedDates(from: window.from, through: window.through)
    var unknownRanges = schedule.unknownRanges(from: window.from, through: window.through)
    var knownThrough = schedule.knownThrough(from: window.from, through: window.through)
    let shut = ShutDays(storeStatus, asOf: asOf ?? window.from)
    if let shutRange = shut.range(in: window) {
      // A shut day is closed, and known.
      dates = Set(dates).union(shut.days(in: window)).sorted()
      unknownRanges = shut.removed(from: unknownRanges, in: window)
      self.status = .closures
      // The shut days are known, so the schedule is known through them at least.
      if let known = knownThrough, known < shutRange.upperBound { knownThrough = shutRange.upperBound }
    }
    self.knownThrough = knownThrough
    self.dates = dates
    self.unknownRanges = unknownRanges
    self.schedule = schedule
  }

  private enum CodingKeys: String, CodingKey {
    case status, dates, unknownRanges, knownThrough, schedule, expected
  }

  /// Reads a branch closing; bundles written before `unknownRanges`, `knownThrough` or `expected` existed
  /// decode with no unknown range and `knownThrough` `nil`, and the pipeline recomputes both for
  /// its window (``BranchNormalizer/refresh(_:)``).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    status = try container.decode(ClosingStatus.self, forKey: .status)
    dates = try container.decode([CalendarDate].self, forKey: .dates)
    unknownRanges = try container.decodeIfPresent([DateWindow].self, forKey: .unknownRanges) ?? []
    knownThrough = try container.decodeIfPresent(CalendarDate.self, forKey: .knownThrough)
    schedule = try container.decode(ClosingSchedule.self, forKey: .schedule)
    expected = try container.decodeIfPresent(ExpectedClosing.self, forKey: .expected)
  }

  /// Encodes every key, `knownThrough` as `null` when the schedule has no end and `expected`
  /// as `null` when there are no expected days.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(status, forKey: .status)
    try container.encode(dates, forKey: .dates)
    try container.encode(unknownRanges, forKey: .unknownRanges)
    try container.encode(knownThrough, forKey: .knownThrough)
    try container.encode(schedule, forKey: .schedule)
    try container.encode(expected, forKey: .expected)
  }
}

/// An inclusive range of days.
public struct DateWindow: Hashable, Sendable, Codable {
  public var from: CalendarDate
  public var through: CalendarDate

  public init(from: CalendarDate, through: CalendarDate) {
    self.from = from
    self.through = through
  }

  /// The as-of month and the next two months, e.g. 2026-11-01 … 2027-01-31 for 2026-11-22.
  public static func threeMonths(startingAt asOf: CalendarDate) -> DateWindow {
    DateWindow(from: asOf.firstOfMonth(), through: asOf.firstOfMonth(addingMonths: 2).lastOfMonth)
  }

  /// The months the window touches, by their first day, in order.
  public var months: [CalendarDate] {
    var months: [CalendarDate] = []
    var month = from.firstOfMonth()
    while month <= through {
      months.append(month)
      month = month.firstOfMonth(addingMonths: 1)
    }
    return months
  }
}
