import Foundation
import MartCore
import MartExport
import TestSupport

/// Small hand-made branches for export tests. As of 2026-11-20 the window is
/// 2026-11-01 … 2027-01-31 (the as-of month and the next two).
enum ExportFixtures {
  static let asOf = CalendarDate(iso: "2026-11-20")!
  static let window = DateWindow.threeMonths(startingAt: asOf)
  static let day = RunDay(asOf: asOf, window: window)

  static func branch(
    _ storeID: String, name: String = "창원점", text: String, phone: String? = "055-211-1234",
    coordinate: Coordinate? = nil
  ) -> Branch {
    branch(.emart, storeID, name: name, text: text, phone: phone, coordinate: coordinate)
  }

  static func branch(
    _ brand: BrandSlug, _ storeID: String, name: String = "창원점", text: String,
    phone: String? = "055-211-1234", coordinate: Coordinate? = nil,
    address: BranchAddress = BranchAddress(published: "경상남도 창원시 의창구 원이대로 430")
  ) -> Branch {
    Branch(
      id: BranchID(brand: brand, storeID: storeID), name: name, address: address,
      phone: phone, phonePublished: phone, openingHours: "10:00 ~ 23:00", coordinate: coordinate,
      // The texts are E-mart-style date lists (`20261122, 20261213`), whole months as E-mart's
      // `HOLIDAY_DAYn` slots are.
      closing: BranchClosing(schedule: .parse(text, asOf: asOf, coverage: .wholeMonths), window: window),
      sourceURL: "https://store.emart.com/branch/searchList.do")
  }

  /// The Korean names of the brands these tests use.
  static let names: [BrandSlug: String] = [.emart: "이마트", .lottemart: "롯데마트"]

  /// A fresh summary per brand of `branches`; the brands in `exempt` not subject to the
  /// designation.
  static func summaries(_ branches: [Branch], exempt: Set<BrandSlug> = []) -> [BrandSummary] {
    Dictionary(grouping: branches, by: \.brand).map { brand, list in
      BrandSummary(
        slug: brand, name: names[brand] ?? brand.rawValue, branchCount: list.count, freshness: .fresh,
        lastFetchedAsOf: asOf, designated: !exempt.contains(brand))
    }
  }

  /// A new folder named `label-<UUID>` in `base` (the tests' scratch folder unless said).
  static func temporaryDirectory(_ label: String = "export", in base: URL = Scratch.directory) throws -> URL {
    let url = base.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A published output directory with the given branches, in `base`.
  static func publish(
    _ branches: [Branch], label: String = "export", exempt: Set<BrandSlug> = [], in base: URL = Scratch.directory
  ) throws -> (URL, LatestPointer) {
    let output = try temporaryDirectory(label, in: base)
    let pointer = try BundleStore(outputDirectory: output).publish(
      branches: branches, brands: summaries(branches, exempt: exempt), day: RunDay(asOf: asOf, window: window)
    ).pointer!
    return (output, pointer)
  }
}

/// The brands these tests use; the export module knows brands only from the bundles it is given.
extension BrandSlug {
  static let emart: BrandSlug = "emart"
  static let lottemart: BrandSlug = "lottemart"
  static let homeplus: BrandSlug = "homeplus"
}
