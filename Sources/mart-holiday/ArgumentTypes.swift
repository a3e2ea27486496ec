import ArgumentParser
import MartCore
import MartPipeline

/// `--brand SLUG`: any brand the pipeline knows.
extension BrandSlug: ExpressibleByArgument {
  public init?(argument: String) {
    guard let slug = BrandSlug(rawValue: argument), Pipeline.knownBrands.contains(where: { $0.slug == slug }) else {
      return nil
    }
    self = slug
  }

  public static var allValueStrings: [String] { Pipeline.knownBrands.map(\.slug.rawValue) }
}
extension DateCoverage: ExpressibleByArgument {}

extension CalendarDate: ExpressibleByArgument {
  public init?(argument: String) { self.init(iso: argument) }
}
