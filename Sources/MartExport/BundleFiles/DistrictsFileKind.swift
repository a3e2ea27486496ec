import Foundation
import MartCore
import MartFiles

/// `districts.json` (and its gzip copy): the closing days each district keeps, inferred from all
/// the branches (``DistrictsFile``); bundles made before it existed have none.
enum DistrictsFileKind: BundleFileKind {
  static let name = "districts.json"

  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)? {
    DistrictsExporter(
      file: input.districts
        ?? DistrictsFile(
          branches: input.branches, window: input.day.window, exempt: input.summaries.exemptFromDesignation,
          storeClasses: input.summaries.storeClasses, asOf: input.day.asOf))
  }

  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection) {
    guard
      let districts = inspection.decode(
        DistrictsFile.self, listed: name, in: bundle.bundle, as: "districts file", brands: bundle.brands)
    else { return }
    checkDistricts(
      districts, branches: bundle.branches, day: bundle.day,
      brands: bundle.bundle.manifest.brands, sources: inspection.sources, path: bundle.path(name), &inspection)
  }

  /// `districts.json` against the inference made again from `\(BranchesFileKind.name)` (leaving
  /// out the branches of the brands the manifest marks `designated: false` or `stale`, each
  /// brand's stores in the manifest's `storeClass`, its closing days from its source in
  /// `sources`) with what the file itself says earlier runs
  /// knew (``DistrictsFile/memory``: designations kept without fresh evidence, standing store
  /// exceptions), and every branch's expected days against that inference's.
  static func checkDistricts(
    _ file: DistrictsFile, branches: [Branch], day: RunDay, brands: [BrandSummary], sources: [BrandSlug: String],
    path: String, _ inspection: inout BundleInspection
  ) {
    let (asOf, window) = (day.asOf, day.window)
    if file.schemaVersion != bundleSchemaVersion {
      inspection.report(path, "schemaVersion \(file.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if file.window != window {
      inspection.report(path, "window \(file.window.from)…\(file.window.through) differs from the manifest's")
    }
    let keys = file.districts.map(\.key)
    if keys != keys.sorted() || Set(keys).count != keys.count {
      inspection.report(path, "districts are not sorted and unique by district and store class")
    }
    for entry in file.districts {
      switch (entry.basis, entry.firstConfirmed, entry.lastConfirmed) {
      case (.learned, let first?, let last?) where last > asOf || first > last:
        inspection.report(path, "\(entry.title): confirmed \(first.iso)…\(last.iso), not by \(asOf.iso)")
      case (.learned, nil, _), (.learned, _, nil):
        inspection.report(path, "\(entry.title): learned, but firstConfirmed or lastConfirmed is null")
      case (.cited, _, _) where entry.citation == nil || entry.firstConfirmed != nil || entry.lastConfirmed != nil:
        inspection.report(path, "\(entry.title): cited, but without a citation or with confirmation dates")
      case (.learned, _, _) where entry.citation != nil:
        inspection.report(path, "\(entry.title): learned, but with a citation")
      default: break
      }
    }
    let exempt = brands.exemptFromDesignation
    let inference = DistrictDesignations.infer(
      from: branches, window: window, exempt: exempt, storeClasses: brands.storeClasses, sources: sources,
      asOf: asOf, memory: file.memory)
    let inferred = Dictionary(
      inference.districts.map { ($0.key, DistrictsFile.Entry($0)) }, uniquingKeysWith: { a, _ in a })
    let listed = Dictionary(file.districts.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
    for key in Set(inferred.keys).union(listed.keys).sorted() {
      switch (listed[key], inferred[key]) {
      case (nil, let wanted?):
        inspection.report(path, "\(wanted.title): lacks this designation, which the branches of \(BranchesFileKind.name) support")
      case (let entry?, nil):
        inspection.report(path, "\(entry.title): the branches of \(BranchesFileKind.name) support no pattern here")
      case (let entry?, let wanted?) where entry != wanted:
        inspection.report(
          path,
          "\(entry.title): differs from what \(BranchesFileKind.name) supports (\(wanted.patternDescription), evidence \(wanted.evidence.map(\.description)))"
        )
      default: break
      }
    }
    for branch in branches {
      guard let expected = branch.closing.expected else { continue }
      if exempt.contains(branch.brand) {
        inspection.report(
          path, branch: branch.id,
          "has closing.expected, but the manifest says \(branch.brand) is not designated or is stale")
        continue
      }
      let bases = [ExpectedClosing.learnedBasis, ExpectedClosing.citedBasis, ExpectedClosing.storeExceptionBasis]
      if !bases.contains(expected.basis) {
        inspection.report(
          path, branch: branch.id,
          "closing.expected.basis is \"\(expected.basis)\", not one of \(bases.map { "\"\($0)\"" }.joined(separator: ", "))")
      }
      guard let wanted = inference.expected(for: branch) else {
        inspection.report(
          path, branch: branch.id, "closing.expected names \(expected.district), which has no pattern here for its class")
        continue
      }
      if expected.dates != wanted.dates {
        inspection.report(
          path, branch: branch.id, "closing.expected.dates are not the expected days of \(expected.district)")
      } else if expected != wanted {
        inspection.report(
          path, branch: branch.id,
          "closing.expected differs from what \(name) gives it (\(wanted.basis), \(wanted.storeClass?.rawValue ?? "no class"))")
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
      throw FileError(.encode, path: DistrictsFileKind.name, message: "encoding failed", cause: error)
    }
    let file = output.open(DistrictsFileKind.name, gzip: true)
    file.write(ArraySlice(data))
    try output.close(file)
  }
}
