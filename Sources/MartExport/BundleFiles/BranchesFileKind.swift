import Foundation
import MartCore
import MartFiles

/// `branches.json` (and its gzip copy): every branch and every removed id, sorted by id; the
/// reference every other file of the bundle is checked against.
enum BranchesFileKind: BundleFileKind {
  static let name = "branches.json"

  static var requiredPaths: [String] { [name] }

  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)? {
    BranchesExporter(frame: input.frame, removed: input.removed)
  }

  /// `bundle` with its `branches.json`; `nil` when that is not there (the manifest was found not
  /// to list it) or does not decode (a finding), and nothing else can be checked.
  static func reference(_ bundle: ListedBundle, _ inspection: inout BundleInspection) -> BundleReference? {
    guard let file = inspection.decode(BranchesFile.self, listed: name, in: bundle, as: "branch file") else {
      return nil
    }
    return BundleReference(bundle: bundle, branchesFile: file)
  }

  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection) {
    let path = bundle.path(name)
    checkHeader(bundle.branchesFile, manifest: bundle.manifest, path: path, &inspection)
    checkBranches(bundle.branches, day: bundle.day, path: path, &inspection)
    checkRemoved(bundle.branchesFile, asOf: bundle.manifest.asOf, path: path, &inspection)
  }

  /// The schema version and window of a file in the frame of `branches.json` (the as-of date is
  /// the manifest's alone).
  static func checkHeader(
    _ file: BranchesFile, manifest: BundleManifest, path: String, _ inspection: inout BundleInspection
  ) {
    if file.schemaVersion != bundleSchemaVersion {
      inspection.report(path, "schemaVersion \(file.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if file.window != manifest.window {
      inspection.report(path, "window \(file.window.from)…\(file.window.through) differs from the manifest's")
    }
  }

  /// Every branch: ids well-formed, unique, sorted and of their brand; dates sorted, unique and
  /// inside the window; the closing state consistent; coordinates inside Korea.
  static func checkBranches(
    _ branches: [Branch], day: RunDay, path: String, _ inspection: inout BundleInspection
  ) {
    let (asOf, window) = (day.asOf, day.window)
    var seen = Set<BranchID>()
    var previous: BranchID?
    for branch in branches {
      let id = branch.id
      if !BranchIDFormat.isWellFormed(id) { inspection.report(path, branch: id, "id is not well-formed") }
      if !seen.insert(id).inserted { inspection.report(path, branch: id, "id occurs more than once") }
      if let previous, !(previous < id) { inspection.report(path, branch: id, "not sorted by id (after \(previous))") }
      previous = id
      if branch.brand != id.brand {
        inspection.report(path, branch: id, "brand \(branch.brand.rawValue) does not match the id")
      }
      if branch.name.trimmingCharacters(in: .whitespaces).isEmpty {
        inspection.report(path, branch: id, "name is empty")
      }
      let dates = branch.closing.dates
      if dates != Array(Set(dates)).sorted() {
        inspection.report(path, branch: id, "closing.dates are not sorted and unique")
      }
      for date in dates where date < window.from || date > window.through {
        inspection.report(
          path, branch: id, "closing date \(date) is outside the window \(window.from)…\(window.through)")
      }
      if branch.closing.status != .closures, !dates.isEmpty {
        inspection.report(
          path, branch: id, "closing.status is \(branch.closing.status.rawValue) but closing.dates is not empty")
      }
      if let expected = branch.closing.expected {
        if branch.closing.status != .unknown {
          inspection.report(
            path, branch: id, "has expected days but closing.status is \(branch.closing.status.rawValue), not unknown")
        }
        if expected.dates != Array(Set(expected.dates)).sorted() {
          inspection.report(path, branch: id, "closing.expected.dates are not sorted and unique")
        }
        for date in expected.dates where !window.contains(date) {
          inspection.report(
            path, branch: id, "expected date \(date) is outside the window \(window.from)…\(window.through)")
        }
      }
      let unknown = branch.closing.unknownRanges
      for range in unknown
      where range.from > range.through || range.from < window.from || range.through > window.through {
        inspection.report(path, branch: id, "unknown range \(range.from)…\(range.through) is not inside the window")
      }
      for (earlier, later) in zip(unknown, unknown.dropFirst()) where earlier.through.adding(days: 1) >= later.from {
        inspection.report(path, branch: id, "unknown ranges are not sorted and apart at \(later.from)")
      }
      for date in dates where unknown.contains(where: { $0.from <= date && date <= $0.through }) {
        inspection.report(path, branch: id, "closing date \(date) lies in an unknown range")
      }
      // Every day of the window after knownThrough is unknown, never open.
      if let known = branch.closing.knownThrough, known < window.through {
        let first = max(known.adding(days: 1), window.from)
        if !unknown.contains(where: { $0.from <= first && window.through <= $0.through }) {
          inspection.report(path, branch: id, "days after knownThrough \(known) are not all in unknownRanges")
        }
      }
      if let missing = branch.missingFromSource {
        if missing.since > asOf {
          inspection.report(path, branch: id, "missing from its source since \(missing.since), after the as-of date")
        }
        if !(1...MissingFromSource.graceRuns).contains(missing.runs) {
          inspection.report(
            path, branch: id,
            "missing from its source for \(missing.runs) runs; kept for 1 to \(MissingFromSource.graceRuns) only")
        }
      }
      if let coordinate = branch.coordinate, !CoordinateValidation.isDomestic(coordinate.point) {
        inspection.report(
          path, branch: id, "coordinate (\(coordinate.latitude), \(coordinate.longitude)) is outside Korea")
      }
      // A store that is not trading is closed every day it is shut, so no client shows it open.
      if let shut = ShutDays(branch.storeStatus, asOf: asOf).range(in: window) {
        let closed = Set(dates)
        var day = shut.lowerBound
        while day <= shut.upperBound, closed.contains(day) { day = day.adding(days: 1) }
        if day <= shut.upperBound {
          inspection.report(
            path, branch: id, "the store is \(branch.storeStatus.state.rawValue) but \(day) is not a closing date")
        }
      }
    }
  }

  /// `removed`: sorted by id and unique, ids of their brand that the file does not list, each
  /// last listed no later than the as-of day. Former ids: well-formed, of the branch's brand,
  /// no branch's id and listed by one branch once, and never removed.
  static func checkRemoved(
    _ file: BranchesFile, asOf: CalendarDate, path: String, _ inspection: inout BundleInspection
  ) {
    let listed = Set(file.branches.map(\.id))
    var formerOwner: [BranchID: BranchID] = [:]
    for branch in file.branches {
      for former in branch.formerIDs {
        if !BranchIDFormat.isWellFormed(former) || former.brand != branch.brand {
          inspection.report(path, branch: branch.id, "former id \(former) is not an id of brand \(branch.brand)")
        }
        if listed.contains(former) {
          inspection.report(path, branch: branch.id, "former id \(former) is a branch's id")
        }
        if let owner = formerOwner[former] {
          inspection.report(path, branch: branch.id, "former id \(former) is also listed by \(owner)")
        }
        formerOwner[former] = branch.id
      }
    }
    var previous: BranchID?
    for entry in file.removed {
      let id = entry.id
      if let previous, !(previous < id) {
        inspection.report(path, "removed \(id): not sorted by id or repeated (after \(previous))")
      }
      previous = id
      if !BranchIDFormat.isWellFormed(id) { inspection.report(path, "removed \(id): id is not well-formed") }
      if listed.contains(id) { inspection.report(path, "removed \(id): the branch is listed") }
      if let owner = formerOwner[id] { inspection.report(path, "removed \(id): a former id of \(owner)") }
      if let lastListed = entry.lastListed, lastListed > asOf {
        inspection.report(path, "removed \(id): lastListed \(lastListed) is after the as-of date \(asOf)")
      }
    }
  }
}

/// `{"branches":[` … `],"removed":[…],"schemaVersion":2,"window":{…}}` with a final
/// newline: the frame of `branches.json` and of each brand's file.
struct BranchListFrame {
  let head: [UInt8]
  /// What follows `removed`'s list.
  private let end: [UInt8]

  init(window: DateWindow) {
    var head = CanonicalJSONWriter(capacity: 64)
    head.raw(#"{"branches":["#)
    var end = CanonicalJSONWriter(capacity: 128)
    end.raw(#","schemaVersion":"#)
    end.int(bundleSchemaVersion)
    end.raw(#","window":"#)
    end.window(window)
    end.raw("}\n")
    self.head = head.bytes
    self.end = end.bytes
  }

  /// The end of a file whose `removed` list is `removed`.
  func tail(removed: [RemovedBranch]) -> [UInt8] {
    var tail = CanonicalJSONWriter(capacity: 128 + 64 * removed.count)
    tail.raw(#"],"removed":"#)
    tail.removed(removed)
    tail.bytes += end
    return tail.bytes
  }

  static let comma: [UInt8] = [0x2C]
}

/// `branches.json` (and its gzip copy): every branch, and every removed id.
struct BranchesExporter: BundleExporter {
  let frame: BranchListFrame
  let removed: [RemovedBranch]
  private var file: BundleFileStream?
  private var count = 0

  init(frame: BranchListFrame, removed: [RemovedBranch]) {
    self.frame = frame
    self.removed = removed
  }

  mutating func begin(_ output: BundleOutput) throws(FileError) {
    let file = output.open(BranchesFileKind.name, gzip: true)
    file.write(frame.head)
    self.file = file
  }

  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {
    if count > 0 { file?.write(BranchListFrame.comma) }
    file?.write(branch.json)
    count += 1
  }

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    guard let file else { return }
    file.write(frame.tail(removed: removed))
    try output.close(file)
    self.file = nil
  }
}
