import Foundation
import MartCore
import MartDigest

/// Every file of one bundle, computed in memory from the branches (no I/O), with the
/// manifest that lists them. Equal input gives equal bytes and the same version.
///
/// Files, relative to the bundle directory:
/// ```
/// manifest.json                      (not listed in itself)
/// branches.json, branches.json.gz
/// brands/<slug>.json, .json.gz       one per brand in the manifest
/// index.json, index.json.gz
/// closures.json, closures.json.gz
/// calendars/branches/<branch id>.ics
/// calendars/brands/<slug>.ics
/// ```
public struct BundleContents: Sendable {
  /// `(path, bytes)` for every file except `manifest.json`, sorted by path.
  public var files: [(path: String, data: Data)]
  public var manifest: BundleManifest
  public var manifestData: Data

  public var version: String { manifest.version }

  /// Builds the bundle. Throws when a branch id cannot name a file (see `BranchIDFormat`) or
  /// when an id occurs twice.
  public init(
    branches unsorted: [Branch], brands: [BrandSummary], asOf: CalendarDate, window: DateWindow
  ) throws(ExportError) {
    let branches = unsorted.sorted { $0.id < $1.id }
    // Ids are compared as text: they name files, and clients store them as text.
    var seen = Set<String>()
    for branch in branches {
      guard BranchIDFormat.isWellFormed(branch.id) else {
        throw ExportError(path: "branches", message: "branch id \"\(branch.id)\" cannot name a file")
      }
      guard seen.insert(branch.id.description).inserted else {
        throw ExportError(path: "branches", message: "branch id \(branch.id) occurs twice")
      }
    }
    let summaries = brands.map(\.manifestEntry).sorted { $0.slug < $1.slug }
    let byBrand = Dictionary(grouping: branches, by: \.brand)
    let brandSlugs = Set(summaries.map(\.slug)).union(byBrand.keys).sorted()

    var files: [(path: String, data: Data)] = []
    func addJSON(_ path: String, _ value: some Encodable) throws(ExportError) {
      let data: Data
      do { data = try BundleJSON.encode(value) } catch {
        throw ExportError(path: path, message: "encoding failed: \(error)")
      }
      files.append((path, data))
      files.append((path + ".gz", Gzip.compress(data)))
    }
    try addJSON(
      "branches.json",
      BranchesFile(schemaVersion: bundleSchemaVersion, asOf: asOf, window: window, branches: branches))
    // Each branch's events serve its own calendar and its brand's.
    let names = Dictionary(summaries.map { ($0.slug, $0.name) }, uniquingKeysWith: { first, _ in first })
    func name(_ slug: BrandSlug) -> String { names[slug] ?? slug.rawValue }
    let events = Dictionary(
      uniqueKeysWithValues: branches.map { ($0.id, ICalendar.events(of: $0, brandName: name($0.brand), asOf: asOf)) })
    for slug in brandSlugs {
      try addJSON(
        "brands/\(slug.rawValue).json",
        BrandFile(schemaVersion: bundleSchemaVersion, asOf: asOf, window: window, branches: byBrand[slug] ?? []))
      files.append(
        (
          "calendars/brands/\(slug.rawValue).ics",
          ICalendar.brandCalendar(
            brandName: name(slug), events: (byBrand[slug] ?? []).map { ($0.id, events[$0.id] ?? []) })
        ))
    }
    try addJSON("index.json", IndexFile(branches: branches))
    try addJSON("closures.json", ClosuresFile(branches: branches, window: window, asOf: asOf))
    for branch in branches {
      files.append(
        (
          "calendars/branches/\(branch.id).ics",
          ICalendar.branchCalendar(branch, brandName: name(branch.brand), events: events[branch.id] ?? [])
        ))
    }
    files.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }

    let listed = files.map { BundleManifest.File(path: $0.path, sha256: SHA256.hex($0.data), bytes: $0.data.count) }
    // The version hashes everything the manifest says except the version itself.
    var manifest = BundleManifest(
      schemaVersion: bundleSchemaVersion, version: "", asOf: asOf, window: window, brands: summaries, files: listed)
    let unversioned: Data
    do { unversioned = try BundleJSON.encode(manifest) } catch {
      throw ExportError(path: "manifest.json", message: "encoding failed: \(error)")
    }
    manifest.version = "\(asOf.iso)-\(SHA256.hex(unversioned).prefix(12))"
    do { self.manifestData = try BundleJSON.encode(manifest) } catch {
      throw ExportError(path: "manifest.json", message: "encoding failed: \(error)")
    }
    self.manifest = manifest
    self.files = files
  }
}

/// What a branch id must look like in a bundle.
public enum BranchIDFormat {
  /// `<brand slug>-<store id>`, where the store id (a code, or a store name as published when
  /// the brand gives no code) can name a file: not empty, at most 200 UTF-8 bytes, no `/`, `\`,
  /// control characters or surrounding white space, not starting with `.`.
  public static func isWellFormed(_ id: BranchID) -> Bool {
    guard BrandSlug.isWellFormed(id.brand.rawValue) else { return false }
    let store = id.storeID
    guard let first = store.unicodeScalars.first, let last = store.unicodeScalars.last else { return false }
    return store.utf8.count <= 200 && first != "." && !first.properties.isWhitespace
      && !last.properties.isWhitespace
      && store.unicodeScalars.allSatisfy { scalar in
        scalar != "/" && scalar != "\\" && scalar.properties.generalCategory != .control
      }
  }
}
