import Foundation
import MartCore
import MartExport
import Testing

@Suite struct CanonicalJSONTests {
  struct Sample: Encodable {
    var zeta: Int
    var alpha: String?
    var middle: [Double?]
    var nested: Nested
    struct Nested: Encodable {
      var b: Bool
      var a: String
    }
  }

  @Test func compactSortedAndNullForAbsentOptionals() throws {
    let value = Sample(zeta: 1, alpha: nil, middle: [1.5, nil, 127], nested: .init(b: true, a: "x"))
    let text = String(decoding: try CanonicalJSON.encode(value), as: UTF8.self)
    #expect(text == #"{"alpha":null,"middle":[1.5,null,127],"nested":{"a":"x","b":true},"zeta":1}"#)
  }

  @Test func escapesOnlyWhatJSONRequires() throws {
    let text = String(decoding: try CanonicalJSON.encode(["k": "창원/\"점\"\\\n\t\u{01}"]), as: UTF8.self)
    #expect(text == #"{"k":"창원/\"점\"\\\n\t\u0001"}"#)
  }

  /// An escape is found wherever it stands in a longer text (the writers look through eight
  /// bytes at a time), and bytes next to one (a space, DEL, Hangul) are left as they are.
  @Test func escapesWhereverTheyStand() throws {
    let escapes: [(text: String, escaped: String)] = [
      ("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1F} ", #"\u001f "#), (" \u{7F}\u{01}", #" \#u{7F}\u0001"#),
    ]
    for escape in escapes {
      for place in 0...20 {
        let before = String(repeating: "a", count: place)
        let after = String(repeating: "가", count: 7)
        let text = String(decoding: try CanonicalJSON.encode([before + escape.text + after]), as: UTF8.self)
        #expect(text == "[\"" + before + escape.escaped + after + "\"]")
      }
    }
  }

  @Test func aBranchWithoutCoordinateOrPhoneKeepsEveryKey() throws {
    let branch = ExportFixtures.branch(.emart, "1059", text: "", phone: nil, address: BranchAddress(published: nil))
    let object = try #require(
      try JSONSerialization.jsonObject(with: try BundleJSON.encode(branch)) as? [String: Any])
    #expect(object["coordinate"] is NSNull)
    #expect(object["phone"] is NSNull)
    #expect(object["phonePublished"] is NSNull)
    let address = try #require(object["address"] as? [String: Any])
    #expect(Set(address.keys) == ["published", "lotPublished", "road", "jibun", "sido", "sigungu"])
    #expect(address.values.allSatisfy { $0 is NSNull })
    // And it reads back into the same value.
    #expect(try BundleJSON.decode(Branch.self, from: try BundleJSON.encode(branch)) == branch)
  }

  @Test func rejectsNonFiniteNumbers() {
    #expect(throws: EncodingError.self) { try CanonicalJSON.encode([Double.nan]) }
  }
}
