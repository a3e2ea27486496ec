/// The words of an address: what each one is (a province, a road name, a building number, a
/// floor…), and a name written as two words read as one.
extension AddressParser {
  enum WordKind: Equatable {
    case province(Province)
    case sigungu, eupMyeon, dongRi, roadName, roadNameSuffix
    case number(main: Int, sub: Int?)
    case mountainNumber(main: Int, sub: Int?)
    case underground, mountain, lotSuffix, floorOrUnit
  }

  /// A word of the address with its kind, classified once.
  struct Word {
    var scalars: Scalars
    var kind: WordKind?
    var text: String { AddressParser.string(scalars) }

    init(_ scalars: Scalars) {
      self.scalars = scalars
      self.kind = AddressParser.kind(of: scalars)
    }
  }

  /// What a whole word is, or `nil` when it is no part of an address.
  static func kind(of word: Scalars) -> WordKind? {
    if let province = Province(aliasScalars: word) { return .province(province) }
    // 12, 12-3, 12번지, 12번
    if let (main, sub, end) = word.number(at: word.startIndex),
      end == word.endIndex || word.isRemainder(from: end, oneOf: "번지", "번")
    {
      return .number(main: main, sub: sub)
    }
    // 산12, 산12-3번지
    if word.has(scalar: "산", at: word.startIndex), let (main, sub, end) = word.number(at: word.startIndex + 1),
      end == word.endIndex || word.isRemainder(from: end, oneOf: "번지")
    {
      return .mountainNumber(main: main, sub: sub)
    }
    if word.count <= 2 {
      if word.elementsEqual("지하".unicodeScalars) { return .underground }
      if word.elementsEqual("산".unicodeScalars) { return .mountain }
      if word.elementsEqual("번지".unicodeScalars) { return .lotSuffix }
    }
    if isFloorOrUnit(word) { return .floorOrUnit }
    if isRoadNameSuffix(word) { return .roadNameSuffix }
    // 서울광역시, 부산특별시: a province word that names no province is no 시 either.
    if provinceEndings.contains(where: { word.count >= $0.count && word.suffix($0.count).elementsEqual($0) }) {
      return nil
    }
    if let last = word.last, word.count >= 2, word.count <= 8, word.allSatisfy(\.isHangulSyllable) {
      if isSigunguEnding(last) { return .sigungu }
      if last == "읍" || last == "면" { return .eupMyeon }
    }
    if isDongRi(word) { return .dongRi }
    if isRoadName(word) { return .roadName }
    return nil
  }

  /// How the names of provinces end (`광역시`, `특별시`, `특별자치시`, `특별자치도`): a word ending so that
  /// is no province alias (`서울광역시`) is a wrong province word, not a 시.
  static let provinceEndings: [Scalars] = ["광역시", "특별시", "특별자치시", "특별자치도", "통합특별시"].map {
    Array($0.unicodeScalars)[...]
  }

  /// `3층`, `B1층`, `지하1층`, `2~3F`, `B1`, `301호`, `101동`, `지하층`, `옥상`.
  static func isFloorOrUnit(_ word: Scalars) -> Bool {
    if word.count <= 3, word.elementsEqual("지하층".unicodeScalars) || word.elementsEqual("옥상".unicodeScalars) {
      return true
    }
    var index = word.startIndex
    if word.has("지하", at: index) {
      index += 2
    } else if word.has(scalar: "B", at: index) || word.has(scalar: "b", at: index) {
      index += 1
    }
    let digitsStart = index
    index = word.skippingDigits(from: index)
    guard index > digitsStart else { return false }
    let prefixed = digitsStart > word.startIndex
    // B1
    if index == word.endIndex { return prefixed && word[word.startIndex] != "지" }
    // 301호, 101동
    if !prefixed, index + 1 == word.endIndex, word.isRemainder(from: index, oneOf: "호", "동") { return true }
    // 2~3층
    if word.has(scalar: "~", at: index) {
      let rangeEnd = word.skippingDigits(from: index + 1)
      guard rangeEnd > index + 1 else { return false }
      index = rangeEnd
    }
    return index + 1 == word.endIndex && word.isRemainder(from: index, oneOf: "층", "F", "f")
  }

  /// The part of a road name written after a space: `56길`, `123번길`, `3나길`.
  static func isRoadNameSuffix(_ word: Scalars) -> Bool {
    let rest = word[word.skippingDigits(from: word.startIndex)...]
    guard rest.startIndex > word.startIndex, rest.last == "길" else { return false }
    switch rest.count {
    case 1: return true
    case 2: return rest[rest.startIndex].isHangulSyllable
    case 3: return rest[rest.startIndex].isHangulSyllable && rest[rest.startIndex + 1] == "번"
    default: return false
    }
  }

  /// A 동, 리 or 가: up to eleven syllables, digits, `·` or `.`, ending in 동, 리 or a digit and 가
  /// (`신천동`, `태평리`, `종로2가`).
  static func isDongRi(_ word: Scalars) -> Bool {
    guard let first = word.first, first.isHangulSyllable, let last = word.last else { return false }
    let middle: Scalars
    if last == "동" || last == "리" {
      middle = word.dropFirst().dropLast()
    } else if last == "가", word.count >= 3, word[word.endIndex - 2].isDigit {
      middle = word.dropFirst().dropLast(2)
    } else {
      return false
    }
    return word.count >= 2 && middle.count <= 9
      && middle.allSatisfy { $0.isHangulSyllable || $0.isDigit || $0 == "·" || $0 == "." }
  }

  /// A road name ending in 로 or 길, which may start with digits when a syllable follows
  /// (`2순환로`, `3공단로`).
  static func isRoadName(_ word: Scalars) -> Bool {
    guard let last = word.last, last == "로" || last == "길" else { return false }
    let digitsEnd = word.skippingDigits(from: word.startIndex)
    guard digitsEnd < word.endIndex, word[digitsEnd].isHangulSyllable else { return false }
    // 1100로, 516로 (제주): a road named by its number alone, of three digits or more (`6로`
    // alone is the end of a name written apart, `3공단 6로`).
    if digitsEnd == word.endIndex - 1 { return last == "로" && digitsEnd - word.startIndex >= 3 }
    let middle = word[(digitsEnd + 1)..<max(digitsEnd + 1, word.endIndex - 1)]
    return word.endIndex - 1 > digitsEnd && middle.count <= 14
      && middle.allSatisfy { $0.isHangulSyllable || $0.isASCIILetterOrDigit || $0 == "·" || $0 == "." }
  }

  /// `12` or `12-3`, the whole text.
  static func isBuildingNumber(_ text: Scalars) -> Bool {
    text.number(at: text.startIndex)?.end == text.endIndex
  }

  /// `12`, `12-3`, `산12-3번지`, the whole text.
  static func isLotNumber(_ text: Scalars) -> Bool {
    let start = text.has(scalar: "산", at: text.startIndex) ? text.startIndex + 1 : text.startIndex
    guard let end = text.number(at: start)?.end else { return false }
    return end == text.endIndex || (end + 2 == text.endIndex && text.has("번지", at: end))
  }

  /// A 동 or 리 written before its lot number: a syllable, then syllables and digits, ending in 동,
  /// 리 or a digit and 가.
  static func isGluedDongRi(_ text: Scalars) -> Bool {
    guard let first = text.first, first.isHangulSyllable, text.count >= 2,
      text.allSatisfy({ $0.isHangulSyllable || $0.isDigit })
    else { return false }
    return text.last != "가" || (text.count >= 3 && text[text.endIndex - 2].isDigit)
  }

  /// Two words that are one name written with an inner space, as one word: a name and its numbered
  /// road (`3공단 6로` → `3공단6로`, `종합운동장 1로`, `중동 2로`, `중동 5번길`), or a 동 or 로 and its
  /// numbered 가 (`양평동 3가` → `양평동3가`, `종로 3가`). `nil` unless the second word is a number and
  /// 로, 길 or 가 and the two read together as a road name or a 동.
  static func joinedName(_ first: Word, _ second: Word) -> Word? {
    let suffix = second.scalars
    let digitsEnd = suffix.skippingDigits(from: suffix.startIndex)
    guard digitsEnd > suffix.startIndex, digitsEnd < suffix.endIndex,
      first.scalars.allSatisfy({ $0.isHangulSyllable || $0.isDigit }), first.scalars.last?.isHangulSyllable == true
    else { return nil }
    let expected: WordKind
    if second.kind == .roadNameSuffix || suffix.isRemainder(from: digitsEnd, oneOf: "로"),
      first.kind == nil || first.kind == .dongRi
    {
      expected = .roadName
    } else if suffix.isRemainder(from: digitsEnd, oneOf: "가"), first.kind == .dongRi || first.kind == .roadName {
      expected = .dongRi
    } else {
      return nil
    }
    let joined = Word((Array(first.scalars) + suffix)[...])
    return joined.kind == expected ? joined : nil
  }
}
