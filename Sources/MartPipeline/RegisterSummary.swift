import MartCore
import MartRegister

/// What a run learned from the national register of large stores, for `report.json`: which
/// register store each published branch is, and the cross-checks (``RegisterCrossCheck``).
public struct RegisterSummary: Codable, Sendable, Hashable {
  /// Where the register the run read came from.
  public enum Origin: String, Codable, Sendable, Hashable {
    /// Fetched in this run.
    case fetched
    /// The last good register, kept in the state directory: this run's could not be fetched,
    /// read or trusted (a warning says why).
    case kept
  }

  /// A register store, as the report names it.
  public struct Store: Codable, Sendable, Hashable {
    /// 관리번호.
    public var id: String
    public var name: String
    /// `hypermarket` or `ssm`.
    public var kind: String
    /// The covered brand it is a branch of, if any.
    public var brand: BrandSlug?
    public var sido: String?
    public var sigungu: String?
    public var roadAddress: String?
    /// 인허가일자.
    public var permitDate: CalendarDate?

    init(_ store: RegisterStore) {
      id = store.id
      name = store.name
      kind = store.kind.rawValue
      brand = store.brand
      sido = store.sido
      sigungu = store.sigungu
      roadAddress = store.roadAddress ?? store.jibunAddress
      permitDate = store.permitDate
    }
  }

  /// A branch its brand lists as trading that the register records as 폐업 (`closed`) or 휴업
  /// (`suspended`).
  public struct ShutBranch: Codable, Sendable, Hashable {
    public var branch: BranchID
    public var registerID: String
    public var state: RegisterState
    /// 폐업일자, or 휴업시작일자.
    public var since: CalendarDate?
    /// 휴업종료일자.
    public var until: CalendarDate?
  }

  public var origin: Origin
  /// Open stores the law binds, in the register.
  public var openStores: Int
  /// Registered stores not yet trading.
  public var notYetOpenStores: Int
  /// Each published branch that is a register store: branch id to 관리번호.
  public var registerIDs: [String: String]
  /// Branches listed as trading that the register has closed or suspended, by branch id.
  public var shutInRegister: [ShutBranch]
  /// Open register stores of a covered brand that its source does not list, by 관리번호.
  public var unlisted: [Store]
  /// Permits of stores not yet trading, at most eight weeks from the as-of date, by 관리번호.
  public var newPermits: [Store]

  /// The summary of `reading` and the cross-check made of it.
  init(_ reading: RegisterStage.Reading, check: RegisterCrossCheck) {
    origin = reading.origin
    openStores = reading.listing.stores.filter { $0.status == .open }.count
    notYetOpenStores = reading.listing.stores.filter { $0.status == .notYetOpen }.count
    registerIDs = Dictionary(
      uniqueKeysWithValues: check.registerIDs.map { ($0.key.description, $0.value) })
    shutInRegister = check.shutInRegister.map {
      ShutBranch(branch: $0.branch, registerID: $0.registerID, state: $0.state, since: $0.since, until: $0.until)
    }
    unlisted = check.unlisted.sorted { $0.id < $1.id }.map(Store.init)
    newPermits = check.newPermits.sorted { $0.id < $1.id }.map(Store.init)
  }
}
