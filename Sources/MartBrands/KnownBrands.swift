import MartCore

/// The brands the pipeline knows, one line each: slug, Korean name, size and designation. The
/// source that publishes a brand is not repeated here: it is the one of ``BrandSources/all``
/// whose `brands` names the slug. Adding a brand means its slug in its source's `brands` (with
/// its data generator), one line here, and its fixtures under `fixtures/web/`;
/// `docs/architecture.md` ("Adding a brand") walks through it.
public enum KnownBrands {
  /// One registered brand.
  public struct Entry: Sendable {
    public let brand: Brand
    /// The source that yields the brand's branches (its `sampleGenerator` writes them for the
    /// bench): the one of ``BrandSources/all`` whose `brands` names the slug.
    public let source: any BrandSource.Type
    /// About how many stores the chain has (2025–2026), for sample data in real proportions.
    public let nationalShare: Double
    /// Whether its stores are hypermarkets or SSMs that keep the closing days their 시·군·구
    /// designates (의무휴업일, 유통산업발전법 §12-2): they are evidence for their district's
    /// pattern, and a store publishing no days can be given its district's as expected days
    /// (``DistrictInference``). Specialty stores (토이저러스, 보틀벙커) are not. Bundles keep it as
    /// the manifest's `designated`.
    public let designated: Bool
    /// The banners its stores carry in the national register of large stores (사업장명 of
    /// LOCALDATA 대규모점포, brand-sources.md §11.1), written without spaces: a register row whose
    /// name holds one is a branch of the brand (the longest banner found decides, so
    /// `이마트에브리데이` is not `이마트`). Empty for brands the register does not hold.
    public let registerNames: [String]

    init(
      _ slug: BrandSlug, _ koreanName: String, stores: Double, designated: Bool = true, registerNames: [String] = []
    ) {
      guard let source = BrandSources.source(of: slug) else {
        preconditionFailure("no source of BrandSources.all yields the registered brand \(slug)")
      }
      self.brand = Brand(slug: slug, koreanName: koreanName)
      self.source = source
      self.nationalShare = stores
      self.designated = designated
      self.registerNames = registerNames
    }

    public var slug: BrandSlug { brand.slug }
  }

  /// Designated: 대형마트 (이마트, 트레이더스, 홈플러스, 롯데마트 and its formats, 메가마트, 코스트코) and
  /// SSMs (노브랜드, 에브리데이, 홈플러스 익스프레스, 롯데슈퍼, GS더프레시), as 유통산업발전법 §12-2 and
  /// the press describe them (한국경제 2019-04-28: the big three, their SSMs and "코스트코 역시 일부";
  /// 트레이더스 keeps the designation like 이마트, e.g. its 2023-04 closing days by store).
  public static let entries: [Entry] = [
    Entry(.emart, "이마트", stores: 130, registerNames: ["이마트"]),
    Entry(.traders, "이마트 트레이더스", stores: 22, registerNames: ["트레이더스"]),
    Entry(.nobrand, "노브랜드", stores: 230, registerNames: ["노브랜드"]),
    Entry(.everyday, "이마트 에브리데이", stores: 250, registerNames: ["이마트에브리데이", "에브리데이리테일"]),
    Entry(.homeplus, "홈플러스", stores: 126, registerNames: ["홈플러스"]),
    Entry(.homeplusExpress, "홈플러스 익스프레스", stores: 300, registerNames: ["홈플러스익스프레스"]),
    Entry(.lottemart, "롯데마트", stores: 110, registerNames: ["롯데마트", "제타플렉스"]),
    Entry(.lotteMaxx, "롯데마트 맥스", stores: 8, registerNames: ["롯데마트맥스", "빅마켓"]),
    Entry(.toysrus, "토이저러스", stores: 35, designated: false),
    Entry(.grandGrocery, "그랑그로서리", stores: 3, registerNames: ["그랑그로서리"]),
    Entry(.bottleBunker, "보틀벙커", stores: 9, designated: false),
    Entry(.lotteSuper, "롯데슈퍼", stores: 240, registerNames: ["롯데슈퍼", "롯데프레시"]),
    Entry(.megamart, "메가마트", stores: 11, registerNames: ["메가마트"]),
    Entry(.costco, "코스트코", stores: 20, registerNames: ["코스트코"]),
    Entry(
      .gsTheFresh, "GS더프레시", stores: 520,
      registerNames: ["GSTHEFRESH", "GS더프레시", "지에스더프레시", "GS수퍼마켓", "GS슈퍼마켓"]),
  ]

  /// Whether the known brand `slug` is subject to the designation (``Entry/designated``); `nil`
  /// for a brand not known.
  public static func isDesignated(_ slug: BrandSlug) -> Bool? { entries.first { $0.slug == slug }?.designated }

  /// Every known brand, sorted by slug.
  public static var all: [Brand] { entries.map(\.brand).sorted { $0.slug < $1.slug } }

  /// The known brand with `slug`, if any.
  public static func brand(_ slug: BrandSlug) -> Brand? { entries.first { $0.slug == slug }?.brand }

  /// The Korean name of `slug`, or the slug itself for a brand not known (one only an older
  /// bundle names).
  public static func koreanName(_ slug: BrandSlug) -> String { brand(slug)?.koreanName ?? slug.rawValue }
}
