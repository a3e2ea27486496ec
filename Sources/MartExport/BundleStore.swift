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
public typealias ExportError = FileError

/// A published bundle: as read back from disk (and verified), or as just written.
public struct PublishedBundle: Sendable {
  public var pointer: LatestPointer
  public var manifest: BundleManifest
  public var branches: BranchesFile
  /// The bundle directory.
  public var directory: URL
}

/// What ``BundleStore/publish(branches:brands:asOf:window:removed:shouldStop:)`` did.
public enum PublishResult: Sendable {
  /// `latest.json` names `bundle`, given as it was written (no need to read it back).
  /// `latestChanged` is `false` when it already did; `repaired` says what was wrong with a
  /// copy of this bundle that was found damaged on disk and written again.
  case published(PublishedBundle, latestChanged: Bool, repaired: ExportError?)
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
  public func latest() throws(ExportError) -> PublishedBundle? {
    guard let pointer = try layout.readLatest() else { return nil }
    guard let directory = BundleDirectory.confinedURL(pointer.bundle, in: outputDirectory) else {
      throw ExportError(
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
  public static func readBundle(at directory: URL) throws(ExportError) -> PublishedBundle {
    let store = BundleStore(outputDirectory: directory)
    switch BundleDirectory(directory) {
    case .unusable(let problem):
      throw ExportError(path: directory.path, message: problem)
    case .output:
      guard let bundle = try store.latest() else {
        throw ExportError(path: store.latestURL.path, message: "cannot read")
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

  private static func read(directory: URL, pointer: LatestPointer) throws(ExportError) -> PublishedBundle {
    let store = BundleStore(outputDirectory: directory)
    guard let manifestURL = BundleDirectory.confinedURL(OutputLayout.manifestName, in: directory) else {
      throw ExportError(path: directory.path, message: "manifest.json leads outside the bundle")
    }
    let manifestData = try store.read(manifestURL)
    guard SHA256.hex(manifestData) == pointer.manifestSHA256 else {
      throw ExportError(path: manifestURL.path, message: "SHA-256 does not match latest.json")
    }
    let manifest = try store.decode(BundleManifest.self, data: manifestData, at: manifestURL)
    for file in manifest.files {
      guard let url = BundleDirectory.confinedURL(file.path, in: directory) else {
        throw ExportError(path: manifestURL.path, message: "file \"\(file.path)\" leads outside the bundle")
      }
      let data = try store.read(url)
      guard data.count == file.bytes, SHA256.hex(data) == file.sha256 else {
        throw ExportError(path: url.path, message: "size or SHA-256 does not match manifest.json")
      }
    }
    let branches = try store.decode(BranchesFile.self, at: directory.appendingPathComponent("branches.json"))
    return PublishedBundle(pointer: pointer, manifest: manifest, branches: branches, directory: directory)
  }

  /// Writes a bundle and points `latest.json` at it.
  ///
  /// Refuses an empty dataset. `brands` may list brands without branches (missing); `removed`
  /// are the ids the sources stopped listing (``RemovedBranch/following(_:freshBrands:listed:)``). The whole
  /// bundle is made in memory first, so its version is known before anything is written. When
  /// `latest.json` already names that version and its directory holds exactly these bytes,
  /// nothing is written at all: a run whose content did not change creates, replaces and
  /// touches no file. A bundle whose version exists but is not named is reused the same way; a
  /// damaged copy is set aside and written again.
  ///
  /// A new bundle is staged in a hidden directory: each file whose bytes equal the same file of
  /// the bundle `latest.json` names is a hard link to it (``Files/create(_:with:linkingTo:)``:
  /// bundles share unchanged files, and a file that cannot be linked is written), every other
  /// file is written new. The staging directory is flushed to disk, renamed into place, and only
  /// then is `latest.json` replaced (write, flush, rename), so a crash at any moment leaves the
  /// previous bundle published. No bundle file is ever written in place, so a file shared with
  /// another bundle never changes under it, and pruning a bundle removes only its names.
  ///
  /// `shouldStop` is asked between files and once more just before `latest.json` is replaced;
  /// when it answers `true` the staging directory is removed, nothing new becomes current, and
  /// the result is ``PublishResult/stopped``.
  @discardableResult
  public func publish(
    branches: [Branch], brands: [BrandSummary], asOf: CalendarDate, window: DateWindow,
    removed: [RemovedBranch] = [], shouldStop: () -> Bool = { false }
  ) throws(ExportError) -> PublishResult {
    guard !branches.isEmpty else {
      throw ExportError(path: outputDirectory.path, message: "refusing to publish an empty dataset")
    }
    // A link as bundles/ would send the bundle elsewhere: nothing is written through one.
    try Files.checkNothingForeign(below: outputDirectory.path, to: bundlesURL.path)
    let built: BuiltBundle
    do throws(ExportError) {
      guard
        let made = try BundleBuilder.build(
          branches: branches, brands: brands, asOf: asOf, window: window, removed: removed,
          shouldStop: shouldStop),
        !shouldStop()
      else { return .stopped }
      built = made
    } catch {
      // Problems with the data name a file of the bundle, relative to it.
      throw ExportError(path: outputDirectory.appendingPathComponent(error.path).path, message: error.message)
    }
    let version = built.manifest.version
    let finalDirectory = layout.bundle(version: version)
    let pointer = LatestPointer(
      schemaVersion: bundleSchemaVersion, version: version, bundle: OutputLayout.bundlePath(version: version),
      asOf: asOf, manifestSHA256: SHA256.hex(built.manifestData))
    var wroteDirectory = false
    var repaired: ExportError?
    if Files.kind(at: finalDirectory.path) != nil {
      do throws(ExportError) {
        try Self.checkHolds(finalDirectory, built)
      } catch {
        // A damaged copy of this very bundle: never point at it again; write it anew.
        let damaged = layout.damagedAside(version: version)
        try Files.rename(finalDirectory.path, to: damaged.path)
        Files.remove(damaged.path)
        repaired = error
      }
    }
    if Files.kind(at: finalDirectory.path) == nil {
      try createDirectory(bundlesURL)
      // Leftovers of killed runs (their process no longer exists) were never published.
      layout.removeLeftovers(onlyOfEndedProcesses: true, includingCurrent: false)
      guard let staging = try stage(built, asOf: asOf, shouldStop: shouldStop) else { return .stopped }
      do throws(ExportError) {
        try Files.rename(staging.path, to: finalDirectory.path)
      } catch {
        Files.remove(staging.path)
        throw error.naming(bundlesURL.path, insteadOf: staging.path, saying: "the new bundle was not written")
      }
      try Files.syncDirectory(bundlesURL.path)
      wroteDirectory = true
    }

    let bundle = PublishedBundle(
      pointer: pointer, manifest: built.manifest, branches: built.branches, directory: finalDirectory)
    let pointerData = try encode(pointer)
    if let current = layout.latestBytes(), current == pointerData {
      return .published(bundle, latestChanged: false, repaired: repaired)
    }
    if shouldStop() {
      // Nothing refers to a directory this call wrote; a reused one stays for whoever names it.
      if wroteDirectory { Files.remove(finalDirectory.path) }
      return .stopped
    }
    try Files.replace(latestURL.path, with: pointerData, syncDirectory: true)
    return .published(bundle, latestChanged: true, repaired: repaired)
  }

  /// Writes `built` into a new staging directory under `bundles/`, each file linked to the same
  /// file of the bundle `latest.json` names when their bytes are equal, and makes it durable
  /// with one barrier. `nil`, with the staging directory removed, when `shouldStop` answers
  /// `true` between files. On failure the staging directory is removed too, and the error names
  /// `bundles/` and the file of the bundle that was not written.
  private func stage(_ built: BuiltBundle, asOf: CalendarDate, shouldStop: () -> Bool) throws(ExportError) -> URL? {
    let staging = layout.newStagingDirectory(asOf: asOf)
    Files.remove(staging.path)
    let linkable = linkableFiles()
    var written: [String] = []
    var folders: Set<String> = [staging.path]
    do throws(ExportError) {
      try createDirectory(staging)
      for file in built.files {
        if shouldStop() {
          Files.remove(staging.path)
          return nil
        }
        let path = staging.path + "/" + file.path
        let folder = String(path[..<path.lastIndex(of: "/")!])
        if folders.insert(folder).inserted { try Files.createDirectory(folder) }
        let original = linkable.flatMap { linkable in
          linkable.files[file.path].flatMap { $0.bytes == file.data.count ? linkable.directory + "/" + file.path : nil }
        }
        if !(try Files.create(path, with: file.data, linkingTo: original)) { written.append(path) }
      }
      let manifest = staging.path + "/manifest.json"
      try Files.create(manifest, with: built.manifestData, linkingTo: nil)
      // Linked files are as durable as the bundle they come from; the barrier covers the rest
      // and every new folder entry.
      try Files.makeDurable(root: staging.path, files: written + [manifest], directories: Array(folders))
    } catch {
      Files.remove(staging.path)
      throw error.naming(bundlesURL.path, insteadOf: staging.path, saying: "the new bundle was not written")
    }
    return staging
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

  /// Throws unless `directory` holds exactly the bundle `built`: its manifest and the files it
  /// lists with exactly their bytes, and nothing else (``checkHoldsOnlyListed(_:manifest:)``).
  static func checkHolds(_ directory: URL, _ built: BuiltBundle) throws(ExportError) {
    try checkHoldsOnlyListed(directory, manifest: built.manifest)
    for (path, data) in built.files + [("manifest.json", built.manifestData)] {
      let url = directory.appendingPathComponent(path)
      guard let existing = PlainFiles.contents(of: url.path) else {
        throw ExportError(path: url.path, message: "missing or unreadable")
      }
      guard existing == data else { throw ExportError(path: url.path, message: "does not hold the bytes manifest.json lists") }
    }
  }

  /// Throws unless `directory` holds exactly the files `manifest` lists (and `manifest.json`),
  /// as regular files in real folders: the directory itself not a symbolic link, no link,
  /// device or pipe inside it, no file the manifest does not list (hidden names included). What
  /// `validate` rejects in a bundle's layout, a run does not reuse.
  static func checkHoldsOnlyListed(_ directory: URL, manifest: BundleManifest) throws(ExportError) {
    if let kind = Files.kind(at: directory.path), kind != Files.directoryKind {
      throw ExportError(path: directory.path, message: "is \(kind), not a bundle directory")
    }
    let listed = Set(manifest.files.map(\.path) + [OutputLayout.manifestName])
    for entry in PlainFiles.entries(under: directory.path) {
      if entry.kind != Files.regularFileKind {
        throw ExportError(path: directory.appendingPathComponent(entry.path).path, message: "is \(entry.kind)")
      }
      if !listed.contains(entry.path) {
        throw ExportError(path: directory.appendingPathComponent(entry.path).path, message: "not listed in manifest.json")
      }
    }
  }

  // MARK: - File primitives

  private func encode(_ value: some Encodable) throws(ExportError) -> Data {
    do { return try BundleJSON.encode(value) } catch {
      throw ExportError(path: outputDirectory.path, message: "encoding failed: \(error)")
    }
  }

  private func read(_ url: URL) throws(ExportError) -> Data {
    do { return try Data(contentsOf: url) } catch {
      throw ExportError(path: url.path, message: "cannot read: \(error.localizedDescription)")
    }
  }

  private func decode<T: Decodable>(_ type: T.Type, at url: URL) throws(ExportError) -> T {
    try decode(type, data: try read(url), at: url)
  }

  private func decode<T: Decodable>(_ type: T.Type, data: Data, at url: URL) throws(ExportError) -> T {
    do { return try BundleJSON.decode(type, from: data) } catch {
      throw ExportError(path: url.path, message: "not a valid \(T.self): \(error)")
    }
  }

  private func createDirectory(_ url: URL) throws(ExportError) {
    try Files.createDirectory(url.path)
  }
}
