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
/// first comma, split words written without spaces, then read the words left to right.
enum AddressParser {
  static func parse(_ raw: String) -> KoreanAddress {
    var address = KoreanAddress(raw: raw)
    let (outside, references) = splitParentheses(clean(raw))

    var main = outside
    var detail: [String] = []
    if let comma = outside.firstIndex(of: ",") {
      main = String(outside[..<comma])
      let afterComma = outside[outside.index(after: comma)...].trimmingCharacters(in: .whitespaces)
      if !afterComma.isEmpty { detail.append(afterComma) }
    }

    let words = main.split(separator: " ").map(String.init).flatMap(splitGlued)
    let trailing = readWords(words, into: &address)
    detail.insert(contentsOf: trailing, at: 0)
    address.detail = detail.isEmpty ? nil : detail.joined(separator: " ")

    for reference in references {
      readReference(reference, into: &address)
    }
    address.reference = references.isEmpty ? nil : references.joined(separator: ", ")

    if address.province == nil, let sigungu = address.sigungu, ["제주시", "서귀포시"].contains(sigungu) {
      address.province = .jeju
    }
    return address
  }

  // MARK: Cleaning

  /// NFC, half-width forms, one kind of space and dash, no link text or company markers.
  static func clean(_ raw: String) -> String {
    var scalars = String.UnicodeScalarView()
    for scalar in raw.precomposedStringWithCanonicalMapping.unicodeScalars {
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
        if scalar.properties.isWhitespace {
          scalars.append(" ")
        } else {
          scalars.append(scalar)
        }
      }
    }
    var text = String(scalars).precomposedStringWithCanonicalMapping
    text = text.replacing(/(^|\s)길\s?찾기/, with: " ")
    text = text.replacing(/\(\s*주\s*\)\s*[^\s,()]*/, with: " ")
    text = text.replacing(/(\d)\s*-\s*(\d)/) { "\($0.1)-\($0.2)" }
    text = text.replacing(/\s*,\s*/, with: ", ")
    text = text.replacing(/\s+/, with: " ")
    return text.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
  }

  /// Splits off the top-level parenthesized parts (nested ones are dropped with their content).
  /// Returns the text outside with a space where each part was, and each part's content.
  static func splitParentheses(_ text: String) -> (outside: String, references: [String]) {
    var outside = ""
    var references: [String] = []
    var current = ""
    var depth = 0
    for character in text {
      switch character {
      case "(", "[":
        if depth == 0 { outside.append(" ") } else if depth == 1 { current.append(" ") }
        depth += 1
      case ")", "]":
        guard depth > 0 else { continue }  // a stray closing parenthesis
        depth -= 1
        if depth == 0 {
          let content = current.replacing(/\s+/, with: " ").trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
          if !content.isEmpty { references.append(content) }
          current = ""
        }
      default:
        if depth == 0 { outside.append(character) } else if depth == 1 { current.append(character) }
      }
    }
    let unclosed = current.trimmingCharacters(in: CharacterSet(charactersIn: " ,"))
    if depth > 0, !unclosed.isEmpty { references.append(unclosed) }
    let cleanedOutside = outside.replacing(/\s+/, with: " ").replacing(/\s+,/, with: ",")
    return (cleanedOutside.trimmingCharacters(in: CharacterSet(charactersIn: " ,")), references)
  }

  // MARK: Words

  enum WordKind: Equatable {
    case province(Province)
    case sigungu, eupMyeon, dongRi, roadName, roadNameSuffix
    case number(main: Int, sub: Int?)
    case mountainNumber(main: Int, sub: Int?)
    case underground, mountain, lotSuffix, floorOrUnit
  }

  static func kind(of word: String) -> WordKind? {
    if let province = Province(alias: word) { return .province(province) }
    if let match = word.wholeMatch(of: /(\d+)(?:-(\d+))?(?:번지|번)?/) {
      return .number(main: Int(match.1) ?? 0, sub: match.2.flatMap { Int($0) })
    }
    if let match = word.wholeMatch(of: /산(\d+)(?:-(\d+))?(?:번지)?/) {
      return .mountainNumber(main: Int(match.1) ?? 0, sub: match.2.flatMap { Int($0) })
    }
    switch word {
    case "지하": return .underground
    case "산": return .mountain
    case "번지": return .lotSuffix
    default: break
    }
    if word.wholeMatch(of: /(?:지하|[Bb])?\d+(?:~\d+)?(?:층|[Ff])|[Bb]\d+|\d+(?:호|동)|지하층|옥상/) != nil {
      return .floorOrUnit
    }
    if word.wholeMatch(of: /\d+[가-힣]?번?길/) != nil { return .roadNameSuffix }
    if word.wholeMatch(of: /[가-힣][가-힣]{0,6}[시군구]/) != nil { return .sigungu }
    if word.wholeMatch(of: /[가-힣][가-힣]{0,6}[읍면]/) != nil { return .eupMyeon }
    if word.wholeMatch(of: /[가-힣][가-힣0-9·.]{0,9}(?:동|리|\d가)/) != nil { return .dongRi }
    // Road names may start with digits when a Hangul syllable follows: 2순환로, 3공단로.
    if word.wholeMatch(of: /(?:[가-힣]|\d+[가-힣])[가-힣A-Za-z0-9·.]{0,14}(?:로|길)/) != nil { return .roadName }
    return nil
  }

  /// Splits a word written without spaces, e.g. `서울송파구올림픽로300` → `서울 송파구 올림픽로 300`.
  /// A split is made only when every piece is a recognisable part of an address.
  static func splitGlued(_ word: String) -> [String] {
    if Province(alias: word) != nil { return [word] }
    // A province prefix: 경남창원시 → 경남 창원시 (but not 부산진구, a district of Busan).
    for (alias, _) in Province.aliasesLongestFirst where word.hasPrefix(alias) && word.count >= alias.count + 2 {
      let rest = String(word.dropFirst(alias.count))
      guard rest != "진구" else { continue }
      let pieces = splitGlued(rest)
      if let first = pieces.first, [.sigungu, .eupMyeon, .dongRi].contains(kind(of: first)) {
        return [alias] + pieces
      }
    }
    // A 시/군/구 prefix: 성남시분당구 → 성남시 분당구, 송파구올림픽로300 → 송파구 올림픽로 300.
    let characters = Array(word)
    if characters.count >= 4, word.allSatisfy({ $0.isHangulSyllable || $0.isNumber || $0 == "-" }) {
      for end in 2...(characters.count - 2) where "시군구".contains(characters[end - 1]) {
        let prefix = String(characters[..<end])
        guard prefix.allSatisfy(\.isHangulSyllable) else { break }
        let pieces = splitGlued(String(characters[end...]))
        guard let first = pieces.first else { continue }
        // A whole word that already reads as a road (컨벤시아대로) is not split before its road name.
        let firstKind = kind(of: first)
        if [.sigungu, .eupMyeon, .dongRi].contains(firstKind) || (firstKind == .roadName && kind(of: word) == nil) {
          return [prefix] + pieces
        }
      }
    }
    // A road name with its building number: 올림픽로300, 칠성로56길7.
    if let match = word.wholeMatch(of: /(.*(?:로|길))(\d+(?:-\d+)?)/), kind(of: String(match.1)) == .roadName {
      return [String(match.1), String(match.2)]
    }
    // A 동 or 리 with its lot number: 중앙동92, 종로2가45.
    if let match = word.wholeMatch(of: /([가-힣][가-힣0-9]*(?:동|리|\d가))(산?\d+(?:-\d+)?(?:번지)?)/) {
      return [String(match.1), String(match.2)]
    }
    return [word]
  }

  /// Reads the address words in order into `address`. Returns the words after the address proper
  /// (building names, floors), which belong to the detail.
  static func readWords(_ words: [String], into address: inout KoreanAddress) -> [String] {
    var index = 0
    var unparsed: [String] = []
    var floors: [String] = []
    func next() -> WordKind? { index + 1 < words.count ? kind(of: words[index + 1]) : nil }

    while index < words.count {
      let word = words[index]
      let addressComplete =
        address.buildingNumber != nil || (address.lotNumber != nil && kind(of: word) != .roadName)
      if addressComplete { break }

      switch kind(of: word) {
      case .province(let province) where address.province == nil && address.sigungu == nil:
        address.province = province

      case .sigungu where word == "광주시" && address.province == nil && address.sigungu == nil:
        // 광주시 followed by a 구 is 광주광역시; on its own it is 경기도 광주시.
        if let following = index + 1 < words.count ? words[index + 1] : nil,
          kind(of: following) == .sigungu, following.hasSuffix("구")
        {
          address.province = .gwangju
        } else {
          address.province = .gyeonggi
          address.sigungu = word
        }

      case .sigungu where address.eupMyeon == nil && address.dongRi == nil && address.roadName == nil:
        if let city = address.sigungu {
          if city.hasSuffix("시"), !city.contains(" "), word.hasSuffix("구") {
            address.sigungu = city + " " + word
          } else {
            unparsed.append(word)
          }
        } else {
          address.sigungu = word
        }

      case .eupMyeon where address.eupMyeon == nil && address.dongRi == nil && address.roadName == nil:
        address.eupMyeon = word

      case .dongRi where address.dongRi == nil && address.roadName == nil:
        address.dongRi = word

      case .roadName where address.roadName == nil:
        var name = word
        if next() == .roadNameSuffix {
          index += 1
          name += words[index]
        }
        address.roadName = name

      case .underground where address.roadName != nil:
        if case .number(let main, let sub) = next() {
          index += 1
          address.buildingNumber = BuildingNumber(main: main, sub: sub, isUnderground: true)
        } else {
          unparsed.append(word)
        }

      case .number(let main, let sub):
        if address.roadName != nil {
          address.buildingNumber = BuildingNumber(main: main, sub: sub)
        } else if address.dongRi != nil {
          address.lotNumber = LotNumber(main: main, sub: sub)
        } else {
          unparsed.append(word)
        }

      case .mountainNumber(let main, let sub) where address.dongRi != nil && address.roadName == nil:
        address.lotNumber = LotNumber(main: main, sub: sub, isMountain: true)

      case .mountain where address.dongRi != nil && address.roadName == nil:
        if case .number(let main, let sub) = next() {
          index += 1
          address.lotNumber = LotNumber(main: main, sub: sub, isMountain: true)
        } else {
          unparsed.append(word)
        }

      case .floorOrUnit:
        // A floor before the number ("… 지하1층 …") is a detail, not an address part.
        floors.append(word)

      default:
        unparsed.append(word)
      }
      index += 1
    }

    address.unparsed = unparsed
    return floors + words[index...].filter { kind(of: $0) != .lotSuffix }
  }

  /// Reads a parenthesized reference such as `죽도동 607-1` or `노형동, 롯데마트`: a 동/리 and lot
  /// number fill the parts the main text lacks; building names stay in the reference only.
  static func readReference(_ reference: String, into address: inout KoreanAddress) {
    let words = reference.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init).flatMap(splitGlued)
    guard let first = words.first, kind(of: first) == .dongRi else { return }
    if address.dongRi == nil { address.dongRi = first }
    guard address.dongRi == first, address.lotNumber == nil, words.count > 1 else { return }
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
}

extension Character {
  /// Whether this is a precomposed Hangul syllable (가–힣).
  var isHangulSyllable: Bool {
    guard let scalar = unicodeScalars.first, unicodeScalars.count == 1 else { return false }
    return (0xAC00...0xD7A3).contains(scalar.value)
  }
}
