import MartBrands
import MartCore

/// Whose store a register row is, read from its name (사업장명) with the brands' own data:
/// ``KnownBrands/Entry/registerNames`` for the covered brands, ``RegisterBrands`` for the rest.
public struct StoreNameCatalog: Sendable {
  /// The brand a name marks.
  public enum Owner: Sendable, Hashable {
    /// A brand a brand source covers.
    case covered(BrandSlug)
    /// A brand known from the register alone.
    case registerBrand(BrandSlug)

    public var slug: BrandSlug {
      switch self {
      case .covered(let slug), .registerBrand(let slug): slug
      }
    }
  }

  /// Names (compared by ``key(_:)``), longest first; a host name marks the brand, not a mart.
  private let names: [(key: String, owner: Owner, isHost: Bool)]
  private let notMartNames: [String]

  /// `names` are banners; `hostNames` are operators that also run stores of other kinds.
  public init(
    names: [(name: String, owner: Owner)], hostNames: [(name: String, owner: Owner)] = [], notMartNames: [String]
  ) {
    self.names =
      (names.map { (Self.key($0.name), $0.owner, false) } + hostNames.map { (Self.key($0.name), $0.owner, true) })
      .sorted { $0.key.count > $1.key.count }
    self.notMartNames = notMartNames.map(Self.key)
  }

  /// The catalog of the brands the pipeline knows.
  public static let brands = StoreNameCatalog(
    names: KnownBrands.entries.flatMap { entry in entry.registerNames.map { ($0, Owner.covered(entry.slug)) } }
      + RegisterBrands.entries.flatMap { entry in entry.registerNames.map { ($0, Owner.registerBrand(entry.slug)) } },
    hostNames: RegisterBrands.entries.flatMap { entry in entry.hostNames.map { ($0, Owner.registerBrand(entry.slug)) }
    },
    notMartNames: RegisterBrands.notMartNames)

  /// The brand whose name `storeName` holds (the longest name found), `nil` for none.
  public func owner(of storeName: String) -> Owner? {
    let key = Self.key(storeName)
    return names.first { key.contains($0.key) }?.owner
  }

  /// Whether `storeName` is a mart's: it holds a brand's banner (an operator's name is not
  /// enough) and nothing that marks it as no mart (an electronics chain, a department store, an
  /// outlet).
  public func isMartName(_ storeName: String) -> Bool {
    let key = Self.key(storeName)
    return !notMartNames.contains { key.contains($0) } && names.contains { !$0.isHost && key.contains($0.key) }
  }

  /// A name as compared: without white space, ASCII letters in upper case (`GS THE FRESH` and
  /// `GS the fresh` are `GSTHEFRESH`).
  public static func key(_ name: String) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.filter { !$0.properties.isWhitespace })).uppercased()
  }
}
