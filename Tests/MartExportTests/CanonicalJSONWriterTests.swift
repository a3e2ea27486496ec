import Foundation
import MartCore
import Testing

@testable import MartExport

/// The direct writer must give exactly the bytes of the general `Encodable` encoder: the
/// bundle's bytes and version depend on them.
@Suite struct CanonicalJSONWriterTests {
  typealias Fixtures = ExportFixtures

  static let awkwardTexts: [String?] = [
    nil, "", "창원점", #"He said "hi" \ bye"#, "tab\tnew\nline\rcarriage", "\u{01}\u{1F}\u{7F}\u{08}\u{0C}",
    "𝄞 😀 🇰🇷 non-BMP", "slash / and </script>", "e\u{301} composed", String(repeating: "가", count: 300),
  ]

  static let doubles: [Double] = [
    37.5665, 126.978, 0, -0.0, 127, 1e-7, 35.123456789012345, 1e15, 1e16, -33.25, 0.1 + 0.2, 124.99999999999999,
  ]

  /// Branches that between them use every optional as present and absent, every closing rule
  /// kind, lunar holidays, coverage, store states and awkward text.
  static func awkwardBranches() -> [Branch] {
    var branches: [Branch] = []
    let rules: [[ClosingRule]] = [
      [], [.nthWeekday(ordinals: [2, 4], weekday: .sunday)], [.weekly(.monday)], [.dayOfMonth([10, 25])],
      [.annual(month: 1, day: 1), .nthWeekday(ordinals: [-1], weekday: .wednesday)],
    ]
    let statuses: [StoreStatus] = [
      .trading, StoreStatus(state: .temporarilyClosed, text: "리뉴얼 공사로 \"휴점\"", until: Fixtures.asOf.adding(days: 9)),
      StoreStatus(state: .closed, text: "영업종료"), StoreStatus(state: .trading, closesOn: Fixtures.asOf.adding(days: 30)),
    ]
    for index in 0..<40 {
      let text = awkwardTexts[index % awkwardTexts.count]
      let other = awkwardTexts[(index * 7 + 3) % awkwardTexts.count]
      let latitude = doubles[index % doubles.count]
      let longitude = doubles[(index * 5 + 1) % doubles.count]
      var schedule = ClosingSchedule.parse(text ?? "매월 둘째, 넷째 일요일", asOf: Fixtures.asOf)
      schedule.rules = rules[index % rules.count]
      schedule.text = other
      schedule.warnings = [text ?? "", other ?? "x"]
      if index % 3 == 0 {
        schedule.lunar = [LunarClosing(holiday: .seollal, offsets: [-1, 0, 1])]
        schedule.lunarExceptions = [LunarClosing(holiday: .chuseok, offsets: [0])]
        schedule.exceptions = [Fixtures.asOf]
        schedule.coverage = [Fixtures.window]
        schedule.uncertain = [DateWindow(from: Fixtures.asOf, through: Fixtures.asOf.adding(days: 3))]
      }
      let branch = Branch(
        id: BranchID(brand: index % 2 == 0 ? BrandSlug.emart : BrandSlug.lottemart, storeID: "s\(index)-\(index * 37)"),
        banner: index % 4 == 0 ? other : nil, name: text ?? "이름", namePublished: other,
        address: BranchAddress(
          published: text, lotPublished: other, road: other, jibun: text, sido: index % 2 == 0 ? "서울특별시" : nil,
          sigungu: other),
        phone: index % 5 == 0 ? nil : "02-123-4567", phonePublished: text, openingHours: other,
        hours: index % 3 == 0 ? OpeningHours(open: "10:00", close: "24:00") : nil,
        coordinate: index % 6 == 0
          ? nil
          : Coordinate(
            latitude: latitude, longitude: longitude,
            source: CoordinateSource.allCases[index % CoordinateSource.allCases.count],
            precision: CoordinatePrecision.allCases[index % CoordinatePrecision.allCases.count]),
        closing: BranchClosing(
          schedule: schedule, window: Fixtures.window, storeStatus: statuses[index % statuses.count],
          asOf: Fixtures.asOf),
        storeStatus: statuses[index % statuses.count], sourceURL: "https://example.com/store?id=\(index)&q=\"x\"",
        pageURL: index % 2 == 0 ? nil : "https://example.com/\(index)")
      branches.append(branch)
    }
    return branches
  }

  /// The branches of the committed sample bundle (the fixtures' run).
  static func sampleBranches() throws -> [Branch] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let bundles = root.appendingPathComponent("docs/sample/bundles")
    let name = try #require(try FileManager.default.contentsOfDirectory(atPath: bundles.path).sorted().last)
    let data = try Data(contentsOf: bundles.appendingPathComponent(name).appendingPathComponent("branches.json"))
    return try BundleJSON.decode(BranchesFile.self, from: data).branches
  }

  @Test func eachBranchIsWrittenAsTheEncoderWritesIt() throws {
    for branch in try Self.awkwardBranches() + Self.sampleBranches() {
      var writer = CanonicalJSONWriter()
      try writer.branch(branch)
      let expected = try CanonicalJSON.encode(branch)
      #expect(
        Data(writer.bytes) == expected,
        "\(branch.id):\n\(String(decoding: writer.bytes, as: UTF8.self))\n\(String(decoding: expected, as: UTF8.self))")
    }
  }

  @Test func indexRowsAndClosuresAreWrittenAsTheEncoderWritesThem() throws {
    let branches = try Self.awkwardBranches() + Self.sampleBranches()
    for branch in branches {
      var writer = CanonicalJSONWriter()
      let row = IndexFile.Row(branch)
      try writer.indexRow(row)
      #expect(Data(writer.bytes) == (try CanonicalJSON.encode(row)))
    }
    let closures = ClosuresFile(branches: branches, day: RunDay(asOf: Fixtures.asOf, window: Fixtures.window))
    var writer = CanonicalJSONWriter()
    writer.closures(closures)
    #expect(Data(writer.bytes) == (try CanonicalJSON.encode(closures)))
  }

  @Test func currentBranchFilesAreWrittenAsTheEncoderWritesThem() throws {
    for (index, branch) in try (Self.awkwardBranches() + Self.sampleBranches()).enumerated() {
      let file = CurrentBranchFile(
        window: Fixtures.window, listed: index % 2 == 0,
        lastListedIn: index % 2 == 0 ? nil : "2026-11-19-ba9876543210", branch: branch)
      var writer = CanonicalJSONWriter()
      try writer.currentBranch(file)
      #expect(Data(writer.bytes) == (try CanonicalJSON.encode(file)), "\(branch.id)")
    }
  }

  @Test func doublesAndStringsAreWrittenAsTheEncoderWritesThem() throws {
    for value in Self.doubles + [Double.leastNonzeroMagnitude, 1.7976931348623157e308, -1e15 + 1, 0.000123] {
      var writer = CanonicalJSONWriter()
      try writer.double(value)
      #expect(Data(writer.bytes) == (try CanonicalJSON.encode(value)), "\(value)")
    }
    for text in Self.awkwardTexts {
      var writer = CanonicalJSONWriter()
      writer.string(text)
      #expect(Data(writer.bytes) == (try CanonicalJSON.encode(text)), "\(String(describing: text))")
    }
    var writer = CanonicalJSONWriter()
    #expect(throws: (any Error).self) { try writer.double(.nan) }
  }

  @Test func integersAreWrittenAsTheEncoderWritesThem() throws {
    for value in [0, 9, 10, 99, 100, 1_234_567, 20_026, -1, -9, -10, -987_654_321, Int.max, Int.min, Int.min + 1] {
      var writer = CanonicalJSONWriter()
      writer.int(value)
      #expect(Data(writer.bytes) == (try CanonicalJSON.encode(value)), "\(value)")
    }
  }

  @Test(arguments: ["awkward", "sample", "both"])
  func aWholeBundleIsByteForByteTheEncodersBundle(_ set: String) throws {
    let branches: [Branch] =
      switch set {
      case "awkward": Self.awkwardBranches()
      case "sample": try Self.sampleBranches()
      default: try Self.awkwardBranches() + Self.sampleBranches()
      }
    // A brand listed without branches gets an empty file.
    let brands =
      Fixtures.summaries(branches) + [
        BrandSummary(slug: "costco", name: "코스트코", branchCount: 0, freshness: .missing, lastFetchedAsOf: nil)
      ]
    // Removed ids of a brand with branches, of the missing brand, and of a brand the bundle no
    // longer has, given out of order; one with its last listed day unknown.
    let removed = [
      RemovedBranch(id: BranchID(brand: "emart", storeID: "9\"9"), lastListed: CalendarDate(iso: "2026-11-13")),
      RemovedBranch(id: BranchID(brand: "costco", storeID: "Ulsan"), lastListed: nil),
      RemovedBranch(id: BranchID(brand: "old-brand", storeID: "1"), lastListed: CalendarDate(iso: "2026-10-01")),
    ]
    let built = try BundleContents(
      branches: branches, brands: brands, day: RunDay(asOf: Fixtures.asOf, window: Fixtures.window), removed: removed)
    let reference = try BundleContents.encodedByTypes(
      branches: branches, brands: brands, day: RunDay(asOf: Fixtures.asOf, window: Fixtures.window), removed: removed)
    let written = try BundleJSON.decode(
      BranchesFile.self, from: try #require(built.files.first { $0.path == "branches.json" }).data)
    #expect(written.removed.map(\.id.description) == ["costco-Ulsan", "emart-9\"9", "old-brand-1"])
    let costco = try BundleJSON.decode(
      BranchesFile.self, from: try #require(built.files.first { $0.path == "brands/costco.json" }).data)
    #expect(costco.removed == [removed[1]])
    #expect(built.files.map(\.path) == reference.files.map(\.path))
    for (file, expected) in zip(built.files, reference.files) where file.data != expected.data {
      Issue.record("\(file.path) differs")
    }
    #expect(built.manifestData == reference.manifestData)
  }

  @Test func aPublishedBundleOnDiskHasTheSameBytesAsInMemory() throws {
    let branches = try Self.sampleBranches()
    let brands = Fixtures.summaries(branches)
    let (output, pointer) = try Fixtures.publish(branches)
    let contents = try BundleContents(
      branches: branches, brands: brands, day: RunDay(asOf: Fixtures.asOf, window: Fixtures.window))
    #expect(pointer.version == contents.version)
    let directory = output.appendingPathComponent(pointer.bundle)
    for file in contents.files {
      #expect(try Data(contentsOf: directory.appendingPathComponent(file.path)) == file.data, "\(file.path)")
    }
    #expect(try Data(contentsOf: directory.appendingPathComponent("manifest.json")) == contents.manifestData)
  }
}
