import MartCore

/// The colour of each brand on the map and in the legend: a fixed palette, given out in the order
/// of the slugs, so the same brand set always gets the same colours.
struct BrandPalette {
  /// Distinct colours readable on a light background, each with enough contrast for a mark.
  static let colours = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#393b79", "#637939", "#843c39", "#7b4173", "#3182bd", "#e6550d", "#31a354",
  ]

  private var assigned: [BrandSlug: String] = [:]

  init(_ brands: [BrandSlug]) {
    for (index, brand) in Set(brands).sorted().enumerated() {
      assigned[brand] = Self.colours[index % Self.colours.count]
    }
  }

  /// The brand's colour; grey for a brand the palette was not made with.
  func colour(_ brand: BrandSlug) -> String { assigned[brand] ?? "#777777" }
}
