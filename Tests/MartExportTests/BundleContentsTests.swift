import Foundation
import MartCore
import MartExport
import MartFiles
import MartGzip
import Testing

@Suite struct BundleContentsTests {
  // 2026-11-01 is a Sunday, so the 2nd and 4th Sundays are 11-08 and 11-22; 2026-12-01 is a
  // Tuesday, so December's are 12-13 and 12-27; 2027-01-01 is a Friday: 01-10 and 01-24.
  let changwon = ExportFixtures.branch(
    .emart, "1059", text: "매월 둘째·넷째 일요일",
    coordinate: Coordinate(latitude: 35.2353, longitude: 128.6810, source: .site, precision: .building),
    address: BranchAddress(published: "경상남도 창원시 의창구 원이대로 320", sido: "경상남도", sigungu: "창원시 의창구"))
  let jamsil = ExportFixtures.branch(.lottemart, "0100161", name: "잠실점", text: "20261108, 20261209")
  let unknown = ExportFixtures.branch(.emart, "1099", name: "어딘가점", text: "")

  func contents() throws -> BundleContents {
    let branches = [jamsil, unknown, changwon]
    return try BundleContents(
      branches: branches, brands: ExportFixtures.summaries(branches), day: ExportFixtures.day)
  }

  func file(_ path: String) throws -> Data {
    try #require(try contents().files.first { $0.path == path }?.data)
  }

  @Test func closuresListEveryClosedDayWithSortedIds() throws {
    let closures = try BundleJSON.decode(
      ClosuresFile.self, from: try file("closures.json"), brands: [.emart, .lottemart])
    #expect(closures.window == ExportFixtures.window)
    #expect(
      closures.dates.mapValues { $0.map(\.description) } == [
        "2026-11-08": ["emart-1059", "lottemart-0100161"],
        "2026-11-22": ["emart-1059"],
        "2026-12-09": ["lottemart-0100161"],
        "2026-12-13": ["emart-1059"],
        "2026-12-27": ["emart-1059"],
        "2027-01-10": ["emart-1059"],
        "2027-01-24": ["emart-1059"],
      ])
  }

  @Test func indexRowsHaveNullCoordinatesWhenUnknown() throws {
    let data = try file("index.json")
    let text = String(decoding: data, as: UTF8.self)
    #expect(!text.contains("\n  "), "compact, not pretty-printed")
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 2)
    let rows = try #require(object["branches"] as? [[String: Any]])
    #expect(rows.map { $0["id"] as? String } == ["emart-1059", "emart-1099", "lottemart-0100161"])
    #expect(rows[0]["latitude"] as? Double == 35.2353)
    #expect(rows[0]["sigungu"] as? String == "창원시 의창구")
    #expect(rows[1]["latitude"] is NSNull)
    #expect(rows[1]["sido"] is NSNull)
    #expect(Set(rows[1].keys) == ["id", "brand", "name", "sido", "sigungu", "latitude", "longitude", "storeStatus"])
    #expect((rows[1]["storeStatus"] as? [String: Any])?["state"] as? String == "trading")
  }

  @Test func oneFileAndCalendarPerBrandAndGzipCopiesOfJSON() throws {
    let paths = try contents().files.map(\.path)
    #expect(paths.contains("brands/emart.json") && paths.contains("brands/lottemart.json"))
    #expect(paths.contains("calendars/brands/lottemart.ics"))
    #expect(paths.contains("calendars/branches/emart-1099.ics"))
    for path in paths where path.hasSuffix(".json") { #expect(paths.contains(path + ".gz")) }
    let emart = try BundleJSON.decode(BrandFile.self, from: try file("brands/emart.json"))
    #expect(emart.branches.map(\.id.description) == ["emart-1059", "emart-1099"])
    #expect(try Gzip.decompress(try file("index.json.gz")) == (try file("index.json")))
  }

  @Test func sameInputGivesSameBytesAndVersion() throws {
    let a = try contents()
    let reversed = [changwon, unknown, jamsil]
    let b = try BundleContents(
      branches: reversed, brands: ExportFixtures.summaries(reversed).reversed(), day: ExportFixtures.day)
    #expect(a.version == b.version)
    #expect(a.manifestData == b.manifestData)
    #expect(a.files.map(\.data) == b.files.map(\.data))
  }

  @Test func refusesIdsThatCannotNameAFile() {
    let bad = ExportFixtures.branch(.emart, "../etc", text: "")
    #expect(throws: FileError.self) {
      try BundleContents(
        branches: [bad], brands: ExportFixtures.summaries([bad]), day: ExportFixtures.day)
    }
  }
}
