import MartCore
import TestSupport
import Testing

@Suite("Coordinate validation")
struct CoordinateValidationTests {
  /// Points at the edges of the country, taken from maps: all must be accepted as given.
  @Test("points across Korea, including the outlying islands, are accepted")
  func domesticPoints() {
    let table = [
      ("마라도", 33.1140, 126.2670),
      ("백령도", 37.9600, 124.6700),
      ("독도", 37.2410, 131.8650),
      ("롯데마트 잠실점", 37.5113, 127.0980),
      ("제주점 (노형동)", 33.4850, 126.4810),
    ]
    forEachCase(table, named: \.0) { point, name in
      let (place, latitude, longitude) = point
      let (coordinate, warning) = CoordinateValidation.validate(
        GeoPoint(latitude: latitude, longitude: longitude), source: .site)
      let accepted = try #require(coordinate, "\(place) rejected")
      #expect(accepted.latitude == latitude, name)
      #expect(accepted.longitude == longitude, name)
      #expect(accepted.source == .site, name)
      #expect(accepted.precision == .building, name)
      #expect(warning == nil, name)
    }
  }

  /// GS THE FRESH 포항죽도점 publishes `"lat":"129.36009447"` and `"longs":"36.02490301"`.
  @Test("swapped latitude and longitude are corrected with a warning")
  func swapped() throws {
    let (coordinate, warning) = CoordinateValidation.validate(
      GeoPoint(latitude: 129.36009447, longitude: 36.02490301), source: .site)
    let corrected = try #require(coordinate)
    #expect(corrected.latitude == 36.02490301)
    #expect(corrected.longitude == 129.36009447)
    #expect(warning?.contains("swapped") == true)
  }

  @Test("the null point, NaN and foreign points are rejected with a warning")
  func rejected() {
    let table = [
      (0.0, 0.0, "null point"),
      (Double.nan, 127.0, "not a number"),
      (37.5, Double.infinity, "not a number"),
      (35.68, 139.76, "outside Korea"),  // Tokyo
      (39.03, 125.75, "outside Korea"),  // Pyongyang, north of the range
      (32.9, 126.3, "outside Korea"),  // south of 마라도
      (-37.5, -127.0, "outside Korea"),
    ]
    for (latitude, longitude, reason) in table {
      let (coordinate, warning) = CoordinateValidation.validate(
        GeoPoint(latitude: latitude, longitude: longitude), source: .naver)
      let name = Comment(rawValue: "(\(latitude), \(longitude))")
      #expect(coordinate == nil, name)
      #expect(warning?.contains(reason) == true, name)
      #expect(warning?.contains("naver") == true, name)
    }
  }

  @Test("precision is recorded as given")
  func precision() {
    let (coordinate, _) = CoordinateValidation.validate(
      GeoPoint(latitude: 35.2281, longitude: 128.6811), source: .vworld, precision: .parcel)
    #expect(coordinate?.precision == .parcel)
    #expect(coordinate?.source == .vworld)
  }
}
