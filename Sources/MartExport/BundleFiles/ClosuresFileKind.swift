import Foundation
import MartCore
import MartFiles

/// `closures.json` (and its gzip copy): the branches closed on each day of the window, the
/// unknown and expected days, the days branches close for good and the branches not trading,
/// all made from `branches.json` (``ClosuresFile``).
enum ClosuresFileKind: BundleFileKind {
  static let name = "closures.json"

  static var requiredPaths: [String] { [name] }

  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)? {
    ClosuresExporter(closures: input.closures)
  }

  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection) {
    // Its ids stand alone: they are read against the brands this bundle lists and has.
    guard
      let closures = inspection.decode(
        ClosuresFile.self, listed: name, in: bundle.bundle, as: "closures file", brands: bundle.brands)
    else { return }
    checkClosures(
      closures, branches: bundle.branches, day: bundle.day,
      path: bundle.path(name), &inspection)
  }

  /// Every day's ids and the other lists against the file `branches.json` gives.
  static func checkClosures(
    _ closures: ClosuresFile, branches: [Branch], day: RunDay, path: String, _ inspection: inout BundleInspection
  ) {
    let window = day.window
    if closures.schemaVersion != bundleSchemaVersion {
      inspection.report(path, "schemaVersion \(closures.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if closures.window != window {
      inspection.report(path, "window \(closures.window.from)…\(closures.window.through) differs from the manifest's")
    }
    let expected = ClosuresFile(branches: branches, day: day)
    for day in Set(closures.dates.keys).union(expected.dates.keys).sorted() {
      guard let date = CalendarDate(iso: day) else {
        inspection.report(path, "\"\(day)\" is not a YYYY-MM-DD date")
        continue
      }
      if date < window.from || date > window.through {
        inspection.report(path, "\(day) is outside the window \(window.from)…\(window.through)")
      }
      let listed = closures.dates[day] ?? []
      let wanted = expected.dates[day] ?? []
      if listed != listed.sorted() || Set(listed).count != listed.count {
        inspection.report(path, "\(day): ids are not sorted and unique")
      }
      for id in Set(listed).subtracting(wanted).sorted() {
        inspection.report(
          path, "\(day): lists \(id), which \(BranchesFileKind.name) does not close that day", branch: id)
      }
      for id in Set(wanted).subtracting(listed).sorted() {
        inspection.report(path, "\(day): lacks \(id), which \(BranchesFileKind.name) closes that day", branch: id)
      }
      if listed.isEmpty, closures.dates[day] != nil { inspection.report(path, "\(day): lists no branch") }
    }
    if closures.unknown != expected.unknown {
      let day = Set(closures.unknown.keys).union(expected.unknown.keys).sorted().first {
        closures.unknown[$0] != expected.unknown[$0]
      }
      inspection.report(
        path, "unknown does not list the unknown days of \(BranchesFileKind.name) (first at \(day ?? "?"))")
    }
    if closures.expected != expected.expected {
      inspection.report(path, "expected does not list the closing.expected dates of \(BranchesFileKind.name)")
    }
    if closures.closingForGood != expected.closingForGood {
      inspection.report(
        path, "closingForGood does not list the closesOn dates of \(BranchesFileKind.name)'s trading branches")
    }
    if closures.shut != expected.shut {
      inspection.report(
        path,
        "shut lists \(closures.shut.map(\.description)), \(BranchesFileKind.name) has \(expected.shut.map(\.description)) not trading"
      )
    }
  }
}

/// `closures.json` (and its gzip copy): the branches closed on each day of the window, made from
/// all of them (``BundleExportInput/closures``), written at the end.
struct ClosuresExporter: BundleExporter {
  let closures: ClosuresFile

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    var writer = CanonicalJSONWriter(capacity: 1 << 16)
    writer.closures(closures)
    writer.bytes.append(0x0A)
    let file = output.open(ClosuresFileKind.name, gzip: true)
    file.write(writer.bytes)
    try output.close(file)
  }
}
