import Foundation
import MartCore

extension Data {
  /// The range of the first occurrence of `word`'s UTF-8 bytes at or after `start` (by
  /// default the start), found by `memchr` and `memcmp`: Foundation's `range(of:)` compares
  /// generically, byte by byte, on Linux.
  func firstRange(of word: String, from start: Index? = nil) -> Range<Index>? {
    let from = start ?? startIndex
    guard from <= endIndex, !word.isEmpty else { return nil }
    var needle = word
    return needle.withUTF8 { needle in
      self[from...].withUnsafeBytes { haystack -> Range<Index>? in
        guard let base = haystack.baseAddress, let first = needle.first else { return nil }
        var offset = 0
        while haystack.count - offset >= needle.count,
          let found = memchr(base + offset, Int32(first), haystack.count - offset - needle.count + 1)
        {
          offset = UnsafeRawPointer(found) - base
          if memcmp(base + offset, needle.baseAddress!, needle.count) == 0 {
            return (from + offset)..<(from + offset + needle.count)
          }
          offset += 1
        }
        return nil
      }
    }
  }
}

extension String {
  /// Whether the text spells Hangul with conjoining jamo (ᄀ…, ꥠ…, ힰ…), which compare equal to
  /// precomposed syllables without being the same bytes: a name without them can be matched
  /// against a brand's words byte for byte (E-mart's and Homeplus's prefixes).
  var containsConjoiningJamo: Bool {
    // U+1100–11FF is E1 84–87 xx in UTF-8, U+A960–A97F EA A5 A0–BF, U+D7B0–D7FF ED 9E B0–BF or
    // ED 9F xx: told from the lead and next bytes, without decoding a scalar.
    withContiguousUTF8 { bytes in
      guard bytes.count >= 3 else { return false }
      return (0..<(bytes.count - 2)).contains { index in
        let (lead, second, third) = (bytes[index], bytes[index + 1], bytes[index + 2])
        return (lead == 0xE1 && (0x84...0x87).contains(second)) || (lead == 0xEA && second == 0xA5 && third >= 0xA0)
          || (lead == 0xED && ((second == 0x9E && third >= 0xB0) || second == 0x9F))
      }
    }
  }
}
