/// Where a validated coordinate came from.
public enum CoordinateSource: String, Codable, Hashable, Sendable, CaseIterable {
  /// The brand's own store page or API.
  case site
  case kakao
  case naver
  case vworld
}

/// How precisely a coordinate locates the branch.
public enum CoordinatePrecision: String, Codable, Hashable, Sendable, CaseIterable {
  /// The building (a road-name address match, or the store's own point).
  case building
  /// The land parcel (a lot-number match).
  case parcel
  /// Only the 동, 읍/면 or district.
  case district

  /// The precision a point published with `fractionDigits` digits after the decimal point can
  /// claim: four or more (about 10 m) place the building, three (about 100 m) the parcel's
  /// neighbourhood at best, fewer only the district. Unknown digits claim the building, as the
  /// store's own point does.
  public init(publishedFractionDigits fractionDigits: Int?) {
    switch fractionDigits {
    case nil: self = .building
    case let digits? where digits >= 4: self = .building
    case 3: self = .parcel
    default: self = .district
    }
  }
}

/// A point inside Korea, checked by `CoordinateValidation`, with where it came from.
public struct Coordinate: Codable, Hashable, Sendable {
  public var latitude: Double
  public var longitude: Double
  public var source: CoordinateSource
  public var precision: CoordinatePrecision

  public init(latitude: Double, longitude: Double, source: CoordinateSource, precision: CoordinatePrecision) {
    self.latitude = latitude
    self.longitude = longitude
    self.source = source
    self.precision = precision
  }

  /// The bare point.
  public var point: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }
}

/// Accepts only points in the domestic range and repairs swapped latitude and longitude.
public enum CoordinateValidation {
  /// Latitudes from 마라도 (33.11°N) to the northern border, with margin.
  public static let latitudeRange: ClosedRange<Double> = 33.0...38.7
  /// Longitudes from 백령도 (124.6°E) to 독도 (131.87°E), with margin.
  public static let longitudeRange: ClosedRange<Double> = 124.5...132.0

  /// Whether the point lies in the domestic range as given.
  public static func isDomestic(_ point: GeoPoint) -> Bool {
    latitudeRange.contains(point.latitude) && longitudeRange.contains(point.longitude)
  }

  /// Validates a point published by `source`. Returns the coordinate when the point (or the point
  /// with latitude and longitude swapped) is in the domestic range, and a warning when it had to be
  /// corrected or was rejected.
  public static func validate(
    _ point: GeoPoint, source: CoordinateSource, precision: CoordinatePrecision = .building
  ) -> (coordinate: Coordinate?, warning: String?) {
    // Written only for a warning: a valid coordinate, nearly every one, needs no text.
    var text: String { "(\(point.latitude), \(point.longitude))" }
    guard point.latitude.isFinite, point.longitude.isFinite else {
      return (nil, "rejected \(source.rawValue) coordinate \(text): not a number")
    }
    if point.latitude == 0 && point.longitude == 0 {
      return (nil, "rejected \(source.rawValue) coordinate \(text): the null point")
    }
    if isDomestic(point) {
      return (
        Coordinate(latitude: point.latitude, longitude: point.longitude, source: source, precision: precision), nil
      )
    }
    let swapped = GeoPoint(latitude: point.longitude, longitude: point.latitude)
    if isDomestic(swapped) {
      return (
        Coordinate(latitude: swapped.latitude, longitude: swapped.longitude, source: source, precision: precision),
        "corrected \(source.rawValue) coordinate \(text): latitude and longitude were swapped"
      )
    }
    return (nil, "rejected \(source.rawValue) coordinate \(text): outside Korea")
  }
}
