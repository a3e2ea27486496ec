import Foundation

/// Small, pure text clean-ups applied to every published field.
public enum TextCleanup {
  /// NFC-normalizes, turns NBSP, full-width spaces, tabs, newlines and control characters
  /// into plain spaces, collapses runs of spaces and trims. Returns `nil` for text that ends
  /// up empty.
  public static func field(_ text: String?) -> String? {
    guard let text else { return nil }
    var normalized = isNFC(text) ? text : text.precomposedStringWithCanonicalMapping
    let isClean = normalized.withUTF8 { bytes in
      // Nothing to do when every space is a plain one between two runs.
      var index = 0
      var afterSpace = true
      while index < bytes.count {
        let (scalar, length) = decodeScalar(bytes, at: index)
        let space = isSpace(scalar)
        if space && (afterSpace || scalar != 0x20) { return false }
        afterSpace = space
        index += length
      }
      return !afterSpace
    }
    if isClean { return normalized }
    // The runs of scalars between spaces, copied as bytes, one space between two runs.
    return normalized.withUTF8 { bytes -> String? in
      var result: [UInt8] = []
      result.reserveCapacity(bytes.count)
      var runStart: Int?
      func endRun(at end: Int) {
        guard let start = runStart else { return }
        if !result.isEmpty { result.append(0x20) }
        result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        runStart = nil
      }
      var index = 0
      while index < bytes.count {
        let (scalar, length) = decodeScalar(bytes, at: index)
        if isSpace(scalar) {
          endRun(at: index)
        } else if runStart == nil {
          runStart = index
        }
        index += length
      }
      endRun(at: bytes.count)
      return result.isEmpty ? nil : String(decoding: result, as: UTF8.self)
    }
  }

  /// The scalar whose UTF-8 encoding starts at `index` of valid UTF-8 `bytes`, and its length.
  private static func decodeScalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (UInt32, Int) {
    let lead = UInt32(bytes[index])
    if lead < 0x80 { return (lead, 1) }
    func continuation(_ offset: Int) -> UInt32 { UInt32(bytes[index + offset] & 0x3F) }
    if lead < 0xE0 { return ((lead & 0x1F) << 6 | continuation(1), 2) }
    if lead < 0xF0 { return ((lead & 0x0F) << 12 | continuation(1) << 6 | continuation(2), 3) }
    return ((lead & 0x07) << 18 | continuation(1) << 12 | continuation(2) << 6 | continuation(3), 4)
  }

  /// Whether `scalar` becomes a space: Unicode's White_Space, the byte order mark, and the
  /// control characters (general category Cc), spelled out because the property lookups are
  /// slow.
  static func isSpace(_ scalar: Unicode.Scalar) -> Bool { isSpace(scalar.value) }

  private static func isSpace(_ value: UInt32) -> Bool {
    switch value {
    case 0x00...0x20, 0x7F...0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: true
    default: false
    }
  }

  /// Whether `Character`s break between two adjacent scalars, by Unicode's grapheme rules seen
  /// for the two alone: exact where the left one is white space or ASCII, or a mark that
  /// continues a grapheme begun by one (the rules that look further back, for emoji sequences,
  /// flags and Indic conjuncts, join neither). Below U+0300 nothing combines or prepends but
  /// CR LF, and a precomposed Hangul syllable joins only trailing jamo; any other pair is asked
  /// of the standard library.
  static func breaksGrapheme(_ left: Unicode.Scalar, _ right: Unicode.Scalar) -> Bool {
    let leftPlain = left.value < 0x300 || left.isHangulSyllable
    if leftPlain, right.value < 0x300 || right.isHangulSyllable {
      return !(left == "\r" && right == "\n")
    }
    var pair = String.UnicodeScalarView()
    pair.append(left)
    pair.append(right)
    return String(pair).count == 2
  }

  /// A quick, conservative test that `text` is already in NFC: every scalar is in a block
  /// whose characters have no canonical decomposition and do not combine (ASCII and Latin up to
  /// the combining marks, general punctuation up to U+2027 but for U+2000 and U+2001, CJK
  /// punctuation before its combining tone marks, precomposed Hangul syllables, full-width
  /// forms). Text with anything else goes through full normalization.
  static func isNFC(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        let (scalar, length) = decodeScalar(bytes, at: index)
        switch scalar {
        case 0x00...0x2FF, 0x2002...0x2027, 0x3000...0x3029, 0xAC00...0xD7A3, 0xFF01...0xFF60: break
        default: return false
        }
        index += length
      }
      return true
    }
  }
}
