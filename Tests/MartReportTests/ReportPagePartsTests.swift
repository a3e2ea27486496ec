import MartCore
import Testing

@testable import MartReport

/// The pieces of report.html that need no bundle: escaping, the map's projection, the palette.
@Suite struct ReportPagePartsTests {
  @Test func textIsEscapedForElementsAndAttributes() {
    #expect(HTML.escape(#"<b>"A&B"</b> it's"#) == "&lt;b&gt;&quot;A&amp;B&quot;&lt;/b&gt; it&#39;s")
    #expect(HTML.escape("이마트 창원점") == "이마트 창원점")
  }

  @Test(arguments: [
    ("Seoul City Hall", 37.5663, 126.9779), ("Jeju", 33.4996, 126.5312), ("Busan", 35.1796, 129.0756),
    ("Ulleungdo", 37.4842, 130.9057), ("Baengnyeongdo", 37.9670, 124.7140),
  ])
  func placesOfKoreaFallInsideTheMap(place: String, latitude: Double, longitude: Double) {
    let (x, y) = ReportPage.project(latitude: latitude, longitude: longitude)
    #expect(x > 0 && x < KoreaMap.width, "\(place)")
    #expect(y > 0 && y < KoreaMap.height, "\(place)")
  }

  @Test func northIsUpAndEastIsRight() {
    let seoul = ReportPage.project(latitude: 37.5663, longitude: 126.9779)
    let busan = ReportPage.project(latitude: 35.1796, longitude: 129.0756)
    #expect(seoul.y < busan.y)
    #expect(seoul.x < busan.x)
  }

  @Test func numbersHaveOneDecimal() {
    #expect(HTML.number(12.345) == "12.3")
    #expect(HTML.number(-0.25) == "-0.3" || HTML.number(-0.25) == "-0.2")
    #expect(HTML.number(7) == "7.0")
  }

  @Test func eachBrandKeepsItsColourWhateverTheOrder() {
    let brands: [BrandSlug] = ["emart", "costco", "megamart"]
    let one = BrandPalette(brands)
    let other = BrandPalette(brands.reversed())
    for brand in brands { #expect(one.colour(brand) == other.colour(brand)) }
    #expect(Set(brands.map(one.colour)).count == 3)
  }
}
