extension String {
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
