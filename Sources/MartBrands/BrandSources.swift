/// Every brand source the pipeline knows. Adding a brand means one source file, its fixtures,
/// and one line here.
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
