import CProj
import MartCore

/// A transformation between two coordinate reference systems, done by PROJ (libproj), the
/// library the field uses: no projection is written by hand here.
///
/// It owns a PROJ context and the transformation made in it, and frees both when it goes. PROJ
/// objects are not thread-safe, so one instance serves one thread at a time (it is not
/// `Sendable`); make one per task.
public final class CoordinateTransformation {
  private let context: OpaquePointer
  private let transformation: OpaquePointer

  /// The source and target systems as PROJ strings or authority codes (`EPSG:4326`). The result
  /// takes and gives easting (or longitude) first, whatever the systems' axis order.
  public init(from source: String, to target: String) throws(ProjectionError) {
    guard let context = proj_context_create() else {
      throw ProjectionError(source: source, target: target, reason: "no PROJ context")
    }
    // Nothing on stderr: a failure is thrown, with PROJ's words.
    proj_log_level(context, PJ_LOG_NONE)
    guard let created = proj_create_crs_to_crs(context, source, target, nil) else {
      let reason = Self.errorText(context: context, code: proj_context_errno(context))
      proj_context_destroy(context)
      throw ProjectionError(source: source, target: target, reason: reason)
    }
    guard let normalized = proj_normalize_for_visualization(context, created) else {
      let reason = Self.errorText(context: context, code: proj_context_errno(context))
      proj_destroy(created)
      proj_context_destroy(context)
      throw ProjectionError(source: source, target: target, reason: reason)
    }
    proj_destroy(created)
    self.context = context
    self.transformation = normalized
  }

  deinit {
    proj_destroy(transformation)
    proj_context_destroy(context)
  }

  /// `(x, y)` in the target system, or `nil` when PROJ cannot transform the point (or gives a
  /// value that is not a number).
  public func transform(x: Double, y: Double) -> (x: Double, y: Double)? {
    var outX = 0.0
    var outY = 0.0
    let status = mart_proj_transform(transformation, x, y, &outX, &outY)
    guard status == 0, outX.isFinite, outY.isFinite else { return nil }
    return (outX, outY)
  }

  private static func errorText(context: OpaquePointer, code: Int32) -> String {
    guard code != 0, let text = proj_context_errno_string(context, code) else {
      return "PROJ could not make the transformation"
    }
    return String(cString: text)
  }
}

/// PROJ could not make a transformation between two systems.
public struct ProjectionError: LocatedError, Sendable, Hashable {
  public var source: String
  public var target: String
  /// PROJ's own words.
  public var reason: String

  public init(source: String, target: String, reason: String) {
    self.source = source
    self.target = target
    self.reason = reason
  }

  /// The two systems: `<source> to <target>`.
  public var location: String { "\(source) to \(target)" }
  /// PROJ's own words.
  public var message: String { reason }

  public var description: String { "cannot transform \(source) to \(target): \(reason)" }
}

/// The systems the national register of large stores (LOCALDATA 대규모점포) uses.
public enum KoreanReferenceSystems {
  /// EPSG:5174, "보정계수 안들어간 Bessel 중부원점TM" as the register's provider names it: the
  /// Korean 1985 central belt on the Bessel ellipsoid with the 7-parameter shift to WGS84.
  /// Not EPSG:2097, which lands about 255 m off (measured over 4,285 matched stores,
  /// brand-sources.md §11.1, 2026-12-02).
  public static let epsg5174 =
    "+proj=tmerc +lat_0=38 +lon_0=127.0028902777778 +k=1 +x_0=200000 +y_0=500000 +ellps=bessel +units=m +no_defs +towgs84=-115.80,474.99,674.11,1.16,-2.31,-1.63,6.43"
  /// WGS84 longitude and latitude, in degrees.
  public static let wgs84 = "+proj=longlat +datum=WGS84 +no_defs"
}

/// Turns the register's EPSG:5174 coordinates into WGS84 points.
public final class RegisterCoordinateConverter {
  private let transformation: CoordinateTransformation

  public init() throws(ProjectionError) {
    transformation = try CoordinateTransformation(
      from: KoreanReferenceSystems.epsg5174 + " +type=crs", to: KoreanReferenceSystems.wgs84 + " +type=crs")
  }

  /// The WGS84 point of register X (easting) and Y (northing), in metres; `nil` when PROJ
  /// cannot place it. Negative values are real (제주 lies south of the origin's false northing).
  public func point(x: Double, y: Double) -> GeoPoint? {
    transformation.transform(x: x, y: y).map { GeoPoint(latitude: $0.y, longitude: $0.x) }
  }
}
