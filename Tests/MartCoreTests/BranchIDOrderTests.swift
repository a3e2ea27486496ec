import Testing

@testable import MartCore

/// Branch ids sort as their texts (`<brand>-<store id>`): files are named by them, and
/// `branches.json`, `closures.json` and `index.json` list them in that order.
@Suite("Branch id order")
struct BranchIDOrderTests {
  static let ids: [BranchID] = [
    BranchID(brand: "emart", storeID: "1001"),
    BranchID(brand: "emart", storeID: "0999"),
    BranchID(brand: "emart", storeID: "10"),
    BranchID(brand: "emart-everyday", storeID: "0001"),
    BranchID(brand: "emart", storeID: "everyday"),
    BranchID(brand: "emart", storeID: "A"),
    BranchID(brand: "homeplus", storeID: "express-0293"),
    BranchID(brand: "homeplus", storeID: "express"),
    BranchID(brand: "homeplus", storeID: "0293"),
    BranchID(brand: "homeplus-express", storeID: "0293"),
    BranchID(brand: "homeplus-express", storeID: "-1"),
    BranchID(brand: "homeplus", storeID: "-"),
    BranchID(brand: "costco", storeID: "양재점"),
    BranchID(brand: "costco", storeID: "광명점"),
    BranchID(brand: "costco", storeID: "Z"),
    BranchID(brand: "lotte-mart", storeID: "1"),
    BranchID(brand: "lotte", storeID: "mart-1"),
    BranchID(brand: "lotte", storeID: "mart"),
    BranchID(brand: "lotte-super", storeID: "1"),
    BranchID(brand: "gs-the-fresh", storeID: "1"),
  ]

  @Test("every pair compares as the ids' texts do")
  func everyPairAsTexts() {
    for left in Self.ids {
      for right in Self.ids {
        #expect((left < right) == (left.description < right.description), "\(left) < \(right)")
      }
    }
  }

  @Test("sorting gives the texts' order")
  func sortingAsTexts() {
    #expect(Self.ids.sorted().map(\.description) == Self.ids.map(\.description).sorted())
  }

  /// An id read against a bundle's brands takes the longest slug it starts with and a dash
  /// after it; the store id is the rest, which must not be empty.
  @Test("an id read against brands takes the longest slug followed by a dash")
  func readAgainstBrands() {
    let brands: [BrandSlug] = ["homeplus", "homeplus-express", "lotte", "lotte-mart", "emart"]
    let cases: [(String, BranchID?)] = [
      ("homeplus-express-0293", BranchID(brand: "homeplus-express", storeID: "0293")),
      ("homeplus-0293", BranchID(brand: "homeplus", storeID: "0293")),
      ("homeplus-express", BranchID(brand: "homeplus", storeID: "express")),
      ("lotte-mart-1", BranchID(brand: "lotte-mart", storeID: "1")),
      ("lotte-super-1", BranchID(brand: "lotte", storeID: "super-1")),
      ("emart-", nil), ("emart", nil), ("emart1059", nil), ("costco-1", nil), ("", nil),
      // A dash with a combining mark is another character: not the dash after a slug.
      ("emart-\u{301}1", nil),
    ]
    for (text, expected) in cases {
      #expect(BranchID(text, amongBrands: brands) == expected, "\(text.debugDescription)")
    }
  }
}
