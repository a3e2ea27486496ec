/// A cursor over text for the sources' small hand-written readers: what a per-branch function
/// would otherwise ask of a `Regex`, which Swift builds anew each time its literal is evaluated.
/// Each step either moves past what it reads and returns `true`, or returns `false` and leaves
/// the cursor where it was.
struct TextScanner {
  let text: Substring
  private(set) var index: String.Index

  init(_ text: Substring, at index: String.Index) {
    self.text = text
    self.index = index
  }

  init(_ text: String, at index: String.Index) { self.init(text[...], at: index) }

  var isAtEnd: Bool { index >= text.endIndex }
  var next: Character? { isAtEnd ? nil : text[index] }

  /// Moves past every character for which `predicate` holds (zero or more); always `true`.
  @discardableResult
  mutating func skip(_ predicate: (Character) -> Bool) -> Bool {
    while let character = next, predicate(character) { index = text.index(after: index) }
    return true
  }

  /// Moves past the next character when it is one of `characters`.
  mutating func take(_ characters: Set<Character>) -> Bool {
    guard let character = next, characters.contains(character) else { return false }
    index = text.index(after: index)
    return true
  }

  /// Moves past the first of `words` the text goes on with.
  mutating func takeAny(of words: [String]) -> Bool {
    for word in words where text[index...].starts(with: word) {
      index = text.index(index, offsetBy: word.count)
      return true
    }
    return false
  }

  /// Moves past between `least` and `most` decimal digits, as many as there are up to `most`.
  mutating func takeDigits(least: Int, most: Int) -> Bool {
    var end = index
    var count = 0
    while count < most, end < text.endIndex, Self.isDecimalDigit(text[end]) {
      end = text.index(after: end)
      count += 1
    }
    guard count >= least else { return false }
    index = end
    return true
  }

  /// `오전 10:00`: `오전` or `오후`, spaces, one or two digits, `:`, two digits.
  mutating func skipTime() -> Bool {
    let start = index
    guard takeAny(of: ["오전", "오후"]), skip(\.isWhitespace), takeDigits(least: 1, most: 2), take([":"]),
      takeDigits(least: 2, most: 2)
    else {
      index = start
      return false
    }
    return true
  }

  /// A decimal digit of any script (Unicode `Numeric_Type=Decimal`), as `\d` reads it.
  static func isDecimalDigit(_ character: Character) -> Bool {
    guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
    return scalar.properties.numericType == .decimal
  }
}
