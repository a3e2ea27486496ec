import Foundation
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
    #expect(HTML.number(-12.34) == "-12.3")
    #expect(HTML.number(-0.06) == "-0.1")
    // Rounds to zero: no sign.
    #expect(HTML.number(-0.04) == "0.0")
    #expect(HTML.number(0) == "0.0")
    #expect(HTML.number(487.8) == "487.8")
    #expect(HTML.number(99.96) == "100.0")
  }

  @Test func bytesTakeIntegersEscapedTextAndRepeatedPieces() {
    var page = HTMLBytes()
    for value in [0, 7, 10, 1_234_567, -42] {
      page.append(value)
      page.append(" ")
    }
    #expect(page.text == "0 7 10 1234567 -42 ")
    var escaped = HTMLBytes()
    escaped.append("<p>")
    let start = escaped.count
    escaped.appendEscaped("롯데마트 <b>&</b> 'x' \"y\" 끝")
    let text = start..<escaped.count
    escaped.append("</p>")
    escaped.append(copyOf: text)
    let once = "롯데마트 &lt;b&gt;&amp;&lt;/b&gt; &#39;x&#39; &quot;y&quot; 끝"
    #expect(escaped.text == "<p>" + once + "</p>" + once)
    var other = HTMLBytes()
    other.append(escaped, 0..<3)
    other.append(escaped)
    #expect(other.text == "<p>" + escaped.text)
  }

  @Test func eachBrandKeepsItsColourWhateverTheOrder() {
    let brands: [BrandSlug] = ["emart", "costco", "megamart"]
    let one = BrandPalette(brands)
    let other = BrandPalette(brands.reversed())
    for brand in brands { #expect(one.colour(brand) == other.colour(brand)) }
    #expect(Set(brands.map(one.colour)).count == 3)
  }

  @Test func instantsAreShownInKoreanStandardTime() {
    // 15:06 UTC plus nine hours is 00:06 of the next day in Korea.
    #expect(KoreanTime.text("2026-11-25T15:06:39Z") == "2026-11-26 00:06 KST (UTC+9)")
    #expect(KoreanTime.text("2026-11-25T00:00:00.250Z") == "2026-11-25 09:00 KST (UTC+9)")
    // An instant written with another offset: 09:30 at UTC+1 is 08:30 UTC, 17:30 in Korea.
    #expect(KoreanTime.text("2026-12-31T09:30:00+01:00") == "2026-12-31 17:30 KST (UTC+9)")
    #expect(KoreanTime.text("yesterday") == "yesterday")
  }

  @Test func everyPairOfBrandColoursIsFarApartInCIEDE2000() {
    let colours = BrandPalette.colours
    #expect(colours.count >= 15, "a colour of its own for each brand the registry has (15 in 2026-11)")
    for (index, one) in colours.enumerated() {
      for other in colours[(index + 1)...] {
        let difference = ColourDifference.ciede2000(ColourDifference.lab(one), ColourDifference.lab(other))
        // 20 is far above the 2–3 at which people tell two colours apart side by side: two marks
        // this far apart read as different colours at a glance, even small on a map.
        #expect(difference >= 20, "\(one) and \(other) are \(difference) apart")
      }
    }
  }

  @Test func everyBrandColourStandsOutOnWhite() {
    // WCAG 2.1 success criterion 1.4.11: graphical objects need a contrast of 3:1.
    for colour in BrandPalette.colours {
      #expect(ColourDifference.contrast(colour, "#ffffff") >= 3, "\(colour)")
    }
  }

  @Test func noTwoBrandsShareBothColourAndShape() throws {
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    let brands = try (0..<40).map { try #require(BrandSlug(rawValue: "brand-\(letters[$0 / 26])\(letters[$0 % 26])")) }
    let palette = BrandPalette(brands)
    let marks = Set(brands.map { "\(palette.colour($0)) \(palette.shape($0).name)" })
    #expect(marks.count == brands.count)
    #expect(Set(BrandPalette.shapes.map(\.path)).count == BrandPalette.shapes.count)
  }

  /// The colour-difference formula itself, against the reference pairs of Sharma, Wu and Dalal,
  /// "The CIEDE2000 Color-Difference Formula: Implementation Notes, Supplementary Test Data, and
  /// Mathematical Observations", Color Research & Application 30(1), 2005, table 1 (pairs 1, 7,
  /// 17 and 19).
  @Test(arguments: [
    ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
    ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
    ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
    ([50.0, 2.5, 0.0], [56.0, -27.0, -3.0], 31.9030),
  ])
  func ciede2000MatchesItsPublishedTestData(one: [Double], other: [Double], expected: Double) {
    let difference = ColourDifference.ciede2000((one[0], one[1], one[2]), (other[0], other[1], other[2]))
    #expect(abs(difference - expected) < 0.0001, "\(difference)")
  }
}

/// CIELAB and CIEDE2000 (CIE 142-2001) for sRGB colours, and WCAG's contrast ratio.
enum ColourDifference {
  typealias Lab = (l: Double, a: Double, b: Double)

  /// Linear sRGB channels of `#rrggbb`.
  static func linear(_ hex: String) -> [Double] {
    let digits = Array(hex.dropFirst())
    return stride(from: 0, to: 6, by: 2).map { index in
      let value = Double(Int(String(digits[index...index + 1]), radix: 16) ?? 0) / 255
      return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
  }

  /// CIELAB under D65.
  static func lab(_ hex: String) -> Lab {
    let rgb = linear(hex)
    let x = (0.4124564 * rgb[0] + 0.3575761 * rgb[1] + 0.1804375 * rgb[2]) / 0.95047
    let y = 0.2126729 * rgb[0] + 0.7151522 * rgb[1] + 0.0721750 * rgb[2]
    let z = (0.0193339 * rgb[0] + 0.1191920 * rgb[1] + 0.9503041 * rgb[2]) / 1.08883
    func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
  }

  static func ciede2000(_ one: Lab, _ other: Lab) -> Double {
    func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
    let meanChroma = (hypot(one.a, one.b) + hypot(other.a, other.b)) / 2
    let g = 0.5 * (1 - (pow(meanChroma, 7) / (pow(meanChroma, 7) + pow(25, 7))).squareRoot())
    let a1 = (1 + g) * one.a
    let a2 = (1 + g) * other.a
    let c1 = hypot(a1, one.b)
    let c2 = hypot(a2, other.b)
    func hue(_ b: Double, _ a: Double) -> Double {
      b == 0 && a == 0 ? 0 : (degrees(atan2(b, a)) + 360).truncatingRemainder(dividingBy: 360)
    }
    let h1 = hue(one.b, a1)
    let h2 = hue(other.b, a2)
    var deltaHue = h2 - h1
    if c1 * c2 == 0 {
      deltaHue = 0
    } else if deltaHue > 180 {
      deltaHue -= 360
    } else if deltaHue < -180 {
      deltaHue += 360
    }
    let deltaL = other.l - one.l
    let deltaC = c2 - c1
    let deltaH = 2 * (c1 * c2).squareRoot() * sin(radians(deltaHue / 2))
    let meanL = (one.l + other.l) / 2
    let meanC = (c1 + c2) / 2
    let meanHue =
      c1 * c2 == 0
      ? h1 + h2 : abs(h1 - h2) <= 180 ? (h1 + h2) / 2 : h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2
    let t =
      1 - 0.17 * cos(radians(meanHue - 30)) + 0.24 * cos(radians(2 * meanHue))
      + 0.32 * cos(radians(3 * meanHue + 6)) - 0.20 * cos(radians(4 * meanHue - 63))
    let deltaTheta = 30 * exp(-pow((meanHue - 275) / 25, 2))
    let rc = 2 * (pow(meanC, 7) / (pow(meanC, 7) + pow(25, 7))).squareRoot()
    let sl = 1 + 0.015 * pow(meanL - 50, 2) / (20 + pow(meanL - 50, 2)).squareRoot()
    let sc = 1 + 0.045 * meanC
    let sh = 1 + 0.015 * meanC * t
    let rt = -sin(radians(2 * deltaTheta)) * rc
    let l = deltaL / sl
    let c = deltaC / sc
    let h = deltaH / sh
    return (l * l + c * c + h * h + rt * c * h).squareRoot()
  }

  /// WCAG 2.1's contrast ratio of two `#rrggbb` colours.
  static func contrast(_ one: String, _ other: String) -> Double {
    func luminance(_ hex: String) -> Double {
      let rgb = linear(hex)
      return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    }
    let (x, y) = (luminance(one), luminance(other))
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)
  }
}
