import CFileSync
import Foundation
import MartCore
import MartDigest

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

/// What ``BundleStore/publish(branches:brands:asOf:window:shouldStop:)`` did.
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

  var latestURL: URL { outputDirectory.appendingPathComponent("latest.json") }
  var bundlesURL: URL { outputDirectory.appendingPathComponent("bundles") }

  /// Reads and verifies the bundle `latest.json` points to; `nil` when there is none yet.
  /// Throws when a bundle is referenced but missing or does not match its manifest.
  public func latest() throws(ExportError) -> PublishedBundle? {
    guard FileManager.default.fileExists(atPath: latestURL.path) else { return nil }
    let pointer = try decode(LatestPointer.self, at: latestURL)
    guard let directory = BundleDirectory.confinedURL(pointer.bundle, in: outputDirectory) else {
      throw ExportError(path: latestURL.path, message: "bundle \"\(pointer.bundle)\" leads outside \(outputDirectory.path)")
    }
    return try Self.read(directory: directory, pointer: pointer)
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
    let manifestURL = directory.appendingPathComponent("manifest.json")
    let manifestData = try store.read(manifestURL)
    let manifest = try store.decode(BundleManifest.self, data: manifestData, at: manifestURL)
    let pointer = LatestPointer(
      schemaVersion: manifest.schemaVersion, version: manifest.version,
      bundle: "bundles/\(directory.lastPathComponent)", asOf: manifest.asOf,
      manifestSHA256: SHA256.hex(manifestData))
    return try read(directory: directory, pointer: pointer)
  }

  private static func read(directory: URL, pointer: LatestPointer) throws(ExportError) -> PublishedBundle {
    let store = BundleStore(outputDirectory: directory)
    guard let manifestURL = BundleDirectory.confinedURL("manifest.json", in: directory) else {
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
  /// Refuses an empty dataset. `brands` may list brands without branches (missing). Files are
  /// written to a staging directory, flushed to disk, renamed into place, and only then is
  /// `latest.json` replaced (write, flush, rename), so a crash at any moment leaves the previous
  /// bundle published. A bundle whose version already exists is verified (every file's size and
  /// SHA-256 against this run's manifest) and reused when intact; a damaged one is set aside
  /// and written again. When `latest.json` already names the bundle it is left untouched: a run
  /// whose content did not change changes nothing on disk.
  ///
  /// `shouldStop` is asked between files and once more just before `latest.json` is replaced;
  /// when it answers `true` the staging directory is removed, nothing new becomes current, and
  /// the result is ``PublishResult/stopped``.
  @discardableResult
  public func publish(
    branches: [Branch], brands: [BrandSummary], asOf: CalendarDate, window: DateWindow,
    shouldStop: () -> Bool = { false }
  ) throws(ExportError) -> PublishResult {
    guard !branches.isEmpty else {
      throw ExportError(path: outputDirectory.path, message: "refusing to publish an empty dataset")
    }
    try createDirectory(bundlesURL)
    removeAbandonedStaging()
    // The version is known once every file is made, so the staging directory is named without it.
    let staging = bundlesURL.appendingPathComponent(
      ".staging-\(asOf.iso)-\(UInt32.random(in: 0...UInt32.max))-\(getpid())")
    try? FileManager.default.removeItem(at: staging)
    let built: BuiltBundle?
    do throws(ExportError) {
      try createDirectory(staging)
      built = try BundleBuilder.build(
        branches: branches, brands: brands, asOf: asOf, window: window, into: .directory(staging),
        shouldStop: shouldStop)
    } catch {
      try? FileManager.default.removeItem(at: staging)
      // Problems with the data name a file of the bundle; problems on disk, the file on disk.
      if error.path.hasPrefix("/") { throw error }
      throw ExportError(path: outputDirectory.appendingPathComponent(error.path).path, message: error.message)
    }
    guard let built, !shouldStop() else {
      try? FileManager.default.removeItem(at: staging)
      return .stopped
    }
    let version = built.manifest.version

    let relativeBundle = "bundles/\(version)"
    let finalDirectory = outputDirectory.appendingPathComponent(relativeBundle)
    let pointer = LatestPointer(
      schemaVersion: bundleSchemaVersion, version: version, bundle: relativeBundle, asOf: asOf,
      manifestSHA256: SHA256.hex(built.manifestData))
    var wroteDirectory = false
    var repaired: ExportError?
    if FileManager.default.fileExists(atPath: finalDirectory.path) {
      do throws(ExportError) {
        _ = try Self.read(directory: finalDirectory, pointer: pointer)
      } catch {
        // A damaged copy of this very bundle: never point at it again; write it anew.
        let damaged = bundlesURL.appendingPathComponent(".damaged-\(version)-\(getpid())")
        try rename(finalDirectory, to: damaged)
        try? FileManager.default.removeItem(at: damaged)
        repaired = error
      }
    }
    if FileManager.default.fileExists(atPath: finalDirectory.path) {
      // An intact copy: reused as it is.
      try? FileManager.default.removeItem(at: staging)
    } else {
      do throws(ExportError) {
        try makeDurable(staging, built)
      } catch {
        try? FileManager.default.removeItem(at: staging)
        throw error
      }
      try rename(staging, to: finalDirectory)
      try syncDirectory(bundlesURL)
      wroteDirectory = true
    }

    let bundle = PublishedBundle(
      pointer: pointer, manifest: built.manifest, branches: built.branches, directory: finalDirectory)
    let pointerData = try encode(pointer)
    if let current = try? Data(contentsOf: latestURL), current == pointerData {
      return .published(bundle, latestChanged: false, repaired: repaired)
    }
    if shouldStop() {
      // Nothing refers to a directory this call wrote; a reused one stays for whoever names it.
      if wroteDirectory { try? FileManager.default.removeItem(at: finalDirectory) }
      return .stopped
    }
    let temporary = outputDirectory.appendingPathComponent(".latest.json.\(getpid())")
    try writeDurably(pointerData, to: temporary)
    try rename(temporary, to: latestURL)
    try syncDirectory(outputDirectory)
    return .published(bundle, latestChanged: true, repaired: repaired)
  }

  /// Makes a staging directory the builder wrote durable with one barrier: `syncfs` of the
  /// filesystem where there is one (Linux), else a flush of each file and then each directory,
  /// deepest first.
  private func makeDurable(_ staging: URL, _ built: BuiltBundle) throws(ExportError) {
    if Self.hasFilesystemBarrier {
      try syncFilesystem(of: staging)
      return
    }
    for path in built.manifest.files.map(\.path) + ["manifest.json"] {
      try syncFile(staging.appendingPathComponent(path))
    }
    // Deepest first, so each directory's entry in its parent is flushed after its contents.
    for directory in built.directories.sorted(by: { $0.count > $1.count }) {
      try syncDirectory(directory.isEmpty ? staging : staging.appendingPathComponent(directory))
    }
  }

  private func syncFile(_ url: URL) throws(ExportError) {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ExportError(path: url.path, message: "cannot open: \(errnoText())") }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw ExportError(path: url.path, message: "fsync failed: \(errnoText())") }
  }

  /// Whether one `syncfs` can make a whole staging directory durable here.
  static let hasFilesystemBarrier = mart_has_syncfs() != 0

  /// Flushes every dirty file and directory of the filesystem holding `url` (`syncfs`).
  private func syncFilesystem(of url: URL) throws(ExportError) {
    let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw ExportError(path: url.path, message: "cannot open directory: \(errnoText())") }
    defer { close(fd) }
    guard mart_syncfs(fd) == 0 else { throw ExportError(path: url.path, message: "syncfs failed: \(errnoText())") }
  }

  /// Removes staging directories and temporary pointers left by runs that were killed
  /// (their process no longer exists). They were never published, so nothing refers to them.
  private func removeAbandonedStaging() {
    let candidates: [(URL, String)] =
      ((try? FileManager.default.contentsOfDirectory(atPath: bundlesURL.path)) ?? [])
      .filter { $0.hasPrefix(".staging-") }.map { (bundlesURL.appendingPathComponent($0), $0) }
      + ((try? FileManager.default.contentsOfDirectory(atPath: outputDirectory.path)) ?? [])
      .filter { $0.hasPrefix(".latest.json.") }.map { (outputDirectory.appendingPathComponent($0), $0) }
    for (url, name) in candidates {
      guard let pid = name.split(whereSeparator: { $0 == "-" || $0 == "." }).last.flatMap({ pid_t($0) }),
        pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      try? FileManager.default.removeItem(at: url)
    }
  }

  /// Writes `data` to `relativePath` under the output directory atomically (used for reports).
  public func writeFile(_ data: Data, named relativePath: String) throws(ExportError) {
    let url = outputDirectory.appendingPathComponent(relativePath)
    try createDirectory(url.deletingLastPathComponent())
    let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid())")
    try writeDurably(data, to: temporary)
    try rename(temporary, to: url)
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
    do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
      throw ExportError(path: url.path, message: "cannot create directory: \(error.localizedDescription)")
    }
  }

  private func writeDurably(_ data: Data, to url: URL) throws(ExportError) {
    try writeFile(data, to: url, flush: true)
  }

  /// Writes `data` to a new file at `url`, flushed to disk (`fsync`) when `flush`.
  private func writeFile(_ data: Data, to url: URL, flush: Bool) throws(ExportError) {
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ExportError(path: url.path, message: "cannot create: \(errnoText())") }
    defer { close(fd) }
    guard data.withUnsafeBytes({ mart_write_all(fd, $0.baseAddress, $0.count) }) == 0 else {
      throw ExportError(path: url.path, message: "write failed: \(errnoText())")
    }
    guard !flush || fsync(fd) == 0 else {
      throw ExportError(path: url.path, message: "fsync failed: \(errnoText())")
    }
  }

  private func syncDirectory(_ url: URL) throws(ExportError) {
    let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw ExportError(path: url.path, message: "cannot open directory: \(errnoText())") }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw ExportError(path: url.path, message: "fsync failed: \(errnoText())") }
  }

  private func rename(_ source: URL, to destination: URL) throws(ExportError) {
    #if canImport(Glibc)
      let renamed = Glibc.rename(source.path, destination.path)
    #else
      let renamed = Darwin.rename(source.path, destination.path)
    #endif
    guard renamed == 0 else {
      throw ExportError(path: destination.path, message: "rename from \(source.path) failed: \(errnoText())")
    }
  }

  private func errnoText() -> String { String(cString: strerror(errno)) }
}
