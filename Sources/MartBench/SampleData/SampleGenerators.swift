import MartBrands
import MartCore

/// The bench's generators: which brands the bench makes sites of, and who writes each. A brand
/// whose source has no generator here is not in the bench; its source need not know of it.
public enum SampleGenerators {
  /// One generator per source the bench covers, in any order.
  private static let written: [any SourceSampleGenerator.Type] = [
    EmartSampleGenerator.self,
    LotteMartSampleGenerator.self,
    CostcoSampleGenerator.self,
    GSTheFreshSampleGenerator.self,
    HomeplusSampleGenerator.self,
    LotteDowaSampleGenerator.self,
    LotteSuperSampleGenerator.self,
    MegamartSampleGenerator.self,
  ]

  /// Every generator, in the order of their sources in `BrandSources.all`: the order in which
  /// they draw from a recording's one random stream, so part of what makes its bytes.
  public static let all: [any SourceSampleGenerator.Type] = BrandSources.all.compactMap { source in
    written.first { $0.source.name == source.name }
  }

  /// The brands in the bench: those of the generators' sources, in their order.
  public static var brands: [BrandSlug] { all.flatMap { $0.source.brands } }

  /// The generator that writes `brand`'s site; `nil` for a brand not in the bench.
  public static func generator(for brand: BrandSlug) -> (any SourceSampleGenerator.Type)? {
    all.first { $0.source.brands.contains(brand) }
  }
}
