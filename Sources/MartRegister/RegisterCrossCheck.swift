import MartCore

/// A published branch as the cross-checks with the register see it.
public struct PublishedBranch: Sendable, Hashable {
  public var id: BranchID
  public var point: GeoPoint?
  /// The road address (or the address as published).
  public var address: String?
  /// Whether its brand lists it as trading.
  public var isTrading: Bool

  public init(id: BranchID, point: GeoPoint?, address: String?, isTrading: Bool) {
    self.id = id
    self.point = point
    self.address = address
    self.isTrading = isTrading
  }
}

/// What the register says that the brands' own sources do not: which register store each
/// published branch is, branches listed as trading that the register has closed or suspended,
/// open stores of a covered brand its source does not list, and permits about to open.
public struct RegisterCrossCheck: Sendable, Hashable {
  /// A branch its brand lists as trading that the register records as 폐업 or 휴업.
  public struct ShutInRegister: Sendable, Hashable {
    public var branch: BranchID
    /// 관리번호.
    public var registerID: String
    public var state: RegisterState
    /// 폐업일자, or 휴업시작일자.
    public var since: CalendarDate?
    /// 휴업종료일자.
    public var until: CalendarDate?
  }

  /// A register store and a branch are one store when of one brand and within this many metres.
  public static let matchDistance = 150.0
  /// How far back a permit still counts as new (days).
  public static let newPermitDays = 56

  /// Each branch matched to an open (or not yet open) register store: its 관리번호.
  public var registerIDs: [BranchID: String]
  /// By branch id.
  public var shutInRegister: [ShutInRegister]
  /// Open register stores of a covered brand that no published branch of the brand is, by 관리번호.
  public var unlisted: [RegisterStore]
  /// Stores registered and not yet trading whose permit is at most ``newPermitDays`` old on the
  /// day of the run, by 관리번호.
  public var newPermits: [RegisterStore]

  /// Checks `branches` against the register's `rows` (all of them: closed ones too) and the
  /// `listing` `selector` made of them, on `asOf`.
  public static func check(
    branches: [PublishedBranch], rows: [RegisterRow], listing: RegisterListing, selector: RegisterSelector,
    asOf: CalendarDate
  ) -> RegisterCrossCheck {
    let byBrand = Dictionary(grouping: branches, by: \.id.brand)
    let branchRoadKeys = Dictionary(
      uniqueKeysWithValues: branches.map { ($0.id, $0.address.flatMap(RegisterSelector.roadKey)) })
    func matches(brand: BrandSlug?, point: GeoPoint?, address: String?) -> [PublishedBranch] {
      guard let brand, let candidates = byBrand[brand] else { return [] }
      let key = address.flatMap(RegisterSelector.roadKey)
      return candidates.filter { branch in
        if let key, key == branchRoadKeys[branch.id] ?? nil { return true }
        guard let point, let other = branch.point else { return false }
        return point.distance(to: other) <= matchDistance
      }
    }

    var registerIDs: [BranchID: String] = [:]
    var unlisted: [RegisterStore] = []
    for store in listing.stores {
      let found = matches(brand: store.brand, point: store.point, address: store.roadAddress ?? store.jibunAddress)
      for branch in found where registerIDs[branch.id] == nil { registerIDs[branch.id] = store.id }
      if found.isEmpty, store.brand != nil, store.status == .open { unlisted.append(store) }
    }

    var shut: [BranchID: ShutInRegister] = [:]
    for row in rows where row.state == .closed || row.state == .suspended {
      let brand = selector.catalog.owner(of: row.name).flatMap { owner -> BrandSlug? in
        if case .covered(let slug) = owner { slug } else { nil }
      }
      let point = selector.point(x: row.x, y: row.y)
      for branch in matches(brand: brand, point: point, address: row.roadAddress ?? row.jibunAddress)
      where branch.isTrading && registerIDs[branch.id] == nil {
        let finding = ShutInRegister(
          branch: branch.id, registerID: row.id, state: row.state,
          since: row.state == .closed ? row.closedDate : row.suspensionStart,
          until: row.state == .suspended ? row.suspensionEnd : nil)
        // The latest record of the branch's store speaks.
        if let current = shut[branch.id], (current.since?.dayNumber ?? .min) >= (finding.since?.dayNumber ?? .min) {
          continue
        }
        shut[branch.id] = finding
      }
    }

    let newPermits = listing.stores.filter { store in
      guard store.status == .notYetOpen, let permit = store.permitDate else { return false }
      let age = asOf.dayNumber - permit.dayNumber
      return age >= -newPermitDays && age <= newPermitDays
    }
    return RegisterCrossCheck(
      registerIDs: registerIDs, shutInRegister: shut.values.sorted { $0.branch < $1.branch }, unlisted: unlisted,
      newPermits: newPermits)
  }
}
