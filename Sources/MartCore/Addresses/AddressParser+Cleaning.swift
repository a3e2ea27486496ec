import Foundation

// Cleaning the text before its words are read.

extension AddressParser {
  // MARK: Cleaning
  //
  // Each pass gives back the text it is given when there is nothing in it for the pass to change.

  /// NFC, half-width forms, one kind of space and dash, no link text or company markers.
  static func clean(_ raw: String) -> Scalars {
    // Text the quick test finds NFC holds no combining marks and no jamo, so it stays NFC through
    // the mapping below; anything else is normalized before and after it.
    let needsNormalization = !TextCleanup.isNFC(raw)
    let source = needsNormalization ? raw.precomposedStringWithCanonicalMapping : raw
    var scalars: [Unicode.Scalar] = []
    scalars.reserveCapacity(source.utf8.count)
    for scalar in source.unicodeScalars {
      switch scalar.value {
      case 0xFF01...0xFF5E:  // full-width ASCII
        scalars.append(Unicode.Scalar(UInt8(scalar.value - 0xFEE0)))
      case 0x3231:  // ㈜
        scalars.append(contentsOf: "(주)".unicodeScalars)
      case 0x2010...0x2015, 0x2212, 0xFE63:  // dashes and minus signs
        scalars.append("-")
      case 0x200B, 0x200C, 0x200D, 0xFEFF:  // zero-width characters
        continue
      default:
        scalars.append(isWhitespace(scalar) ? " " : scalar)
      }
    }
    if needsNormalization {
      scalars = Array(string(scalars[...]).precomposedStringWithCanonicalMapping.unicodeScalars)
    }
    var text = removingLinkText(scalars[...])
    text = removingCompanyNames(text)
    text = joiningNumberDashes(text)
    text = spacingCommas(text)
    return trimmed(collapsingSpaces(text), of: " ,")
  }

  /// Whether a scalar is white space, without the property lookup for ASCII and Hangul syllables.
  static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20: true
    case 0..<0x80, 0xAC00...0xD7A3: false
    default: scalar.properties.isWhitespace
    }
  }

  /// Replaces `길 찾기` or `길찾기` at the start or after a space (a map button's text) by a space.
  static func removingLinkText(_ text: Scalars) -> Scalars {
    guard text.contains("찾") else { return text }
    func linkTextEnd(at start: Int) -> Int? {
      guard text.has(scalar: "길", at: start) else { return nil }
      if text.has(" 찾기", at: start + 1) { return start + 4 }
      return text.has("찾기", at: start + 1) ? start + 3 : nil
    }
    return replacingSpans(of: text) { index in
      if index == text.startIndex, let end = linkTextEnd(at: index) { return end }
      return text[index] == " " ? linkTextEnd(at: index + 1) : nil
    }
  }

  /// Replaces `(주)` and the word after it (`(주)롯데쇼핑`) by a space.
  static func removingCompanyNames(_ text: Scalars) -> Scalars {
    guard text.contains("(") else { return text }
    return replacingSpans(of: text) { start in
      guard text.has(scalar: "(", at: start) else { return nil }
      var index = text.skippingSpaces(from: start + 1)
      guard text.has(scalar: "주", at: index) else { return nil }
      index = text.skippingSpaces(from: index + 1)
      guard text.has(scalar: ")", at: index) else { return nil }
      index = text.skippingSpaces(from: index + 1)
      while index < text.endIndex, !" ,()".unicodeScalars.contains(text[index]) { index += 1 }
      return index
    }
  }

  /// Replaces every span of `text` by one space, left to right: `spanEnd` tells where the span
  /// starting at an index ends, or `nil` where none starts.
  private static func replacingSpans(of text: Scalars, spanEnd: (Int) -> Int?) -> Scalars {
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(text.count + 1)
    var index = text.startIndex
    while index < text.endIndex {
      if let end = spanEnd(index) {
        result.append(" ")
        index = end
      } else {
        result.append(text[index])
        index += 1
      }
    }
    return result[...]
  }

  /// Removes the spaces around a dash between two digits: `607 - 1` → `607-1`.
  static func joiningNumberDashes(_ text: Scalars) -> Scalars {
    guard text.contains("-") else { return text }
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(text.count + 1)
    var index = text.startIndex
    while index < text.endIndex {
      result.append(text[index])
      if text[index].isDigit {
        let dash = text.skippingSpaces(from: index + 1)
        if text.has(scalar: "-", at: dash) {
          let digit = text.skippingSpaces(from: dash + 1)
          if digit < text.endIndex, text[digit].isDigit {
            result.append("-")
            result.append(text[digit])
            index = digit
          }
        }
      }
      index += 1
    }
    return result[...]
  }

  /// Writes every comma as `, ` without spaces before it.
  static func spacingCommas(_ text: Scalars) -> Scalars {
    guard text.contains(",") else { return text }
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(text.count + 1)
    var index = text.startIndex
    while index < text.endIndex {
      let afterSpaces = text.skippingSpaces(from: index)
      if text.has(scalar: ",", at: afterSpaces) {
        result.append(",")
        result.append(" ")
        index = text.skippingSpaces(from: afterSpaces + 1)
      } else if afterSpaces > index {
        // Spaces not before a comma stay, all at once: each is looked at once.
        result += text[index..<afterSpaces]
        index = afterSpaces
      } else {
        result.append(text[index])
        index += 1
      }
    }
    return result[...]
  }

  /// Writes every run of spaces as one space.
  static func collapsingSpaces(_ text: Scalars) -> Scalars {
    guard text.indices.dropFirst().contains(where: { text[$0] == " " && text[$0 - 1] == " " }) else { return text }
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(text.count)
    for (index, scalar) in zip(text.indices, text)
    where scalar != " " || index == text.startIndex || text[index - 1] != " " {
      result.append(scalar)
    }
    return result[...]
  }

  /// The text without the given scalars at either end.
  static func trimmed(_ text: Scalars, of characters: String) -> Scalars {
    let set = characters.unicodeScalars
    guard let first = text.firstIndex(where: { !set.contains($0) }),
      let last = text.lastIndex(where: { !set.contains($0) })
    else { return [] }
    return text[first...last]
  }

  /// Splits off the top-level parenthesized parts (nested ones are dropped with their content).
  /// Returns the text outside with a space where each part was, and each part's content.
  static func splitParentheses(_ text: Scalars) -> (outside: Scalars, references: [Scalars]) {
    // Without brackets, the text outside is all of it.
    guard text.contains(where: { $0 == "(" || $0 == "[" || $0 == ")" || $0 == "]" }) else {
      return (trimmed(removingSpacesBeforeCommas(collapsingSpaces(text)), of: " ,"), [])
    }
    var outside: [Unicode.Scalar] = []
    outside.reserveCapacity(text.count)
    var references: [Scalars] = []
    var current: [Unicode.Scalar] = []
    var depth = 0
    for scalar in text {
      switch scalar {
      case "(", "[":
        if depth == 0 { outside.append(" ") } else if depth == 1 { current.append(" ") }
        depth += 1
      case ")", "]":
        guard depth > 0 else { continue }  // a stray closing parenthesis
        depth -= 1
        if depth == 0 {
          let content = trimmed(collapsingSpaces(current[...]), of: " ,")
          if !content.isEmpty { references.append(content) }
          current = []
        }
      default:
        if depth == 0 { outside.append(scalar) } else if depth == 1 { current.append(scalar) }
      }
    }
    let unclosed = trimmed(current[...], of: " ,")
    if depth > 0, !unclosed.isEmpty { references.append(unclosed) }
    return (trimmed(removingSpacesBeforeCommas(collapsingSpaces(outside[...])), of: " ,"), references)
  }

  /// Removes the spaces right before a comma. Run after `collapsingSpaces(_:)`, this leaves one
  /// space between words and none before a comma.
  static func removingSpacesBeforeCommas(_ text: Scalars) -> Scalars {
    guard text.indices.dropFirst().contains(where: { text[$0] == "," && text[$0 - 1] == " " }) else { return text }
    var result: [Unicode.Scalar] = []
    result.reserveCapacity(text.count)
    for index in text.indices where !(text[index] == " " && text.has(scalar: ",", at: index + 1)) {
      result.append(text[index])
    }
    return result[...]
  }
}
