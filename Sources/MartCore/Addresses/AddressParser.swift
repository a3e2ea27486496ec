import Foundation

extension KoreanAddress {
  /// Parses an address as store pages publish it. Never fails: what is not understood is listed in
  /// `unparsed`.
  public init(parsing text: String) {
    self = AddressParser.parse(text)
  }

  /// Parses a road-name address published together with a separate lot-number address (as
  /// E-mart's `ADDRESS1`/`ADDRESS3` or Lotte Mart's `newAddress`/`oldAddress`): parts missing from
  /// `text` are taken from `lotAddress` when both name the same area. `raw` stays `text`.
  public init(parsing text: String, lotAddress: String?) {
    self = AddressParser.parse(text)
    guard let lotAddress else { return }
    let other = AddressParser.parse(lotAddress)
    func compatible<Value: Equatable>(_ mine: Value?, _ theirs: Value?) -> Bool {
      mine == nil || theirs == nil || mine == theirs
    }
    guard compatible(province, other.province), compatible(sigungu, other.sigungu) else { return }
    province = province ?? other.province
    sigungu = sigungu ?? other.sigungu
    eupMyeon = eupMyeon ?? other.eupMyeon
    if lotNumber == nil, let otherLot = other.lotNumber, let otherDong = other.dongRi, compatible(dongRi, otherDong) {
      dongRi = otherDong
      lotNumber = otherLot
    }
    if roadName == nil, buildingNumber == nil {
      roadName = other.roadName
      buildingNumber = other.buildingNumber
    }
  }
}

/// The address parser: clean the text, set aside parenthesized references and the detail after the
/// first comma (unless the words after it go on with the address), split words written without
/// spaces, then read the words left to right.
///
/// Every step is a hand-written pass over the Unicode scalars of NFC text, in which each Hangul
/// syllable is one scalar and digits are ASCII.
enum AddressParser {
  typealias Scalars = ArraySlice<Unicode.Scalar>

  static func parse(_ raw: String) -> KoreanAddress {
    var address = KoreanAddress(raw: raw)
    let (outside, parenthesized) = splitParentheses(clean(raw))

    var main = outside[...]
    var afterComma: Scalars = []
    if let comma = outside.firstIndex(of: ",") {
      main = outside[..<comma]
      afterComma = trimmed(outside[(comma + 1)...], of: " ")
    }

    var words = main.split(separator: " ").flatMap(splitGlued).map(Word.init)
    if let continuation = continuation(of: words, in: afterComma) {
      words += continuation.words
      afterComma = continuation.rest
    }
    var detail: [String] = afterComma.isEmpty ? [] : [string(afterComma)]
    var (floors, trailing) = readWords(words, into: &address)
    var references = parenthesized
    if let reference = takeTrailingReference(from: &trailing, after: address) {
      references.insert(reference, at: 0)
    }
    detail.insert(contentsOf: (floors + trailing).filter { $0.kind != .lotSuffix }.map(\.text), at: 0)
    address.detail = detail.isEmpty ? nil : detail.joined(separator: " ")

    for reference in references {
      readReference(reference, into: &address)
    }
    address.reference = references.isEmpty ? nil : references.map(string).joined(separator: ", ")

    placeOnCurrentMap(&address)
    return address
  }

  // MARK: Words

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
    if word.has("산", at: word.startIndex), let (main, sub, end) = word.number(at: word.startIndex + 1),
      end == word.endIndex || word.isRemainder(from: end, oneOf: "번지")
    {
      return .mountainNumber(main: main, sub: sub)
    }
    if word.elementsEqual("지하".unicodeScalars) { return .underground }
    if word.elementsEqual("산".unicodeScalars) { return .mountain }
    if word.elementsEqual("번지".unicodeScalars) { return .lotSuffix }
    if isFloorOrUnit(word) { return .floorOrUnit }
    if isRoadNameSuffix(word) { return .roadNameSuffix }
    if let last = word.last, word.count >= 2, word.count <= 8, word.allSatisfy(\.isHangulSyllable) {
      if "시군구".unicodeScalars.contains(last) { return .sigungu }
      if "읍면".unicodeScalars.contains(last) { return .eupMyeon }
    }
    if isDongRi(word) { return .dongRi }
    if isRoadName(word) { return .roadName }
    return nil
  }

  /// `3층`, `B1층`, `지하1층`, `2~3F`, `B1`, `301호`, `101동`, `지하층`, `옥상`.
  static func isFloorOrUnit(_ word: Scalars) -> Bool {
    if word.elementsEqual("지하층".unicodeScalars) || word.elementsEqual("옥상".unicodeScalars) { return true }
    var index = word.startIndex
    if word.has("지하", at: index) {
      index += 2
    } else if word.has("B", at: index) || word.has("b", at: index) {
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
    if word.has("~", at: index) {
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
    let start = text.has("산", at: text.startIndex) ? text.startIndex + 1 : text.startIndex
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

  /// Reads the address words in order into `address`. Returns the floors read before the end of
  /// the address and the words after it (building names, floors), which belong to the detail.
  static func readWords(_ input: [Word], into address: inout KoreanAddress) -> (floors: [Word], trailing: [Word]) {
    var words = input
    var index = 0
    var unparsed: [String] = []
    var floors: [Word] = []
    func next() -> WordKind? { index + 1 < words.count ? words[index + 1].kind : nil }

    while index < words.count {
      // A building number run on into the next text: `마들로3길 15SFM 월계점`.
      if words[index].kind == nil, address.roadName != nil, address.buildingNumber == nil,
        let numberEnd = runOnNumberEnd(words[index].scalars)
      {
        let scalars = words[index].scalars
        words[index] = Word(scalars[..<numberEnd])
        words.insert(Word(scalars[numberEnd...]), at: index + 1)
      }
      // A name written with an inner space, read as one word: `3공단 6로`, `양평동 3가`. Only where
      // the name can still come: before the road name (and before the 동 for a 동 and its 가).
      if index + 1 < words.count, address.roadName == nil, address.buildingNumber == nil,
        let joined = joinedName(words[index], words[index + 1]), joined.kind == .roadName || address.dongRi == nil
      {
        words[index] = joined
        words.remove(at: index + 1)
      }
      let word = words[index]
      if isComplete(address, before: word) { break }

      switch word.kind {
      case .province(let province) where address.province == nil && address.sigungu == nil:
        address.province = province

      case .province(let province) where address.province == province && address.sigungu == nil:
        // The same province named twice: `전남 광주`, one province since 2026-07-01.
        break

      case .sigungu where word.text == "광주시" && address.province == nil && address.sigungu == nil:
        // 광주시 followed by a 구 is the former 광주광역시, now part of 전남광주통합특별시; on its own
        // it is 경기도 광주시.
        if index + 1 < words.count, words[index + 1].kind == .sigungu, words[index + 1].scalars.last == "구" {
          address.province = .jeonnamGwangju
        } else {
          address.province = .gyeonggi
          address.sigungu = word.text
        }

      case .sigungu where address.eupMyeon == nil && address.dongRi == nil && address.roadName == nil:
        if let city = address.sigungu {
          if city.hasSuffix("시"), !city.unicodeScalars.contains(" "), word.scalars.last == "구" {
            address.sigungu = city + " " + word.text
          } else {
            unparsed.append(word.text)
          }
        } else {
          address.sigungu = word.text
        }

      case .eupMyeon where address.eupMyeon == nil && address.dongRi == nil && address.roadName == nil:
        address.eupMyeon = word.text

      case .dongRi where address.dongRi == nil && address.roadName == nil:
        address.dongRi = word.text

      case .roadName where address.roadName == nil:
        var name = word.text
        if next() == .roadNameSuffix {
          index += 1
          name += words[index].text
        }
        address.roadName = name

      case .underground where address.roadName != nil:
        if case .number(let main, let sub) = next() {
          index += 1
          address.buildingNumber = BuildingNumber(main: main, sub: sub, isUnderground: true)
        } else {
          unparsed.append(word.text)
        }

      case .number(let main, let sub):
        if address.roadName != nil {
          address.buildingNumber = BuildingNumber(main: main, sub: sub)
        } else if address.dongRi != nil {
          address.lotNumber = LotNumber(main: main, sub: sub)
        } else {
          unparsed.append(word.text)
        }

      case .mountainNumber(let main, let sub) where address.dongRi != nil && address.roadName == nil:
        address.lotNumber = LotNumber(main: main, sub: sub, isMountain: true)

      case .mountain where address.dongRi != nil && address.roadName == nil:
        if case .number(let main, let sub) = next() {
          index += 1
          address.lotNumber = LotNumber(main: main, sub: sub, isMountain: true)
        } else {
          unparsed.append(word.text)
        }

      case .floorOrUnit:
        // A floor before the number ("… 지하1층 …") is a detail, not an address part.
        floors.append(word)

      default:
        unparsed.append(word.text)
      }
      index += 1
    }

    address.unparsed = unparsed
    return (floors, Array(words[index...]))
  }

  /// The words after the first comma that go on with the address, read as if the comma were a
  /// space: a road name and building number after a lot number (`중동 1129, 길주로 100`), or the
  /// legal 동 after a building number (`연북로 1, 노형동`). Returns those words (up to the next
  /// comma) and the text after them; `nil` when the text after the comma is a detail.
  static func continuation(of words: [Word], in text: Scalars) -> (words: [Word], rest: Scalars)? {
    let segmentEnd = text.firstIndex(of: ",") ?? text.endIndex
    let segment = text[..<segmentEnd].split(separator: " ").flatMap(splitGlued).map(Word.init)
    guard let first = segment.first else { return nil }
    var address = KoreanAddress(raw: "")
    guard readWords(words, into: &address).trailing.isEmpty else { return nil }
    let continues =
      switch first.kind {
      case .dongRi?: address.buildingNumber != nil
      case .roadName?: address.lotNumber != nil && address.roadName == nil
      default: false
      }
    return continues ? (segment, trimmed(text[segmentEnd...], of: " ,")) : nil
  }

  /// Whether the address is complete before `word`: after a building number, or after a lot
  /// number unless a road name and its building number follow (`중동 1129 길주로 100`).
  static func isComplete(_ address: KoreanAddress, before word: Word) -> Bool {
    if address.buildingNumber != nil { return true }
    guard address.lotNumber != nil else { return false }
    guard address.roadName != nil else { return word.kind != .roadName }
    switch word.kind {
    case .number, .underground: return false
    default: return true
    }
  }

  /// Where a building number run on into the following text ends (`15SFM` → 2): the number ends
  /// at the first scalar that is neither a digit nor a dash. `nil` unless a number starts the word
  /// and a letter follows it (`10:00` is a time, not a number and its detail).
  static func runOnNumberEnd(_ word: Scalars) -> Int? {
    guard let end = word.firstIndex(where: { !$0.isDigit && $0 != "-" }),
      word[end].properties.isAlphabetic, isBuildingNumber(word[..<end])
    else { return nil }
    return end
  }

  /// The legal 동 (or 리, 가) written right after the building number, with its lot number if any
  /// (`연북로 1 노형동`, `중흥로 244 죽도동 607-1`): a reference, as if it were in parentheses.
  static func takeTrailingReference(from words: inout [Word], after address: KoreanAddress) -> Scalars? {
    guard address.buildingNumber != nil, !words.isEmpty else { return nil }
    if words.count > 1, let joined = joinedName(words[0], words[1]), joined.kind == .dongRi {
      words.replaceSubrange(0...1, with: [joined])
    }
    guard words[0].kind == .dongRi else { return nil }
    var count = 1
    switch words.dropFirst().first?.kind {
    case .number, .mountainNumber:
      count = 2
    case .mountain where words.count > 2:
      if case .number = words[2].kind { count = 3 }
    default:
      break
    }
    let reference = Array(words.prefix(count).map(\.scalars).joined(separator: [" "]))
    words.removeFirst(count)
    return reference[...]
  }

  /// Reads a reference such as `죽도동 607-1` or `노형동, 롯데마트`: a 동/리 and lot number fill the
  /// parts the main text lacks; building names stay in the reference only.
  static func readReference(_ reference: Scalars, into address: inout KoreanAddress) {
    var words = reference.split(whereSeparator: { $0 == " " || $0 == "," }).flatMap(splitGlued)
    if words.count > 1, let joined = joinedName(Word(words[0]), Word(words[1])), joined.kind == .dongRi {
      words.replaceSubrange(0...1, with: [joined.scalars])
    }
    guard let first = words.first, kind(of: first) == .dongRi else { return }
    if address.dongRi == nil { address.dongRi = string(first) }
    guard address.dongRi == string(first), address.lotNumber == nil, words.count > 1 else { return }
    switch kind(of: words[1]) {
    case .number(let main, let sub):
      address.lotNumber = LotNumber(main: main, sub: sub)
    case .mountainNumber(let main, let sub):
      address.lotNumber = LotNumber(main: main, sub: sub, isMountain: true)
    case .mountain:
      if words.count > 2, case .number(let main, let sub) = kind(of: words[2]) {
        address.lotNumber = LotNumber(main: main, sub: sub, isMountain: true)
      }
    default:
      break
    }
  }

  /// The scalars as a string, encoded straight into the string's UTF-8 storage.
  static func string(_ scalars: Scalars) -> String {
    String(unsafeUninitializedCapacity: scalars.count * 4) { buffer in
      var count = 0
      for scalar in scalars {
        UTF8.encode(scalar) { byte in
          buffer[count] = byte
          count += 1
        }
      }
      return count
    }
  }
}

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
    guard has("-", at: mainEnd) else { return (main, nil, mainEnd) }
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
