import Foundation
import MartCore

/// `districts.json` (and its gzip copy): the closing days each district keeps, inferred from all
/// the branches (``DistrictsFile``); bundles made before it existed have none.
enum DistrictsFileKind: BundleFileKind {
  static let name = "districts.json"

  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)? {
    DistrictsExporter(
      file: input.districts
        ?? DistrictsFile(
          branches: input.branches, window: input.window, exempt: input.summaries.exemptFromDesignation))
  }

  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection) {
    guard
      let districts = inspection.decode(
        DistrictsFile.self, listed: name, in: bundle.bundle, as: "districts file", brands: bundle.brands)
    else { return }
    checkDistricts(
      districts, branches: bundle.branches, window: bundle.window,
      exempt: bundle.manifest.brands.exemptFromDesignation, path: bundle.path(name), &inspection)
  }

  /// `districts.json` against the inference made again from `\(BranchesFileKind.name)` (leaving out the
  /// branches of `exempt` brands, which the manifest marks `designated: false` or `stale`), and
  /// every branch's expected days against its district's.
  static func checkDistricts(
    _ file: DistrictsFile, branches: [Branch], window: DateWindow, exempt: Set<BrandSlug>, path: String,
    _ inspection: inout BundleInspection
  ) {
    if file.schemaVersion != bundleSchemaVersion {
      inspection.report(path, "schemaVersion \(file.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if file.window != window {
      inspection.report(path, "window \(file.window.from)…\(file.window.through) differs from the manifest's")
    }
    let names = file.districts.map(\.name)
    if names != names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) || Set(names).count != names.count {
      inspection.report(path, "districts are not sorted and unique")
    }
    let inference = DistrictDesignations.infer(from: branches, window: window, exempt: exempt)
    let inferred = Dictionary(
      inference.districts.map { (DistrictsFile.Entry($0).name, DistrictsFile.Entry($0)) },
      uniquingKeysWith: { a, _ in a })
    let listed = Dictionary(file.districts.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    for name in Set(inferred.keys).union(listed.keys).sorted() {
      switch (listed[name], inferred[name]) {
      case (nil, _?):
        inspection.report(path, "\(name): lacks this district, which the branches of \(BranchesFileKind.name) support")
      case (_?, nil):
        inspection.report(path, "\(name): the branches of \(BranchesFileKind.name) support no pattern here")
      case (let entry?, let wanted?) where entry != wanted:
        inspection.report(
          path,
          "\(name): differs from what \(BranchesFileKind.name) supports (\(wanted.patternDescription), evidence \(wanted.evidence.map(\.description)))"
        )
      default: break
      }
    }
    let expectedDates = Dictionary(
      inference.expectedDates.map { ($0.key.description, $0.value) }, uniquingKeysWith: { a, _ in a })
    for branch in branches {
      guard let expected = branch.closing.expected else { continue }
      if exempt.contains(branch.brand) {
        inspection.report(
          path, branch: branch.id,
          "has closing.expected, but the manifest says \(branch.brand) is not designated or is stale")
      }
      if expected.basis != "district" {
        inspection.report(path, branch: branch.id, "closing.expected.basis is \"\(expected.basis)\", not \"district\"")
      }
      guard let wanted = expectedDates[expected.district] else {
        inspection.report(
          path, branch: branch.id, "closing.expected names \(expected.district), which has no pattern here")
        continue
      }
      if expected.dates != wanted {
        inspection.report(
          path, branch: branch.id, "closing.expected.dates are not the expected days of \(expected.district)")
      }
    }
  }
}

/// `districts.json`: the closing days each district keeps, inferred from all the branches at
/// the end (``DistrictsFile``), and its gzip copy. Small, so encoded whole by `CanonicalJSON`.
struct DistrictsExporter: BundleExporter {
  /// `districts.json` as it is written.
  let file: DistrictsFile

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    let data: Data
    do { data = try BundleJSON.encode(file) } catch {
      throw FileError(.encode, path: DistrictsFileKind.name, message: "encoding failed: \(error)")
    }
    let file = output.open(DistrictsFileKind.name, gzip: true)
    file.write(ArraySlice(data))
    try output.close(file)
  }
}
