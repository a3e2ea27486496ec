import Foundation
import MartCore

/// How E-mart's feeds name a store: the banner or brand prefix a `NAME` starts with, the store
/// type code, and the markers of other kinds of store sharing the feeds.
extension EmartSource {
  /// The brand of a `STORE_TP` code: `E`/`A` 이마트, `T` 트레이더스, `S` 노브랜드; `nil` for other
  /// codes, whose rows are classified by name.
  static func brand(forStoreType storeType: String) -> BrandSlug? {
    switch storeType.uppercased() {
    case "E", "A": .emart
    case "T": .traders
    case "S": .nobrand
    default: nil
    }
  }

  /// Words that mark a store of another kind sharing the feeds or their banners (이마트24, SSG
  /// 푸드마켓, Boots, 일렉트로마트, 몰리스, 토이킹덤, 베이비서클, …): such rows are never a branch.
  static let otherStoreMarkers = ["이마트24", "SSG", "Boots", "BOOTS", "부츠", "일렉트로마트", "몰리스", "토이킹덤", "베이비서클", "PK마켓"]

  /// The brand of a feed row: none for the other kinds of store, else by `STORE_TP` where it is
  /// a known code, else by the banner the name starts with (`이마트`, `트레이더스 홀세일 클럽`,
  /// `에브리데이`, `노브랜드`, the misspelling `노브렌드`, and the newer E-mart banners
  /// `스타필드 마켓`, `이마트 푸드마켓`), written with or without a space after it or inside it
  /// (`노브랜드예천호명점`, `스타필드마켓 일산점`), as 2026 feeds write them; no 2026 client reads
  /// `STORE_TP`, so a row whose code is missing or unseen is placed by its name. `nil` when
  /// neither says.
  public static func classify(storeType: String?, name: String) -> BrandSlug? {
    let jamo = name.containsConjoiningJamo
    if otherStoreMarkers.contains(where: { contains(name, $0, hasConjoiningJamo: jamo) }) { return nil }
    // The 에브리데이 banner wins over any store type: the all-format list may file its rows
    // under a hypermarket code.
    func startsWithPrefix(of brand: BrandSlug) -> Bool {
      namePrefixes(for: brand).contains { rest(of: name, after: $0, hasConjoiningJamo: jamo) != nil }
    }
    if startsWithPrefix(of: .everyday) { return .everyday }
    if let brand = storeType.flatMap(brand(forStoreType:)) { return brand }
    let order: [BrandSlug] = [.everyday, .traders, .nobrand, .emart]
    for brand in order where startsWithPrefix(of: brand) { return brand }
    if banner(of: name) != nil { return .emart }
    return nil
  }

  /// Whether `marker` occurs in `name`: byte for byte as UTF-8, and through Foundation's
  /// canonical comparison only for a name with conjoining jamo (the one way a name can spell a
  /// marker's Hangul differently), so the common case makes no trip through NSString.
  static func contains(_ name: String, _ marker: String, hasConjoiningJamo: Bool? = nil) -> Bool {
    if name.containsText(marker) { return true }
    return (hasConjoiningJamo ?? name.containsConjoiningJamo) && name.contains(marker)
  }

  /// What follows banner `word` at the start of `name`, spaces skipped, when `name` starts with
  /// it written as it is or without its spaces (`스타필드 마켓`, `스타필드마켓`) and something
  /// follows: `노브랜드예천호명점` after `노브랜드` is `예천호명점`. Byte for byte unless the name has
  /// conjoining jamo.
  static func rest(of name: String, after word: String, hasConjoiningJamo: Bool? = nil) -> Substring? {
    let jamo = hasConjoiningJamo ?? name.containsConjoiningJamo
    guard jamo else {
      // Byte for byte. Nothing is made unless the name starts with the word.
      guard let end = Self.endOfPrefix(word, in: name) else { return nil }
      var trimmed = Substring(name.utf8[end...])
      // Whitespace characters dropped, each told by its first scalar (`Trimming.isWhitespace`).
      while let first = trimmed.unicodeScalars.first, Trimming.isWhitespace(first) { trimmed = trimmed.dropFirst() }
      return trimmed.isEmpty ? nil : trimmed
    }
    let closed = word.filter { $0 != " " }
    for spelling in closed == word ? [word] : [word, closed] {
      guard name.hasPrefix(spelling) else { continue }
      let trimmed = name.dropFirst(spelling.count).drop { $0.isWhitespace }
      if !trimmed.isEmpty { return trimmed }
    }
    return nil
  }

  /// Where `word` ends in `name` when `name` starts with its bytes, as they are or without the
  /// word's spaces; `nil` otherwise. The words are banners and prefixes, whose spaces stand
  /// alone, so dropping the 0x20 bytes drops the " " characters; and the name can start with
  /// only one of the two spellings, the one it has at the word's first space.
  private static func endOfPrefix(_ word: String, in name: String) -> String.Index? {
    let length = name.withContiguousUTF8 { name in
      word.withContiguousUTF8 { word -> Int? in
        var length = 0
        var skipsSpaces: Bool?
        for byte in word {
          if byte == 0x20 {
            if skipsSpaces == nil { skipsSpaces = length == name.count || name[length] != 0x20 }
            if skipsSpaces == true { continue }
          }
          guard length < name.count, name[length] == byte else { return nil }
          length += 1
        }
        return length
      }
    }
    return length.map { name.utf8.index(name.utf8.startIndex, offsetBy: $0) }
  }

  /// The name prefixes each brand carries in `NAME`, longest first.
  static func namePrefixes(for brand: BrandSlug) -> [String] {
    switch brand {
    case .emart: ["이마트"]
    case .traders: ["이마트 트레이더스 홀세일 클럽", "트레이더스 홀세일 클럽", "이마트 트레이더스", "트레이더스"]
    case .nobrand: ["노브랜드", "노브렌드"]
    case .everyday: ["이마트 에브리데이", "이마트에브리데이", "에브리데이"]
    default: []
    }
  }

  /// Store formats of 이마트 that the feeds name before the branch (`스타필드 마켓 월계점`,
  /// `이마트 푸드마켓 고덕점`): the branch stays an 이마트 and carries the format as its banner.
  static let banners = ["스타필드 마켓", "이마트 푸드마켓"]

  /// The banner `name` starts with, if any, as `banners` spells it (`스타필드마켓 일산점` →
  /// `스타필드 마켓`).
  public static func banner(of name: String) -> String? {
    let jamo = name.containsConjoiningJamo
    return banners.first { rest(of: name, after: $0, hasConjoiningJamo: jamo) != nil }
  }

  /// `name` without its brand prefix or banner, written with or without a space (`트레이더스
  /// 고양점` → `고양점`, `스타필드마켓 일산점` → `일산점`, `노브랜드예천호명점` → `예천호명점`).
  static func strippingBrandPrefix(_ name: String, brand: BrandSlug) -> String {
    let jamo = name.containsConjoiningJamo
    for prefix in banners + namePrefixes(for: brand) {
      if let rest = rest(of: name, after: prefix, hasConjoiningJamo: jamo) { return rest.trimmingSpaces() }
    }
    return name
  }
}
