/// Every brand source the pipeline knows, one instance per site. A new site adds its source
/// here; a new brand of a listed site does not (see "Adding a brand" in `docs/architecture.md`).
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
}
