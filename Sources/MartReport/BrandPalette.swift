import MartCore

/// The colour and the shape of each brand on the map and in the legend, given out in the order
/// of the slugs, so the same brand set always gets the same marks.
///
/// A brand is told by its shape as well as its colour, so the map reads for a person who does
/// not see the colours apart.
struct BrandPalette {
  /// Sixteen colours, every pair at least 20 apart in CIEDE2000 (the closest pair, `#1122cc` and
  /// `#006688`, is 22.0), each with a contrast of at least 3:1 against white (WCAG 2.1's minimum
  /// for graphical objects, 1.4.11), so a mark stands out on the map's light land and sea.
  /// Picked by a farthest-point search over a 16-level sRGB grid limited to L* ≥ 28 and
  /// chroma ≥ 25 (no near-black, no greys).
  static let colours = [
    "#dd7700", "#1122cc", "#11aa55", "#3399ee", "#ff2299", "#005544", "#aa0033", "#555500",
    "#9988bb", "#449999", "#006688", "#664466", "#ff4444", "#bb11ff", "#884400", "#999900",
  ]

  /// A mark's outline, centred on 0 0 and about 10 units across.
  struct Shape: Hashable {
    /// `circle`, `square`, …: the id of its SVG definition is `shape-` and this.
    let name: String
    /// SVG path data.
    let path: String
  }

  /// Seven shapes: as 7 and 16 have no common factor, no two of the first 112 brands share both
  /// colour and shape.
  static let shapes = [
    Shape(name: "circle", path: "M4.6 0A4.6 4.6 0 1 1-4.6 0A4.6 4.6 0 1 1 4.6 0Z"),
    Shape(name: "square", path: "M-4-4H4V4H-4Z"),
    Shape(name: "diamond", path: "M0-5.3L5.3 0L0 5.3L-5.3 0Z"),
    Shape(name: "triangle", path: "M0-5.6L5.2 3.6H-5.2Z"),
    Shape(name: "triangle-down", path: "M0 5.6L5.2-3.6H-5.2Z"),
    Shape(name: "star", path: "M0-6L1.5-2.1L5.7-1.9L2.5 0.8L3.5 4.9L0 2.6L-3.5 4.9L-2.5 0.8L-5.7-1.9L-1.5-2.1Z"),
    Shape(name: "plus", path: "M-1.8-5H1.8V-1.8H5V1.8H1.8V5H-1.8V1.8H-5V-1.8H-1.8Z"),
  ]

  private var assigned: [BrandSlug: Int] = [:]

  init(_ brands: [BrandSlug]) {
    for (index, brand) in Set(brands).sorted().enumerated() { assigned[brand] = index }
  }

  /// The brand's colour; grey for a brand the palette was not made with.
  func colour(_ brand: BrandSlug) -> String {
    assigned[brand].map { Self.colours[$0 % Self.colours.count] } ?? "#777777"
  }

  /// The brand's shape; a circle for a brand the palette was not made with.
  func shape(_ brand: BrandSlug) -> Shape { Self.shapes[(assigned[brand] ?? 0) % Self.shapes.count] }

  /// `<defs>` with every shape, for marks to `<use>` by id.
  static var definitions: String {
    "<defs>" + shapes.map { "<path id=\"shape-\($0.name)\" d=\"\($0.path)\"/>" }.joined() + "</defs>"
  }

  /// The brand's mark as a small inline SVG, for the legend and the brand table.
  func swatch(_ brand: BrandSlug, size: Int = 14) -> String {
    "<svg class=\"swatch\" width=\"\(size)\" height=\"\(size)\" viewBox=\"-7 -7 14 14\" aria-hidden=\"true\">"
      + "<use href=\"#shape-\(shape(brand).name)\" fill=\"\(colour(brand))\"/></svg>"
  }
}
