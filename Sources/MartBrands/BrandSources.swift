import MartCore

/// Every brand source the pipeline knows, one instance per site, in the order runs collect and
/// report them. A new site adds its source here; a new brand of a listed site does not (see
/// "Adding a brand" in `docs/architecture.md`). Which brands a source yields is its own `brands`;
/// ``KnownBrands`` finds each registered brand's source here rather than naming it again.
public enum BrandSources {
  public static let all: [any BrandSource] = [
    EmartSource(),
    LotteMartSource(),
    CostcoSource(),
    GSTheFreshSource(),
    HomeplusSource(),
    LotteDowaSource(),
    LotteSuperSource(),
    MegamartSource(),
  ]

  /// The source among ``all`` whose `brands` names `brand`; `nil` when none does.
  public static func source(of brand: BrandSlug) -> (any BrandSource.Type)? {
    all.first { $0.brands.contains(brand) }.map { type(of: $0) }
  }
}
