import Foundation
import MartCore
import MartFiles

/// `calendars/branches/<id>.ics` and `calendars/brands/<slug>.ics`: each branch's closing days
/// as iCalendar (``ICalendar``), and each brand's, made of its branches' events; read back by
/// ``ICalendarReader``.
enum CalendarFilesKind: BundleFileKind {
  /// The folder of the calendars.
  static let folder = "calendars"
  /// What a calendar's name ends with.
  static let suffix = ".ics"

  /// The calendar of the branch `id`.
  static func path(of id: BranchID) -> String { id.path(prefix: branchesPrefix, suffix: suffix) }

  /// What the path of every branch's calendar begins with.
  private static let branchesPrefix = "\(folder)/branches/"

  /// The calendar of `brand`.
  static func path(of brand: BrandSlug) -> String { "\(folder)/brands/\(brand.rawValue)\(suffix)" }

  static func exporter(_ input: BundleExportInput) -> (any BundleExporter)? {
    CalendarsExporter(
      asOf: input.day.asOf, brands: input.brands, brandName: input.brandName, staleSince: input.staleSince)
  }

  /// Each branch's calendar against its closing days, then each brand's against its branches'.
  static func check(_ bundle: BundleReference, _ inspection: inout BundleInspection) {
    for branch in bundle.branches {
      let relative = path(of: branch.id)
      guard let data = inspection.listedData(relative, in: bundle.bundle) else { continue }
      checkCalendar(
        data, expected: ICalendar.coveredDays(of: branch), tentative: branch.closing.expected?.dates ?? [],
        path: bundle.path(relative), branch: branch.id, &inspection)
    }
    for brand in bundle.brands {
      let relative = path(of: brand)
      guard let data = inspection.listedData(relative, in: bundle.bundle) else { continue }
      let branches = bundle.byBrand[brand] ?? []
      checkCalendar(
        data, expected: branches.flatMap(ICalendar.coveredDays(of:)),
        tentative: branches.flatMap { $0.closing.expected?.dates ?? [] }, path: bundle.path(relative), brand: brand,
        &inspection)
    }
  }

  /// The RFC 5545 rules the writer follows, all-day events covering exactly the expected
  /// dates, and tentative events on exactly the expected days of `closing.expected`
  /// (``ICalendarReader``); the findings concern `branch` or `brand`, whose calendar it is.
  static func checkCalendar(
    _ data: Data, expected: [CalendarDate], tentative: [CalendarDate], path: String, branch: BranchID? = nil,
    brand: BrandSlug? = nil, _ inspection: inout BundleInspection
  ) {
    let reading = ICalendarReader.read(data)
    for message in reading.problems { inspection.report(path, message, branch: branch, brand: brand) }
    if reading.covered != nil, reading.tentative.sorted() != tentative.sorted() {
      inspection.report(
        path,
        "tentative events on \(reading.tentative.count) days do not match the \(tentative.count) expected days"
          + " in \(BranchesFileKind.name)", branch: branch, brand: brand)
    }
    if let covered = reading.covered, covered.sorted() != expected.sorted() {
      inspection.report(
        path,
        "\(reading.events) events covering \(covered.count) days do not match the \(expected.count) closing dates"
          + " in \(BranchesFileKind.name)", branch: branch, brand: brand)
    }
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
  /// The branch calendar being written, its room kept from branch to branch.
  private var calendar = ICalendar.CalendarText()

  init(
    asOf: CalendarDate, brands: [BrandSlug], brandName: @escaping (BrandSlug) -> String,
    staleSince: @escaping (BrandSlug) -> CalendarDate?
  ) {
    self.asOf = asOf
    self.brands = brands
    self.brandName = brandName
    self.staleSince = staleSince
  }

  mutating func add(_ branch: ExportedBranch, to output: BundleOutput) throws(FileError) {
    let brand = branch.branch.brand
    ICalendar.writeBranchCalendar(
      branch.branch, brandName: branch.brandName, staleSince: staleSince(brand), asOf: asOf, into: &calendar)
    building[brand, default: ICalendar.BrandCalendarBuilder()].add(calendar)
    try output.whole(CalendarFilesKind.path(of: branch.branch.id), Data(calendar.lines.bytes))
    if branch.lastOfBrand { try finishBrand(brand, output) }
  }

  mutating func finish(_ output: BundleOutput) throws(FileError) {
    for brand in brands { try finishBrand(brand, output) }
  }

  private mutating func finishBrand(_ brand: BrandSlug, _ output: BundleOutput) throws(FileError) {
    guard finished.insert(brand).inserted else { return }
    try output.whole(
      CalendarFilesKind.path(of: brand),
      (building.removeValue(forKey: brand) ?? ICalendar.BrandCalendarBuilder()).calendar(
        brandName: brandName(brand), staleSince: staleSince(brand), asOf: asOf))
  }
}

extension BranchID {
  /// `prefix`, the id as text (`<brand>-<store id>`, its `description`) and `suffix`: the path
  /// of one of the branch's files, its parts' bytes copied into a string of its final size
  /// (without the id's text on the way, nor a `String` append's look at each joint).
  func path(prefix: String, suffix: String) -> String {
    let slug = brand.rawValue
    let count = prefix.utf8.count + slug.utf8.count + 1 + storeID.utf8.count + suffix.utf8.count
    return String(unsafeUninitializedCapacity: count) { path in
      var end = Self.copy(prefix, into: path, at: 0)
      end = Self.copy(slug, into: path, at: end)
      path[end] = UInt8(ascii: "-")
      end = Self.copy(storeID, into: path, at: end + 1)
      return Self.copy(suffix, into: path, at: end)
    }
  }

  /// Copies `part`'s bytes into `path` from `offset`; returns where they end. (Offsets passed
  /// and returned, not a variable the copies share: a variable captured and changed by a
  /// closure is checked for exclusive access at run time, on every change.)
  private static func copy(_ part: String, into path: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
    part.withContiguousUTF8 { bytes in
      _ = UnsafeMutableBufferPointer(rebasing: path[offset...]).initialize(from: bytes)
      return offset + bytes.count
    }
  }
}
