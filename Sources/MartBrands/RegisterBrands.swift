import MartCore

/// The brands of stores the law binds that no brand source covers, known from the national
/// register of large stores alone (LOCALDATA 대규모점포, brand-sources.md §11.1), and the names
/// that mark a register row as a mart or as none.
///
/// Data, like ``KnownBrands``: a register row is a branch of the entry one of whose
/// `registerNames` its 사업장명 holds (written without spaces; the longest name found decides).
public enum RegisterBrands {
  /// What a register brand's stores close on, as far as can be said without their own pages.
  public enum ClosingDays: String, Sendable, Hashable {
    /// Their district's pattern for their class, as expected days.
    case districtPattern
    /// Unknown: the designation is decided store by store (농협 하나로마트: the 농수산물 매출
    /// exemption of 유통산업발전법 §12-2 ① is granted by each 시·군·구 to some stores).
    case unknown
  }

  /// One brand of register stores.
  public struct Entry: Sendable {
    public let brand: Brand
    /// Banners: a 대규모점포 row whose name holds one is a mart of the brand.
    public let registerNames: [String]
    /// Operators that run other kinds of store too (이랜드리테일 also runs NC백화점 and
    /// 뉴코아아울렛; a 농협 also runs 로컬푸드 shops): a row whose name holds one is of the brand,
    /// but a mart only when its 업태 says 대형마트.
    public let hostNames: [String]
    public let closingDays: ClosingDays
    /// Whether the brand gathers the independent marts: each store keeps its own banner
    /// (`골드마트`, `다농엘마트`), and a bound store whose name marks no brand at all is one of its.
    public let gathersIndependents: Bool

    init(
      _ slug: BrandSlug, _ koreanName: String, registerNames: [String], hostNames: [String] = [],
      closingDays: ClosingDays = .districtPattern, gathersIndependents: Bool = false
    ) {
      brand = Brand(slug: slug, koreanName: koreanName)
      self.registerNames = registerNames
      self.hostNames = hostNames
      self.closingDays = closingDays
      self.gathersIndependents = gathersIndependents
    }

    /// Whether the brand's stores keep the closing days their district designates, as far as
    /// can be said without their own pages: `false` where that is decided store by store.
    public var designated: Bool { closingDays == .districtPattern }

    public var slug: BrandSlug { brand.slug }
  }

  /// 농협 하나로마트 and 하나로클럽 (evidence: ≈20 open 대규모점포 rows, 2026-09), 탑마트 (서원유통,
  /// 부산·경남), 킴스클럽 (listed under its host, `(주)이랜드리테일 강남점`), and one brand for the
  /// independent marts (골드마트, 다농엘마트, 홈마트, …), which the bare word 마트 marks. A brand a
  /// brand source comes to cover (one ``KnownBrands`` lists) is no register brand: its names are
  /// then the source's, and its stores that source's branches.
  public static let entries: [Entry] = [
    Entry(
      "nonghyup-hanaro", "농협 하나로마트", registerNames: ["하나로마트", "하나로클럽"], hostNames: ["농협"],
      closingDays: .unknown),
    Entry("topmart", "탑마트", registerNames: ["탑마트"], hostNames: ["서원유통"]),
    Entry("kimsclub", "킴스클럽", registerNames: ["킴스클럽"], hostNames: ["이랜드리테일"]),
    Entry("independent-mart", "그 밖의 대형마트", registerNames: ["마트"], gathersIndependents: true),
  ].filter { KnownBrands.brand($0.slug) == nil }

  /// Names that mark a 대규모점포 row as no mart whatever else its name holds: an electronics
  /// chain (롯데하이마트), department stores, outlets and malls.
  public static let notMartNames: [String] = ["하이마트", "백화점", "아울렛", "아웃렛", "뉴코아", "면세점"]

  /// The brand that gathers the independent marts (``Entry/gathersIndependents``).
  public static var independents: Entry? { entries.first { $0.gathersIndependents } }

  /// The register brand with `slug`, if any.
  public static func entry(_ slug: BrandSlug) -> Entry? { entries.first { $0.slug == slug } }
}
