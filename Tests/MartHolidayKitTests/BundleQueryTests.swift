import Foundation
import MartHolidayKit
import Testing

/// `branches(near:withinMeters:)` and `search(_:)` over the fixtures' bundle.
@Suite struct BundleQueryTests {
  /// The haversine distance in metres with the mean earth radius, written out here so the test
  /// does not lean on the kit's own.
  static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let rad = Double.pi / 180
    let a =
      pow(sin((lat2 - lat1) * rad / 2), 2) + cos(lat1 * rad) * cos(lat2 * rad) * pow(sin((lon2 - lon1) * rad / 2), 2)
    return 2 * 6_371_008.8 * asin(min(1, a.squareRoot()))
  }

  @Test(arguments: [
    (37.5, 127.0, 5_000.0),  // central Seoul
    (37.5133, 127.1001, 3_000.0),  // 잠실
    (35.2353, 128.6810, 10_000.0),  // 창원
    (35.1796, 129.0756, 20_000.0),  // 부산
    (33.4996, 126.5312, 1.0),  // 제주, almost nothing
    (37.5, 127.0, 1_000_000.0),  // the whole country
  ])
  func nearAgreesWithAHaversine(latitude: Double, longitude: Double, meters: Double) async throws {
    let output = try await PublishedFixtures.shared.output()
    let raw = try RawBundle(output: output)
    let bundle = try await PublishedFixtures.shared.bundle()
    var expected: [(id: String, distance: Double)] = []
    for record in raw.branches {
      guard let point = record["coordinate"] as? [String: Any], let lat = point["latitude"] as? Double,
        let lon = point["longitude"] as? Double
      else { continue }
      let distance = Self.haversine(latitude, longitude, lat, lon)
      if distance <= meters { expected.append((try #require(record["id"] as? String), distance)) }
    }
    expected.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
    let near = bundle.branches(near: MartCoordinate(latitude: latitude, longitude: longitude), withinMeters: meters)
    #expect(near.map(\.id) == expected.map(\.id))
    for (branch, row) in zip(near, expected) {
      let distance = try #require(branch.coordinate).distance(
        to: MartCoordinate(latitude: latitude, longitude: longitude))
      #expect(abs(distance - row.distance) < 0.01, "\(branch.id)")
    }
  }

  /// Every placed branch of the fixtures with its distance from a point, nearest first, then by
  /// id, worked out from the raw `branches.json` with the haversine above.
  static func placedByDistance(from latitude: Double, _ longitude: Double) async throws -> [(
    id: String, distance: Double
  )] {
    let raw = try RawBundle(output: try await PublishedFixtures.shared.output())
    var rows: [(id: String, distance: Double)] = []
    for record in raw.branches {
      guard let point = record["coordinate"] as? [String: Any], let lat = point["latitude"] as? Double,
        let lon = point["longitude"] as? Double
      else { continue }
      rows.append((try #require(record["id"] as? String), haversine(latitude, longitude, lat, lon)))
    }
    return rows.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
  }

  @Test(arguments: [
    (37.5, 127.0, 5),  // central Seoul
    (35.2353, 128.6810, 1),  // 창원
    (33.4996, 126.5312, 3),  // 제주
    (37.5133, 127.1001, 40),  // 잠실
  ])
  func nearestAgreesWithAHaversine(latitude: Double, longitude: Double, count: Int) async throws {
    let expected = try await Self.placedByDistance(from: latitude, longitude)
    #expect(expected.count > 40)
    let nearest = try await PublishedFixtures.shared.bundle().nearest(
      to: MartCoordinate(latitude: latitude, longitude: longitude), count: count)
    #expect(nearest.map(\.id) == expected.prefix(count).map(\.id))
  }

  @Test func nearestHoldsAtMostThePlacedBranches() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    let point = MartCoordinate(latitude: 36.5, longitude: 127.8)
    let placed = try await Self.placedByDistance(from: 36.5, 127.8)
    #expect(bundle.branches.contains { $0.coordinate == nil }, "the fixtures have branches without a coordinate")
    #expect(bundle.nearest(to: point, count: 100_000).map(\.id) == placed.map(\.id))
    #expect(bundle.nearest(to: point, count: 0).isEmpty)
    #expect(bundle.nearest(to: point, count: -3).isEmpty)
  }

  /// Branches at the very same point (two formats in one building) come in id order.
  @Test func equalDistancesComeInIdOrder() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    let byPoint = Dictionary(grouping: bundle.branches.filter { $0.coordinate != nil }) { $0.coordinate! }
    let shared = try #require(byPoint.values.filter { $0.count > 1 }.min { $0[0].id < $1[0].id })
    let point = shared[0].coordinate!
    let nearest = bundle.nearest(to: point, count: shared.count)
    #expect(nearest.map(\.id) == shared.map(\.id).sorted())
  }

  @Test func theWholeCountryHoldsEveryPlacedBranch() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    let near = bundle.branches(near: MartCoordinate(latitude: 36.5, longitude: 127.8), withinMeters: 1_000_000)
    #expect(near.count == bundle.branches.filter { $0.coordinate != nil }.count)
    #expect(near.count > 100)
  }

  @Test(arguments: [
    // Branch names.
    ("잠실", ["homeplus-685", "lottemart-잠실점"]),
    ("창원점", ["emart-1059", "homeplus-595"]),
    // Brand and branch name, in either order, with spaces or case that differ.
    ("이마트 창원", ["emart-1059"]),
    ("창원 이마트", ["emart-1059"]),
    ("HOMEPLUS 잠실", ["homeplus-685"]),
    // Nothing.
    ("", []),
    ("   ", []),
    ("없는지점이름", []),
  ])
  func search(query: String, mustInclude: [String]) async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    let found = bundle.search(query).map(\.id)
    for id in mustInclude { #expect(found.contains(id), "\(query) → \(found)") }
    if mustInclude.isEmpty { #expect(found.isEmpty, "\(query) → \(found)") }
    #expect(Set(found).count == found.count)
  }

  @Test func searchMatchesEveryWordAndPutsNameMatchesFirst() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    // A region: every branch whose province or district names it.
    let region = bundle.search("송파구")
    #expect(!region.isEmpty)
    for branch in region {
      let text = [branch.address.sigungu, branch.address.road, branch.address.jibun, branch.address.published]
        .compactMap { $0 }.joined(separator: " ")
      #expect(text.contains("송파구"), "\(branch.id)")
    }
    // A brand: every branch of it, and nothing else that does not name it.
    let costco = bundle.search("코스트코")
    #expect(Set(costco.map(\.id)) == Set(bundle.branches(ofBrand: "costco").map(\.id)))
    // Name matches first, then by id.
    let changwon = bundle.search("창원")
    let ranks = changwon.map { $0.name.contains("창원") ? 0 : 1 }
    #expect(ranks == ranks.sorted())
    for rank in [0, 1] {
      let ids = zip(changwon, ranks).filter { $0.1 == rank }.map(\.0.id)
      #expect(ids == ids.sorted())
    }
  }
}
