import Foundation
internal import MartCore

/// The checks every way of loading a bundle makes: the pointer's schema, the manifest's digest,
/// each file's digest and size, and paths that stay inside the bundle.
enum BundleReader {
  /// A bundle's brands by slug: the brand (Korean name, designation) and its freshness.
  typealias BrandEntries = [String: (brand: MartBrand, freshness: MartBrandFreshness)]

  /// The file the kit builds its branches from.
  static let branchesPath = "branches.json"

  static func decode<T: Decodable>(_ type: T.Type, from data: Data, location: String) throws(MartBundleError) -> T {
    do {
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw MartBundleError(.malformed, location: location, message: "not a valid \(T.self): \(describe(error))")
    }
  }

  /// `latest.json`, checked for a schema the kit understands and a path inside the output.
  static func pointer(from data: Data, location: String) throws(MartBundleError) -> LatestFile {
    let pointer = try decode(LatestFile.self, from: data, location: location)
    guard supportedSchemaVersions.contains(pointer.schemaVersion) else {
      throw MartBundleError(
        .unsupportedSchema, location: location,
        message:
          "schema version \(pointer.schemaVersion); this kit reads versions \(supportedSchemaVersions.lowerBound)"
          + " to \(supportedSchemaVersions.upperBound)")
    }
    try checkRelativePath(pointer.bundle, location: location)
    return pointer
  }

  /// `manifest.json`, checked against the digest `latest.json` gives.
  static func manifest(from data: Data, pointer: LatestFile, location: String) throws(MartBundleError)
    -> ManifestFile
  {
    guard KitSHA256.hex(data) == pointer.manifestSHA256.lowercased() else {
      throw MartBundleError(.digestMismatch, location: location, message: "SHA-256 does not match latest.json")
    }
    let manifest = try decode(ManifestFile.self, from: data, location: location)
    guard manifest.version == pointer.version else {
      throw MartBundleError(
        .malformed, location: location, message: "version \(manifest.version), latest.json says \(pointer.version)")
    }
    for file in manifest.files { try checkRelativePath(file.path, location: location) }
    return manifest
  }

  /// Throws unless `data` has the size and SHA-256 the manifest lists for `file`.
  static func verify(_ data: Data, against file: ManifestFile.File, location: String) throws(MartBundleError) {
    guard data.count == file.bytes else {
      throw MartBundleError(
        .sizeMismatch, location: location, message: "\(data.count) bytes, manifest.json says \(file.bytes)")
    }
    guard KitSHA256.hex(data) == file.sha256.lowercased() else {
      throw MartBundleError(.digestMismatch, location: location, message: "SHA-256 does not match manifest.json")
    }
  }

  /// The manifest's entry for `path`, or an error naming the manifest.
  static func entry(_ path: String, in manifest: ManifestFile, location: String) throws(MartBundleError)
    -> ManifestFile.File
  {
    guard let file = manifest.files.first(where: { $0.path == path }) else {
      throw MartBundleError(.missingFile, location: location, message: "manifest.json does not list \(path)")
    }
    return file
  }

  /// The bundle from its verified `branches.json`.
  static func bundle(
    pointer: LatestFile, manifest: ManifestFile, branchesData: Data, location: String
  ) throws(MartBundleError) -> MartBundle {
    let file = try decode(BranchesFileRecord.self, from: branchesData, location: location)
    let brands = brandEntries(of: manifest)
    let branches = file.branches.map {
      MartBranch(record: $0, brands: brands, day: RunDay(asOf: manifest.asOf, window: manifest.window))
    }
    return MartBundle(
      version: manifest.version, asOf: MartDay(manifest.asOf),
      window: MartDay(manifest.window.from)...MartDay(manifest.window.through),
      brands: manifest.brands.map(\.martBrand),
      freshness: brands.mapValues(\.freshness), branches: branches,
      removed: file.removed.map { $0.map { (id: $0.id, lastListed: $0.lastListed.map(MartDay.init)) } })
  }

  /// Each manifest brand (named by its slug when it has no name) and its freshness, by slug; the
  /// first entry wins for a slug listed twice.
  static func brandEntries(of manifest: ManifestFile) -> BrandEntries {
    var entries: BrandEntries = [:]
    for brand in manifest.brands where entries[brand.slug] == nil {
      entries[brand.slug] = (
        brand.martBrand,
        MartBrandFreshness(manifestValue: brand.freshness, lastFetchedAsOf: brand.lastFetchedAsOf.map(MartDay.init))
      )
    }
    return entries
  }

  /// Throws unless `path` is relative and stays inside its folder (no `..`, no empty part).
  static func checkRelativePath(_ path: String, location: String) throws(MartBundleError) {
    let parts = path.split(separator: "/", omittingEmptySubsequences: false)
    guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\\"),
      !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
    else {
      throw MartBundleError(.unsafePath, location: location, message: "path \"\(path)\" leaves the bundle")
    }
  }

  /// A decoding error in a few words: what was expected where.
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, let context): return "missing \(path(context)).\(key.stringValue)"
    case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
      return "\(path(context)): \(context.debugDescription)"
    @unknown default: return "\(error)"
    }
  }
}
