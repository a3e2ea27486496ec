import Foundation

/// Small, pure text clean-ups applied to every published field.
public enum TextCleanup {
  /// NFC-normalizes, turns NBSP, full-width spaces, tabs, newlines and control characters
  /// into plain spaces, collapses runs of spaces and trims. Returns `nil` for text that ends
  /// up empty.
  public static func field(_ text: String?) -> String? {
    guard let text else { return nil }
    let normalized = isNFC(text) ? text : text.precomposedStringWithCanonicalMapping
    // The runs of scalars between spaces, copied as bytes, one space between two runs.
    var result: [UInt8] = []
    result.reserveCapacity(normalized.utf8.count)
    let scalars = normalized.unicodeScalars
    var runStart: String.Index?
    func endRun(at end: String.Index) {
      guard let start = runStart else { return }
      if !result.isEmpty { result.append(0x20) }
      result.append(contentsOf: normalized.utf8[start..<end])
      runStart = nil
    }
    var index = scalars.startIndex
    while index < scalars.endIndex {
      if isSpace(scalars[index]) {
        endRun(at: index)
      } else if runStart == nil {
        runStart = index
      }
      scalars.formIndex(after: &index)
    }
    endRun(at: scalars.endIndex)
    return result.isEmpty ? nil : String(decoding: result, as: UTF8.self)
  }

  /// Whether `scalar` becomes a space: Unicode's White_Space, the byte order mark, and the
  /// control characters (general category Cc), spelled out because the property lookups are
  /// slow.
  static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x20, 0x7F...0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
    default: false
    }
  }

  /// A quick, conservative test that `text` is already in NFC: every scalar is in a block
  /// whose characters have no canonical decomposition and do not combine (ASCII and Latin up to
  /// the combining marks, general punctuation up to U+2027 but for U+2000 and U+2001, CJK
  /// punctuation before its combining tone marks, precomposed Hangul syllables, full-width
  /// forms). Text with anything else goes through full normalization.
  static func isNFC(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      switch scalar.value {
      case 0x00...0x2FF, 0x2002...0x2027, 0x3000...0x3029, 0xAC00...0xD7A3, 0xFF01...0xFF60: true
      default: false
      }
    }
  }
}
