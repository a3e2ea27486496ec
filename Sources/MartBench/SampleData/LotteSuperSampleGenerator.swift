import Foundation
import MartBrands
import MartCore
import MartFetch

/// Sample data for the bench: 롯데슈퍼 as Lotte ON serves it: store list pages until an empty one,
/// and one holiday list per store with the ids it needs (a few stores have none, a few answer an
/// empty list); names with format prefixes (`E…`, `G…`, `(백)…`) or without `점`.
public struct LotteSuperSampleGenerator: SourceSampleGenerator {
  /// The source whose sites this writes.
  public static let source: any BrandSource.Type = LotteSuperSource.self
  public let request: SampleRequest

  public init(_ request: SampleRequest) { self.request = request }

  /// Most stores a run reads: twenty a page, at most `LotteSuperSource.maximumPages` pages.
  public static var maximumBranches: [BrandSlug: Int] {
    [.lotteSuper: pageSize * LotteSuperSource.maximumPages]
  }

  /// Stores per list page.
  static let pageSize = 20

  public func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var stores: [String] = []
    var output: [(name: String, exchange: RecordedExchange)] = []
    for index in 0..<mix.count(.lotteSuper) {
      let place = PlaceSample.random(using: &random)
      var name = names.name(near: place)
      switch Int.random(in: 0..<20, using: &random) {
      case 0: name = "E" + name
      case 1: name = "G" + name
      case 2: name = "(백)" + name
      case 3: name = String(name.dropLast())
      default: break
      }
      let code = String(5000 + index)
      let hasIDs = !random.chance(0.02)
      var fields: [(String, JSONText.Value)] = [
        ("sstrCd", .string(code)), ("strNm", .string(name)), ("oflnAfflCd", .string("01")), ("strKndCd", .string("01")),
        ("strAddr", .string(place.roadAddress)),
        ("rprtTelNo", .string(KoreanPlaces.phone(place.province, using: &random))),
      ]
      if hasIDs { fields += [("trNo", .string("LS\(code)")), ("lrtrNo", .string("LR\(code)"))] }
      stores.append(JSONText.object(fields))
      guard hasIDs else { continue }
      let dates = random.chance(0.03) ? [] : closingDays(place.closingWeekday)[0].map(Self.compact)
      let holidays = dates.map { JSONText.object([("holidayDate", .string($0))]) }
      let fieldsOfRequest = [("trNo", "LS\(code)"), ("lrtrNo", "LR\(code)"), ("oflnAfflCd", "01"), ("strKndCd", "01")]
      output.append(
        (
          "selectHolidayList-\(code)",
          RecordedExchange(
            method: "GET",
            url: LotteSuperSource.origin + LotteSuperSource.holidayPath + "?" + FormEncoding.encode(fieldsOfRequest),
            status: 200, headers: Self.jsonHeaders,
            body: Data("{\"holidayList\":[\(holidays.joined(separator: ","))]}".utf8))
        ))
    }
    let pages = stride(from: 0, to: stores.count, by: Self.pageSize).map {
      Array(stores[$0..<min($0 + Self.pageSize, stores.count)])
    }
    for (index, page) in (pages + [[]]).enumerated() {
      output.append(
        (
          "selectStoreSearchList-\(index)",
          RecordedExchange(
            method: "GET", url: LotteSuperSource.origin + LotteSuperSource.listPath(page: index), status: 200,
            headers: Self.jsonHeaders, body: Data("{\"storeInfo\":[\(page.joined(separator: ","))]}".utf8))
        ))
    }
    return output
  }
}
