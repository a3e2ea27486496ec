import MartCore
import MartProjection

/// Whether a register store trades yet.
public enum RegisterStoreStatus: String, Sendable, Hashable, Codable {
  /// 영업/정상, 정상영업.
  case open
  /// 영업/정상, 영업개시전: registered, not yet trading.
  case notYetOpen
}

/// A store the closing-day law binds, as the register lists it.
public struct RegisterStore: Sendable, Hashable {
  /// 관리번호.
  public var id: String
  /// 사업장명.
  public var name: String
  public var kind: StoreClass
  public var status: RegisterStoreStatus
  /// The brand its name marks, covered by a source or known from the register alone.
  public var owner: StoreNameCatalog.Owner?
  /// 시·도, in 2026's name, as the address normalizer reads the address.
  public var sido: String?
  /// 시·군·구, as the address normalizer reads the address.
  public var sigungu: String?
  /// The road address as written.
  public var roadAddress: String?
  /// The lot address as written.
  public var jibunAddress: String?
  /// The phone number, formatted (`02-2290-1234`); `nil` when none or not a number.
  public var phone: String?
  /// WGS84, from the register's EPSG:5174 by PROJ; `nil` when the register has none or it
  /// falls outside Korea.
  public var point: GeoPoint?
  /// 인허가일자.
  public var permitDate: CalendarDate?
  /// 최종수정시점 as written.
  public var lastModified: String

  /// The covered brand the store is a branch of, if any.
  public var brand: BrandSlug? {
    if case .covered(let slug)? = owner { slug } else { nil }
  }
}

/// Why a register row is not listed.
public enum RegisterSkipReason: String, Sendable, Hashable, CaseIterable, Comparable {
  /// 폐업.
  case closed
  /// 휴업.
  case suspended
  /// 취소/말소/만료/정지/중지.
  case cancelled
  /// A state other than those.
  case otherState
  /// Untouched since 2007 (상세 `BBBB`) or without a 점포구분: 1980s–2007 permits.
  case legacy
  /// A 대규모점포 that is no hypermarket: a department store, shopping centre, mall, specialty
  /// shop or market without a mart's name.
  case notAMart
  /// A 관리번호 seen again (the row modified last is kept).
  case duplicateID
  /// Another row of one physical store (same name, same road address or within 30 m): the row
  /// modified last is kept.
  case sameStore

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The stores a register lists and how many rows were left out, by reason.
public struct RegisterListing: Sendable, Hashable {
  /// By 관리번호.
  public var stores: [RegisterStore]
  public var skipped: [RegisterSkipReason: Int]

  public init(stores: [RegisterStore], skipped: [RegisterSkipReason: Int]) {
    self.stores = stores
    self.skipped = skipped
  }
}

/// Picks the stores the closing-day law binds from register rows and places them.
public struct RegisterSelector {
  /// Rows of one store lie at most this far apart (metres).
  public static let sameStoreDistance = 30.0

  /// How names are read.
  public let catalog: StoreNameCatalog
  private let converter: RegisterCoordinateConverter

  public init(catalog: StoreNameCatalog = .brands, converter: RegisterCoordinateConverter) {
    self.catalog = catalog
    self.converter = converter
  }

  /// The bound stores of `rows`: open or not yet open, 준대규모점포 as SSMs, 대규모점포 that are
  /// hypermarkets (업태 대형마트, or a mart's name), one entry per physical store.
  public func select(_ rows: [RegisterRow]) -> RegisterListing {
    var skipped: [RegisterSkipReason: Int] = [:]
    var latestByID: [String: RegisterRow] = [:]
    for row in rows {
      if let seen = latestByID[row.id] {
        skipped[.duplicateID, default: 0] += 1
        if Self.isModifiedLater(row, than: seen) { latestByID[row.id] = row }
      } else {
        latestByID[row.id] = row
      }
    }
    var stores: [RegisterStore] = []
    for row in latestByID.values {
      switch classify(row) {
      case .store(let store): stores.append(store)
      case .skipped(let reason): skipped[reason, default: 0] += 1
      }
    }
    let (kept, collapsed) = Self.collapsingRowsOfOneStore(stores)
    if collapsed > 0 { skipped[.sameStore, default: 0] += collapsed }
    return RegisterListing(stores: kept.sorted { $0.id < $1.id }, skipped: skipped)
  }

  /// A row read: the store it is, or why it is left out.
  enum Classification {
    case store(RegisterStore)
    case skipped(RegisterSkipReason)
  }

  /// The store a row is, or why it is left out.
  func classify(_ row: RegisterRow) -> Classification {
    let status: RegisterStoreStatus
    switch row.state {
    case .open: status = .open
    case .notYetOpen: status = .notYetOpen
    case .legacy: return .skipped(.legacy)
    case .suspended: return .skipped(.suspended)
    case .closed: return .skipped(.closed)
    case .cancelled: return .skipped(.cancelled)
    case .other: return .skipped(.otherState)
    }
    let kind: StoreClass
    switch row.storeKind {
    case "준대규모점포"?: kind = .ssm
    case "대규모점포"?:
      guard row.businessType == "대형마트" || catalog.isMartName(row.name) else { return .skipped(.notAMart) }
      kind = .hypermarket
    default: return .skipped(.legacy)
    }
    let (sido, sigungu) = Self.district(road: row.roadAddress, jibun: row.jibunAddress)
    return .store(
      RegisterStore(
        id: row.id, name: row.name, kind: kind, status: status, owner: catalog.owner(of: row.name), sido: sido,
        sigungu: sigungu, roadAddress: row.roadAddress, jibunAddress: row.jibunAddress,
        phone: PhoneNumber.format(row.phone), point: point(x: row.x, y: row.y), permitDate: row.permitDate,
        lastModified: row.lastModified))
  }

  /// 시·도 and 시·군·구 as the address normalizer reads the road address, or the lot address
  /// when there is none or it names no 시·도.
  static func district(road: String?, jibun: String?) -> (sido: String?, sigungu: String?) {
    let parsed = [road, jibun].compactMap { $0 }.map { KoreanAddress(parsing: $0) }
    let best = parsed.first { $0.province != nil && $0.sigungu != nil } ?? parsed.first { $0.province != nil }
    return (best?.province?.officialName, best?.sigungu)
  }

  /// The WGS84 point of register coordinates. Empty or zero values are none, and so is a point
  /// within 1,000 m of the false origin in both axes: `(0, 0)` would land at 33.48 N 124.85 E,
  /// in the sea west of 제주. Negative values are real (제주 lies around Y = 0: 제주시 −700 to
  /// 1,700, 서귀포 −27,000; 옹진's western islands have X < 0), so each axis alone is not
  /// checked against 1,000. Points outside Korea are dropped after the conversion.
  func point(x: Double?, y: Double?) -> GeoPoint? {
    guard let x, let y, x != 0, y != 0, abs(x) >= 1000 || abs(y) >= 1000 else { return nil }
    guard let point = converter.point(x: x, y: y), CoordinateValidation.isDomestic(point) else { return nil }
    return GeoPoint(latitude: Self.rounded(point.latitude), longitude: Self.rounded(point.longitude))
  }

  /// Seven decimals: about a centimetre, far below the register's own precision.
  private static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }

  static func isModifiedLater(_ row: RegisterRow, than other: RegisterRow) -> Bool {
    (row.lastModified, row.line) > (other.lastModified, other.line)
  }
}
