import Foundation
import MartCore
import MartFetch

/// 메가마트's store query: `POST /boardApi/query` with the form
/// `method=store.selectStore&applyCamelCase=true` answers every store at once, as a top-level
/// JSON array.
///
/// Per store: `storeCode` (the id: `megamart-<storeCode>`), `storeName`, `address`, `telNumber`,
/// `businessTime`, `lat`/`lon` and `holiday`, the closing-day text (`매월 둘째, 넷째 월요일`),
/// passed on verbatim for the closing-day engine; a store with a blank `holiday` published no
/// closing day (unknown). Values may be strings or numbers; coordinates are strings, and `"0"`
/// or `""` mean none.
public struct MegamartSource: BrandSource {
  public static let name = "megamart"
  public static let brands: [BrandSlug] = [.megamart]
  public static let origin = "https://home.megamart.com"
  /// Dates inside the `holiday` text are read as the next closing days (the site says nothing more about them).
  public static let closingDateCoverage = DateCoverage.asOfThroughLastListed
  /// The `holiday` text: its dates are the next closing days.
  public static let closingTextCoverage = DateCoverage.asOfThroughLastListed

  public init() {}

  /// The store query's path, a POST of ``queryFields``.
  package static let queryPath = "/boardApi/query"
  /// The form that asks the store query for every store.
  package static let queryFields: [(name: String, value: String)] = [
    ("method", "store.selectStore"), ("applyCamelCase", "true"),
  ]

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard session.brands.contains(.megamart) else { return [] }
    let response = try await session.postForm(Self.queryPath, fields: Self.queryFields)
    let list = try Self.readStores(response.body, url: response.requestURL)
    session.warn(skipped: list.skipped)
    return list.branches
  }

  /// Reads the store array into branches, in its order; a repeated `storeCode` keeps its first
  /// record, and records without a `storeCode` or a `storeName` are skipped.
  ///
  /// Throws `SourceError.unexpectedContent` when the body is not a JSON array of objects or no
  /// record has a code and a name.
  public static func parseStores(_ data: Data, url: String) throws(SourceError) -> [RawBranch] {
    try readStores(data, url: url).branches
  }

  /// ``parseStores(_:url:)``, with the records skipped for lack of a `storeCode` or a
  /// `storeName`.
  public static func readStores(_ data: Data, url: String) throws(SourceError) -> BranchList {
    let records = try decodeRows(data, url: url, expecting: "a top-level array")
    var branches: [RawBranch] = []
    var skipped: [SkippedRow] = []
    var seen = Set<String>()
    for (index, record) in records.enumerated() {
      guard let code = record.text("storeCode"), let published = record.text("storeName") else {
        skipped.append(
          SkippedRow(
            record, at: index, of: "the store query", url: url, lacking: [["storeCode"], ["storeName"]],
            nameKey: "storeName"))
        continue
      }
      guard seen.insert(code).inserted else { continue }
      let name = displayName(published)
      branches.append(
        RawBranch(
          id: BranchID(brand: .megamart, storeID: code), name: name,
          publishedName: name == published ? nil : published, address: record.text("address"),
          phone: record.text("telNumber"), openingHours: record.text("businessTime"),
          coordinate: coordinate(latitude: record["lat"], longitude: record["lon"]),
          closingText: record.text("holiday"), sourceURL: url))
    }
    guard !branches.isEmpty else {
      throw SourceError(
        source: Self.name, url: url,
        reason: .unexpectedContent("\(records.count) records but none with a storeCode and a storeName"))
    }
    return BranchList(branches: branches, skipped: skipped)
  }

  /// The point of `lat`/`lon`; `nil` when either is missing, blank, not a number or zero.
  static func coordinate(latitude: JSONScalar?, longitude: JSONScalar?) -> GeoPoint? {
    guard let latitude = latitude?.number, let longitude = longitude?.number, latitude != 0, longitude != 0,
      latitude.isFinite, longitude.isFinite
    else { return nil }
    return GeoPoint(latitude: latitude, longitude: longitude)
  }

  /// `메가마트 동래점` → `동래점`; names without the brand are unchanged.
  static func displayName(_ published: String) -> String {
    for prefix in ["메가마트 ", "MEGAMART ", "메가마트"] where published.hasPrefix(prefix) {
      let rest = published.dropFirst(prefix.count).trimmingSpaces()
      if !rest.isEmpty { return rest }
    }
    return published
  }
}

extension BrandSlug {
  /// 메가마트.
  public static let megamart: BrandSlug = "megamart"
}
