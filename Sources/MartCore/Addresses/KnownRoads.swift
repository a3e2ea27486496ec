/// The road names the address normalizer knows, which decide whether a road name written apart is
/// one name: `센텀 남대로 35` is on `센텀남대로` only because that is a road it knows. Without such
/// knowledge (or a last word that cannot be a road on its own, `순환로`, `대로`), two words before a
/// number leave the road undecided rather than guessed.
///
/// `bundled` holds the road names of the bundled register and brand addresses
/// (`scripts/generate_known_roads.py`); a caller may give its own, e.g. read from a register.
public struct KnownRoads: Sendable {
  private var names: Set<String>

  /// The given road names, each written as one word (`센텀남대로`, `와석순환로`).
  public init(_ names: some Sequence<String>) {
    self.names = Set(names)
  }

  /// No road names: a road name written apart is joined only when its last word demands it.
  public static let none = KnownRoads([String]())

  /// The road names written as one word in the bundled register and brand addresses.
  public static let bundled = KnownRoads(bundledNames)

  /// Whether `name` is a road these names know.
  public func contains(_ name: String) -> Bool { names.contains(name) }

  /// These names and `other`'s.
  public func union(_ other: KnownRoads) -> KnownRoads {
    var result = self
    result.names.formUnion(other.names)
    return result
  }

  /// The road names written as one word in `addresses` (as the register's official road-name
  /// addresses are): each road name the parser reads without joining two words.
  public static func reading(_ addresses: some Sequence<String>) -> KnownRoads {
    var names: Set<String> = []
    for text in addresses {
      let address = AddressParser.parse(text, knownRoads: .none)
      if let road = address.roadName, text.contains(road) { names.insert(road) }
    }
    return KnownRoads(names)
  }

  /// Last words that cannot name a road on their own, so a word written before them is the first
  /// part of the road's name (`와석 순환로` → `와석순환로`): no road in the country is called just
  /// `대로`, `순환로`, `순환도로`, `도로` or `번길` (청주's ring roads are `1순환로`–`3순환로`).
  static let suffixesDemandingAFirstPart: [[Unicode.Scalar]] = ["대로", "순환로", "순환도로", "도로", "번길"].map {
    Array($0.unicodeScalars)
  }

  /// Whether a word is one of `suffixesDemandingAFirstPart`.
  static func demandsAFirstPart(_ word: AddressParser.Scalars) -> Bool {
    suffixesDemandingAFirstPart.contains { $0.count == word.count && $0.elementsEqual(word) }
  }
}
