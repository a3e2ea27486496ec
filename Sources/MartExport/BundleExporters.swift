import Foundation
import MartCore

/// One kind of bundle file, made as the branches go by, in the shape of a feed exporter:
/// ``begin(_:)`` opens its files, ``add(_:to:)`` takes each branch in id order, ``finish(_:)``
/// closes what is left. ``BundleBuilder`` composes them over one pass of the branches; the gzip
/// copy of a file is made by the file itself as it is written (``BundleOutput/open(_:gzip:)``).
protocol BundleExporter {
  mutating func begin(_ output: BundleOutput) throws(FileError)
  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError)
  mutating func finish(_ output: BundleOutput) throws(FileError)
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

/// `{"asOf":…,"branches":[` … `],"removed":[…],"schemaVersion":1,"window":{…}}` with a final
/// newline: the frame of `branches.json` and of each brand's file.
struct BranchListFrame {
  let head: [UInt8]
  /// What follows `removed`'s list.
  private let end: [UInt8]

  init(asOf: CalendarDate, window: DateWindow) {
    var head = CanonicalJSONWriter(capacity: 64)
    head.raw(#"{"asOf":"#)
    head.date(asOf)
    head.raw(#","branches":["#)
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
    let file = output.open("branches.json", gzip: true)
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
      let file = output.open("brands/\(brand.rawValue).json", gzip: true)
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

/// `calendars/branches/<id>.ics` and `calendars/brands/<slug>.ics`: each branch's closing days
/// as iCalendar, and each brand's, made of its branches' events (finished with the brand's last
/// branch; a brand without branches gets an empty calendar).
struct CalendarsExporter: BundleExporter {
  let asOf: CalendarDate
  let brands: [BrandSlug]
  let brandName: (BrandSlug) -> String
  /// The as-of date of a stale brand's last good fetch; `nil` for a fresh one.
  let staleSince: (BrandSlug) -> CalendarDate?
  private var building: [BrandSlug: ICalendar.BrandCalendarBuilder] = [:]
  private var finished: Set<BrandSlug> = []

  init(
    asOf: CalendarDate, brands: [BrandSlug], brandName: @escaping (BrandSlug) -> String,
    staleSince: @escaping (BrandSlug) -> CalendarDate?
  ) {
    self.asOf = asOf
    self.brands = brands
    self.brandName = brandName
    self.staleSince = staleSince
  }

  mutating func begin(_ output: BundleOutput) throws(FileError) {}

  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {
    let events = ICalendar.serialized(ICalendar.events(of: branch.branch, brandName: branch.brandName, asOf: asOf))
    building[branch.branch.brand, default: ICalendar.BrandCalendarBuilder()].add(events)
    try output.whole(
      "calendars/branches/\(branch.branch.id).ics",
      ICalendar.branchCalendar(
        branch.branch, brandName: branch.brandName, serialized: events, staleSince: staleSince(branch.branch.brand),
        asOf: asOf))
    if branch.lastOfBrand { try finishBrand(branch.branch.brand, output) }
  }

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    for brand in brands { try finishBrand(brand, output) }
  }

  private mutating func finishBrand(_ brand: BrandSlug, _ output: BundleOutput) throws(FileError) {
    guard finished.insert(brand).inserted else { return }
    try output.whole(
      "calendars/brands/\(brand.rawValue).ics",
      (building.removeValue(forKey: brand) ?? ICalendar.BrandCalendarBuilder()).calendar(
        brandName: brandName(brand), staleSince: staleSince(brand), asOf: asOf))
  }
}

/// `index.json` (and its gzip copy): one small row per branch, written in batches.
struct IndexExporter: BundleExporter {
  private var file: BundleFileStream?
  private var writer = CanonicalJSONWriter(capacity: 1 << 17)
  private var count = 0

  mutating func begin(_ output: BundleOutput) throws(FileError) {
    file = output.open("index.json", gzip: true)
    writer.raw(#"{"branches":["#)
  }

  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {
    if count > 0 { writer.bytes.append(0x2C) }
    count += 1
    do { try writer.indexRow(IndexFile.Row(branch.branch)) } catch {
      throw FileError(.encode, path: "index.json", message: "encoding failed: \(error)")
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

/// `closures.json` (and its gzip copy): the branches closed on each day of the window, made from
/// all of them at the end.
struct ClosuresExporter: BundleExporter {
  /// Every branch, sorted by id (the builder's list: shared, not copied).
  let branches: [Branch]
  let asOf: CalendarDate
  let window: DateWindow

  mutating func begin(_ output: BundleOutput) throws(FileError) {}

  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {}

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    var writer = CanonicalJSONWriter(capacity: 1 << 16)
    writer.closures(ClosuresFile(branches: branches, window: window, asOf: asOf))
    writer.bytes.append(0x0A)
    let file = output.open("closures.json", gzip: true)
    file.write(writer.bytes)
    try output.close(file)
  }
}

/// `districts.json`: the closing days each district keeps, inferred from all the branches at
/// the end (``DistrictsFile``), and its gzip copy. Small, so encoded whole by `CanonicalJSON`.
struct DistrictsExporter: BundleExporter {
  /// `districts.json` as it is written.
  let file: DistrictsFile

  mutating func begin(_ output: BundleOutput) throws(FileError) {}

  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {}

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    let data: Data
    do { data = try BundleJSON.encode(file) } catch {
      throw FileError(.encode, path: "districts.json", message: "encoding failed: \(error)")
    }
    let file = output.open("districts.json", gzip: true)
    file.write(ArraySlice(data))
    try output.close(file)
  }
}
