import Foundation
import MartCore
import MartFiles

/// `index.json` (and its gzip copy): one small row per branch (``IndexFile/Row``), for clients
/// that list branches before they load one.
enum IndexFileKind: BundleFileKind {
  static let name = "index.json"

  static var requiredPaths: [String] { [name] }

  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)? { IndexExporter() }

  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection) {
    guard let index = inspection.decode(IndexFile.self, listed: name, in: bundle.bundle, as: "index") else {
      return
    }
    checkIndex(index, branches: bundle.branches, path: bundle.path(name), &inspection)
  }

  /// Every row against the one `branches.json` gives.
  static func checkIndex(_ index: IndexFile, branches: [Branch], path: String, _ inspection: inout BundleInspection) {
    if index.schemaVersion != bundleSchemaVersion {
      inspection.report(path, "schemaVersion \(index.schemaVersion) is not \(bundleSchemaVersion)")
    }
    let expected = IndexFile(branches: branches)
    guard index != expected else { return }
    let actual = Dictionary(index.branches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let wanted = Dictionary(expected.branches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var reported = 0
    for id in Set(actual.keys).union(wanted.keys).sorted() where actual[id] != wanted[id] {
      switch (actual[id], wanted[id]) {
      case (nil, _): inspection.report(path, branch: id, "missing (it is in \(BranchesFileKind.name))")
      case (_, nil): inspection.report(path, branch: id, "not in \(BranchesFileKind.name)")
      default: inspection.report(path, branch: id, "row differs from \(BranchesFileKind.name)")
      }
      reported += 1
    }
    if reported == 0 { inspection.report(path, "rows are not sorted by id or repeat an id") }
  }
}

/// `index.json` (and its gzip copy): one small row per branch, written in batches.
struct IndexExporter: BundleExporter {
  private var file: BundleFileStream?
  private var writer = CanonicalJSONWriter(capacity: 1 << 17)
  private var count = 0

  mutating func begin(_ output: BundleOutput) throws(FileError) {
    file = output.open(IndexFileKind.name, gzip: true)
    writer.raw(#"{"branches":["#)
  }

  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {
    if count > 0 { writer.bytes.append(0x2C) }
    count += 1
    do { try writer.indexRow(IndexFile.Row(branch.branch)) } catch {
      throw FileError(.encode, path: IndexFileKind.name, message: "encoding failed", cause: error)
    }
    if writer.bytes.count >= 1 << 16 {
      file?.write(writer.bytes)
      writer.bytes.removeAll(keepingCapacity: true)
    }
  }

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    guard let file else { return }
    writer.raw(#"],"schemaVersion":"#)
    writer.int(bundleSchemaVersion)
    writer.raw("}\n")
    file.write(writer.bytes)
    try output.close(file)
    self.file = nil
  }
}
