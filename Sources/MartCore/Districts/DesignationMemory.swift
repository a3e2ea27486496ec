/// What a designation binds: one store class in one district. A 시·군·구 designates the days of
/// its 대규모점포 and of its 준대규모점포 separately (서울 관악구 moved its hypermarket to
/// Wednesdays in 2025 while its SSMs stayed on Sundays; newsis 2025-02-06).
public struct DesignationKey: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var district: District
  public var storeClass: StoreClass

  public init(district: District, storeClass: StoreClass) {
    self.district = district
    self.storeClass = storeClass
  }

  /// `서울특별시 관악구 (ssm)`.
  public var description: String { "\(district) (\(storeClass.rawValue))" }

  /// By district, then hypermarkets before SSMs.
  public static func < (lhs: DesignationKey, rhs: DesignationKey) -> Bool {
    lhs.district != rhs.district ? lhs.district < rhs.district : lhs.storeClass.order < rhs.storeClass.order
  }
}

extension StoreClass {
  /// The order of ``allCases``: hypermarkets first.
  var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// A designation learned from the stores: its days, when the stores first and last confirmed it,
/// and the stores that last did. An ordinance does not lapse because a website failed: a run
/// without fresh evidence for it keeps it as it was. Or one cited from the researched table
/// (``DesignationReference/seed(for:)``), which no run's stores have established: it has a
/// ``citation`` and no confirmation dates, and the stores of a run that qualify replace it.
public struct RememberedDesignation: Hashable, Sendable {
  public var pattern: [DesignatedDay]
  /// The as-of date of the first run whose stores showed this pattern; `nil` when cited.
  public var firstConfirmed: CalendarDate?
  /// The as-of date of the last run whose stores showed it; `nil` when cited.
  public var lastConfirmed: CalendarDate?
  /// The stores that followed it on ``lastConfirmed``, sorted (for a cited designation, the
  /// stores that follow it now).
  public var evidence: [BranchID]
  /// The days its stores closed instead of a pattern day (a 설, 추석 or 성탄절 move), each with
  /// the day it replaced: they still move the expected days when the stores that made them are
  /// stale, in date order.
  public var swaps: [DistrictSwap]
  /// The researched source of a cited designation; `nil` when the stores established it.
  public var citation: DesignationCitation?

  public init(
    pattern: [DesignatedDay], firstConfirmed: CalendarDate, lastConfirmed: CalendarDate, evidence: [BranchID],
    swaps: [DistrictSwap] = []
  ) {
    self.pattern = pattern
    self.firstConfirmed = firstConfirmed
    self.lastConfirmed = lastConfirmed
    self.evidence = evidence
    self.swaps = swaps
  }

  /// A designation from the researched table, which no stores have confirmed: `evidence` are
  /// the stores that follow it.
  public init(cited pattern: [DesignatedDay], citation: DesignationCitation, evidence: [BranchID] = [], swaps: [DistrictSwap] = []) {
    self.pattern = pattern
    self.citation = citation
    self.evidence = evidence
    self.swaps = swaps
  }

  /// `cited` when it comes from the researched table, `learned` when stores established it.
  public var basis: DesignationBasis { citation == nil ? .learned : .cited }

  /// `confirmed 2026-10-01…2026-11-19`, or `cited since 2014-05 (경기일보, 2014-05-01)`.
  public var confirmation: String {
    if let citation { return "cited \(citation)" }
    return "confirmed \(firstConfirmed?.iso ?? "?")…\(lastConfirmed?.iso ?? "?")"
  }
}

/// A store whose own published days differ from its class's pattern in its district, and since
/// when it has kept them. After ``DistrictDesignations/exceptionAfterMonths`` months it is a
/// standing exception (Costco 의정부 on Sundays in a city of Wednesdays): no longer a mismatch,
/// and its days are the ones expected of it when it stops publishing them.
public struct StoreException: Hashable, Sendable {
  public var branch: BranchID
  public var key: DesignationKey
  /// The store's own days.
  public var pattern: [DesignatedDay]
  /// The as-of date of the first run in a row that saw it keep ``pattern``.
  public var since: CalendarDate

  public init(branch: BranchID, key: DesignationKey, pattern: [DesignatedDay], since: CalendarDate) {
    self.branch = branch
    self.key = key
    self.pattern = pattern
    self.since = since
  }

  /// Whether it has kept its days for ``DistrictDesignations/exceptionAfterMonths`` calendar
  /// months by `asOf` (2026-09-15 → from 2026-11-15 on).
  public func isStanding(asOf: CalendarDate) -> Bool {
    let months = (asOf.year * 12 + asOf.month) - (since.year * 12 + since.month)
    let needed = DistrictDesignations.exceptionAfterMonths
    return months > needed || (months == needed && asOf.day >= since.day)
  }

  /// Its pattern's days in `window`.
  public func dates(in window: DateWindow) -> [CalendarDate] {
    DistrictPattern.dates(of: pattern, in: window)
  }
}

/// What the runs of one output have learned of the designations: the input and the output of
/// ``DistrictDesignations/infer(from:window:exempt:storeClasses:sources:asOf:memory:reference:)``. Empty for an
/// output without history, which then infers from its stores alone.
public struct DesignationMemory: Hashable, Sendable {
  public var designations: [DesignationKey: RememberedDesignation]
  /// By store: standing exceptions and stores on their way to being one.
  public var exceptions: [BranchID: StoreException]

  public init(designations: [DesignationKey: RememberedDesignation] = [:], exceptions: [BranchID: StoreException] = [:]) {
    self.designations = designations
    self.exceptions = exceptions
  }

  public var isEmpty: Bool { designations.isEmpty && exceptions.isEmpty }
}

/// A designation the stores of this run replaced: fresh stores of at least two independent
/// sources, a majority of their class in the district, agree on another pattern.
public struct DesignationChange: Hashable, Sendable {
  public var key: DesignationKey
  public var old: RememberedDesignation
  public var new: [DesignatedDay]
  /// The stores that follow the new pattern, sorted.
  public var evidence: [BranchID]

  /// `서울특별시 관악구 (hypermarket): 2nd sunday, 4th sunday (confirmed 2026-10-01…2026-11-19)
  /// → 2nd wednesday, 4th wednesday (evidence: …)`; a cited designation names its source instead
  /// of its confirmation.
  public var message: String {
    "\(key): \(DistrictPattern.describe(old.pattern)) (\(old.confirmation))"
      + " → \(DistrictPattern.describe(new)) (evidence: \(evidence.map(\.description).joined(separator: ", ")))"
  }
}
