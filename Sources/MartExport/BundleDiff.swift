import Foundation
import MartCore

/// A kind of change between two bundles; the raw value is the name used in `diff --fail-on`,
/// in the JSON output (`field`) and in `docs/bundle-format.md`.
public enum ChangeKind: String, CaseIterable, Codable, Sendable, Comparable {
  /// A branch only in the new bundle.
  case added
  /// A branch only in the old bundle.
  case removed
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
  /// Closing dates added or removed, within the days both bundles' windows cover.
  case closingDates = "closing-dates"
  /// `closing.status` (`closures`, `open-all-year`, `unknown`).
  case closingStatus = "closing-status"

  public static func < (lhs: ChangeKind, rhs: ChangeKind) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// A value on one side of a field change.
public enum DiffValue: Hashable, Sendable, Encodable {
  case null
  case text(String)
  case dates([CalendarDate])
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

  /// One field of one branch that changed.
  public struct FieldChange: Hashable, Sendable, Encodable {
    public var field: ChangeKind
    /// For `closing-dates`: the dates no longer closed; otherwise the old value.
    public var old: DiffValue
    /// For `closing-dates`: the dates newly closed; otherwise the new value.
    public var new: DiffValue
  }

  /// A branch in both bundles with at least one field change.
  public struct BranchChange: Hashable, Sendable {
    public var branch: Branch
    public var changes: [FieldChange]
  }

  /// The bundles compared: version and as-of date.
  public struct Side: Sendable {
    public var version: String
    public var asOf: CalendarDate
    public var window: DateWindow

    public init(version: String, asOf: CalendarDate, window: DateWindow) {
      self.version = version
      self.asOf = asOf
      self.window = window
    }
  }

  public var old: Side
  public var new: Side
  /// Sorted by id.
  public var added: [Branch]
  /// Sorted by id.
  public var removed: [Branch]
  /// Sorted by id.
  public var changed: [BranchChange]
  /// The Korean name of each brand, as the bundles' manifests give them (the new one wins).
  public var brandNames: [BrandSlug: String]

  /// Compares two bundles' branches.
  public init(old: PublishedBundle, new: PublishedBundle) {
    self.init(
      old: Side(version: old.manifest.version, asOf: old.manifest.asOf, window: old.manifest.window),
      oldBranches: old.branches.branches,
      new: Side(version: new.manifest.version, asOf: new.manifest.asOf, window: new.manifest.window),
      newBranches: new.branches.branches,
      brandNames: Dictionary(
        (old.manifest.brands + new.manifest.brands).map { ($0.slug, $0.name) }, uniquingKeysWith: { _, last in last }))
  }

  public init(
    old: Side, oldBranches: [Branch], new: Side, newBranches: [Branch], brandNames: [BrandSlug: String] = [:]
  ) {
    self.old = old
    self.new = new
    self.brandNames = brandNames
    let before = Dictionary(oldBranches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let after = Dictionary(newBranches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    added = after.filter { before[$0.key] == nil }.values.sorted { $0.id < $1.id }
    removed = before.filter { after[$0.key] == nil }.values.sorted { $0.id < $1.id }
    // Closing dates are compared only on the days both windows cover.
    let overlap = DateWindow(
      from: max(old.window.from, new.window.from), through: min(old.window.through, new.window.through))
    changed = after.keys.sorted().compactMap { id in
      guard let was = before[id], let now = after[id] else { return nil }
      let changes = Self.changes(from: was, to: now, overlap: overlap)
      return changes.isEmpty ? nil : BranchChange(branch: now, changes: changes)
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
    compare(.storeStatus, statusText(was.storeStatus), statusText(now.storeStatus))
    compare(.name, was.name, now.name)
    compare(.address, addressText(was.address), addressText(now.address))
    compare(.phone, was.phone ?? was.phonePublished, now.phone ?? now.phonePublished)
    compare(.hours, was.openingHours, now.openingHours)

    switch (was.coordinate, now.coordinate) {
    case (nil, nil): break
    case (let old?, let new?) where old.point.distance(to: new.point) <= movedThresholdMeters: break
    case (let old, let new):
      changes.append(
        FieldChange(
          field: .coordinates, old: old.map { .point(latitude: $0.latitude, longitude: $0.longitude) } ?? .null,
          new: new.map { .point(latitude: $0.latitude, longitude: $0.longitude) } ?? .null))
    }

    if overlap.from <= overlap.through {
      // When the store closed or reopened, the days it is shut in either bundle are told by the
      // store-status change, not listed again as closing dates.
      let explained =
        was.storeStatus.state == now.storeStatus.state && was.storeStatus.closesOn == now.storeStatus.closesOn
        ? []
        : [was.storeStatus, now.storeStatus].compactMap {
          $0.shutDays(from: overlap.from, through: overlap.through, asOf: overlap.from)
        }
      func inOverlap(_ dates: [CalendarDate]) -> Set<CalendarDate> {
        Set(
          dates.filter { date in
            date >= overlap.from && date <= overlap.through && !explained.contains { $0.contains(date) }
          })
      }
      let before = inOverlap(was.closing.dates)
      let after = inOverlap(now.closing.dates)
      if before != after {
        changes.append(
          FieldChange(
            field: .closingDates, old: .dates(before.subtracting(after).sorted()),
            new: .dates(after.subtracting(before).sorted())))
      }
    }
    compare(.closingStatus, was.closing.status.rawValue, now.closing.status.rawValue)
    return changes
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

  /// Whether nothing changed.
  public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

  /// Every kind of change present.
  public var kinds: Set<ChangeKind> {
    var kinds = Set(changed.flatMap { $0.changes.map(\.field) })
    if !added.isEmpty { kinds.insert(.added) }
    if !removed.isEmpty { kinds.insert(.removed) }
    return kinds
  }

  /// Per kind, the number of branches with that kind of change.
  public var countsByKind: [ChangeKind: Int] {
    var counts: [ChangeKind: Int] = [:]
    if !added.isEmpty { counts[.added] = added.count }
    if !removed.isEmpty { counts[.removed] = removed.count }
    for change in changed {
      for kind in Set(change.changes.map(\.field)) { counts[kind, default: 0] += 1 }
    }
    return counts
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
