import Foundation

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
