/// A brand's slug: lower-case ASCII letters in hyphen-separated words (`emart`,
/// `homeplus-express`). It is used in branch ids, command-line options and file names and never
/// changes once published.
///
/// The core knows no brand by name: which brands exist is data, held by the brand registry
/// beside the sources (`KnownBrands` in MartBrands) and, for a published bundle, by the bundle
/// itself (its manifest and each branch's `brand` field).
public struct BrandSlug: RawRepresentable, Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  public let rawValue: String

  /// A slug, or `nil` when `rawValue` is not lower-case ASCII words joined by single hyphens.
  public init?(rawValue: String) {
    guard Self.isWellFormed(rawValue) else { return nil }
    self.rawValue = rawValue
  }

  /// A slug written in code; it must be well-formed.
  public init(stringLiteral value: String) {
    precondition(Self.isWellFormed(value), "not a brand slug: \(value)")
    self.rawValue = value
  }

  /// Whether `text` is lower-case ASCII letters in words joined by single hyphens.
  public static func isWellFormed(_ text: String) -> Bool {
    // By bytes: every word is ASCII, so a byte that is neither a-z nor `-` fails it either way.
    var previous = UInt8(ascii: "-")  // the first word must not be empty
    for byte in text.utf8 {
      if byte == UInt8(ascii: "-") {
        guard previous != UInt8(ascii: "-") else { return false }
      } else {
        guard (0x61...0x7A).contains(byte) else { return false }
      }
      previous = byte
    }
    return !text.isEmpty && previous != UInt8(ascii: "-")
  }

  public var description: String { rawValue }

  public static func < (lhs: BrandSlug, rhs: BrandSlug) -> Bool { lhs.rawValue < rhs.rawValue }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let slug = BrandSlug(rawValue: text) else {
      throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a brand slug: \(text)")
    }
    self = slug
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

/// A brand: its slug and its name as Korean shoppers know it (`이마트`, `롯데마트 맥스`).
public struct Brand: Hashable, Sendable, Identifiable {
  public let slug: BrandSlug
  public let koreanName: String

  public init(slug: BrandSlug, koreanName: String) {
    self.slug = slug
    self.koreanName = koreanName
  }

  public var id: BrandSlug { slug }
}

/// A branch's permanent identifier: `<brand slug>-<the brand's own store id>`, e.g. `emart-1059`.
///
/// Clients store these as favourites, so they must never change between runs. Slugs contain
/// hyphens and so may store ids, so the text alone does not say where the slug ends: it is read
/// against a known brand (a branch's `brand` field), or against the brands of the bundle it
/// comes from (``BranchID/bundleBrands``).
public struct BranchID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public let brand: BrandSlug
  public let storeID: String

  public init(brand: BrandSlug, storeID: String) {
    self.brand = brand
    self.storeID = storeID
  }

  /// `text` read as an id of `brand`: `nil` unless it is `<brand>-<store id>` with a store id.
  public init?(_ text: String, brand: BrandSlug) {
    let prefix = brand.rawValue + "-"
    guard text.hasPrefix(prefix), text.count > prefix.count else { return nil }
    self.init(brand: brand, storeID: String(text.dropFirst(prefix.count)))
  }

  /// `text` read against `brands`, the brands of the bundle it comes from. When two of them fit
  /// (`homeplus` and `homeplus-express` for `homeplus-express-0293`), the longer slug is the
  /// brand: a bundle holding both never has a `homeplus` store id starting with `express-`.
  public init?(_ text: String, amongBrands brands: some Sequence<BrandSlug>) {
    // The longest slug the text starts with, a dash after it (`homeplus-express-…` is Homeplus
    // Express's); compared in place, without making `<slug>-` for every brand and id. Slugs are
    // ASCII: as many characters as bytes.
    var found: BrandSlug?
    for brand in brands {
      let slug = brand.rawValue
      guard slug.utf8.count > found?.rawValue.utf8.count ?? -1, text.hasPrefix(slug),
        text.dropFirst(slug.utf8.count).first == "-"
      else { continue }
      found = brand
    }
    guard let found else { return nil }
    self.init(text, brand: found)
  }

  /// The `userInfo` key under which a decoder is given the brands (`[BrandSlug]`) of the bundle
  /// it reads, for ids that stand without their branch's `brand` field.
  public static let bundleBrands = CodingUserInfoKey(rawValue: "mart-holiday.bundleBrands")!

  public var description: String { "\(brand.rawValue)-\(storeID)" }

  /// Why this id cannot name a file, or nil when it can. Ids name a branch's files in a bundle
  /// (`branches/<id>.json`, `calendars/branches/<id>.ics`), so the store id (a code, or a
  /// store name as published when the brand gives no code) must be non-empty, at most 200
  /// UTF-8 bytes, without `/`, `\` or control characters, without surrounding white space, and
  /// must not start with `.` (`..`, a hidden file). Checked where a source's branches are
  /// admitted, so that one bad id costs that branch alone.
  public var fileNameProblem: String? {
    let store = storeID
    guard let first = store.unicodeScalars.first, let last = store.unicodeScalars.last else {
      return "the store id is empty"
    }
    if store.utf8.count > 200 { return "the store id is longer than 200 bytes" }
    if first == "." { return "the store id starts with \".\"" }
    if first.properties.isWhitespace || last.properties.isWhitespace {
      return "the store id starts or ends with white space"
    }
    // One pass for both: control characters (`Cc`) are a fixed set, U+0000–001F and
    // U+007F–009F, which Unicode's stability policy keeps as it is.
    var slash = false
    var control = false
    for scalar in store.unicodeScalars {
      switch scalar.value {
      case 0x2F, 0x5C: slash = true
      case 0x00...0x1F, 0x7F...0x9F: control = true
      default: continue
      }
    }
    if slash { return "the store id holds a / or \\" }
    if control { return "the store id holds a control character" }
    return nil
  }

  /// The order of the ids' texts (``description``), without making them: ids of one brand
  /// compare as their store ids (the texts share `<brand>-`, an ASCII prefix ending in a
  /// character nothing combines with), and ids of brands whose slugs (lower-case ASCII) differ
  /// within both compare at that byte. Only where one slug begins the other (`homeplus`,
  /// `homeplus-express`) are the texts made.
  public static func < (lhs: BranchID, rhs: BranchID) -> Bool {
    if lhs.brand == rhs.brand { return lhs.storeID < rhs.storeID }
    for (left, right) in zip(lhs.brand.rawValue.utf8, rhs.brand.rawValue.utf8) where left != right {
      return left < right
    }
    return lhs.description < rhs.description
  }

  /// Reads an id standing alone, against the brands in the decoder's ``bundleBrands``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let brands = decoder.userInfo[Self.bundleBrands] as? [BrandSlug] else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "branch id \(text): the bundle's brands are needed to read it")
    }
    guard let id = BranchID(text, amongBrands: brands) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription:
          "not a branch id of the bundle's brands (\(brands.map(\.rawValue).joined(separator: ", "))): \(text)")
    }
    self = id
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}

extension KeyedDecodingContainer {
  /// Reads the branch id at `key` as an id of `brand`: a row that names its own brand.
  public func decode(_ type: BranchID.Type, forKey key: Key, brand: BrandSlug) throws -> BranchID {
    let text = try decode(String.self, forKey: key)
    guard let id = BranchID(text, brand: brand) else {
      throw DecodingError.dataCorruptedError(
        forKey: key, in: self, debugDescription: "\(text) is not an id of brand \(brand.rawValue)")
    }
    return id
  }
}
