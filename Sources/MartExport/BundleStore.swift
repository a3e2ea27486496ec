import Foundation
import MartCore
import MartDigest
import MartFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An export failed: what, and where on disk.

/// A published bundle: as read back from disk (and verified), or as just written.
public struct PublishedBundle: Sendable {
  public var pointer: LatestPointer
  public var manifest: BundleManifest
  public var branches: BranchesFile
  /// The bundle directory.
  public var directory: URL
  /// Its `closures.json` when the publish that returned it made it in memory; `nil` for a
  /// bundle read from disk (``ClosuresFile/init(branches:window:asOf:)`` makes it again).
  public var closures: ClosuresFile? = nil
  /// How the publish that returned this bundle put its files on disk: how many it wrote and
  /// how many are hard links of the previous bundle's (none of either when the bundle was
  /// already there). `nil` for a bundle read from disk.
  public var files: BundleFileCounts? = nil
  /// Each branch's JSON as the publish that returned this bundle wrote it, in the order of
  /// `branches.branches`; `nil` for a bundle read from disk or found already there.
  var encodedBranches: EncodedBranches? = nil

  /// Its `districts.json`, when it has one that can be read (bundles made before it existed
  /// have none).
  public func districtsFile() -> DistrictsFile? {
    guard let data = PlainFiles.contents(of: directory.appendingPathComponent(DistrictsFileKind.name).path) else {
      return nil
    }
    return try? BundleJSON.decode(DistrictsFile.self, from: data, brands: manifest.brands.map(\.slug))
  }
}

/// How many files a publish created with new bytes and how many it made hard links of the
/// previous bundle's files (``BundleStore/publish(branches:brands:day:removed:districts:shouldStop:)``):
/// `report.json`'s `change.files` and the run's summary line. A file the filesystem would not
/// link is written, and counted so.
public struct BundleFileCounts: Codable, Hashable, Sendable {
  /// Files written with new bytes, `manifest.json` included.
  public var written: Int
  /// Files that are a second name (a hard link) of the previous bundle's file with the same bytes.
  public var linked: Int

  public init(written: Int = 0, linked: Int = 0) {
    self.written = written
    self.linked = linked
  }
}

/// What ``BundleStore/publish(branches:brands:day:removed:districts:shouldStop:)`` did.
public enum PublishResult: Sendable {
  /// `latest.json` names `bundle`, given as it was written (no need to read it back).
  /// `latestChanged` is `false` when it already did; `repaired` says what was wrong with a
  /// copy of this bundle that was found damaged on disk and written again.
  case published(PublishedBundle, latestChanged: Bool, repaired: FileError?)
  /// Asked to stop before `latest.json` was replaced: nothing new became current.
  case stopped

  /// The pointer now in `latest.json`, when published.
  public var pointer: LatestPointer? {
    bundle?.pointer
  }

  /// The bundle `latest.json` now names, when published.
  public var bundle: PublishedBundle? {
    if case .published(let bundle, _, _) = self { bundle } else { nil }
  }
}

/// Writes versioned bundles under an output directory and moves `latest.json` to them
/// atomically, so readers always see either the previous complete bundle or the new one.
///
/// Layout:
/// ```
/// output/latest.json
/// output/bundles/<version>/manifest.json
/// output/bundles/<version>/branches.json, index.json, closures.json, brands/, calendars/, *.gz
/// ```
/// (see `BundleContents` for the full list).
/// The version is `<as-of>-<first 12 hex digits of the content's SHA-256>`: the same data
/// always gives the same version and the same bytes.
public struct BundleStore: Sendable {
  public let outputDirectory: URL

  public init(outputDirectory: URL) {
    self.outputDirectory = outputDirectory
  }

  var layout: OutputLayout { OutputLayout(outputDirectory) }
  var latestURL: URL { layout.latest }
  var bundlesURL: URL { layout.bundles }

  /// Reads and verifies the bundle `latest.json` points to; `nil` when there is none yet.
  /// Throws when a bundle is referenced but missing or does not match its manifest.
  public func latest() throws(FileError) -> PublishedBundle? {
    guard let pointer = try layout.readLatest() else { return nil }
    guard let directory = BundleDirectory.confinedURL(pointer.bundle, in: outputDirectory) else {
      throw FileError(
        .foreign,
        path: layout.latest.path, message: "bundle \"\(pointer.bundle)\" leads outside \(outputDirectory.path)")
    }
    return try Self.read(directory: directory, pointer: pointer)
  }

  /// The newest bundle under `bundles/` (``OutputLayout/keptBundles()``) that reads and
  /// verifies, but `excluded`: what stands in for the bundle `latest.json` should name when it
  /// is missing, unreadable, or names a bundle that is gone or damaged. `nil` when none does.
  public func newestIntactBundle(excluding excluded: String? = nil) -> PublishedBundle? {
    for name in layout.keptBundles() where name != excluded {
      if let bundle = try? Self.readBundle(at: layout.bundles.appendingPathComponent(name)) { return bundle }
    }
    return nil
  }

  /// Reads and verifies a published bundle, given either an output directory (the bundle
  /// `latest.json` names) or a bundle directory (the one holding `manifest.json`).
  public static func readBundle(at directory: URL) throws(FileError) -> PublishedBundle {
    let store = BundleStore(outputDirectory: directory)
    switch BundleDirectory(directory) {
    case .unusable(let problem):
      throw FileError(.foreign, path: directory.path, message: problem)
    case .output:
      guard let bundle = try store.latest() else {
        throw FileError(.read, path: store.latestURL.path, message: "cannot read")
      }
      return bundle
    case .bundle:
      break
    }
    let manifestURL = directory.appendingPathComponent(OutputLayout.manifestName)
    let manifestData = try store.read(manifestURL)
    let manifest = try store.decode(BundleManifest.self, data: manifestData, at: manifestURL)
    let pointer = LatestPointer(
      schemaVersion: manifest.schemaVersion, version: manifest.version,
      bundle: OutputLayout.bundlePath(version: directory.lastPathComponent), asOf: manifest.asOf,
      manifestSHA256: SHA256.hex(manifestData))
    return try read(directory: directory, pointer: pointer)
  }

  private static func read(directory: URL, pointer: LatestPointer) throws(FileError) -> PublishedBundle {
    let store = BundleStore(outputDirectory: directory)
    let resolved = Files.ResolvedFolder(directory.path)
    guard let manifestURL = BundleDirectory.confinedURL(OutputLayout.manifestName, in: directory, resolved: resolved)
    else {
      throw FileError(.foreign, path: directory.path, message: "manifest.json leads outside the bundle")
    }
    let manifestData = try store.read(manifestURL)
    guard SHA256.hex(manifestData) == pointer.manifestSHA256 else {
      throw FileError(.mismatch, path: manifestURL.path, message: "SHA-256 does not match latest.json")
    }
    let manifest = try store.decode(BundleManifest.self, data: manifestData, at: manifestURL)
    for file in manifest.files {
      guard let url = BundleDirectory.confinedURL(file.path, in: directory, resolved: resolved) else {
        throw FileError(.foreign, path: manifestURL.path, message: "file \"\(file.path)\" leads outside the bundle")
      }
      let data = try store.read(url)
      guard data.count == file.bytes, SHA256.hex(data) == file.sha256 else {
        throw FileError(.mismatch, path: url.path, message: "size or SHA-256 does not match manifest.json")
      }
    }
    let branches = try store.decode(BranchesFile.self, at: directory.appendingPathComponent(BranchesFileKind.name))
    return PublishedBundle(pointer: pointer, manifest: manifest, branches: branches, directory: directory)
  }

  /// Writes a bundle and points `latest.json` at it.
  ///
  /// Refuses an empty dataset. `brands` may list brands without branches (missing); `removed`
  /// are the ids the sources stopped listing (``RemovedBranch/following(_:freshBrands:listed:)``).
  ///
  /// When a bundle of the same as-of date is already under `bundles/`, this one may be too, so
  /// it is first built keeping only each file's size and SHA-256 (pass 1), which gives its
  /// manifest and version before anything is written. When its directory already holds exactly
  /// that bundle (the manifest's bytes, every listed file with its size and SHA-256, nothing
  /// else), nothing is written at all: a run whose content did not change creates, replaces and
  /// touches no file, whether `latest.json` names that version or not. A damaged copy is set
  /// aside and written again. Otherwise the bundle is built a second time, streamed to disk
  /// (pass 2), and must come out with the digests of the first. When no bundle of that date is
  /// there (a first run, or the first run of a day), the version cannot exist yet, and the one
  /// pass that streams to disk is the only one.
  ///
  /// A new bundle is streamed into a hidden staging directory, each file as soon as it is
  /// finished: a file whose bytes equal the same file of the bundle `latest.json` names is a
  /// hard link to it (``Files/create(_:with:linkingTo:)``: bundles share unchanged files, and a
  /// file that cannot be linked is written), every other file is written new. Memory holds the
  /// files still being made (`branches.json` the largest) and their gzip copies, never the
  /// whole bundle. The staging directory is flushed to disk with one barrier, renamed into
  /// place, and only then is `latest.json` replaced (write, flush, rename), so a crash at any
  /// moment leaves the previous bundle published. No bundle file is ever written in place, so a
  /// file shared with another bundle never changes under it, and pruning a bundle removes only
  /// its names. Leftovers of killed runs under `bundles/` are removed before staging.
  ///
  /// `districts` is the inference of these branches when the caller has made it (a run does,
  /// to set expected days): `districts.json` is made from it instead of inferring again.
  ///
  /// `shouldStop` is asked between files and once more just before `latest.json` is replaced;
  /// when it answers `true` the staging directory is removed, nothing new becomes current, and
  /// the result is ``PublishResult/stopped``.
  @discardableResult
  public func publish(
    branches: [Branch], brands: [BrandSummary], day: RunDay,
    removed: [RemovedBranch] = [], districts inference: DistrictInference? = nil, shouldStop: () -> Bool = { false }
  ) throws(FileError) -> PublishResult {
    guard !branches.isEmpty else {
      throw FileError(.invalid, path: outputDirectory.path, message: "refusing to publish an empty dataset")
    }
    // A link as bundles/ would send the bundle elsewhere: nothing is written through one.
    try Files.checkNothingForeign(below: outputDirectory.path, to: bundlesURL.path)
    let districts =
      inference.map { DistrictsFile(window: day.window, inference: $0) }
      ?? DistrictsFile(
        branches: branches, window: day.window, exempt: brands.map(\.manifestEntry).exemptFromDesignation,
        storeClasses: brands.storeClasses, asOf: day.asOf)
    let input = BundleInput(branches: branches, brands: brands, day: day, removed: removed, districts: districts)

    // Pass 1, digests only: is this version already on disk? Only its manifest's bytes are kept
    // for pass 2 to match.
    var expected: Data?
    var repaired: FileError?
    if mayHoldBundle(asOf: day.asOf) {
      let digests: BuiltBundle
      do throws(FileError) {
        guard let made = try input.build(into: nil, shouldStop: shouldStop), !shouldStop() else { return .stopped }
        digests = made
      } catch {
        throw dataError(error)
      }
      let directory = layout.bundle(version: digests.manifest.version)
      if Files.kind(at: directory.path) != nil {
        do throws(FileError) {
          try Self.checkHolds(directory, digests)
        } catch {
          // A damaged copy of this very bundle: never point at it again; write it anew.
          let damaged = layout.damagedAside(version: digests.manifest.version)
          try Files.rename(directory.path, to: damaged.path)
          Files.remove(damaged.path)
          repaired = error
        }
        if repaired == nil {
          return try point(
            at: digests, in: directory, wroteDirectory: false, files: BundleFileCounts(), repaired: nil,
            shouldStop: shouldStop)
        }
      }
      expected = digests.manifestData
    }

    // The pass that writes: the only one, or pass 2; first, room for it.
    try checkFreeSpace()
    try createDirectory(bundlesURL)
    // Leftovers of killed runs (their process no longer exists) were never published.
    layout.removeLeftovers(onlyOfEndedProcesses: true, includingCurrent: false)
    guard let staged = try stage(input, matching: expected, shouldStop: shouldStop) else { return .stopped }
    let finalDirectory = layout.bundle(version: staged.bundle.manifest.version)
    do throws(FileError) {
      try Files.rename(staged.directory.path, to: finalDirectory.path)
    } catch {
      Files.remove(staged.directory.path)
      throw error.naming(bundlesURL.path, insteadOf: staged.directory.path, saying: "the new bundle was not written")
    }
    try Files.syncDirectory(bundlesURL.path)
    return try point(
      at: staged.bundle, in: finalDirectory, wroteDirectory: true, files: staged.files, repaired: repaired,
      shouldStop: shouldStop)
  }

  /// The least free disk space a run asks for before it stages a new bundle.
  public static let minimumFreeBytes: Int64 = 16 << 20

  /// The free disk space a new bundle needs where the output lies: twice the bytes of the bundle
  /// `latest.json` names (the new bundle when it shares no file with it, and `current/`
  /// following it), at least ``minimumFreeBytes``.
  public func freeSpaceNeeded() -> Int64 {
    var last: Int64 = 0
    if let pointer = try? layout.readLatest(),
      let data = PlainFiles.contents(
        of: outputDirectory.appendingPathComponent(pointer.bundle).path + "/" + OutputLayout.manifestName),
      let manifest = try? BundleJSON.decode(BundleManifest.self, from: data)
    {
      last = manifest.files.reduce(Int64(data.count)) { $0 + Int64($1.bytes) }
    }
    return max(Self.minimumFreeBytes, 2 * last)
  }

  /// Refuses to stage a bundle the disk has no room for (``freeSpaceNeeded()``), before
  /// anything is written, so that a full disk leaves the output as it was and says so.
  func checkFreeSpace() throws(FileError) {
    let needed = freeSpaceNeeded()
    guard let free = Files.availableBytes(at: outputDirectory.path), free < needed else { return }
    func megabytes(_ bytes: Int64) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }
    throw FileError(
      .noSpace,
      path: outputDirectory.path,
      message:
        "not enough free disk space to stage a new bundle: \(megabytes(free)) free, \(megabytes(needed)) needed"
        + " (twice the current bundle, at least \(megabytes(Self.minimumFreeBytes))); nothing was written and the"
        + " previous bundle stays current: free space, then run again")
  }

  /// What a bundle is built from, as ``publish(branches:brands:day:removed:districts:shouldStop:)``
  /// was given it: built once or twice.
  private struct BundleInput {
    var branches: [Branch]
    var brands: [BrandSummary]
    var day: RunDay
    var removed: [RemovedBranch]
    /// `districts.json`, worked out once for both passes.
    var districts: DistrictsFile

    func build(into sink: (any BundleFileSink)?, shouldStop: () -> Bool) throws(FileError) -> BuiltBundle? {
      try BundleBuilder.build(
        branches: branches, brands: brands, day: day, removed: removed, districts: districts, into: sink,
        shouldStop: shouldStop)
    }
  }

  /// A problem with the data, which names a file of the bundle relative to it, as an error
  /// naming that file in the output directory.
  private func dataError(_ error: FileError) -> FileError {
    FileError(
      error.code, path: outputDirectory.appendingPathComponent(error.location).path, message: error.message,
      cause: error.cause)
  }

  /// Whether `bundles/` may already hold the bundle of `asOf`: a bundle's name begins with its
  /// as-of date (`<as-of>-<hash>`), so when no entry there does, whatever this run builds is new.
  private func mayHoldBundle(asOf: CalendarDate) -> Bool {
    let prefix = "\(asOf.iso)-"
    return PlainFiles.names(in: bundlesURL.path).contains { $0.hasPrefix(prefix) }
  }

  /// Points `latest.json` at `built`, in `directory`, unless it already does or `shouldStop`
  /// answers `true` (then a directory this call wrote is removed: nothing refers to it; a
  /// reused one stays for whoever names it).
  private func point(
    at built: BuiltBundle, in directory: URL, wroteDirectory: Bool, files: BundleFileCounts, repaired: FileError?,
    shouldStop: () -> Bool
  ) throws(FileError) -> PublishResult {
    let version = built.manifest.version
    let pointer = LatestPointer(
      schemaVersion: bundleSchemaVersion, version: version, bundle: OutputLayout.bundlePath(version: version),
      asOf: built.manifest.asOf, manifestSHA256: SHA256.hex(built.manifestData))
    let bundle = PublishedBundle(
      pointer: pointer, manifest: built.manifest, branches: built.branches, directory: directory,
      closures: built.closures, files: files, encodedBranches: built.encodedBranches)
    let pointerData = try encode(pointer)
    if let current = layout.latestBytes(), current == pointerData {
      return .published(bundle, latestChanged: false, repaired: repaired)
    }
    if shouldStop() {
      if wroteDirectory { Files.remove(directory.path) }
      return .stopped
    }
    try Files.replace(latestURL.path, with: pointerData, syncDirectory: true)
    return .published(bundle, latestChanged: true, repaired: repaired)
  }

  /// Builds the bundle into a new staging directory under `bundles/`, each file written as soon
  /// as it is finished (``StagedBundleFiles``), and makes it durable with one barrier. With
  /// `expected`, the manifest pass 1 made, the bundle must come out with exactly its bytes:
  /// anything else is a bug, and nothing is published. `nil`, with the staging directory
  /// removed, when `shouldStop` answers `true` between files. On failure the staging directory
  /// is removed too, and the error names `bundles/` and the file of the bundle that was not
  /// written (a problem with the data names the file in the output directory).
  private func stage(
    _ input: BundleInput, matching expected: Data?, shouldStop: () -> Bool
  ) throws(FileError) -> (directory: URL, bundle: BuiltBundle, files: BundleFileCounts)? {
    let staging = layout.newStagingDirectory(asOf: input.day.asOf)
    Files.remove(staging.path)
    let files = StagedBundleFiles(directory: staging.path, linkable: linkableFiles())
    do throws(FileError) {
      try createDirectory(staging)
      guard let built = try input.build(into: files, shouldStop: shouldStop), !shouldStop() else {
        Files.remove(staging.path)
        return nil
      }
      if let expected, built.manifestData != expected {
        let first = try? BundleJSON.decode(BundleManifest.self, from: expected)
        let differing = zip(built.manifest.files, first?.files ?? []).first { $0 != $1 }?.0.path
        throw FileError(
          .mismatch,
          path: staging.path + "/" + (differing ?? OutputLayout.manifestName),
          message: "the second pass made other bytes than the first (a bug: nothing is published)")
      }
      let manifest = staging.path + "/" + OutputLayout.manifestName
      try Files.create(manifest, with: built.manifestData, linkingTo: nil)
      // Linked files are as durable as the bundle they come from; the barrier covers the rest
      // and every new folder entry.
      try Files.makeDurable(root: staging.path, files: files.written + [manifest], directories: files.folders)
      return (staging, built, BundleFileCounts(written: files.written.count + 1, linked: files.linked))
    } catch {
      Files.remove(staging.path)
      guard Files.isInside(error.location, staging.path) else { throw dataError(error) }
      throw error.naming(bundlesURL.path, insteadOf: staging.path, saying: "the new bundle was not written")
    }
  }

  /// The directory of the bundle `latest.json` names and its files by path, as its manifest
  /// lists them: what a new bundle may link to (each file's bytes are compared before it is).
  /// `nil` when there is none, or its manifest cannot be read or does not match `latest.json`.
  private func linkableFiles() -> (directory: String, files: [String: BundleManifest.File])? {
    guard let pointer = try? layout.readLatest(),
      let directory = BundleDirectory.confinedURL(pointer.bundle, in: outputDirectory),
      let data = PlainFiles.contents(of: directory.path + "/manifest.json"),
      SHA256.hex(data) == pointer.manifestSHA256,
      let manifest = try? BundleJSON.decode(BundleManifest.self, from: data)
    else { return nil }
    return (directory.path, Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first }))
  }

  /// Throws unless `directory` holds exactly the bundle `built`: its manifest's bytes, each file
  /// the manifest lists with the listed size and SHA-256, and nothing else
  /// (``checkHoldsOnlyListed(_:manifest:)``). Files are read one at a time, a piece at a time.
  static func checkHolds(_ directory: URL, _ built: BuiltBundle) throws(FileError) {
    try checkHoldsOnlyListed(directory, manifest: built.manifest)
    let manifest = directory.appendingPathComponent(OutputLayout.manifestName)
    guard let existing = PlainFiles.contents(of: manifest.path) else {
      throw FileError(.read, path: manifest.path, message: "missing or unreadable")
    }
    guard existing == built.manifestData else {
      throw FileError(.mismatch, path: manifest.path, message: "is not the manifest of this bundle")
    }
    for file in built.manifest.files {
      let url = directory.appendingPathComponent(file.path)
      guard let digest = fileDigest(at: url.path) else {
        throw FileError(.read, path: url.path, message: "missing or unreadable")
      }
      guard digest.bytes == file.bytes, digest.sha256 == file.sha256 else {
        throw FileError(.mismatch, path: url.path, message: "size or SHA-256 does not match manifest.json")
      }
    }
  }

  /// Throws unless `directory` holds exactly the files `manifest` lists (and `manifest.json`),
  /// as regular files in real folders: the directory itself not a symbolic link, no link,
  /// device or pipe inside it, no file the manifest does not list (hidden names included). What
  /// `validate` rejects in a bundle's layout, a run does not reuse.
  static func checkHoldsOnlyListed(_ directory: URL, manifest: BundleManifest) throws(FileError) {
    if let kind = Files.kind(at: directory.path), kind != .directory {
      throw FileError(.foreign, path: directory.path, message: "is \(kind), not a bundle directory")
    }
    let listed = Set(manifest.files.map(\.path) + [OutputLayout.manifestName])
    for entry in PlainFiles.entries(under: directory.path) {
      if entry.kind != .regularFile {
        throw FileError(.foreign, path: directory.appendingPathComponent(entry.path).path, message: "is \(entry.kind)")
      }
      if !listed.contains(entry.path) {
        throw FileError(
          .foreign,
          path: directory.appendingPathComponent(entry.path).path, message: "not listed in manifest.json")
      }
    }
  }

  // MARK: - File primitives

  private func encode(_ value: some Encodable) throws(FileError) -> Data {
    do { return try BundleJSON.encode(value) } catch {
      throw FileError(.encode, path: outputDirectory.path, message: "encoding failed", cause: error)
    }
  }

  private func read(_ url: URL) throws(FileError) -> Data {
    do { return try Data(contentsOf: url) } catch {
      throw FileError(.read, path: url.path, message: "cannot read: \(error.localizedDescription)")
    }
  }

  private func decode<T: Decodable>(_ type: T.Type, at url: URL) throws(FileError) -> T {
    try decode(type, data: try read(url), at: url)
  }

  private func decode<T: Decodable>(_ type: T.Type, data: Data, at url: URL) throws(FileError) -> T {
    do { return try BundleJSON.decode(type, from: data) } catch {
      throw FileError(.malformed, path: url.path, message: "not a valid \(T.self)", cause: error)
    }
  }

  private func createDirectory(_ url: URL) throws(FileError) {
    try Files.createDirectory(url.path)
  }
}

/// Writes each finished file of a bundle into a staging directory as ``BundleBuilder`` hands it
/// over: a hard link to the same file of the previous bundle when that one is listed with the
/// same size and SHA-256 (``Files/create(_:with:linkingTo:)`` compares the bytes before it
/// links, and writes them where no link can be made), else a new file. Keeps what the
/// durability barrier needs: the files written and the folders made.
final class StagedBundleFiles: BundleFileSink {
  let directory: String
  /// The previous bundle's directory and its files by path.
  let linkable: (directory: String, files: [String: BundleManifest.File])?
  /// The files written, not linked, by full path.
  private(set) var written: [String] = []
  /// How many files are hard links of the previous bundle's.
  private(set) var linked = 0
  private var madeFolders: Set<String>
  /// The folders files were made in, each opened once.
  private var openFolders: [String: OpenFolder] = [:]
  /// The folder of the file put last, relative to `directory`, and the folder open: files come
  /// folder by folder, mostly (the calendars), so most need no lookup.
  private var lastFolder: (relative: String, open: OpenFolder)?

  init(directory: String, linkable: (directory: String, files: [String: BundleManifest.File])?) {
    self.directory = directory
    self.linkable = linkable
    self.madeFolders = [directory]
  }

  /// The staging directory and every folder made in it.
  var folders: [String] { Array(madeFolders) }

  func put(_ file: BundleManifest.File, _ data: Data) throws(FileError) {
    let relativeFolder = Files.parent(of: file.path)
    let open: OpenFolder
    if let lastFolder, lastFolder.relative == relativeFolder {
      open = lastFolder.open
    } else {
      guard let opened = try openFolder(relativeFolder == "." ? directory : directory + "/" + relativeFolder) else {
        throw Files.failure(.create, directory + "/" + file.path, "cannot create")
      }
      open = opened
      lastFolder = (relativeFolder, open)
    }
    let original = linkable.flatMap { linkable in
      linkable.files[file.path].flatMap { $0 == file ? linkable.directory + "/" + file.path : nil }
    }
    if try Files.create(Files.name(of: file.path), in: open, with: data, linkingTo: original) {
      linked += 1
    } else {
      written.append(directory + "/" + file.path)
    }
  }

  /// The folder at `path`, made (with its parents) the first time, and opened once; `nil`, with
  /// `errno` set, when it cannot be opened.
  private func openFolder(_ path: String) throws(FileError) -> OpenFolder? {
    if let open = openFolders[path] { return open }
    if madeFolders.insert(path).inserted { try Files.createDirectory(path) }
    let open = OpenFolder(path)
    openFolders[path] = open
    return open
  }
}

/// The size and SHA-256 of the regular file at `path` (a link not followed), read a megabyte
/// at a time; `nil` when there is none or it cannot be read.
private func fileDigest(at path: String) -> (bytes: Int, sha256: String)? {
  let hasher = SHA256.Hasher()
  guard
    let file = PlainFiles.readPieces(
      of: path, pieceSize: 1 << 20,
      { piece in
        hasher.update(piece)
        return true
      })
  else { return nil }
  return (file.bytes, hasher.finalize())
}
