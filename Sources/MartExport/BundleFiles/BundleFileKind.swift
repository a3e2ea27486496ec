import Foundation
import MartCore
import MartFiles

/// One kind of file in a bundle (`branches.json`, the brand files, `index.json`, …), kept in one
/// file of its own under `BundleFiles/`: its name, the exporter that makes it and the check that
/// reads it back. ``BundleBuilder`` composes the exporters of ``BundleFileKinds/all`` over one
/// pass of the branches; ``BundleValidator`` composes their checks, in the same order, against
/// `branches.json`.
protocol BundleFileKind: Sendable {
  /// The paths every bundle lists (the validator reports each one the manifest lacks).
  static var requiredPaths: [String] { get }

  /// The exporter that makes this kind's files for the bundle `input` describes; `nil` when
  /// the files are made another way (the gzip copies, made as each file is closed).
  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)?

  /// Checks this kind's files in `bundle` against its `branches.json`, reporting each finding
  /// to `inspection`.
  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection)
}

extension BundleFileKind {
  static var requiredPaths: [String] { [] }
}

/// Every kind of file a bundle holds besides its manifest (``ManifestFileKind``), in the order
/// they are made and checked.
enum BundleFileKinds {
  static let all: [any BundleFileKind.Type] = [
    BranchesFileKind.self,
    BrandFilesKind.self,
    IndexFileKind.self,
    ClosuresFileKind.self,
    DistrictsFileKind.self,
    GzipCopiesKind.self,
    CalendarFilesKind.self,
  ]

  /// The paths every bundle lists, in the order of ``all``.
  static var requiredPaths: [String] { all.flatMap { $0.requiredPaths } }
}

/// What the exporters of one bundle are made from: the branches and removed ids sorted by id,
/// the brands, the run's day (as-of date and window).
struct BundleExportInput {
  /// Every branch, sorted by id.
  var branches: [Branch]
  /// Every removed id, sorted by id.
  var removed: [RemovedBranch]
  /// The manifest's brand entries, sorted by slug.
  var summaries: [BrandSummary]
  /// Every brand with an entry or a branch, sorted.
  var brands: [BrandSlug]
  var day: RunDay
  /// `districts.json` when given; otherwise inferred from the branches.
  var districts: DistrictsFile?
  /// `closures.json`, made from the branches once: the built bundle hands it on to the page.
  var closures: ClosuresFile
  /// The frame of `branches.json` and of each brand's file.
  var frame: BranchListFrame
  /// The Korean name of each brand (else its slug).
  var brandName: (BrandSlug) -> String
  /// The as-of date of a stale brand's last good fetch; `nil` for a fresh one.
  var staleSince: (BrandSlug) -> CalendarDate?
}

/// One kind of bundle file, made as the branches go by, in the shape of a feed exporter:
/// ``begin(_:)`` opens its files, ``add(_:to:)`` takes each branch in id order, ``finish(_:)``
/// closes what is left. ``BundleBuilder`` composes them over one pass of the branches; the gzip
/// copy of a file is made by the file itself as it is written (``BundleOutput/open(_:gzip:)``).
protocol BundleExporter {
  mutating func begin(_ output: BundleOutput) throws(FileError)
  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError)
  mutating func finish(_ output: BundleOutput) throws(FileError)
}

extension BundleExporter {
  mutating func begin(_ output: BundleOutput) throws(FileError) {}
  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {}
}

/// A branch as the exporters see it: its canonical JSON, encoded once for every file that lists
/// it, and where it stands among the branches of its brand.
struct ExportedBranch {
  var branch: Branch
  /// The branch's canonical JSON (``CanonicalJSONWriter/branch(_:)``), without a separator.
  var json: ArraySlice<UInt8>
  /// The Korean name of its brand (else the slug).
  var brandName: String
  /// Whether no later branch has its brand, so the brand's files can be finished.
  var lastOfBrand: Bool
}
