extension String {
  /// Calls `body` with the text's UTF-8 bytes: a native string's are read where they are,
  /// without a copy of the string to call `withUTF8` on; another string is made native first.
  /// The writers of the bundle, calendars and pages read every text they escape this way.
  @inlinable
  public func withContiguousUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    var text = self
    return text.withUTF8(body)
  }

  /// Whether the text has exactly `other`'s UTF-8 bytes. For texts that are NFC (cleaned fields,
  /// the tables' names), the bytes say what the texts do, without the normalizing a `String`
  /// comparison of Hangul does.
  public func hasSameUTF8(as other: String) -> Bool {
    withContiguousUTF8 { left in other.withContiguousUTF8 { right in left.elementsEqual(right) } }
  }

  /// Feeds the text's UTF-8 bytes to `hasher`, as ``hasSameUTF8(as:)`` compares them (hashing a
  /// Hangul `String` normalizes every syllable first), then a 0xFF, which no UTF-8 byte is, so
  /// that texts hashed one after another cannot run into each other.
  public func hashUTF8(into hasher: inout Hasher) {
    withContiguousUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    hasher.combine(UInt8(0xFF))
  }

  /// Whether `word` occurs in the text, compared byte for byte as UTF-8 (the wording tables are
  /// precomposed Hangul, as the cleaned texts are); cheaper than Foundation's `contains`, which
  /// goes through NSString on Linux. The one byte search of the package: the core's wording
  /// tables and the brand sources' name checks use it alike.
  public func containsText(_ word: String) -> Bool {
    var text = self
    var word = word
    return text.withUTF8 { haystack in
      word.withUTF8 { needle in
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == first
          && UnsafeBufferPointer(rebasing: haystack[start..<(start + needle.count)]).elementsEqual(needle)
        {
          return true
        }
        return false
      }
    }
  }
}
