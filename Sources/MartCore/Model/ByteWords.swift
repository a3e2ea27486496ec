/// Tests on eight bytes of text at once, for the writers' escaping (JSON, iCalendar) and the JSON
/// reader's strings: a run of bytes none of which matters is looked through a word at a time,
/// not byte by byte. Each test sets the high bit of a byte of its result where that byte may
/// match; a borrow can also mark bytes above a match, never one below it nor a word without
/// one, so a result is zero exactly when no byte matches, and its lowest mark (with ``word(of:at:)``'s
/// first byte lowest) is always a match.
package enum ByteWords {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The eight bytes of `text` from `index` (which must have eight bytes after it), the first
  /// byte lowest.
  package static func word(of text: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
    UInt64(littleEndian: UnsafeRawPointer(text.baseAddress! + index).loadUnaligned(as: UInt64.self))
  }

  /// Nonzero when a byte of `word` is below `limit` (at most 0x80).
  package static func bytes(below limit: UInt8, in word: UInt64) -> UInt64 {
    (word &- ones &* UInt64(limit)) & ~word & highBits
  }

  /// Nonzero when a byte of `word` is `byte`.
  package static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
    let difference = word ^ (ones &* UInt64(byte))
    return (difference &- ones) & ~difference & highBits
  }
}
