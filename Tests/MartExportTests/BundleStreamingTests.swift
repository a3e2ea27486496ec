import Foundation
import MartCore
import MartExport
import MartFiles
import TestSupport
import Testing

/// A bundle is streamed to disk file by file. A publish that finds a bundle of its as-of date
/// under `bundles/` first builds digests alone (pass 1) to learn whether its version is already
/// there, and writes only in a second pass; one that finds none streams in one pass. Either way
/// the bundle on disk is, byte for byte, the one `BundleContents` makes in memory.
@Suite struct BundleStreamingTests {
  /// 600 stores of two brands: more than the 256 branches between two stop checks, so a stop
  /// can land while calendars are being written. 2026-11-08 and 2026-11-22 are the second and
  /// fourth Sundays of November 2026 (November 1 is a Sunday); 2026-11-11 is a Wednesday.
  static let branches: [Branch] = (0..<600).map { index in
    let texts = ["20261108, 20261122", "20261111", ""]
    return ExportFixtures.branch(
      index < 400 ? .emart : .lottemart, "\(1000 + index)", name: "\(index)호점", text: texts[index % 3])
  }

  /// The same stores with one closing day moved: another bundle of the same day.
  static var oneBranchChanged: [Branch] {
    var changed = branches
    changed[7] = ExportFixtures.branch(.emart, "1007", name: "7호점", text: "20261122")
    return changed
  }

  static let nextDay = CalendarDate(iso: "2026-11-21")!

  /// Publishes `branches` as of `asOf`, counting the questions to `shouldStop` in `asked`.
  func publish(
    _ branches: [Branch], into output: URL, asOf: CalendarDate = ExportFixtures.asOf, asked: Counter = Counter(),
    shouldStop: @escaping () -> Bool = { false }
  ) throws -> PublishResult {
    try BundleStore(outputDirectory: output).publish(
      branches: branches, brands: ExportFixtures.summaries(branches), day: RunDay(asOf: asOf),
      shouldStop: {
        asked.count += 1
        return shouldStop()
      })
  }

  /// Expects `directory` to hold exactly the files `BundleContents` makes for `branches` as of
  /// `asOf`, manifest included, with the same bytes.
  func expectSameAsInMemory(_ directory: URL, _ branches: [Branch], asOf: CalendarDate) throws {
    let (version, expected) =
      branches == Self.branches && asOf == ExportFixtures.asOf
      ? try Self.branchesInMemory.get() : try Self.inMemory(branches, asOf: asOf)
    let onDisk = PlainFiles.regularFiles(under: directory.path)
    #expect(Set(onDisk) == Set(expected.keys))
    #expect(directory.lastPathComponent == version)
    for (path, data) in expected {
      #expect(PlainFiles.contents(of: directory.appendingPathComponent(path).path) == data, "\(path)")
    }
  }

  /// The version and the files, manifest included, by path, that `BundleContents` makes for
  /// `branches` as of `asOf`.
  static func inMemory(_ branches: [Branch], asOf: CalendarDate) throws -> (version: String, files: [String: Data]) {
    let window = DateWindow.threeMonths(startingAt: asOf)
    let contents = try BundleContents(
      branches: branches, brands: ExportFixtures.summaries(branches), day: RunDay(asOf: asOf, window: window))
    var files = Dictionary(uniqueKeysWithValues: contents.files.map { ($0.path, $0.data) })
    files[OutputLayout.manifestName] = contents.manifestData
    return (contents.version, files)
  }

  /// ``inMemory(_:asOf:)`` of `branches` as of the fixtures' day, which most tests publish: made
  /// once.
  static let branchesInMemory = Result { try inMemory(branches, asOf: ExportFixtures.asOf) }

  /// One publish of `branches` as of the fixtures' day into an output directory of its own,
  /// made once; a test that damages it takes a copy (``copyOfFirstPublish(_:)``).
  static let firstPublish: Result<(output: URL, bundle: PublishedBundle), any Error> = Result {
    let output = try ExportFixtures.temporaryDirectory("stream-first-publish")
    let result = try BundleStore(outputDirectory: output).publish(
      branches: branches, brands: ExportFixtures.summaries(branches), day: RunDay(asOf: ExportFixtures.asOf),
      shouldStop: { false })
    guard let bundle = result.bundle else { throw CopyFailed(description: "the first publish published nothing") }
    return (output, bundle)
  }

  struct CopyFailed: Error, CustomStringConvertible {
    var description: String
  }

  /// A copy (`cp -a`) of ``firstPublish`` in a new folder, and its bundle as published there.
  func copyOfFirstPublish(_ label: String) throws -> (output: URL, bundle: PublishedBundle) {
    let (original, bundle) = try Self.firstPublish.get()
    let output = try ExportFixtures.temporaryDirectory(label).appendingPathComponent("output")
    try ProcessRunner.copyTree(original, to: output)
    var copy = bundle
    copy.directory = URL(fileURLWithPath: output.path + bundle.directory.path.dropFirst(original.path.count))
    return (output, copy)
  }

  /// How many times `shouldStop` was asked (by one publish, on the test's thread).
  final class Counter: @unchecked Sendable {
    var count = 0
  }

  /// Each entry's inode and modification time: what writing or replacing a file changes, and
  /// linking to it (a new name, so a new link count and status-change time) does not.
  func written(_ snapshot: TreeSnapshot) -> [String: [Int64]] {
    snapshot.entries.mapValues { [Int64(bitPattern: $0.inode), $0.modified] }
  }

  @Test func aFirstRunStreamsOnceAndTheRerunOfTheSameDayBuildsTwiceBothWritingWhatBundleContentsMakes() throws {
    // A first run: nothing under bundles/, one pass.
    let first = try ExportFixtures.temporaryDirectory("stream-first")
    let onePass = Counter()
    let firstBundle = try #require(try publish(Self.branches, into: first, asked: onePass).bundle)
    try expectSameAsInMemory(firstBundle.directory, Self.branches, asOf: ExportFixtures.asOf)

    // Another bundle of the same day is there: pass 1 (digests) and pass 2 (writing).
    let rerun = try ExportFixtures.temporaryDirectory("stream-rerun")
    _ = try publish(Self.oneBranchChanged, into: rerun)
    let twoPasses = Counter()
    let rewritten = try #require(try publish(Self.branches, into: rerun, asked: twoPasses).bundle)
    try expectSameAsInMemory(rewritten.directory, Self.branches, asOf: ExportFixtures.asOf)
    #expect(rewritten.pointer == firstBundle.pointer)
    // The builder asks between files; building twice asks more than building once.
    #expect(twoPasses.count > onePass.count, "one pass asked \(onePass.count), two \(twoPasses.count)")
    #expect(BundleValidator(directory: rerun).validate().problems.isEmpty)
  }

  /// A bundle's name begins with its as-of date, so a run of a new day cannot find its version
  /// already written: it builds once, as a first run does, and leaves the day before as it was.
  @Test func aRunOfANewDayStreamsOnceAndLeavesTheDayBeforeAsItWas() throws {
    let output = try ExportFixtures.temporaryDirectory("stream-next-day")
    let firstRun = Counter()
    let before = try #require(try publish(Self.branches, into: output, asked: firstRun).bundle)
    let snapshot = try TreeSnapshot(before.directory)

    let nextDay = Counter()
    let after = try #require(try publish(Self.branches, into: output, asOf: Self.nextDay, asked: nextDay).bundle)
    #expect(after.pointer.version.hasPrefix("2026-11-21-"))
    #expect(nextDay.count == firstRun.count, "a first run asked \(firstRun.count), the next day \(nextDay.count)")
    try expectSameAsInMemory(after.directory, Self.branches, asOf: Self.nextDay)
    #expect(written(try TreeSnapshot(before.directory)) == written(snapshot))
    #expect(try BundleStore(outputDirectory: output).latest()?.pointer == after.pointer)
  }

  /// The version `latest.json` no longer names is still under `bundles/`: publishing its data
  /// again points at it and writes nothing in `bundles/` (only `latest.json` changes).
  @Test func republishingAnEarlierBundleOfTheDayWritesNothingInBundles() throws {
    let output = try ExportFixtures.temporaryDirectory("stream-earlier")
    let earlier = try #require(try publish(Self.branches, into: output).pointer)
    let later = try #require(try publish(Self.oneBranchChanged, into: output).pointer)
    #expect(later != earlier)
    let bundles = output.appendingPathComponent(OutputLayout.bundlesName)
    let before = try TreeSnapshot(bundles)

    guard case .published(let bundle, let latestChanged, let repaired) = try publish(Self.branches, into: output) else {
      Issue.record("not published")
      return
    }
    #expect(bundle.pointer == earlier)
    #expect(latestChanged)
    #expect(repaired == nil)
    let after = try TreeSnapshot(bundles)
    #expect(after == before, "changed: \(after.differences(from: before))")
    #expect(try BundleStore(outputDirectory: output).latest()?.pointer == earlier)
  }

  /// A place where a published file is damaged without changing its size, named in the test
  /// log.
  struct Damage: Sendable, CustomTestStringConvertible {
    var file: String
    var testDescription: String { file }
  }

  /// One byte changed, the size kept: only the SHA-256 tells the copy from the bundle it should
  /// be. The run finds it, sets the copy aside and writes the bundle again.
  @Test(arguments: [
    Damage(file: "calendars/branches/emart-1003.ics"), Damage(file: "brands/lottemart.json.gz"),
    Damage(file: "index.json"),
  ])
  func aDamagedCopyOfTheSameSizeIsFoundByItsDigestAndWrittenAgain(_ damage: Damage) throws {
    // A first publish of the stores (a copy of the one the cases share).
    let (output, first) = try copyOfFirstPublish("stream-damaged")
    let url = first.directory.appendingPathComponent(damage.file)
    var data = try Data(contentsOf: url)
    data[data.count / 2] ^= 0x20
    try data.write(to: url)
    #expect(try Data(contentsOf: url).count == first.manifest.files.first { $0.path == damage.file }?.bytes)

    guard case .published(let bundle, _, let repaired) = try publish(Self.branches, into: output) else {
      Issue.record("not published")
      return
    }
    #expect(bundle.pointer == first.pointer)
    #expect(repaired?.location.hasSuffix(damage.file) == true, "repaired: \(String(describing: repaired))")
    #expect(repaired?.message.contains("SHA-256") == true, "repaired: \(String(describing: repaired))")
    try expectSameAsInMemory(bundle.directory, Self.branches, asOf: ExportFixtures.asOf)
    #expect(try BundleStore(outputDirectory: output).latest()?.pointer == first.pointer)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("bundles").path) == [
        first.pointer.version
      ])
  }

  /// Whether a stop lands in the only pass or in the second.
  struct StopCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var sameDayBundleFirst: Bool
  }

  /// Asked to stop while the staging directory is being filled, the publish stops before the
  /// bundle is complete, removes the staging directory and leaves what was published as it was.
  @Test(arguments: [
    StopCase(testDescription: "the only pass of a first run", sameDayBundleFirst: false),
    StopCase(testDescription: "the second pass of a rerun", sameDayBundleFirst: true),
  ])
  func aStopWhileStreamingLeavesNothing(_ stop: StopCase) throws {
    let output = try ExportFixtures.temporaryDirectory("stream-stop")
    if stop.sameDayBundleFirst { _ = try publish(Self.oneBranchChanged, into: output) }
    let bundles = output.appendingPathComponent(OutputLayout.bundlesName)
    let before = try TreeSnapshot(output)
    let total = try BundleContents(
      branches: Self.branches, brands: ExportFixtures.summaries(Self.branches), day: ExportFixtures.day
    ).files.count

    // Stop once the staging directory holds files; say how many it held then.
    var stagedWhenStopped: Int?
    let result = try publish(Self.branches, into: output) {
      if stagedWhenStopped != nil { return true }
      let staged = PlainFiles.entries(under: bundles.path).filter { $0.path.hasPrefix(".staging-") }.count
      guard staged > 0 else { return false }
      stagedWhenStopped = staged
      return true
    }
    guard case .stopped = result else {
      Issue.record("published although asked to stop: \(result)")
      return
    }
    let staged = try #require(stagedWhenStopped)
    #expect(staged < total, "stopped with \(staged) of \(total) files staged")
    let after = try TreeSnapshot(output)
    if stop.sameDayBundleFirst {
      // No staging directory is left, and no file was written or replaced (the staged links
      // to the published files are gone with it).
      var expected = written(before)
      var found = written(after)
      expected["bundles"] = nil
      found["bundles"] = nil
      #expect(found == expected)
    } else {
      #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("latest.json").path))
      #expect(try FileManager.default.contentsOfDirectory(atPath: bundles.path).isEmpty)
    }
  }
}
