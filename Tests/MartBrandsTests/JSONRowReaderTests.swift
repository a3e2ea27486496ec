import Foundation
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
    let rows: [[String: JSONScalar]]?
  }

  private static func decoded(_ data: Data) -> [[String: JSONScalar]]?? {
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
    ]
    for text in cases { Self.expectSameRows(text, "\(text)") }
  }

  @Test func declinesWhatItDoesNotAccept() {
    let declined = [
      #"{"rows":[{"a":1,"a":2}]}"#, #"{"rows":[{"a":"\uD834"}]}"#, "\u{FEFF}{\"rows\":[]}", #"{"rows":[{"a":01}]}"#,
      #"{"rows":[{"a":1}]} trailing"#, #"{"rows":[1]}"#, #"{"rows":{"a":1}}"#, #"{"rows":[{"a":"x"]}"#, #"[1]"#,
      #"{"rows":[{"a":1.}]}"#, "{\"rows\":[{\"a\":\"tab\tinside\"}]}", #"{"rows":[],"rows":[]}"#,
    ]
    for text in declined {
      #expect(JSONRowReader.rows(in: Data(text.utf8), key: "rows") == nil, "\(text)")
      Self.expectSameRows(text)
    }
    #expect(JSONRowReader.rows(in: Data([0x7B, 0x22, 0x72, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]), key: "r") == nil)
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
    for source in BrandSources.all {
      let generator = type(of: source).sampleGenerator.init(
        mix: mix, asOf: CalendarDate(year: 2026, month: 11, day: 20)!)
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
          let rows: [[String: JSONScalar]]?
          struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
          }
          init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            rows = try container.decodeIfPresent(
              [[String: JSONScalar]].self, forKey: Key(stringValue: decoder.userInfo[.rowKey] as! String))
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
