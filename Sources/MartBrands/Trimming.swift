extension StringProtocol where UTF8View: BidirectionalCollection {
  /// `trimmingCharacters(in: .whitespaces)` (tab and the space separators, Unicode category Zs)
  /// without Foundation's detour through NSString, which dominated parsing time.
  func trimmingSpaces() -> String { trimmingScalars { Trimming.isSpace($0) } }

  /// `trimmingCharacters(in: .whitespacesAndNewlines)`: also line feed to carriage return, NEL,
  /// and the line and paragraph separators.
  func trimmingSpacesAndNewlines() -> String { trimmingScalars { Trimming.isSpace($0) || Trimming.isNewline($0) } }

  private func trimmingScalars(where shouldTrim: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    // Most texts have nothing to trim: they are returned as they are. An end that is ASCII is
    // told from its byte, without decoding a scalar.
    func keeps(_ byte: UInt8?, _ scalar: () -> Unicode.Scalar?) -> Bool {
      guard let byte, let end = byte < 0x80 ? Unicode.Scalar(byte) : scalar() else { return false }
      return !shouldTrim(end)
    }
    if keeps(utf8.first, { scalars.first }), keeps(utf8.last, { scalars.last }) { return String(self) }
    guard let first = scalars.firstIndex(where: { !shouldTrim($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !shouldTrim($0) })!
    // One copy of the bytes between the two ends (building a scalar view costs 15 times as much).
    return String(self[first..<scalars.index(after: last)])
  }
}

enum Trimming {
  /// Foundation's `CharacterSet.whitespaces`: tab and category Zs.
  static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }

  /// Unicode's White_Space property: `isSpace` and `isNewline` together. `Character.isWhitespace`
  /// is this property of the character's first scalar, told here without a property lookup.
  static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool { isSpace(scalar) || isNewline(scalar) }

  /// `Character.isWhitespace`: whether the character's first scalar is White_Space.
  static func isWhitespace(_ character: Character) -> Bool { isWhitespace(character.unicodeScalars.first!) }

  /// Foundation's `CharacterSet.newlines`.
  static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A...0x0D, 0x85, 0x2028, 0x2029: true
    default: false
    }
  }
}
