import Foundation
import MartCore
import MartGzip

/// The gzip copy of every JSON file (`<path>.gz`), compressed by ``Gzip`` as each file is
/// closed (``BundleOutput/close(_:)``), so it has no exporter of its own.
enum GzipCopiesKind: BundleFileKind {
  /// What the copy of a file adds to its name.
  static let suffix = ".gz"

  /// The copy of the file at `path`.
  static func path(of path: String) -> String { path + suffix }

  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)? { nil }

  /// Every JSON file has a copy, and each copy decompresses to the file it copies.
  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection) {
    let listed = bundle.bundle.listed
    for path in listed.sorted() where path.hasSuffix(".json") && !listed.contains(self.path(of: path)) {
      inspection.report(bundle.bundle.manifestPath, "does not list \(self.path(of: path))")
    }
    for path in listed.sorted() where path.hasSuffix(suffix) {
      guard let data = bundle.bundle.contents[path] else { continue }
      let original = String(path.dropLast(suffix.count))
      // Inflating stops past the size of the file it copies: a small copy of a huge stream
      // costs no more memory than the file itself.
      guard let expected = bundle.bundle.contents[original] else {
        if !listed.contains(original) {
          inspection.report(bundle.path(path), "copies \(original), which is not listed")
        }
        continue
      }
      do {
        if try Gzip.decompress(data, atMost: expected.count) != expected {
          inspection.report(bundle.path(path), "does not decompress to \(original)")
        }
      } catch let failure where failure.limit != nil {
        inspection.report(bundle.path(path), "does not decompress to \(original) (\(failure))")
      } catch {
        inspection.report(bundle.path(path), "\(error)")
      }
    }
  }
}
