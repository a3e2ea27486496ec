import Foundation
import MartBench
import MartCore
import MartFetch
import MartReplay
import TestSupport
import Testing

@testable import MartBrands

/// The row reader gives exactly the rows `JSONDecoder` gives, or declines (and the sources fall
/// back to `JSONDecoder`).
@Suite struct JSONRowReaderTests {
  private struct Body: Decodable {
    let rows: [JSONRow]?
  }

  private static func decoded(_ data: Data) -> [JSONRow]?? {
    (try? JSONDecoder().decode(Body.self, from: data)).map(\.rows)
  }

  private static func expectSameRows(_ text: String, _ comment: Comment? = nil) {
    let data = Data(text.utf8)
    guard let expected = decoded(data) else {
      // JSONDecoder rejects it: so must the reader.
      if case .rows = JSONRowReader.rows(in: data, key: "rows") {
        Issue.record("accepted what JSONDecoder rejects: \(text)")
      }
      return
    }
    switch JSONRowReader.rows(in: data, key: "rows") {
    case .rows(let rows): #expect(rows == expected, comment)
    case .absent: #expect(expected == nil, comment)
    case nil: break  // declined: the decoder decides
    }
  }

  @Test func scalarsEscapesAndNumbersAsJSONDecoderReadsThem() {
    let cases = [
      #"{"rows":[{"a":"x","b":1,"c":1.50,"d":-0.25e2,"e":true,"f":false,"g":null,"h":{"x":[1,2]},"i":[]}]}"#,
      #"{"rows":[{"q":"say \"hi\" \\ \/ \b\f\n\r\t","u":"\u00e9\u3131\uD834\uDD1E","k":"창원점 𝄞"}]}"#,
      #" { "other" : [1, {"a": "b"}, "c", null, true] , "rows" : [ { } , { "x" : 0 } ] , "z": -1E+3 } "#,
      #"{"rows":[{"n":"37.5665000"},{"n":37.5665000},{"n":126.9780},{"n":12345678901234567890},{"n":0}]}"#,
      #"{"rows":null}"#, #"{"other":1}"#, #"{"rows":[]}"#, #"{}"#,
      #"{"rows":[{"a":1,"b":2},{"b":3,"a":4},{"a":5},{"a":6,"b":7,"c":8}]}"#,
    ]
    for text in cases { Self.expectSameRows(text, "\(text)") }
  }

  @Test func declinesWhatItDoesNotAccept() {
    let declined = [
      #"{"rows":[{"a":1,"a":2}]}"#, #"{"rows":[{"a":"\uD834"}]}"#, "\u{FEFF}{\"rows\":[]}", #"{"rows":[{"a":01}]}"#,
      #"{"rows":[{"a":1}]} trailing"#, #"{"rows":[1]}"#, #"{"rows":{"a":1}}"#, #"{"rows":[{"a":"x"]}"#, #"[1]"#,
      #"{"rows":[{"a":1.}]}"#, "{\"rows\":[{\"a\":\"tab\tinside\"}]}", #"{"rows":[],"rows":[]}"#,
      // A repeated name after rows with other names, or with the same names in another order.
      #"{"rows":[{"a":1,"b":2},{"a":1,"a":2}]}"#, #"{"rows":[{"a":1,"b":2},{"b":1,"a":2},{"b":1,"b":2}]}"#,
    ]
    for text in declined {
      #expect(JSONRowReader.rows(in: Data(text.utf8), key: "rows") == nil, "\(text)")
      Self.expectSameRows(text)
    }
    #expect(JSONRowReader.rows(in: Data([0x7B, 0x22, 0x72, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]), key: "r") == nil)
  }

  /// A page's rows beside a flat object, as GS THE FRESH publishes them.
  private struct PageBody: Decodable, Equatable {
    let results: [JSONRow]?
    let pagination: JSONRow?
  }

  /// The reader's `results` and `pagination`; `.some(nil)` when it finds a shape `PageBody`
  /// rejects under one of them, `nil` when it declines the document.
  private static func readPage(_ data: Data) -> PageBody?? {
    guard let members = JSONRowReader.members(in: data, keys: ["results", "pagination"]) else { return nil }
    var results: [JSONRow]?
    var pagination: JSONRow?
    switch members["results"] {
    case .rows(let rows)?: results = rows
    case .object?: return .some(nil)
    case nil: break
    }
    switch members["pagination"] {
    case .object(let object)?: pagination = object
    case .rows?: return .some(nil)
    case nil: break
    }
    return PageBody(results: results, pagination: pagination)
  }

  /// The reader agrees with `JSONDecoder` on `data` read as a page, or declines it.
  private static func expectSamePage(_ data: Data, _ comment: Comment? = nil) {
    let expected = try? JSONDecoder().decode(PageBody.self, from: data)
    guard let read = readPage(data) else { return }  // declined: the decoder decides
    #expect(read == expected, comment)
  }

  /// The reader agrees with `JSONDecoder` on `data` read as a top-level array of rows, or declines it.
  private static func expectSameTopLevelRows(_ data: Data, _ comment: Comment? = nil) {
    guard let rows = JSONRowReader.rows(in: data) else { return }
    #expect(rows == (try? JSONDecoder().decode([JSONRow].self, from: data)), comment)
  }

  @Test func aFlatObjectBesideTheRows() {
    let cases = [
      #"{"results":[{"a":"1"}],"pagination":{"sort":null,"pageSize":3,"currentPage":"0","deep":{"x":[1,{"y":2}]}}}"#,
      #"{"pagination":{},"results":[]}"#, #"{"results":null,"pagination":null}"#, #"{"results":[{}]}"#,
      #"{"sorts":[{"a":1}],"pagination":{"n":1e2,"s":"\uD83D\uDED2","e":"\"\\\/"},"results":[{"x":[]}],"z":{}}"#,
      #"{"results":{"a":1},"pagination":{}}"#, #"{"results":[],"pagination":[{"a":1}]}"#,
    ]
    for text in cases { Self.expectSamePage(Data(text.utf8), "\(text)") }
    let read = JSONRowReader.members(
      in: Data(#"{"results":[{"a":"1"}],"pagination":{"pageSize":3,"sort":null},"other":[1]}"#.utf8),
      keys: ["results", "pagination"])
    #expect(read?["results"] == .rows([["a": .string("1")]]))
    #expect(read?["pagination"] == .object(["pageSize": .number(3), "sort": .null]))
    #expect(read?.count == 2)
    // Absent and null alike have no entry.
    #expect(JSONRowReader.members(in: Data(#"{"results":null}"#.utf8), keys: ["results", "pagination"]) == [:])
  }

  @Test func declinesAFlatObjectItCannotRead() {
    let declined = [
      #"{"pagination":{"a":1,"a":2}}"#, #"{"pagination":{"a":1},"pagination":{"a":1}}"#, #"{"pagination":3}"#,
      #"{"pagination":"{}"}"#, #"{"pagination":{"a":"\uDED2"}}"#, #"{"pagination":{"a":1}"#, #"{"pagination":{"a"}}"#,
      #"{"results":[{"a":1}],"pagination":{"a":1},}"#, #"{"results":[{"a":1}],"pagination":{"a":1}} x"#,
    ]
    for text in declined {
      #expect(JSONRowReader.members(in: Data(text.utf8), keys: ["results", "pagination"]) == nil, "\(text)")
      Self.expectSamePage(Data(text.utf8), "\(text)")
    }
  }

  @Test func aTopLevelArrayOfRows() {
    let cases = [
      #"[{"storeCode":"1001","lat":"35.2043"},{"storeCode":1002,"lat":35.2108,"x":null,"y":{"z":[1]}}]"#, "[]",
      " [ { } ] \n", #"[{"s":"\u00e9\uD83D\uDED2\t"}]"#,
    ]
    for text in cases {
      #expect(JSONRowReader.rows(in: Data(text.utf8)) != nil, "\(text)")
      Self.expectSameTopLevelRows(Data(text.utf8), "\(text)")
    }
    let declined = [
      #"{"rows":[]}"#, "[1]", "[null]", "[[]]", #"[{"a":1},]"#, #"[{"a":1}"#, #"[{"a":1,"a":1}]"#, "\u{FEFF}[]", "",
      #"[{"a":"\uD83D"}]"#, "[] []",
    ]
    for text in declined {
      #expect(JSONRowReader.rows(in: Data(text.utf8)) == nil, "\(text)")
      Self.expectSameTopLevelRows(Data(text.utf8), "\(text)")
    }
  }

  @Test func declinesEverythingWhenAskedTo() {
    let data = Data(#"{"rows":[{"a":1}]}"#.utf8)
    #expect(JSONRowReader.rows(in: data, key: "rows") != nil)
    JSONRowReader.$declinesEverything.withValue(true) {
      #expect(JSONRowReader.rows(in: data, key: "rows") == nil)
      #expect(JSONRowReader.members(in: data, keys: ["rows"]) == nil)
      #expect(JSONRowReader.rows(in: Data("[]".utf8)) == nil)
    }
  }

  /// Every prefix of a feed is declined (none is a whole document), and every document with one
  /// byte replaced is read as `JSONDecoder` reads it, or declined; none crashes the reader.
  @Test func truncatedAndMutatedFeeds() throws {
    let documents = [
      try FixturePaths.data("web/gsthefresh.gsretail.com/find-storelist-page-1.body.json"),
      try FixturePaths.data("web/home.megamart.com/boardApi-query-selectStore.body.json"),
      try FixturePaths.data("web/www.lotteon.com/selectStoreSearchList-1.body.json"),
      Data(
        #"{"results":[{"a":"\\\"\/\b\f\n\r\t\u0000\u00e9\uD83D\uDED2","n":-1.5e-3,"t":true}],"pagination":{}}"#.utf8),
    ]
    let replacements = Array(#"{}[],:"\0123456789-+.eEnulltruefalse \u"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xFF]
    var random = SeededRandom(seed: 11)
    for document in documents {
      let text = Data(String(decoding: document, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
      for length in 0..<text.count {
        let prefix = text.prefix(length)
        #expect(JSONRowReader.members(in: prefix, keys: ["results", "pagination", "storeInfo"]) == nil)
        #expect(JSONRowReader.rows(in: prefix) == nil)
      }
      for _ in 0..<400 {
        var mutated = text
        mutated[Int.random(in: 0..<mutated.count, using: &random)] = replacements.randomElement(using: &random)!
        let comment = Comment(rawValue: String(decoding: mutated, as: UTF8.self))
        Self.expectSamePage(mutated, comment)
        Self.expectSameTopLevelRows(mutated, comment)
        Self.expectSameRows(String(decoding: mutated, as: UTF8.self), comment)
      }
    }
  }

  /// Every JSON body of the recorded fixtures and of the bench's generated sites, under every
  /// key that holds an array of objects.
  @Test func recordedAndGeneratedFeedsGiveTheSameRows() throws {
    var bodies: [Data] = []
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("fixtures/web")
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    while let url = enumerator?.nextObject() as? URL {
      if url.lastPathComponent.contains(".body.") && url.pathExtension == "json" {
        bodies.append(try Data(contentsOf: url))
      }
    }
    let mix = BrandMix(counts: Dictionary(uniqueKeysWithValues: KnownBrands.entries.map { ($0.slug, 40) }))
    var random = SeededRandom(seed: 7)
    for generatorType in SampleGenerators.all {
      let generator = generatorType.init(mix: mix, asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
      for exchange in generator.exchanges(&random).map(\.exchange)
      where exchange.headers.value(named: "Content-Type")?.contains("json") == true {
        bodies.append(exchange.body)
      }
    }
    var compared = 0
    for body in bodies {
      guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { continue }
      for key in object.keys {
        struct Keyed: Decodable {
          let rows: [JSONRow]?
          struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
          }
          init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            rows = try container.decodeIfPresent(
              [JSONRow].self, forKey: Key(stringValue: decoder.userInfo[.rowKey] as! String))
          }
        }
        let decoder = JSONDecoder()
        decoder.userInfo[.rowKey] = key
        guard let expected = try? decoder.decode(Keyed.self, from: body).rows else { continue }
        guard case .rows(let rows) = JSONRowReader.rows(in: body, key: key) else {
          Issue.record("declined a feed JSONDecoder reads (key \(key))")
          continue
        }
        #expect(rows == expected, "key \(key)")
        compared += 1
      }
    }
    #expect(compared > 10)
  }
}

extension CodingUserInfoKey {
  fileprivate static let rowKey = CodingUserInfoKey(rawValue: "rowKey")!
}
