import Foundation
import MartCore
import MartDigest
import MartFiles

/// `manifest.json`: every other file of the bundle with its size and SHA-256, the brands, the
/// as-of date, the window and the version (not listed in itself). ``BundleBuilder`` encodes it
/// once the other files are made; the validator reads it first, and every listed file with it.
enum ManifestFileKind {
  /// The manifest's name, in the bundle's directory.
  static let name = "manifest.json"

  /// The manifest's bytes: canonical JSON with a final newline.
  static func encode(_ manifest: BundleManifest) throws(FileError) -> Data {
    Data(try encoded(manifest).bytes)
  }

  /// ``encode(_:)``'s bytes, and where the version's text starts in them.
  private static func encoded(_ manifest: BundleManifest) throws(FileError) -> (bytes: [UInt8], version: Int) {
    var writer = CanonicalJSONWriter(capacity: 128 * manifest.files.count + 4096)
    let version: Int
    do { version = try writer.manifest(manifest) } catch {
      throw FileError(.encode, path: name, message: "encoding failed", cause: error)
    }
    writer.bytes.append(0x0A)
    return (writer.bytes, version)
  }

  /// Gives `manifest` its version, `<as-of>-<first 12 hex digits of the SHA-256 of the manifest
  /// without it>` (the version hashes everything the manifest says but itself), and returns its
  /// bytes (``encode(_:)``). Encoded once: the version (a date, a dash and hex digits, nothing
  /// JSON escapes) is put into the bytes of the manifest whose version is empty.
  static func encodeVersioning(_ manifest: inout BundleManifest) throws(FileError) -> Data {
    manifest.version = ""
    let (unversioned, at) = try encoded(manifest)
    let hasher = SHA256.Hasher()
    unversioned.withUnsafeBytes { hasher.update($0) }
    manifest.version = "\(manifest.asOf.iso)-\(hasher.finalize().prefix(12))"
    var data = Data(capacity: unversioned.count + manifest.version.utf8.count)
    data.append(contentsOf: unversioned[..<at])
    data.append(contentsOf: manifest.version.utf8)
    data.append(contentsOf: unversioned[at...])
    return data
  }

  /// Reads the manifest of the bundle at `prefix` (relative to the checked directory) and checks
  /// it against `pointer` (the `latest.json` that named it, if any), then every file it lists:
  /// there, of its size and digest, listed once, and nothing unlisted on disk. `nil` when the
  /// manifest cannot be read.
  static func read(
    prefix: String, pointer: LatestPointer?, _ inspection: inout BundleInspection
  ) -> ListedBundle? {
    let manifestPath = prefix + name
    guard let manifestData = inspection.read(manifestPath) else { return nil }
    if let pointer, SHA256.hex(manifestData) != pointer.manifestSHA256 {
      inspection.report(manifestPath, "SHA-256 does not match manifestSHA256 in \(OutputLayout.latestName)")
    }
    guard let manifest = inspection.decode(BundleManifest.self, manifestData, manifestPath, as: "manifest") else {
      return nil
    }
    if manifest.schemaVersion != bundleSchemaVersion {
      inspection.report(manifestPath, "schemaVersion \(manifest.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if let pointer {
      if manifest.version != pointer.version {
        inspection.report(
          manifestPath, "version \(manifest.version) differs from \(OutputLayout.latestName)'s \(pointer.version)")
      }
      if manifest.asOf != pointer.asOf {
        inspection.report(
          manifestPath, "asOf \(manifest.asOf) differs from \(OutputLayout.latestName)'s \(pointer.asOf)")
      }
    }
    if !manifest.version.hasPrefix(manifest.asOf.iso + "-") {
      inspection.report(
        manifestPath, "version \(manifest.version) does not start with the as-of date \(manifest.asOf)")
    }
    let window = manifest.window
    if window.from > window.through {
      inspection.report(manifestPath, "window from \(window.from) is after through \(window.through)")
    }

    // Every listed file: present, right size and digest; nothing unlisted.
    var contents: [String: Data] = [:]
    var listed = Set<String>()
    for file in manifest.files {
      let path = prefix + file.path
      guard BundleInspection.isSafe(file.path) else {
        inspection.report(manifestPath, "file path \"\(file.path)\" is not inside the bundle")
        continue
      }
      guard listed.insert(file.path).inserted else {
        inspection.report(manifestPath, "\(file.path) is listed twice")
        continue
      }
      guard let data = inspection.read(path) else { continue }
      if data.count != file.bytes {
        inspection.report(path, "\(data.count) bytes, \(name) says \(file.bytes)")
      } else if SHA256.hex(data) != file.sha256 {
        inspection.report(path, "SHA-256 does not match \(name)")
      }
      contents[file.path] = data
    }
    for unlisted in inspection.entriesOnDisk(under: prefix).subtracting(listed).subtracting([name]).sorted() {
      inspection.report(prefix + unlisted, "not listed in \(name)")
    }
    return ListedBundle(
      prefix: prefix, manifestPath: manifestPath, manifest: manifest, contents: contents, listed: listed)
  }
}
