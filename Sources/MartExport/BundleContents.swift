import Foundation
import MartCore
import MartDigest
import MartFiles
import MartGzip

/// Every file of one bundle, computed in memory from the branches (no I/O; ``BundleStore``
/// streams the same files to disk instead), with the manifest that lists them. Equal input gives equal bytes and the same version.
///
/// Files, relative to the bundle directory:
/// ```
/// manifest.json                      (not listed in itself)
/// branches.json, branches.json.gz
/// brands/<slug>.json, .json.gz       one per brand in the manifest
/// index.json, index.json.gz
/// closures.json, closures.json.gz
/// districts.json, districts.json.gz
/// calendars/branches/<branch id>.ics
/// calendars/brands/<slug>.ics
/// ```
public struct BundleContents: Sendable {
  /// `(path, bytes)` for every file except `manifest.json`, sorted by path.
  public var files: [(path: String, data: Data)]
  public var manifest: BundleManifest
  public var manifestData: Data

  public var version: String { manifest.version }

  /// Builds the bundle, with `removed` as the ids the sources stopped listing. Throws when a
  /// branch id cannot name a file (see `BranchIDFormat`) or when an id occurs twice (listed
  /// and removed included).
  public init(
    branches unsorted: [Branch], brands: [BrandSummary], day: RunDay,
    removed: [RemovedBranch] = []
  ) throws(FileError) {
    let kept = KeptBundleFiles()
    // Never stopped, so always built.
    let built = try BundleBuilder.build(
      branches: unsorted, brands: brands, day: day, removed: removed, into: kept)!
    self.files = kept.sorted
    self.manifest = built.manifest
    self.manifestData = built.manifestData
  }

  /// The bundle as the general `Encodable` encoder writes it: the reference that
  /// ``BundleBuilder`` matches byte for byte. Every branch is encoded twice and every file held
  /// in memory; for tests.
  static func encodedByTypes(
    branches unsorted: [Branch], brands: [BrandSummary], day: RunDay,
    removed unsortedRemoved: [RemovedBranch] = []
  ) throws -> (files: [(path: String, data: Data)], manifestData: Data) {
    let (asOf, window) = (day.asOf, day.window)
    let branches = unsorted.sorted { $0.id < $1.id }
    let removed = unsortedRemoved.sorted { $0.id < $1.id }
    let summaries = brands.map(\.manifestEntry).sorted { $0.slug < $1.slug }
    let byBrand = Dictionary(grouping: branches, by: \.brand)
    let brandSlugs = Set(summaries.map(\.slug)).union(byBrand.keys).sorted()
    var files: [(path: String, data: Data)] = []
    func addJSON(_ path: String, _ value: some Encodable) throws {
      let data = try BundleJSON.encode(value)
      files.append((path, data))
      files.append((GzipCopiesKind.path(of: path), Gzip.compress(data)))
    }
    try addJSON(
      BranchesFileKind.name,
      BranchesFile(
        schemaVersion: bundleSchemaVersion, window: window, branches: branches, removed: removed))
    let names = Dictionary(summaries.map { ($0.slug, $0.name) }, uniquingKeysWith: { first, _ in first })
    func name(_ slug: BrandSlug) -> String { names[slug] ?? slug.rawValue }
    for slug in brandSlugs {
      try addJSON(
        BrandFilesKind.path(of: slug),
        BrandFile(
          schemaVersion: bundleSchemaVersion, window: window, branches: byBrand[slug] ?? [],
          removed: removed.filter { $0.brand == slug }))
      files.append(
        (
          CalendarFilesKind.path(of: slug),
          ICalendar.brandCalendar(
            brandName: name(slug), branches: byBrand[slug] ?? [], asOf: asOf, staleSince: summaries.staleSince[slug])
        ))
    }
    try addJSON(IndexFileKind.name, IndexFile(branches: branches))
    try addJSON(ClosuresFileKind.name, ClosuresFile(branches: branches, day: day))
    try addJSON(
      DistrictsFileKind.name,
      DistrictsFile(
        branches: branches, window: window, exempt: summaries.exemptFromDesignation,
        storeClasses: summaries.storeClasses, asOf: asOf))
    for branch in branches {
      files.append(
        (
          CalendarFilesKind.path(of: branch.id),
          ICalendar.branchCalendar(
            branch, brandName: name(branch.brand), asOf: asOf, staleSince: summaries.staleSince[branch.brand])
        ))
    }
    files.sort { $0.path.precedesInUTF8($1.path) }
    let listed = files.map { BundleManifest.File(path: $0.path, sha256: SHA256.hex($0.data), bytes: $0.data.count) }
    var manifest = BundleManifest(
      schemaVersion: bundleSchemaVersion, version: "", asOf: asOf, window: window, brands: summaries, files: listed)
    manifest.version = "\(asOf.iso)-\(SHA256.hex(try BundleJSON.encode(manifest)).prefix(12))"
    return (files, try BundleJSON.encode(manifest))
  }
}

/// What a branch id must look like in a bundle.
public enum BranchIDFormat {
  /// `<brand slug>-<store id>`, where the store id can name a file (see
  /// `BranchID.fileNameProblem`).
  public static func isWellFormed(_ id: BranchID) -> Bool {
    BrandSlug.isWellFormed(id.brand.rawValue) && id.fileNameProblem == nil
  }
}
