import Foundation

extension GeoPoint {
  /// Great-circle distance in metres (haversine, mean Earth radius).
  public func distance(to other: GeoPoint) -> Double {
    let radius = 6_371_008.8
    let phi1 = latitude * .pi / 180
    let phi2 = other.latitude * .pi / 180
    let dPhi = (other.latitude - latitude) * .pi / 180
    let dLambda = (other.longitude - longitude) * .pi / 180
    let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
    return 2 * radius * atan2(a.squareRoot(), (1 - a).squareRoot())
  }
}
