import Foundation
import MartBrands
import MartCore
import MartFetch

/// Sample data for the bench: 메가마트's store query, every store in one top-level JSON array,
/// closing days as text (some stores publish none), coordinates as strings that may be `"0"`
/// or empty, codes as strings or numbers.
public struct MegamartSampleGenerator: SourceSampleGenerator {
  /// The source whose sites this writes.
  public static let source: any BrandSource.Type = MegamartSource.self
  public let request: SampleRequest

  public init(_ request: SampleRequest) { self.request = request }

  public func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var records: [String] = []
    for index in 0..<mix.count(.megamart) {
      let place = PlaceSample.random(using: &random)
      let weekday = place.closingWeekday.koreanShortName
      let holiday = random.chance(0.2) ? "" : "매월 둘째, 넷째 \(weekday)요일"
      let (latitude, longitude): (String, String) =
        switch Int.random(in: 0..<10, using: &random) {
        case 0: ("0", "0")
        case 1: ("", "")
        default: (Self.coordinateText(place.latitude, digits: 4), Self.coordinateText(place.longitude, digits: 4))
        }
      let code = 1001 + index
      records.append(
        JSONText.object([
          ("storeCode", index % 2 == 0 ? .string(String(code)) : .number(String(code))),
          ("storeName", .string(names.name(near: place))), ("address", .string(place.shortRoadAddress)),
          ("telNumber", .string(KoreanPlaces.phone(place.province, using: &random))),
          ("businessTime", .string("10:00~23:00")), ("holiday", .string(holiday)), ("lat", .string(latitude)),
          ("lon", .string(longitude)), ("useYn", .string("Y")),
        ]))
    }
    return [
      (
        "boardApi-query-selectStore",
        RecordedExchange(
          method: "POST", url: MegamartSource.origin + MegamartSource.queryPath,
          requestBody: FormEncoding.encode(MegamartSource.queryFields), status: 200, headers: Self.jsonHeaders,
          body: Data("[\(records.joined(separator: ","))]".utf8))
      )
    ]
  }
}
