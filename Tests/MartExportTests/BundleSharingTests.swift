import Foundation
import MartCore
import MartExport
import MartFiles
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A publish whose bundle is already current writes nothing at all, and a new bundle shares
/// (hard-links) every file whose bytes the bundle before it already has, falling back to
/// writing where the filesystem refuses the link.
@Suite struct BundleSharingTests {
  // Three stores, two brands. 2026-11-08 and 2026-11-22 are the second and fourth Sundays of
  // November 2026 (November 1 is a Sunday).
  let branches = [
    ExportFixtures.branch("1000", text: "20261108, 20261122"),
    ExportFixtures.branch("1059", text: "20261108"),
    ExportFixtures.branch(.lottemart, "301", text: "20261122"),
  ]

  /// The same stores with only emart-1059's closing day moved to 2026-11-22.
  var oneBranchChanged: [Branch] {
    var changed = branches
    changed[1] = ExportFixtures.branch("1059", text: "20261122")
    return changed
  }

  func publish(_ branches: [Branch], into output: URL) throws -> PublishResult {
    try BundleStore(outputDirectory: output).publish(
      branches: branches, brands: ExportFixtures.summaries(branches), day: ExportFixtures.day)
  }

  /// The files of a bundle, relative to it.
  func files(_ bundle: URL) -> [String] { PlainFiles.regularFiles(under: bundle.path).sorted() }

  @Test func publishingTheCurrentBundleAgainTouchesNothing() throws {
    let (output, first) = try ExportFixtures.publish(branches, label: "unchanged")
    let before = try TreeSnapshot(output)
    let again = try publish(branches.reversed(), into: output)
    #expect(again.pointer == first)
    #expect(again.bundle?.files == BundleFileCounts(written: 0, linked: 0))
    let after = try TreeSnapshot(output)
    #expect(after == before, "changed: \(after.differences(from: before))")
    #expect(after.inodeCount == before.inodeCount)
  }

  @Test func aNewBundleLinksEveryFileWhoseBytesAreUnchanged() throws {
    let (output, first) = try ExportFixtures.publish(branches, label: "shared")
    let old = output.appendingPathComponent(first.bundle)
    let before = try TreeSnapshot(output)
    let published = try #require(try publish(oneBranchChanged, into: output).bundle)
    let second = published.pointer
    #expect(second != first)
    let new = output.appendingPathComponent(second.bundle)
    #expect(files(new) == files(old))

    // Which files differ is read from the two bundles' bytes, not from the code that wrote them.
    var differing: Set<String> = []
    for path in files(new) {
      let oldBytes = try Data(contentsOf: old.appendingPathComponent(path))
      if try Data(contentsOf: new.appendingPathComponent(path)) != oldBytes { differing.insert(path) }
    }
    #expect(differing.contains("calendars/branches/emart-1059.ics"))
    #expect(differing.contains("manifest.json"))
    #expect(!differing.contains("calendars/branches/emart-1000.ics"))
    #expect(!differing.contains("calendars/branches/lottemart-301.ics"))
    #expect(!differing.contains("calendars/brands/lottemart.ics"))
    #expect(!differing.contains("brands/lottemart.json"))

    // Exactly those are new files; every other one is a second name of the old bundle's file.
    let created = try TreeSnapshot(output).newFiles(since: before)
    #expect(created == Set(differing.map { "\(second.bundle)/\($0)" }).union(["latest.json"]))
    // The publish counts them so.
    #expect(published.files == BundleFileCounts(written: differing.count, linked: files(new).count - differing.count))
    let snapshot = try TreeSnapshot(output)
    for path in files(new) where !differing.contains(path) {
      let shared = snapshot.entries["\(second.bundle)/\(path)"]
      #expect(shared?.inode == snapshot.entries["\(first.bundle)/\(path)"]?.inode, "\(path)")
      #expect(shared?.links == 2, "\(path)")
    }
    // The old bundle is as it was.
    for path in files(old) {
      #expect(snapshot.entries["\(first.bundle)/\(path)"]?.modified == before.entries["\(first.bundle)/\(path)"]?.modified)
    }
    #expect(BundleValidator(directory: output).validate().problems.isEmpty)
  }

  /// Removing the old bundle removes its names only: the new bundle keeps every file it
  /// shared and still verifies.
  @Test func pruningTheOldBundleLeavesTheNewOneWhole() throws {
    let (output, first) = try ExportFixtures.publish(branches, label: "prune-shared")
    let second = try #require(try publish(oneBranchChanged, into: output).pointer)
    let layout = OutputLayout(output)
    #expect(layout.pruneBundles(keep: 1) == [first.bundle])
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(first.bundle).path))
    let latest = try #require(try BundleStore(outputDirectory: output).latest())
    #expect(latest.pointer == second)
    let snapshot = try TreeSnapshot(output)
    #expect(snapshot.entries.filter { $0.value.isRegularFile }.allSatisfy { $0.value.links == 1 })
    #expect(BundleValidator(directory: output).validate().problems.isEmpty)
  }

  /// A file whose link the filesystem refuses is written instead. An immutable file (`chattr
  /// +i`, root on ext4) refuses links with `EPERM`.
  @Test(.enabled(if: Immutable.isAvailable, "chattr +i needs root on a filesystem that has it"))
  func filesThatCannotBeLinkedAreWritten() throws {
    // On the temporary directory's disk, where `isAvailable` tried chattr (tmpfs has no
    // immutable files).
    let (output, first) = try ExportFixtures.publish(
      branches, label: "unlinkable", in: FileManager.default.temporaryDirectory)
    let old = output.appendingPathComponent(first.bundle)
    try Immutable.set(true, old)
    defer { Immutable.clear(old) }
    let probe = output.appendingPathComponent("probe").path
    #expect(link(old.appendingPathComponent("branches.json").path, probe) == -1 && errno == EPERM)

    let result = try #require(try publish(oneBranchChanged, into: output).bundle)
    let second = result.pointer
    let new = output.appendingPathComponent(second.bundle)
    let snapshot = try TreeSnapshot(new)
    #expect(snapshot.entries.filter { $0.value.isRegularFile }.allSatisfy { $0.value.links == 1 })
    #expect(result.files == BundleFileCounts(written: files(new).count, linked: 0))
    #expect(try BundleStore(outputDirectory: output).latest()?.pointer == second)
    for path in files(new) where path != "manifest.json" {
      let bytes = try Data(contentsOf: new.appendingPathComponent(path))
      if path != "calendars/branches/emart-1059.ics", path.hasPrefix("calendars/branches/") {
        #expect(bytes == (try Data(contentsOf: old.appendingPathComponent(path))), "\(path)")
      }
    }
    #expect(BundleValidator(directory: output).validate().problems.isEmpty)
  }
}

/// `chattr +i`: a file no one may change, rename, remove or link to, root included.
enum Immutable {
  static let chattr = URL(fileURLWithPath: "/usr/bin/chattr")

  static func set(_ immutable: Bool, _ folder: URL) throws {
    let outcome = try ProcessRunner.run(chattr, ["-R", immutable ? "+i" : "-i", folder.path])
    try #require(outcome.status == 0, "chattr: \(outcome.stderrText)")
  }

  /// Makes `folder` and what it holds changeable again (so it can be removed), recording a
  /// failure.
  static func clear(_ folder: URL) {
    do { try set(false, folder) } catch { Issue.record("chattr -i \(folder.path): \(error)") }
  }

  /// Whether a file in the temporary directory can be made immutable here, found by trying.
  static let isAvailable: Bool = {
    guard FileManager.default.isExecutableFile(atPath: chattr.path) else { return false }
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent("immutable-probe-\(UUID().uuidString)")
    guard FileManager.default.createFile(atPath: probe.path, contents: Data("x".utf8)) else { return false }
    defer { unlink(probe.path) }
    do {
      guard try ProcessRunner.run(chattr, ["+i", probe.path]).status == 0 else { return false }
      return try ProcessRunner.run(chattr, ["-i", probe.path]).status == 0
    } catch {
      return false
    }
  }()
}
