import MartCore

/// The brands the pipeline knows, one line each: slug, Korean name, size and designation. The
/// source that publishes a brand is not repeated here: it is the one of ``BrandSources/all``
/// whose `brands` names the slug. Adding a brand means its slug in its source's `brands`, one
/// line here, and its fixtures under `fixtures/web/`;
/// `docs/architecture.md` ("Adding a brand") walks through it.
public enum KnownBrands {
  /// One registered brand.
  public struct Entry: Sendable {
    public let brand: Brand
    /// The source that yields the brand's branches: the one of ``BrandSources/all`` whose
    /// `brands` names the slug.
    public let source: any BrandSource.Type
    /// About how many stores the chain has (2025–2026), for the bench's sample data in real
    /// proportions.
    public let nationalShare: Double
    /// Whether its stores are hypermarkets or SSMs that keep the closing days their 시·군·구
    /// designates (의무휴업일, 유통산업발전법 §12-2): they are evidence for their district's
    /// pattern, and a store publishing no days can be given its district's as expected days
    /// (``DistrictInference``). Specialty stores (토이저러스, 보틀벙커) are not. Bundles keep it as
    /// the manifest's `designated`.
    public var designated: Bool { storeClass != nil }
    /// The class of store the brand's stores are, whose designation they keep in their
    /// district (유통산업발전법 제12조의2: 대규모점포 and 준대규모점포 are designated apart, and may
    /// close on different days); `nil` for a brand not designated. Bundles keep it as the
    /// manifest's `storeClass`.
    public let storeClass: StoreClass?

    /// The banners its stores carry in the national register of large stores (사업장명 of
    /// LOCALDATA 대규모점포, brand-sources.md §11.1), written without spaces: a register row whose
    /// name holds one is a branch of the brand (the longest banner found decides, so
    /// `이마트에브리데이` is not `이마트`). Empty for brands the register does not hold.
    public let registerNames: [String]

    init(
      _ slug: BrandSlug, _ koreanName: String, stores: Double, _ storeClass: StoreClass?, registerNames: [String] = []
    ) {
      guard let source = BrandSources.source(of: slug) else {
        preconditionFailure("no source of BrandSources.all yields the registered brand \(slug)")
      }
      self.brand = Brand(slug: slug, koreanName: koreanName)
      self.source = source
      self.nationalShare = stores
      self.storeClass = storeClass
      self.registerNames = registerNames
    }

    public var slug: BrandSlug { brand.slug }
  }

  /// Designated brands and their class, as 유통산업발전법 제2조 (대규모점포, 준대규모점포) and
  /// §12-2, the national register (LOCALDATA 대규모점포, brand-sources.md §11.1) and the press
  /// describe them (한국경제 2019-04-28: the big three, their SSMs and "코스트코 역시 일부"):
  ///
  /// - `hypermarket` (대규모점포, registered as 대형마트 or 그 밖의 대규모점포): 이마트; 트레이더스 and
  ///   코스트코 (warehouse clubs, 대규모점포 of their own); 홈플러스; 롯데마트 and the Lotte formats
  ///   that trade as or inside a hypermarket (롯데마트 맥스, 그랑그로서리); 메가마트.
  /// - `ssm` (준대규모점포: supermarkets of a large retailer or its affiliates): 이마트 에브리데이,
  ///   홈플러스 익스프레스, 롯데슈퍼, GS더프레시, and 노브랜드 (E-mart's stand-alone No Brand shops
  ///   register as 준대규모점포; the No Brand corners inside an 이마트 are not listed as branches
  ///   of their own).
  /// - not designated: the specialty stores 토이저러스 and 보틀벙커, which choose their own days.
  public static let entries: [Entry] = [
    Entry(.emart, "이마트", stores: 130, .hypermarket, registerNames: ["이마트"]),
    Entry(.traders, "이마트 트레이더스", stores: 22, .hypermarket, registerNames: ["트레이더스"]),
    Entry(.nobrand, "노브랜드", stores: 230, .ssm, registerNames: ["노브랜드"]),
    Entry(.everyday, "이마트 에브리데이", stores: 250, .ssm, registerNames: ["이마트에브리데이", "에브리데이리테일"]),
    Entry(.homeplus, "홈플러스", stores: 126, .hypermarket, registerNames: ["홈플러스"]),
    Entry(.homeplusExpress, "홈플러스 익스프레스", stores: 300, .ssm, registerNames: ["홈플러스익스프레스"]),
    Entry(.lottemart, "롯데마트", stores: 110, .hypermarket, registerNames: ["롯데마트", "제타플렉스"]),
    Entry(.lotteMaxx, "롯데마트 맥스", stores: 8, .hypermarket, registerNames: ["롯데마트맥스", "빅마켓"]),
    Entry(.toysrus, "토이저러스", stores: 35, nil),
    Entry(.grandGrocery, "그랑그로서리", stores: 3, .hypermarket, registerNames: ["그랑그로서리"]),
    Entry(.bottleBunker, "보틀벙커", stores: 9, nil),
    Entry(.lotteSuper, "롯데슈퍼", stores: 240, .ssm, registerNames: ["롯데슈퍼", "롯데프레시"]),
    Entry(.megamart, "메가마트", stores: 11, .hypermarket, registerNames: ["메가마트"]),
    Entry(.costco, "코스트코", stores: 20, .hypermarket, registerNames: ["코스트코"]),
    Entry(
      .gsTheFresh, "GS더프레시", stores: 520, .ssm,
      registerNames: ["GSTHEFRESH", "GS더프레시", "지에스더프레시", "GS수퍼마켓", "GS슈퍼마켓"]),
  ]

  /// Whether the known brand `slug` is subject to the designation (``Entry/designated``); `nil`
  /// for a brand not known.
  public static func isDesignated(_ slug: BrandSlug) -> Bool? { entries.first { $0.slug == slug }?.designated }

  /// The class of the known brand `slug`'s stores (``Entry/storeClass``): `.some(nil)` for a
  /// brand not designated, `nil` for a brand not known.
  public static func storeClass(_ slug: BrandSlug) -> StoreClass?? { entries.first { $0.slug == slug }.map(\.storeClass) }

  /// The independent source each known brand's closing days come from: its source's host
  /// (``BrandSource/host``), so that E-mart's four brands are one source, 홈플러스 and its
  /// Express one, 롯데마트 and the formats of its 도와센터 one. The district inference counts
  /// sources by it (``DistrictDesignations``); a brand it does not name is a source of its own.
  public static let independentSources: [BrandSlug: String] = Dictionary(
    entries.map { ($0.slug, $0.source.host) }, uniquingKeysWith: { first, _ in first })

  /// Every known brand, sorted by slug.
  public static var all: [Brand] { entries.map(\.brand).sorted { $0.slug < $1.slug } }

  /// The known brand with `slug`, if any.
  public static func brand(_ slug: BrandSlug) -> Brand? { entries.first { $0.slug == slug }?.brand }

  /// The Korean name of `slug`, or the slug itself for a brand not known (one only an older
  /// bundle names).
  public static func koreanName(_ slug: BrandSlug) -> String { brand(slug)?.koreanName ?? slug.rawValue }
}
