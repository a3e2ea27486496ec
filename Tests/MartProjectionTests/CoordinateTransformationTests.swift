import Foundation
import MartCore
import MartProjection
import TestSupport
import Testing

@Suite("PROJ: the register's EPSG:5174 to WGS84")
struct CoordinateTransformationTests {
  /// brand-sources.md §11.1: 주식회사 이마트 청계천점, X 201823.908977364, Y 452076.818664092 →
  /// 37.570978 N, 127.021434 E (the store's map point).
  @Test func placesTheCheonggyecheonStoreWhereItStands() throws {
    let point = try #require(try RegisterCoordinateConverter().point(x: 201823.908977364, y: 452076.818664092))
    #expect(abs(point.latitude - 37.570978) < 1e-4)
    #expect(abs(point.longitude - 127.021434) < 1e-4)
  }

  /// The same points through PROJ's own command line, `cs2cs`, with the same PROJ string: Seoul,
  /// Busan (far east of the central meridian), 제주 (negative Y), 옹진's islands (negative X).
  @Test func agreesWithCs2cs() throws {
    let points: [(x: Double, y: Double)] = [
      (201823.908977364, 452076.818664092), (196467.975088253, 452566.134030104),
      (381798.273306626, 190693.228707938), (152842.774425, -708.090032), (158919.999921, -27244.54889),
      (-3500.0, 480000.0),
    ]
    let input = points.map { "\($0.x) \($0.y)" }.joined(separator: "\n") + "\n"
    let reference = try cs2cs(input: input)
    #expect(reference.count == points.count)
    let converter = try RegisterCoordinateConverter()
    for (point, expected) in zip(points, reference) {
      let converted = try #require(converter.point(x: point.x, y: point.y))
      #expect(abs(converted.longitude - expected.longitude) < 1e-7, "\(point)")
      #expect(abs(converted.latitude - expected.latitude) < 1e-7, "\(point)")
    }
  }

  @Test func aSystemPROJCannotReadIsAnErrorNamingIt() {
    #expect(throws: ProjectionError.self) {
      _ = try CoordinateTransformation(from: "+proj=nonsense +type=crs", to: KoreanReferenceSystems.wgs84)
    }
  }

  /// Runs `cs2cs` (apt package proj-bin, installed by scripts/setup.sh) on lines of `x y`.
  private func cs2cs(input: String) throws -> [GeoPoint] {
    let arguments =
      ["-f", "%.10f"] + KoreanReferenceSystems.epsg5174.split(separator: " ").map(String.init) + ["+to"]
      + KoreanReferenceSystems.wgs84.split(separator: " ").map(String.init)
    let inputFile = Scratch.directory.appendingPathComponent("cs2cs-\(UUID().uuidString).txt")
    try Data(input.utf8).write(to: inputFile)
    defer { try? FileManager.default.removeItem(at: inputFile) }
    let outcome = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["cs2cs"] + arguments + [inputFile.path])
    #expect(outcome.status == 0, "cs2cs: \(outcome.stderrText)")
    return try outcome.stdoutText.split(separator: "\n").map { line in
      let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
      let longitude = try #require(fields.first)
      let latitude = try #require(fields.dropFirst().first)
      return GeoPoint(latitude: latitude, longitude: longitude)
    }
  }
}
