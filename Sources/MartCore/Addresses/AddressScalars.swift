extension Unicode.Scalar {
  /// Whether this is a precomposed Hangul syllable (가–힣).
  var isHangulSyllable: Bool { (0xAC00...0xD7A3).contains(value) }
  /// Whether this is an ASCII digit.
  var isDigit: Bool { ("0"..."9").contains(self) }
  /// Whether this is an ASCII letter or digit.
  var isASCIILetterOrDigit: Bool { isDigit || ("A"..."Z").contains(self) || ("a"..."z").contains(self) }
}

extension ArraySlice<Unicode.Scalar> {
  /// Whether `literal` is written at `index` (false past the end).
  func has(_ literal: String, at index: Int) -> Bool {
    var position = index
    for scalar in literal.unicodeScalars {
      guard position >= startIndex, position < endIndex, self[position] == scalar else { return false }
      position += 1
    }
    return true
  }

  /// Whether `scalar` is at `index` (false past the end): `has` for a literal of one scalar,
  /// without reading the literal.
  func has(scalar: Unicode.Scalar, at index: Int) -> Bool {
    index >= startIndex && index < endIndex && self[index] == scalar
  }

  /// Whether everything from `index` on is one of `literals`.
  func isRemainder(from index: Int, oneOf literals: String...) -> Bool {
    literals.contains { self[index...].elementsEqual($0.unicodeScalars) }
  }

  /// The first index at or after `index` that is not a space.
  func skippingSpaces(from index: Int) -> Int {
    var position = index
    while position < endIndex, self[position] == " " { position += 1 }
    return position
  }

  /// The first index at or after `index` that is not an ASCII digit.
  func skippingDigits(from index: Int) -> Int {
    var position = index
    while position < endIndex, self[position].isDigit { position += 1 }
    return position
  }

  /// Reads `12` or `12-3` at `index`: the numbers (0 and `nil` when too large for an `Int`) and
  /// where they end. `nil` without a digit at `index`.
  func number(at index: Int) -> (main: Int, sub: Int?, end: Int)? {
    let mainEnd = skippingDigits(from: index)
    guard mainEnd > index else { return nil }
    let main = integer(self[index..<mainEnd]) ?? 0
    guard has(scalar: "-", at: mainEnd) else { return (main, nil, mainEnd) }
    let subEnd = skippingDigits(from: mainEnd + 1)
    guard subEnd > mainEnd + 1 else { return (main, nil, mainEnd) }
    return (main, integer(self[(mainEnd + 1)..<subEnd]), subEnd)
  }

  /// The value of ASCII digits, `nil` when it does not fit in an `Int`.
  private func integer(_ digits: ArraySlice<Unicode.Scalar>) -> Int? {
    var value = 0
    for digit in digits {
      let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, addOverflow) = shifted.addingReportingOverflow(Int(digit.value - 48))
      guard !overflow, !addOverflow else { return nil }
      value = sum
    }
    return value
  }
}
