import Foundation
import MartCore
import MartDigest
import MartExport
import MartFiles
import TestSupport
import Testing

@Suite struct BundleStoreTests {
  let asOf = CalendarDate(iso: "2026-11-20")!
  var window: DateWindow { .threeMonths(startingAt: asOf) }

  func temporaryDirectory() throws -> URL {
    let url = Scratch.directory.appendingPathComponent("bundle-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  func branch(_ storeID: String, text: String) -> Branch {
    Branch(
      id: BranchID(brand: .emart, storeID: storeID), name: "창원점",
      address: BranchAddress(published: "경상남도 창원시 의창구 원이대로 430"),
      phone: "055-211-1234", phonePublished: "055-211-1234", openingHours: "10:00 ~ 23:00",
      coordinate: nil,
      closing: BranchClosing(schedule: .parse(text, asOf: asOf), window: window),
      sourceURL: "https://store.emart.com/branch/searchList.do")
  }

  var summaries: [BrandSummary] {
    [BrandSummary(slug: .emart, name: "이마트", branchCount: 2, freshness: .fresh, lastFetchedAsOf: asOf)]
  }

  @Test func publishesAVerifiableBundleAndReadsItBack() throws {
    let output = try temporaryDirectory()
    let store = BundleStore(outputDirectory: output)
    #expect(try store.latest() == nil)

    let pointer = try store.publish(
      branches: [branch("1059", text: "20261108, 20261122"), branch("1000", text: "")],
      brands: summaries, day: RunDay(asOf: asOf, window: window)
    ).pointer!
    #expect(pointer.bundle == "bundles/\(pointer.version)")
    #expect(pointer.version.hasPrefix("2026-11-20-"))

    let latest = try #require(try store.latest())
    #expect(latest.pointer == pointer)
    // Sorted by id, dates expanded for the window.
    #expect(latest.branches.branches.map(\.id.description) == ["emart-1000", "emart-1059"])
    #expect(latest.branches.branches[1].closing.dates.map(\.iso) == ["2026-11-08", "2026-11-22"])
    #expect(latest.branches.branches[0].closing.status == .unknown)
    #expect(
      latest.manifest.files.map(\.path) == [
        "branches.json", "branches.json.gz", "brands/emart.json", "brands/emart.json.gz",
        "calendars/branches/emart-1000.ics", "calendars/branches/emart-1059.ics", "calendars/brands/emart.ics",
        "closures.json", "closures.json.gz", "districts.json", "districts.json.gz", "index.json", "index.json.gz",
      ])
  }

  @Test func sameContentGivesTheSameVersionAndBytes() throws {
    let first = try temporaryDirectory()
    let second = try temporaryDirectory()
    let branches = [branch("1059", text: "20261108"), branch("1000", text: "20261122")]
    let a = try BundleStore(outputDirectory: first).publish(
      branches: branches, brands: summaries, day: RunDay(asOf: asOf, window: window)
    ).pointer!
    let b = try BundleStore(outputDirectory: second).publish(
      branches: branches.reversed(), brands: summaries, day: RunDay(asOf: asOf, window: window)
    ).pointer!
    #expect(a == b)
    let bytesA = try Data(contentsOf: first.appendingPathComponent(a.bundle + "/branches.json"))
    let bytesB = try Data(contentsOf: second.appendingPathComponent(b.bundle + "/branches.json"))
    #expect(bytesA == bytesB)
    // Korean text is stored as UTF-8, not escaped; slashes are not escaped.
    let text = try #require(String(data: bytesA, encoding: .utf8))
    #expect(text.contains("창원점"))
    #expect(text.contains("https://store.emart.com/branch"))
  }

  @Test func refusesAnEmptyDatasetAndKeepsTheLastOne() throws {
    let output = try temporaryDirectory()
    let store = BundleStore(outputDirectory: output)
    let pointer = try store.publish(
      branches: [branch("1059", text: "20261108")], brands: summaries, day: RunDay(asOf: asOf, window: window)
    ).pointer!
    #expect(throws: FileError.self) {
      try store.publish(branches: [], brands: [], day: RunDay(asOf: asOf, window: window))
    }
    #expect(try store.latest()?.pointer == pointer)
  }

  @Test func detectsATamperedBundle() throws {
    let output = try temporaryDirectory()
    let store = BundleStore(outputDirectory: output)
    let pointer = try store.publish(
      branches: [branch("1059", text: "20261108")], brands: summaries, day: RunDay(asOf: asOf, window: window)
    ).pointer!
    let file = output.appendingPathComponent(pointer.bundle + "/branches.json")
    var data = try Data(contentsOf: file)
    data.append(contentsOf: Array(" ".utf8))
    try data.write(to: file)
    #expect(throws: FileError.self) { try store.latest() }
  }

  @Test func aNewVersionLeavesTheOldBundleInPlace() throws {
    let output = try temporaryDirectory()
    let store = BundleStore(outputDirectory: output)
    let old = try store.publish(
      branches: [branch("1059", text: "20261108")], brands: summaries, day: RunDay(asOf: asOf, window: window)
    ).pointer!
    let new = try store.publish(
      branches: [branch("1059", text: "20261122")], brands: summaries, day: RunDay(asOf: asOf, window: window)
    ).pointer!
    #expect(old.version != new.version)
    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(old.bundle).path))
    #expect(try store.latest()?.pointer == new)
  }
}

@Suite struct SHA256Tests {
  /// An input and its digest, named in the test log by the input.
  struct Known: CustomTestStringConvertible, Sendable {
    var input: String
    var digest: String
    var testDescription: String { input.debugDescription }
  }

  @Test(arguments: [
    Known(input: "", digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    Known(input: "abc", digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
  ])
  func knownDigests(_ example: Known) {
    #expect(SHA256.hex(Data(example.input.utf8)) == example.digest)
  }
}

@Suite struct BundleStoreRerunTests {
  let branches = [ExportFixtures.branch("1059", text: "20261108")]

  @Test func aRunWithUnchangedContentChangesNothingOnDisk() throws {
    let (output, first) = try ExportFixtures.publish(branches)
    let latest = output.appendingPathComponent("latest.json")
    let before = try FileManager.default.attributesOfItem(atPath: latest.path)
    let second = try BundleStore(outputDirectory: output).publish(
      branches: branches, brands: ExportFixtures.summaries(branches), day: ExportFixtures.day
    ).pointer!
    #expect(second == first)
    let after = try FileManager.default.attributesOfItem(atPath: latest.path)
    // Not rewritten: a replaced file would have a new inode.
    #expect(before[.systemFileNumber] as? UInt64 == after[.systemFileNumber] as? UInt64)
    #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("bundles").path) == [
        first.version
      ])
  }

  @Test func leftoversOfAKilledRunAreReportedThenRemoved() throws {
    let (output, first) = try ExportFixtures.publish(branches)
    // A process that has exited stands in for a run killed between two writes.
    let pid = try ProcessRunner.exitedProcessIdentifier()
    let staging = output.appendingPathComponent("bundles/.staging-2026-11-20-000000000000-\(pid)")
    try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
    try Data(#"{"schemaVersion":1,"branc"#.utf8).write(to: staging.appendingPathComponent("branches.json"))
    let halfPointer = output.appendingPathComponent(".latest.json.\(pid)")
    try Data(#"{"bundle":"bundles/.staging"#.utf8).write(to: halfPointer)

    let store = BundleStore(outputDirectory: output)
    #expect(try store.latest()?.pointer == first)
    // Readers ignore them; validate names each, since no run removed them yet.
    let leftover = "left by an interrupted run (a hidden temporary name); the next run removes it"
    #expect(
      BundleValidator(directory: output).validate().problems.map(\.description) == [
        ".latest.json.\(pid): \(leftover)", "bundles/.staging-2026-11-20-000000000000-\(pid): \(leftover)",
      ])

    let next = try store.publish(
      branches: [ExportFixtures.branch("1059", text: "20261122")], brands: ExportFixtures.summaries(branches),
      day: ExportFixtures.day
    ).pointer!
    #expect(next != first)
    #expect(!FileManager.default.fileExists(atPath: staging.path))
    #expect(!FileManager.default.fileExists(atPath: halfPointer.path))
    #expect(BundleValidator(directory: output).validate().problems.isEmpty)
  }
}

/// A bundle on disk that no longer matches what it should hold is never pointed at again, and a
/// publish asked to stop leaves the previous bundle current.
@Suite struct BundleStoreDamageAndStopTests {
  let branches = [ExportFixtures.branch("1059", text: "20261108"), ExportFixtures.branch("1000", text: "20261122")]

  func publishAgain(_ output: URL, shouldStop: () -> Bool = { false }) throws -> PublishResult {
    try BundleStore(outputDirectory: output).publish(
      branches: branches, brands: ExportFixtures.summaries(branches), day: ExportFixtures.day, shouldStop: shouldStop)
  }

  /// A way to damage a published bundle, named in the test log.
  struct Damage: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var file: String
    var apply: @Sendable (URL) throws -> Void
  }

  static let damages: [Damage] = [
    Damage(testDescription: "garbage manifest", file: "manifest.json") { try Data("garbage".utf8).write(to: $0) },
    Damage(testDescription: "a flipped byte", file: "branches.json") { url in
      var data = try Data(contentsOf: url)
      data[data.count / 2] ^= 0x01
      try data.write(to: url)
    },
    Damage(testDescription: "truncated", file: "branches.json") { url in
      try Data(contentsOf: url).prefix(10).write(to: url)
    },
    Damage(testDescription: "deleted", file: "branches.json") { try FileManager.default.removeItem(at: $0) },
    Damage(testDescription: "a calendar deleted", file: "calendars/branches/emart-1000.ics") {
      try FileManager.default.removeItem(at: $0)
    },
  ]

  @Test(arguments: damages)
  func aDamagedCurrentBundleIsWrittenAgainNotRepublished(_ damage: Damage) throws {
    let (output, first) = try ExportFixtures.publish(branches)
    try damage.apply(output.appendingPathComponent("\(first.bundle)/\(damage.file)"))
    #expect(throws: FileError.self) { try BundleStore(outputDirectory: output).latest() }

    let result = try publishAgain(output)
    guard case .published(let bundle, _, let repaired) = result else {
      Issue.record("not published: \(result)")
      return
    }
    #expect(bundle.pointer == first)
    #expect(repaired?.location.hasSuffix(damage.file) == true, "repaired: \(String(describing: repaired))")
    #expect(try BundleStore(outputDirectory: output).latest()?.pointer == first)
    #expect(BundleValidator(directory: output).validate().problems.isEmpty)
    let entries = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("bundles").path)
    #expect(entries == [first.version], "the damaged copy is gone, nothing else is left")
  }

  @Test func anIntactBundleIsReusedAsItIs() throws {
    let (output, first) = try ExportFixtures.publish(branches)
    guard case .published(let bundle, let latestChanged, let repaired) = try publishAgain(output) else {
      Issue.record("not published")
      return
    }
    #expect(bundle.pointer == first)
    #expect(!latestChanged)
    #expect(repaired == nil)
  }

  /// What `publish` hands back in memory (for `current/` and the report) is what a reader of
  /// the disk finds, for a bundle written anew and for one reused.
  @Test func thePublishedBundleInMemoryIsTheOneOnDisk() throws {
    let output = try ExportFixtures.temporaryDirectory("in-memory")
    for _ in 0..<2 {
      let result = try BundleStore(outputDirectory: output).publish(
        branches: branches.reversed(), brands: ExportFixtures.summaries(branches), day: ExportFixtures.day)
      let inMemory = try #require(result.bundle)
      let onDisk = try #require(try BundleStore(outputDirectory: output).latest())
      #expect(inMemory.pointer == onDisk.pointer)
      #expect(inMemory.manifest == onDisk.manifest)
      #expect(inMemory.branches == onDisk.branches)
      #expect(inMemory.directory.standardizedFileURL.path == onDisk.directory.standardizedFileURL.path)
    }
  }

  @Test func stoppingWhileTheStagingFolderIsWrittenPublishesNothing() throws {
    let (output, first) = try ExportFixtures.publish([ExportFixtures.branch("1059", text: "20261101")])
    let latestBefore = try Data(contentsOf: output.appendingPathComponent("latest.json"))
    let bundles = output.appendingPathComponent("bundles")
    // Stop as soon as the staging folder holds a file: the stage a signal reaches mid-publish.
    var sawStaging = false
    let result = try publishAgain(output) {
      let staging = (try? FileManager.default.contentsOfDirectory(atPath: bundles.path))?
        .first { $0.hasPrefix(".staging-") }
      if let staging,
        !((try? FileManager.default.contentsOfDirectory(atPath: bundles.appendingPathComponent(staging).path))?
          .isEmpty ?? true)
      {
        sawStaging = true
      }
      return sawStaging
    }
    #expect(sawStaging)
    guard case .stopped = result else {
      Issue.record("published although asked to stop: \(result)")
      return
    }
    #expect(try Data(contentsOf: output.appendingPathComponent("latest.json")) == latestBefore)
    #expect(try FileManager.default.contentsOfDirectory(atPath: bundles.path) == [first.version])
  }

  @Test func stoppingJustBeforeThePointerSwitchPublishesNothing() throws {
    let (output, first) = try ExportFixtures.publish([ExportFixtures.branch("1059", text: "20261101")])
    let latestBefore = try Data(contentsOf: output.appendingPathComponent("latest.json"))
    let bundles = output.appendingPathComponent("bundles")
    // The answer turns once the new bundle folder has its final name.
    let result = try publishAgain(output) {
      (try? FileManager.default.contentsOfDirectory(atPath: bundles.path))?.count == 2
    }
    guard case .stopped = result else {
      Issue.record("published although asked to stop: \(result)")
      return
    }
    #expect(try Data(contentsOf: output.appendingPathComponent("latest.json")) == latestBefore)
    #expect(try FileManager.default.contentsOfDirectory(atPath: bundles.path) == [first.version])
  }
}
