import Foundation
import MartCore
import MartDigest
import MartExport
import MartFiles
import Testing

@Suite struct BundleValidatorTests {
  let branches = [
    ExportFixtures.branch(
      .emart, "1059", text: "매월 둘째·넷째 일요일",
      coordinate: Coordinate(latitude: 35.2353, longitude: 128.6810, source: .site, precision: .building)),
    ExportFixtures.branch(.lottemart, "0100161", name: "잠실점", text: "20261108"),
  ]

  func problems(_ url: URL) -> [String] {
    BundleValidator(directory: url).validate().problems.map(\.description)
  }

  @Test func aPublishedBundleIsValidFromTheOutputAndTheBundleDirectory() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    #expect(problems(output) == [])
    #expect(problems(output.appendingPathComponent(pointer.bundle)) == [])
    let summary = try #require(BundleValidator(directory: output).validate().summary)
    #expect(summary.branchCount == 2)
  }

  @Test func brandsAreLearntFromTheBundleItself() throws {
    // Brands the export module has never heard of, one slug the prefix of another, and a store
    // id that reads like another slug's: each id is read through its branch's brand.
    let unusual = [
      ExportFixtures.branch("some-new-brand", "77", name: "새점", text: "매월 둘째·넷째 일요일"),
      ExportFixtures.branch("some-new", "78", name: "다른점", text: "20261108"),
      ExportFixtures.branch("homeplus", "express-0293", name: "가상점", text: "20261108"),
    ]
    let (output, pointer) = try ExportFixtures.publish(unusual)
    #expect(problems(output) == [])
    let bundle = try BundleStore.readBundle(at: output.appendingPathComponent(pointer.bundle))
    #expect(Set(bundle.branches.branches.map(\.id)) == Set(unusual.map(\.id)))
    #expect(bundle.branches.branches.first { $0.id.storeID == "express-0293" }?.brand == "homeplus")
  }

  @Test func aTamperedFileIsNamed() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    let file = output.appendingPathComponent(pointer.bundle + "/closures.json")
    var data = try Data(contentsOf: file)
    data[data.count - 3] = UInt8(ascii: "x")
    try data.write(to: file)
    let found = problems(output)
    #expect(found.first == "\(pointer.bundle)/closures.json: SHA-256 does not match manifest.json")
    // The consequences (no longer JSON, no longer equal to its .gz copy) name the same file.
    #expect(found.allSatisfy { $0.hasPrefix("\(pointer.bundle)/closures.json") })
  }

  /// Rewrites a bundle file and its manifest entry and pointer, as a careless tool would.
  func rewrite(_ relative: String, in output: URL, pointer: LatestPointer, _ edit: (inout String) -> Void) throws {
    let bundle = output.appendingPathComponent(pointer.bundle)
    var text = try String(contentsOf: bundle.appendingPathComponent(relative), encoding: .utf8)
    edit(&text)
    let data = Data(text.utf8)
    try data.write(to: bundle.appendingPathComponent(relative))
    var manifest = try BundleJSON.decode(
      BundleManifest.self, from: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
    let index = try #require(manifest.files.firstIndex { $0.path == relative })
    manifest.files[index].sha256 = SHA256.hex(data)
    manifest.files[index].bytes = data.count
    let manifestData = try BundleJSON.encode(manifest)
    try manifestData.write(to: bundle.appendingPathComponent("manifest.json"))
    var latest = pointer
    latest.manifestSHA256 = SHA256.hex(manifestData)
    try BundleJSON.encode(latest).write(to: output.appendingPathComponent("latest.json"))
  }

  @Test func closuresThatDisagreeWithTheBranchesAreCaughtEvenWithMatchingDigests() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    // 2026-11-08 is the 2nd Sunday of November: both branches close; drop the Lotte Mart one.
    try rewrite("closures.json", in: output, pointer: pointer) {
      $0 = $0.replacingOccurrences(of: #"["emart-1059","lottemart-0100161"]"#, with: #"["emart-1059"]"#)
    }
    let found = problems(output)
    #expect(
      found.contains(
        "\(pointer.bundle)/closures.json: 2026-11-08: lacks lottemart-0100161, which branches.json closes that day"))
    // The copy holds the longer original: inflating stops past the shorter file's size.
    #expect(
      found.contains {
        $0.hasPrefix("\(pointer.bundle)/closures.json.gz: does not decompress to closures.json (decompresses to more than")
      })
  }

  @Test func aShutStoreMustBeClosedEveryShutDay() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    // 잠실점 said to have closed for good, yet closed only on 2026-11-08: it is shut from the
    // as-of date, 2026-11-20, on.
    try rewrite("branches.json", in: output, pointer: pointer) {
      // Branches are sorted by id: the last status is 잠실점's.
      let status = #""storeStatus":{"closesOn":null,"state":"trading""#
      if let last = $0.range(of: status, options: .backwards) {
        $0.replaceSubrange(last, with: #""storeStatus":{"closesOn":null,"state":"closed""#)
      }
    }
    #expect(
      problems(output).contains(
        "\(pointer.bundle)/branches.json: lottemart-0100161: the store is closed but 2026-11-20 is not a closing date"))
  }

  @Test func daysAfterKnownThroughMustBeUnknown() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    // E-mart 1059's rule has no end; say it is known through December only, with January open.
    try rewrite("branches.json", in: output, pointer: pointer) {
      if let first = $0.range(of: #""knownThrough":null"#) {
        $0.replaceSubrange(first, with: #""knownThrough":"2026-12-31""#)
      }
    }
    #expect(
      problems(output).contains(
        "\(pointer.bundle)/branches.json: emart-1059: days after knownThrough 2026-12-31 are not all in unknownRanges"))
  }

  @Test func datesOutsideTheWindowAndCoordinatesOutsideKoreaAreCaught() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    try rewrite("branches.json", in: output, pointer: pointer) {
      $0 = $0.replacingOccurrences(of: #""dates":["2026-11-08"]"#, with: #""dates":["2027-03-01"]"#)
        .replacingOccurrences(of: #""latitude":35.2353"#, with: #""latitude":3.2353"#)
    }
    let found = problems(output)
    #expect(
      found.contains(
        "\(pointer.bundle)/branches.json: lottemart-0100161: closing date 2027-03-01 is outside the window 2026-11-01…2027-01-31"
      ))
    #expect(
      found.contains("\(pointer.bundle)/branches.json: emart-1059: coordinate (3.2353, 128.681) is outside Korea"))
  }

  @Test func missingAndUnlistedFilesAreCaught() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    let bundle = output.appendingPathComponent(pointer.bundle)
    try FileManager.default.removeItem(at: bundle.appendingPathComponent("calendars/branches/emart-1059.ics"))
    try Data("{}".utf8).write(to: bundle.appendingPathComponent("extra.json"))
    #expect(
      problems(output) == [
        "\(pointer.bundle)/calendars/branches/emart-1059.ics: missing",
        "\(pointer.bundle)/extra.json: not listed in manifest.json",
      ])
  }

  @Test func aDirectoryWithoutABundleIsAProblem() throws {
    let empty = try ExportFixtures.temporaryDirectory()
    #expect(problems(empty) == [".: neither an output directory (no latest.json) nor a bundle (no manifest.json)"])
    #expect(problems(empty.appendingPathComponent("missing")) == [".: no such directory"])
    let file = empty.appendingPathComponent("file.json")
    try Data("{}".utf8).write(to: file)
    #expect(problems(file) == [".: is a file, not a directory"])
    #expect(throws: FileError.self) { try BundleStore.readBundle(at: file) }
  }
}
