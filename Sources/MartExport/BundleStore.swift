import Foundation
import MartCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An export failed: what, and where on disk.
public typealias ExportError = FileError

/// A published bundle as read back from disk.
public struct PublishedBundle: Sendable {
  public var pointer: LatestPointer
  public var manifest: BundleManifest
  public var branches: BranchesFile
  /// The bundle directory.
  public var directory: URL
}

/// Writes versioned bundles under an output directory and moves `latest.json` to them
/// atomically, so readers always see either the previous complete bundle or the new one.
///
/// Layout:
/// ```
/// output/latest.json
/// output/bundles/<version>/manifest.json
/// output/bundles/<version>/branches.json
/// ```
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
    let directory = outputDirectory.appendingPathComponent(pointer.bundle)
    let manifestURL = directory.appendingPathComponent("manifest.json")
    let manifestData = try read(manifestURL)
    guard SHA256.hex(manifestData) == pointer.manifestSHA256 else {
      throw ExportError(path: manifestURL.path, message: "SHA-256 does not match latest.json")
    }
    let manifest = try decode(BundleManifest.self, data: manifestData, at: manifestURL)
    for file in manifest.files {
      let url = directory.appendingPathComponent(file.path)
      let data = try read(url)
      guard data.count == file.bytes, SHA256.hex(data) == file.sha256 else {
        throw ExportError(path: url.path, message: "size or SHA-256 does not match manifest.json")
      }
    }
    let branches = try decode(BranchesFile.self, at: directory.appendingPathComponent("branches.json"))
    return PublishedBundle(pointer: pointer, manifest: manifest, branches: branches, directory: directory)
  }

  /// Writes a bundle and points `latest.json` at it.
  ///
  /// Refuses an empty dataset. `brands` may list brands without branches (missing). Files are written to a staging directory, flushed to disk,
  /// renamed into place, and only then is `latest.json` replaced (write, flush, rename), so
  /// a crash at any moment leaves the previous bundle published.
  /// - Returns: the pointer now in `latest.json`.
  @discardableResult
  public func publish(
    branches: [Branch], brands: [BrandSummary], asOf: CalendarDate, window: DateWindow
  ) throws(ExportError) -> LatestPointer {
    guard !branches.isEmpty else {
      throw ExportError(path: outputDirectory.path, message: "refusing to publish an empty dataset")
    }
    let branchesData = try encode(
      BranchesFile(
        schemaVersion: bundleSchemaVersion, asOf: asOf, window: window,
        branches: branches.sorted { $0.id < $1.id }))
    let brands = brands.map(\.manifestEntry).sorted { $0.slug < $1.slug }
    let brandsData = try encode(brands)
    let version = "\(asOf.iso)-\(SHA256.hex(branchesData + brandsData).prefix(12))"
    let manifest = BundleManifest(
      schemaVersion: bundleSchemaVersion, version: version, asOf: asOf, window: window,
      brands: brands,
      files: [.init(path: "branches.json", sha256: SHA256.hex(branchesData), bytes: branchesData.count)])
    let manifestData = try encode(manifest)

    let relativeBundle = "bundles/\(version)"
    let finalDirectory = outputDirectory.appendingPathComponent(relativeBundle)
    try createDirectory(bundlesURL)
    if !FileManager.default.fileExists(atPath: finalDirectory.path) {
      let staging = bundlesURL.appendingPathComponent(".staging-\(version)-\(getpid())")
      try? FileManager.default.removeItem(at: staging)
      try createDirectory(staging)
      try writeDurably(branchesData, to: staging.appendingPathComponent("branches.json"))
      try writeDurably(manifestData, to: staging.appendingPathComponent("manifest.json"))
      try syncDirectory(staging)
      try rename(staging, to: finalDirectory)
      try syncDirectory(bundlesURL)
    }

    let pointer = LatestPointer(
      schemaVersion: bundleSchemaVersion, version: version, bundle: relativeBundle, asOf: asOf,
      manifestSHA256: SHA256.hex(manifestData))
    let temporary = outputDirectory.appendingPathComponent(".latest.json.\(getpid())")
    try writeDurably(try encode(pointer), to: temporary)
    try rename(temporary, to: latestURL)
    try syncDirectory(outputDirectory)
    return pointer
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
    let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw ExportError(path: url.path, message: "cannot create: \(errnoText())") }
    defer { close(fd) }
    var offset = 0
    while offset < data.count {
      let written = data.withUnsafeBytes { buffer in
        write(fd, buffer.baseAddress! + offset, data.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw ExportError(path: url.path, message: "write failed: \(errnoText())")
      }
      offset += written
    }
    guard fsync(fd) == 0 else { throw ExportError(path: url.path, message: "fsync failed: \(errnoText())") }
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
