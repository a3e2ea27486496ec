import Foundation
import MartCore
import MartFiles

/// `brands/<slug>.json` (and gzip copies): each brand's branches and removed ids in the frame of
/// `branches.json`, one file per brand the manifest lists or a branch has; the manifest's brand
/// entries are checked with them.
enum BrandFilesKind: BundleFileKind {
  /// The folder of the brand files.
  static let folder = "brands"

  /// The file of `brand`.
  static func path(of brand: BrandSlug) -> String { "\(folder)/\(brand.rawValue).json" }

  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)? {
    BrandFilesExporter(frame: input.frame, brands: input.brands, removed: input.removed)
  }

  /// The manifest's brand entries (each once, counting the brand's branches, one for every
  /// brand with branches), and each brand's file against the brand's part of `branches.json`.
  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection) {
    let manifestPath = bundle.bundle.manifestPath
    let reference = BranchesFileKind.name
    var summarized = Set<BrandSlug>()
    for summary in bundle.manifest.brands {
      if !summarized.insert(summary.slug).inserted {
        inspection.report(manifestPath, "brand \(summary.slug.rawValue) is listed twice", brand: summary.slug)
      }
      let count = bundle.byBrand[summary.slug]?.count ?? 0
      if summary.branchCount != count {
        inspection.report(
          manifestPath,
          "brand \(summary.slug.rawValue) has branchCount \(summary.branchCount), \(reference) has \(count)",
          brand: summary.slug)
      }
    }
    for brand in bundle.byBrand.keys.sorted() where !summarized.contains(brand) {
      inspection.report(manifestPath, "brand \(brand.rawValue) has branches but no entry in brands", brand: brand)
    }
    for brand in bundle.brands {
      let relative = path(of: brand)
      guard let data = inspection.listedData(relative, in: bundle.bundle),
        let file = inspection.decode(BranchesFile.self, data, bundle.path(relative), as: "branch file")
      else { continue }
      BranchesFileKind.checkHeader(file, manifest: bundle.manifest, path: bundle.path(relative), &inspection)
      let branches = bundle.byBrand[brand] ?? []
      if file.branches != branches {
        let expected = Set(branches.map(\.id))
        let actual = Set(file.branches.map(\.id))
        var detail = "differs from the \(brand.rawValue) branches in \(reference)"
        if let extra = actual.subtracting(expected).min() {
          detail += " (has \(extra))"
        } else if let lacking = expected.subtracting(actual).min() {
          detail += " (lacks \(lacking))"
        }
        inspection.report(bundle.path(relative), detail, brand: brand)
      }
      if file.removed != bundle.branchesFile.removed.filter({ $0.brand == brand }) {
        inspection.report(
          bundle.path(relative), "removed differs from the \(brand.rawValue) entries of \(reference)'s removed",
          brand: brand)
      }
    }
  }
}

/// `brands/<slug>.json` (and gzip copies): each brand's branches and removed ids, in the frame
/// of `branches.json`. A brand's file is finished as soon as its last branch is written, so only
/// the brands in progress are open; a brand without branches (missing) gets an empty list.
struct BrandFilesExporter: BundleExporter {
  let frame: BranchListFrame
  let brands: [BrandSlug]
  let removed: [BrandSlug: [RemovedBranch]]
  private var open: [BrandSlug: (file: BundleFileStream, empty: Bool)] = [:]

  init(frame: BranchListFrame, brands: [BrandSlug], removed: [RemovedBranch]) {
    self.frame = frame
    self.brands = brands
    self.removed = Dictionary(grouping: removed, by: \.brand)
  }

  mutating func begin(_ output: BundleOutput) throws(FileError) {
    for brand in brands {
      let file = output.open(BrandFilesKind.path(of: brand), gzip: true)
      file.write(frame.head)
      open[brand] = (file, true)
    }
  }

  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {
    let brand = branch.branch.brand
    guard let entry = open[brand] else { return }
    if !entry.empty { entry.file.write(BranchListFrame.comma) }
    entry.file.write(branch.json)
    if entry.empty { open[brand]?.empty = false }
    if branch.lastOfBrand { try close(brand, output) }
  }

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    for brand in brands { try close(brand, output) }
  }

  private mutating func close(_ brand: BrandSlug, _ output: BundleOutput) throws(FileError) {
    guard let file = open.removeValue(forKey: brand)?.file else { return }
    file.write(frame.tail(removed: removed[brand] ?? []))
    try output.close(file)
  }
}
