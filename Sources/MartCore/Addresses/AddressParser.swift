import Foundation

extension KoreanAddress {
  /// Parses an address as store pages publish it. Never fails: what is not understood is listed in
  /// `unparsed`.
  public init(parsing text: String) {
    self = AddressParser.parse(text, knownRoads: .bundled)
  }

  /// Parses an address, joining a road name written apart (`센텀 남대로 35`) only when the joined
  /// name is one of `knownRoads` or its last word cannot be a road on its own (`와석 순환로`);
  /// otherwise the road is left undecided, with a warning, rather than guessed.
  public init(parsing text: String, knownRoads: KnownRoads) {
    self = AddressParser.parse(text, knownRoads: knownRoads)
  }

  /// Parses a road-name address published together with a separate lot-number address (as
  /// E-mart's `ADDRESS1`/`ADDRESS3` or Lotte Mart's `newAddress`/`oldAddress`): parts missing from
  /// `text` are taken from `lotAddress` when both name the same area. `raw` stays `text`.
  public init(parsing text: String, lotAddress: String?, knownRoads: KnownRoads = .bundled) {
    self = AddressParser.parse(text, knownRoads: knownRoads)
    guard let lotAddress else { return }
    let other = AddressParser.parse(lotAddress, knownRoads: knownRoads)
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

  static func parse(_ raw: String, knownRoads: KnownRoads) -> KoreanAddress {
    var address = KoreanAddress(raw: raw)
    let (outside, parenthesized) = splitParentheses(clean(raw))

    var main = outside[...]
    var afterComma: Scalars = []
    if let comma = outside.firstIndex(of: ",") {
      main = outside[..<comma]
      afterComma = trimmed(outside[(comma + 1)...], of: " ")
    }

    var words = wordsBetweenSpaces(main)
    if let continuation = continuation(of: words, in: afterComma, knownRoads: knownRoads) {
      words += continuation.words
      afterComma = continuation.rest
    }
    var detail: [String] = afterComma.isEmpty ? [] : [string(afterComma)]
    var (floors, trailing) = readWords(words, into: &address, knownRoads: knownRoads)
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

  // MARK: Reading

  /// The words of `text` between its spaces, each split by ``splitGlued(_:)``, read into one array.
  static func wordsBetweenSpaces(_ text: Scalars) -> [Word] {
    var words: [Word] = []
    // Made once: there are never more words than scalars.
    words.reserveCapacity(text.count)
    var start = text.startIndex
    while start < text.endIndex {
      let end = text[start...].firstIndex(of: " ") ?? text.endIndex
      if end > start {
        for piece in splitGlued(text[start..<end]) { words.append(Word(piece)) }
      }
      start = end + 1
    }
    return words
  }

  /// Reads the address words in order into `address`. Returns the floors read before the end of
  /// the address and the words after it (building names, floors), which belong to the detail.
  static func readWords(
    _ input: [Word], into address: inout KoreanAddress, knownRoads: KnownRoads
  ) -> (floors: [Word], trailing: [Word]) {
    var words = input
    var index = 0
    var unparsed: [String] = []
    var floors: [Word] = []
    var undecidedRoad: String?
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
      // A word before a road name (`센텀 남대로`, `와석 순환로`, `잠실 올림픽로`): the first part of
      // the name when the two read as one are a road it knows or the last word cannot be a road on
      // its own; else a place or building word, or a part: the road is undecided. Never the last
      // word alone, which may be another road, somewhere else.
      if index + 1 < words.count, address.roadName == nil, address.buildingNumber == nil, words[index].kind == nil,
        words[index + 1].kind == .roadName, bareCity(words[index], before: words[index + 1], in: address) == nil
      {
        let joined = Word((Array(words[index].scalars) + words[index + 1].scalars)[...])
        if isRoadNamePart(words[index].scalars), joined.kind == .roadName,
          knownRoads.contains(joined.text)
            || KnownRoads.demandsAFirstPart(words[index + 1].scalars)
        {
          words[index] = joined
          words.remove(at: index + 1)
        } else {
          undecidedRoad = "\(words[index].text) \(words[index + 1].text)"
        }
      }
      // A 동 word before a last word that cannot be a road on its own is the road's first part
      // (`좌동 순환로` → `좌동순환로`), not a 동 and a road `순환로`.
      if index + 1 < words.count, address.roadName == nil, address.buildingNumber == nil,
        words[index].kind == .dongRi, KnownRoads.demandsAFirstPart(words[index + 1].scalars)
      {
        words[index] = Word((Array(words[index].scalars) + words[index + 1].scalars)[...])
        words.remove(at: index + 1)
      }
      let word = words[index]
      if isComplete(address, before: word) { break }

      switch word.kind {
      case nil where bareCity(word, before: index + 1 < words.count ? words[index + 1] : nil, in: address) != nil:
        // 파주 금촌동 …: a city written without 시 before its 동, 읍/면, 구 or road.
        let province = bareCity(word, before: index + 1 < words.count ? words[index + 1] : nil, in: address)!
        address.province = address.province ?? province
        address.sigungu = word.text + "시"

      case .province(let province) where address.province == nil && address.sigungu == nil:
        address.province = province

      case .province(let province) where address.province == province && address.sigungu == nil:
        // The same province named twice: `전남 광주`, one province since 2026-07-01.
        break

      // A 시군구 word is syllables only: its scalars compare as its text does.
      case .sigungu
      where address.province == nil && address.sigungu == nil && word.scalars.elementsEqual("광주시".unicodeScalars):
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
        // `대로 12` alone: the first part of the name is not written.
        var name = word.text
        if KnownRoads.demandsAFirstPart(word.scalars) { undecidedRoad = name }
        if next() == .roadNameSuffix {
          index += 1
          name += words[index].text
        }
        address.roadName = name

      case .roadName where address.buildingNumber == nil:
        // 중앙로 평화길 12: two roads and one number; which one it is on is not written.
        undecidedRoad = "\(address.roadName ?? "") \(word.text)"

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
    if let undecidedRoad, address.roadName != nil {
      // No road rather than a guessed one: a wrong road geocodes somewhere else.
      address.warnings.append("road name not decided (\"\(undecidedRoad)\"): no road address given")
      address.roadName = nil
      address.buildingNumber = nil
    }
    return (floors, Array(words[index...]))
  }

  /// Whether `word` can be the first part of a road name written apart: syllables (and digits
  /// after the first), at most eight, as in `새꽃 순환로`, `센텀 남대로`.
  static func isRoadNamePart(_ word: Scalars) -> Bool {
    guard let first = word.first, first.isHangulSyllable, word.count <= 8 else { return false }
    return word.allSatisfy { $0.isHangulSyllable || $0.isDigit }
  }

  /// The province of a city written without 시 (`파주`, `김해`), when `word` is one and stands
  /// where the city can still come, before a 동, 리, 읍, 면, 구 or road (`파주 금촌동`); `nil`
  /// otherwise. 광주 and 제주 are provinces as well and are read as such.
  static func bareCity(_ word: Word, before next: Word?, in address: KoreanAddress) -> Province? {
    guard word.kind == nil, address.sigungu == nil, address.eupMyeon == nil, address.dongRi == nil,
      address.roadName == nil, let province = citiesWithoutSuffix[word.text]
    else { return nil }
    guard address.province == nil || address.province == province else { return nil }
    switch next?.kind {
    case .dongRi?, .eupMyeon?, .roadName?: return province
    case .sigungu? where next?.scalars.last == "구": return province
    default: return nil
    }
  }

  /// The words after the first comma that go on with the address, read as if the comma were a
  /// space: a road name and building number after a lot number (`중동 1129, 길주로 100`), or the
  /// legal 동 after a building number (`연북로 1, 노형동`). Returns those words (up to the next
  /// comma) and the text after them; `nil` when the text after the comma is a detail.
  static func continuation(
    of words: [Word], in text: Scalars, knownRoads: KnownRoads
  ) -> (words: [Word], rest: Scalars)? {
    let segmentEnd = text.firstIndex(of: ",") ?? text.endIndex
    let segment = wordsBetweenSpaces(text[..<segmentEnd])
    guard let first = segment.first else { return nil }
    var address = KoreanAddress(raw: "")
    guard readWords(words, into: &address, knownRoads: knownRoads).trailing.isEmpty else { return nil }
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

  /// The scalars as a string.
  static func string(_ scalars: Scalars) -> String { String(scalars: scalars) }
}
