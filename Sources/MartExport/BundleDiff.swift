import Foundation
import MartCore

/// A kind of change between two bundles; the raw value is the name used in `diff --fail-on`,
/// in the JSON output (`field`) and in `docs/bundle-format.md`.
public enum ChangeKind: String, CaseIterable, Codable, Sendable, Comparable {
  /// A branch only in the new bundle.
  case added
  /// A branch only in the old bundle.
  case removed
  /// A branch its source's answer stopped listing, kept with its last data
  /// (`missingFromSource`; new value `since <date>`), or listed again (new value `null`): not
  /// removed, told apart from `removed`.
  case missingFromSource = "missing-from-source"
  /// `storeStatus.state` (`trading`, `temporarily-closed`, `closed`): a store closing or reopening.
  case storeStatus = "store-status"
  case name
  /// The published address (or published lot-number address).
  case address
  /// The phone (formatted, or as published when it is not a phone number).
  case phone
  /// The published opening hours.
  case hours
  /// Moved more than ``BundleDiff/movedThresholdMeters``, or a coordinate appeared or vanished.
  case coordinates
  /// Closing dates added or removed, within the days both bundles' windows cover from the later
  /// as-of date on (``BundleDiff/comparedDays``).
  case closingDates = "closing-dates"
  /// Days that became unknown or known (`closing.unknownRanges`), within the days both bundles'
  /// windows cover from the later as-of date on (``BundleDiff/comparedDays``).
  case unknownDays = "unknown-days"
  /// `closing.status` (`closures`, `open-all-year`, `unknown`).
  case closingStatus = "closing-status"
  /// `registerId`: the branch's entry in the national register of large stores (관리번호)
  /// appeared, vanished or changed — the register found the store, or no longer lists it open.
  case registerID = "register-id"
  /// A brand's freshness in the manifest (`fresh`, `stale`, `missing`) changed, or the brand
  /// appeared in or vanished from the manifest. A change of a brand, not of a branch.
  case brandFreshness = "brand-freshness"
  /// The bundle's window (the months with concrete closing dates) moved. A change of the bundle.
  case window
  /// The closing-day pattern a district's stores keep (`districts.json`) changed, appeared or
  /// vanished: news, since a district moved its 의무휴업일. A change of a district, not of a branch.
  case districtPattern = "district-pattern"
  /// A branch its brand lists as trading that the national register of large stores records as
  /// 폐업 or 휴업 (with its dates), newly reported by the run that made the new bundle.
  case registerShut = "register-shut"
  /// An open register store of a covered brand that its source does not list, newly reported.
  case registerUnlisted = "register-unlisted"
  /// A permit of a store not yet trading (영업개시전) from eight weeks before the as-of date to
  /// eight weeks after, newly reported.
  case registerNewPermit = "register-new-permit"

  /// Whether the kind is a change of one branch, as opposed to a branch added or removed, a
  /// brand's freshness or the window.
  public var isBranchField: Bool {
    switch self {
    case .added, .removed, .brandFreshness, .window, .districtPattern, .registerShut, .registerUnlisted,
      .registerNewPermit:
      false
    default: true
    }
  }

  public static func < (lhs: ChangeKind, rhs: ChangeKind) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// A value on one side of a field change.
public enum DiffValue: Hashable, Sendable, Encodable {
  case null
  case text(String)
  case dates([CalendarDate])
  /// Ranges of days, each `{"from", "through"}` in JSON.
  case ranges([DateWindow])
  case point(latitude: Double, longitude: Double)

  private enum PointKeys: String, CodingKey { case latitude, longitude }

  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .text(let text):
      var container = encoder.singleValueContainer()
      try container.encode(text)
    case .dates(let dates):
      var container = encoder.singleValueContainer()
      try container.encode(dates)
    case .ranges(let ranges):
      var container = encoder.singleValueContainer()
      try container.encode(ranges)
    case .point(let latitude, let longitude):
      var container = encoder.container(keyedBy: PointKeys.self)
      try container.encode(latitude, forKey: .latitude)
      try container.encode(longitude, forKey: .longitude)
    }
  }
}

/// The difference between two bundles, keyed by branch id.
public struct BundleDiff: Sendable {
  /// Coordinates closer than this are the same place (sources round and geocoders jitter).
  public static let movedThresholdMeters = 100.0

  /// A text before and after, e.g. the published closing-day text.
  public struct TextChange: Hashable, Sendable, Encodable {
    public var old: String?
    public var new: String?

    public init(old: String?, new: String?) {
      self.old = old
      self.new = new
    }
  }

  /// One field of one branch that changed.
  public struct FieldChange: Hashable, Sendable, Encodable {
    public var field: ChangeKind
    /// For `closing-dates`: the dates no longer closed; for `unknown-days`: the ranges of days no
    /// longer unknown; otherwise the old value.
    public var old: DiffValue
    /// For `closing-dates`: the dates newly closed; for `unknown-days`: the ranges of days newly
    /// unknown; otherwise the new value.
    public var new: DiffValue
    /// For `closing-dates`, `unknown-days` and `closing-status`: the published closing-day text
    /// (`closing.schedule.text`) before and after, when it changed; otherwise `nil`.
    public var sourceText: TextChange? = nil

    public init(field: ChangeKind, old: DiffValue, new: DiffValue, sourceText: TextChange? = nil) {
      self.field = field
      self.old = old
      self.new = new
      self.sourceText = sourceText
    }
  }

  /// A branch in both bundles with at least one field change.
  public struct BranchChange: Hashable, Sendable {
    public var branch: Branch
    public var changes: [FieldChange]
  }

  /// The bundles compared: version, as-of date, window and the manifest's brands.
  public struct Side: Sendable {
    public var version: String
    public var asOf: CalendarDate
    public var window: DateWindow
    /// The manifest's brands, with their freshness; empty when unknown (no brand is compared).
    public var brands: [BrandSummary]

    public init(version: String, asOf: CalendarDate, window: DateWindow, brands: [BrandSummary] = []) {
      self.version = version
      self.asOf = asOf
      self.window = window
      self.brands = brands
    }
  }

  /// A brand's state in one manifest.
  public struct BrandState: Hashable, Sendable, Encodable {
    public var freshness: BrandSummary.Freshness
    public var branchCount: Int
    public var lastFetchedAsOf: CalendarDate?

    public init(_ summary: BrandSummary) {
      freshness = summary.freshness
      branchCount = summary.branchCount
      lastFetchedAsOf = summary.lastFetchedAsOf
    }
  }

  /// A brand whose freshness changed, or that is in one manifest only (`old` or `new` is `nil`).
  public struct BrandChange: Hashable, Sendable {
    public var brand: BrandSlug
    /// The Korean name, as the manifests give it.
    public var name: String
    public var old: BrandState?
    public var new: BrandState?
  }

  /// A designation (a district's pattern for one store class) that changed, or that one bundle
  /// only has (`old` or `new` is `nil`), as each bundle's `districts.json` says (a bundle without
  /// one: as its branches support it, ``DistrictDesignations``). A designation kept without
  /// fresh evidence is no change.
  public struct DistrictChange: Hashable, Sendable, Encodable {
    /// `<sido> <sigungu>`.
    public var district: String
    /// `hypermarket` or `ssm`: the class of store whose designation changed.
    public var storeClass: StoreClass
    /// The pattern, e.g. `2nd sunday, 4th sunday`.
    public var old: String?
    public var new: String?
    /// The stores following the new pattern (the old one's when the district lost its pattern).
    public var evidence: [BranchID]

    /// `<sido> <sigungu> (<class>)`.
    public var title: String { "\(district) (\(storeClass.rawValue))" }
  }

  public var old: Side
  public var new: Side
  /// Districts whose pattern changed, sorted by district.
  public var districts: [DistrictChange]
  /// Sorted by id.
  public var added: [Branch]
  /// Sorted by id.
  public var removed: [Branch]
  /// Sorted by id.
  public var changed: [BranchChange]
  /// Brands whose freshness changed or that are in one manifest only, sorted by slug.
  public var brands: [BrandChange]
  /// Every brand stale in the new bundle, sorted by slug; not a change unless its freshness
  /// changed (``brands``), but told in every form of the diff.
  public var staleBrands: [StaleBrand]
  /// The days of the new window outside the old one (the month the window moved on to), in order.
  public var addedDays: [DateWindow]
  /// Per brand, the branches of the new bundle with unknown days among ``addedDays`` (sorted by
  /// id): a month that entered the window without its closing days. Told with the `window` change.
  public var unknownOnAddedDays: [BrandSlug: [BranchID]]
  /// The Korean name of each brand, as the bundles' manifests give them (the new one wins).
  public var brandNames: [BrandSlug: String]
  /// The register's cross-checks the new bundle's run reported and the old one's did not
  /// (``withRegisterFindings(new:old:)``), sorted by kind, branch and 관리번호.
  public var registerFindings: [RegisterFinding] = []

  /// Compares two bundles' branches; `sources` is each brand's source of closing days, for the
  /// designations of a bundle without `districts.json` (inferred from its branches).
  public init(old: PublishedBundle, new: PublishedBundle, sources: [BrandSlug: String] = [:]) {
    self.init(
      old: Side(
        version: old.manifest.version, asOf: old.manifest.asOf, window: old.manifest.window,
        brands: old.manifest.brands),
      oldBranches: old.branches.branches,
      new: Side(
        version: new.manifest.version, asOf: new.manifest.asOf, window: new.manifest.window,
        brands: new.manifest.brands),
      newBranches: new.branches.branches,
      brandNames: Dictionary(
        (old.manifest.brands + new.manifest.brands).map { ($0.slug, $0.name) }, uniquingKeysWith: { _, last in last }),
      oldDistricts: old.districtsFile()?.districts, newDistricts: new.districtsFile()?.districts, sources: sources)
  }

  /// Compares two bundles' branches; `oldDistricts` and `newDistricts` are their `districts.json`
  /// entries when they have one, else the designations are inferred from their branches, each
  /// brand's closing days from its source in `sources` (``DistrictDesignations``).
  public init(
    old: Side, oldBranches: [Branch], new: Side, newBranches: [Branch], brandNames: [BrandSlug: String] = [:],
    oldDistricts: [DistrictsFile.Entry]? = nil, newDistricts: [DistrictsFile.Entry]? = nil,
    sources: [BrandSlug: String] = [:]
  ) {
    self.old = old
    self.new = new
    var names = brandNames
    for summary in old.brands + new.brands where names[summary.slug] == nil { names[summary.slug] = summary.name }
    self.brandNames = names
    let beforeBrands = Dictionary(old.brands.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
    let afterBrands = Dictionary(new.brands.map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
    brands = Set(beforeBrands.keys).union(afterBrands.keys).sorted().compactMap { slug in
      let was = beforeBrands[slug]
      let now = afterBrands[slug]
      guard was?.freshness != now?.freshness else { return nil }
      return BrandChange(
        brand: slug, name: names[slug] ?? slug.rawValue, old: was.map(BrandState.init), new: now.map(BrandState.init))
    }
    staleBrands = new.brands.filter { $0.freshness == .stale }.sorted { $0.slug < $1.slug }.map { summary in
      StaleBrand(
        brand: summary.slug, name: names[summary.slug] ?? summary.slug.rawValue, staleSince: summary.lastFetchedAsOf,
        daysStale: summary.lastFetchedAsOf.map { max(0, new.asOf.dayNumber - $0.dayNumber) })
    }
    let before = Dictionary(oldBranches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let after = Dictionary(newBranches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    added = after.filter { before[$0.key] == nil }.values.sorted { $0.id < $1.id }
    removed = before.filter { after[$0.key] == nil }.values.sorted { $0.id < $1.id }
    let overlap = Self.comparedDays(old: old, new: new)
    changed = after.keys.sorted().compactMap { id in
      guard let was = before[id], let now = after[id] else { return nil }
      let changes = Self.changes(from: was, to: now, overlap: overlap)
      return changes.isEmpty ? nil : BranchChange(branch: now, changes: changes)
    }
    let oldDays = old.window.from.dayNumber...old.window.through.dayNumber
    let newDays =
      new.window.from <= new.window.through ? Array(new.window.from.dayNumber...new.window.through.dayNumber) : []
    addedDays = Self.ranges(of: Set(newDays.filter { !oldDays.contains($0) }.map(CalendarDate.init(dayNumber:))))
    var unknown: [BrandSlug: [BranchID]] = [:]
    for branch in newBranches.sorted(by: { $0.id < $1.id }) {
      let days = addedDays.flatMap { Self.days(in: branch.closing.unknownRanges, within: $0) }
      if !days.isEmpty { unknown[branch.brand, default: []].append(branch.id) }
    }
    unknownOnAddedDays = unknown
    func inferred(_ side: Side, _ branches: [Branch]) -> [DistrictsFile.Entry] {
      DistrictDesignations.infer(
        from: branches, window: side.window, exempt: side.brands.exemptFromDesignation,
        storeClasses: side.brands.storeClasses, sources: sources, asOf: side.asOf
      ).districts.map(DistrictsFile.Entry.init)
    }
    districts = Self.districtChanges(
      old: oldDistricts ?? inferred(old, oldBranches), new: newDistricts ?? inferred(new, newBranches))
  }

  /// The designations whose pattern differs between `old` and `new`.
  static func districtChanges(old: [DistrictsFile.Entry], new: [DistrictsFile.Entry]) -> [DistrictChange] {
    let before = Dictionary(old.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    let after = Dictionary(new.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    return Set(before.keys).union(after.keys).sorted().compactMap { key in
      let was = before[key]
      let now = after[key]
      guard was?.pattern != now?.pattern else { return nil }
      return DistrictChange(
        district: key.district.description, storeClass: key.storeClass, old: was?.patternDescription,
        new: now?.patternDescription, evidence: (now ?? was)?.evidence ?? [])
    }
  }

  static func changes(from was: Branch, to now: Branch, overlap: DateWindow) -> [FieldChange] {
    var changes: [FieldChange] = []
    func text(_ value: String?) -> DiffValue { value.map(DiffValue.text) ?? .null }
    func compare(_ kind: ChangeKind, _ old: String?, _ new: String?) {
      if old != new { changes.append(FieldChange(field: kind, old: text(old), new: text(new))) }
    }
    /// `trading`, `closed`, …, with the day a trading store closes for good when announced.
    func statusText(_ status: StoreStatus) -> String {
      status.state.rawValue + (status.state == .trading ? status.closesOn.map { " (closes on \($0.iso))" } ?? "" : "")
    }
    compare(
      .missingFromSource, was.missingFromSource.map { "since \($0.since.iso)" },
      now.missingFromSource.map { "since \($0.since.iso)" })
    compare(.storeStatus, statusText(was.storeStatus), statusText(now.storeStatus))
    compare(.name, was.name, now.name)
    compare(.address, addressText(was.address), addressText(now.address))
    compare(.phone, was.phone ?? was.phonePublished, now.phone ?? now.phonePublished)
    compare(.hours, was.openingHours, now.openingHours)
    compare(.registerID, was.registerID, now.registerID)

    switch (was.coordinate, now.coordinate) {
    case (nil, nil): break
    case (let old?, let new?) where old.point.distance(to: new.point) <= movedThresholdMeters: break
    case (let old, let new):
      changes.append(
        FieldChange(
          field: .coordinates, old: old.map { .point(latitude: $0.latitude, longitude: $0.longitude) } ?? .null,
          new: new.map { .point(latitude: $0.latitude, longitude: $0.longitude) } ?? .null))
    }

    let sourceText =
      was.closing.schedule.text == now.closing.schedule.text
      ? nil : TextChange(old: was.closing.schedule.text, new: now.closing.schedule.text)
    if overlap.from <= overlap.through {
      // When the store closed or reopened, the days it is shut in either bundle are told by the
      // store-status change, not listed again as closing dates or unknown days.
      let explained =
        was.storeStatus.state == now.storeStatus.state && was.storeStatus.closesOn == now.storeStatus.closesOn
        ? []
        : [was.storeStatus, now.storeStatus].compactMap { ShutDays($0, asOf: overlap.from).range(in: overlap) }
      func inOverlap(_ dates: some Sequence<CalendarDate>) -> Set<CalendarDate> {
        Set(
          dates.lazy.filter { date in
            date >= overlap.from && date <= overlap.through && !explained.contains { $0.contains(date) }
          })
      }
      let before = inOverlap(was.closing.dates)
      let after = inOverlap(now.closing.dates)
      if before != after {
        changes.append(
          FieldChange(
            field: .closingDates, old: .dates(before.subtracting(after).sorted()),
            new: .dates(after.subtracting(before).sorted()), sourceText: sourceText))
      }
      let unknownBefore = inOverlap(days(in: was.closing.unknownRanges, within: overlap))
      let unknownAfter = inOverlap(days(in: now.closing.unknownRanges, within: overlap))
      if unknownBefore != unknownAfter {
        changes.append(
          FieldChange(
            field: .unknownDays, old: .ranges(ranges(of: unknownBefore.subtracting(unknownAfter))),
            new: .ranges(ranges(of: unknownAfter.subtracting(unknownBefore))), sourceText: sourceText))
      }
    }
    if was.closing.status != now.closing.status {
      changes.append(
        FieldChange(
          field: .closingStatus, old: .text(was.closing.status.rawValue), new: .text(now.closing.status.rawValue),
          sourceText: sourceText))
    }
    return changes
  }

  /// The days of `ranges` inside `window`.
  static func days(in ranges: [DateWindow], within window: DateWindow) -> [CalendarDate] {
    ranges.flatMap { range -> [CalendarDate] in
      let first = max(range.from, window.from)
      let last = min(range.through, window.through)
      guard first <= last else { return [] }
      return (first.dayNumber...last.dayNumber).map(CalendarDate.init(dayNumber:))
    }
  }

  /// The days as maximal ranges of consecutive days, in order.
  static func ranges(of days: Set<CalendarDate>) -> [DateWindow] {
    var ranges: [DateWindow] = []
    for day in days.sorted() {
      if let last = ranges.last, last.through.adding(days: 1) == day {
        ranges[ranges.count - 1].through = day
      } else {
        ranges.append(DateWindow(from: day, through: day))
      }
    }
    return ranges
  }

  /// The address as compared: the published text, with a separately published lot-number
  /// address after it.
  static func addressText(_ address: BranchAddress) -> String? {
    switch (address.published, address.lotPublished) {
    case (let road?, let lot?) where road != lot: "\(road) (\(lot))"
    case (let road?, _): road
    case (nil, let lot): lot
    }
  }

  /// Whether the window moved between the bundles.
  public var windowChanged: Bool { old.window != new.window }

  /// The days on which closing dates and unknown days are compared: those both windows cover,
  /// from the later of the two as-of dates on; `nil` when there are none. Days before it are
  /// history for the newer bundle (its source may list only upcoming days, a store shut since is
  /// known to be shut only from its as-of date), so a day rolling over is not a change.
  public var comparedDays: DateWindow? {
    let overlap = Self.comparedDays(old: old, new: new)
    return overlap.from <= overlap.through ? overlap : nil
  }

  /// The days both windows cover from the later as-of date on (empty when `from` is after
  /// `through`).
  static func comparedDays(old: Side, new: Side) -> DateWindow {
    DateWindow(
      from: max(old.window.from, new.window.from, old.asOf, new.asOf),
      through: min(old.window.through, new.window.through))
  }

  /// Whether nothing changed: no branch added, removed or changed, no brand's freshness, not the
  /// window, no district's pattern, no new finding of the register.
  public var isEmpty: Bool {
    added.isEmpty && removed.isEmpty && changed.isEmpty && brands.isEmpty && !windowChanged && districts.isEmpty
      && registerFindings.isEmpty
  }

  /// Every kind of change present.
  public var kinds: Set<ChangeKind> { Set(countsByKind.keys) }

  /// Per kind, the number of branches with that kind of change; for `brand-freshness` the number
  /// of brands, for `window` 1, for `district-pattern` the number of districts.
  public var countsByKind: [ChangeKind: Int] {
    var counts: [ChangeKind: Int] = [:]
    if !added.isEmpty { counts[.added] = added.count }
    if !removed.isEmpty { counts[.removed] = removed.count }
    for change in changed {
      for kind in Set(change.changes.map(\.field)) { counts[kind, default: 0] += 1 }
    }
    if !brands.isEmpty { counts[.brandFreshness] = brands.count }
    if windowChanged { counts[.window] = 1 }
    if !districts.isEmpty { counts[.districtPattern] = districts.count }
    for finding in registerFindings { counts[finding.kind, default: 0] += 1 }
    return counts
  }

  /// A branch as a group lists it.
  public struct BranchRef: Hashable, Sendable, Encodable {
    public var id: BranchID
    public var name: String
    /// The banner the branch trades under, when not the brand's own (e.g. `홈플러스 스페셜`).
    public var banner: String?
  }

  /// Branches of one brand with the same change: the same kind and the same old and new values
  /// (added and removed branches form one group per brand). The published closing-day texts
  /// may differ between the branches of a group.
  public struct Group: Hashable, Sendable {
    public var brand: BrandSlug
    public var kind: ChangeKind
    public var old: DiffValue
    public var new: DiffValue
    /// Sorted by id.
    public var branches: [BranchRef]
    /// The distinct changes of the published closing-day text among the branches, each with the
    /// ids of its branches; the most common first.
    public var sourceTexts: [SourceTexts]
  }

  /// Branches of a group whose published closing-day text changed the same way.
  public struct SourceTexts: Hashable, Sendable {
    public var change: TextChange
    /// Sorted by id.
    public var ids: [BranchID]
  }

  /// The branch changes grouped: per brand (by slug), identical changes together, the largest
  /// group first, then by kind (in the order of ``ChangeKind``) and first id.
  public var groups: [Group] {
    struct Key: Hashable {
      var brand: BrandSlug
      var kind: ChangeKind
      var old: DiffValue
      var new: DiffValue
    }
    var order: [Key] = []
    var members: [Key: [(BranchRef, TextChange?)]] = [:]
    func add(_ key: Key, _ branch: Branch, _ text: TextChange?) {
      if members[key] == nil { order.append(key) }
      members[key, default: []].append((BranchRef(id: branch.id, name: branch.name, banner: branch.banner), text))
    }
    for branch in removed { add(Key(brand: branch.brand, kind: .removed, old: .null, new: .null), branch, nil) }
    for branch in added { add(Key(brand: branch.brand, kind: .added, old: .null, new: .null), branch, nil) }
    for change in changed {
      for field in change.changes {
        add(
          Key(brand: change.branch.brand, kind: field.field, old: field.old, new: field.new), change.branch,
          field.sourceText)
      }
    }
    let groups = order.map { key -> Group in
      let list = members[key]!.sorted { $0.0.id < $1.0.id }
      var texts: [TextChange] = []
      var textIDs: [TextChange: [BranchID]] = [:]
      for (branch, text) in list {
        guard let text else { continue }
        if textIDs[text] == nil { texts.append(text) }
        textIDs[text, default: []].append(branch.id)
      }
      let sourceTexts = texts.enumerated().sorted { a, b in
        let (x, y) = (textIDs[a.element]!.count, textIDs[b.element]!.count)
        return x != y ? x > y : a.offset < b.offset
      }.map { SourceTexts(change: $0.element, ids: textIDs[$0.element]!) }
      return Group(
        brand: key.brand, kind: key.kind, old: key.old, new: key.new, branches: list.map(\.0),
        sourceTexts: sourceTexts)
    }
    return groups.sorted { a, b in
      if a.brand != b.brand { return a.brand < b.brand }
      if a.branches.count != b.branches.count { return a.branches.count > b.branches.count }
      if a.kind != b.kind { return a.kind < b.kind }
      return a.branches[0].id < b.branches[0].id
    }
  }

  /// Per brand: added, removed and changed branches.
  public struct BrandCounts: Hashable, Sendable, Encodable {
    public var added = 0
    public var removed = 0
    public var changed = 0

    public init(added: Int = 0, removed: Int = 0, changed: Int = 0) {
      self.added = added
      self.removed = removed
      self.changed = changed
    }
  }

  /// Brands with at least one change, and their counts.
  public var countsByBrand: [BrandSlug: BrandCounts] {
    var counts: [BrandSlug: BrandCounts] = [:]
    for branch in added { counts[branch.brand, default: .init()].added += 1 }
    for branch in removed { counts[branch.brand, default: .init()].removed += 1 }
    for change in changed { counts[change.branch.brand, default: .init()].changed += 1 }
    return counts
  }
}
