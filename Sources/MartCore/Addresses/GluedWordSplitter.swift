extension AddressParser {
  /// Splits a word written without spaces, e.g. `서울송파구올림픽로300` → `서울 송파구 올림픽로 300`.
  /// A split is made only when every piece is a recognisable part of an address.
  ///
  /// The rules, tried in order on the word:
  /// - a province alias on its own stays whole;
  /// - a province prefix (`경남창원시` → `경남 창원시`, but not `부산진구`, a district of Busan) is split
  ///   off when the rest, split by these rules, starts with a 시/군/구, 읍/면 or 동/리;
  /// - a 시/군/구 prefix of syllables (`성남시분당구` → `성남시 분당구`) is split off, the shortest first,
  ///   when the rest, split by these rules, starts with a 시/군/구, 읍/면 or 동/리, or with a road name
  ///   while the whole word is not already one (`컨벤시아대로` stays whole);
  /// - a road name is split from its building number (`올림픽로300`), then a 동 or 리 from its lot
  ///   number (`중앙동92`, `종로2가45`);
  /// - anything else stays whole.
  ///
  /// The work is linear in the length of the word: see `GluedWordSplitter`.
  static func splitGlued(_ word: Scalars) -> [Scalars] {
    var steps = 0
    return splitGlued(word, steps: &steps)
  }

  /// `splitGlued(_:)`, adding to `steps` the number of suffixes read and scalars visited, a measure
  /// of its work.
  static func splitGlued(_ word: Scalars, steps: inout Int) -> [Scalars] {
    if Province(aliasScalars: word) != nil { return [word] }
    let hasPrefix =
      word.count >= 4
      && (word[(word.startIndex + 1)..<(word.endIndex - 2)].contains(where: isSigunguEnding)
        || Province.aliasesLongestFirst.contains {
          word.first == $0.scalars[0] && word.count >= $0.scalars.count + 2 && word.starts(with: $0.scalars)
        })
    if !hasPrefix {
      // No province or 시/군/구 prefix to split off (a word under four scalars has no room for one
      // and a rest): only a road name and its number (`올림픽로300`) or a 동 and its number
      // (`중앙동92`) can be.
      steps += word.count
      return GluedWordSplitter.fallbackSplit(word)
    }
    var splitter = GluedWordSplitter(word)
    return splitter.pieces(steps: &steps)
  }
}

/// Splits a glued word by `AddressParser.splitGlued(_:)`'s rules, reading every suffix once.
///
/// The rules apply to the rest of the word after a prefix, so what they make of a word depends on
/// what they make of its suffixes. Only suffixes that start after a syllable can be asked for (every
/// prefix ends in one), and the splitter reads those from the end of the word to its start, keeping
/// for each the end of its first piece and that piece's kind. Each rule is then a constant-time
/// look-up: for the 시/군/구 prefixes, the nearest prefix end whose rest is acceptable is carried
/// along from the right; the facts about the word's tail (its building or lot number) are read once.
struct GluedWordSplitter {
  typealias Scalars = AddressParser.Scalars
  typealias WordKind = AddressParser.WordKind

  /// What follows the first piece of a suffix.
  enum Rest {
    /// Nothing: the suffix is one piece.
    case none
    /// One more piece, to the end of the word.
    case wholeTail
    /// The pieces the rules make of the suffix where the first piece ends.
    case split
  }

  /// How the rules split one suffix: where its first piece ends, that piece's kind, and the rest.
  struct SuffixSplit {
    var firstEnd: Int
    var firstKind: WordKind?
    var rest: Rest
  }

  let word: Scalars
  /// The split of each suffix that can be asked for, by the suffix's start minus the word's start.
  private var splits: [SuffixSplit?]

  init(_ word: Scalars) {
    self.word = word
    self.splits = Array(repeating: nil, count: word.count + 1)
  }

  /// The pieces of the whole word.
  mutating func pieces(steps: inout Int) -> [Scalars] {
    readSuffixes(steps: &steps)
    var pieces: [Scalars] = []
    var start = word.startIndex
    while let split = splits[start - word.startIndex] {
      pieces.append(word[start..<split.firstEnd])
      switch split.rest {
      case .none: return pieces
      case .wholeTail: return pieces + [word[split.firstEnd...]]
      case .split: start = split.firstEnd
      }
    }
    preconditionFailure("a suffix asked for was not read")
  }

  /// The last two rules on their own, for words without a prefix to split off: a road name with
  /// its building number, or a 동/리 with its lot number, or the word whole.
  static func fallbackSplit(_ word: Scalars) -> [Scalars] {
    let numberStart = (word.lastIndex(where: { !$0.isDigit && $0 != "-" }) ?? word.startIndex - 1) + 1
    let roadName = word[..<numberStart]
    if roadName.last == "로" || roadName.last == "길", AddressParser.isBuildingNumber(word[numberStart...]),
      AddressParser.kind(of: roadName) == .roadName || AddressParser.kind(of: roadName) == .roadNameSuffix
    {
      // 올림픽로300, and `101번길1` after `○○로`: the side road 101번길, number 1 (not the main
      // road's number 101).
      return [roadName, word[numberStart...]]
    }
    if let dongEnd = word.lastIndex(where: AddressParser.isDongRiEnding).map({ $0 + 1 }),
      AddressParser.isGluedDongRi(word[..<dongEnd]), AddressParser.isLotNumber(word[dongEnd...])
    {
      return [word[..<dongEnd], word[dongEnd...]]
    }
    return [word]
  }

  /// Reads, from the end of the word to its start, every suffix that can be asked for: the whole
  /// word, the suffixes after a 시, 군 or 구, and the suffixes after a province alias that starts
  /// one of these.
  private mutating func readSuffixes(steps: inout Int) {
    let start = word.startIndex
    let end = word.endIndex
    let count = word.count
    steps += count

    // Which suffixes can be asked for, from the start forwards.
    var asked = Array(repeating: false, count: count + 1)
    asked[0] = true
    for index in start..<end {
      let offset = index - start
      if offset > 0, AddressParser.isSigunguEnding(word[index - 1]) { asked[offset] = true }
      guard asked[offset] else { continue }
      for alias in Province.aliasesLongestFirst
      where word[index] == alias.scalars[0] && end - index >= alias.scalars.count + 2
        && word[index...].starts(with: alias.scalars)
      {
        asked[offset + alias.scalars.count] = true
      }
    }

    // Facts about the word's tail, the same for every suffix that reaches them.
    let lastNonGlueable = word.lastIndex(where: { !Self.isGlueable($0) }) ?? start - 1
    let numberTail = word.lastIndex(where: { !$0.isDigit && $0 != "-" }).flatMap { last in
      AddressParser.isBuildingNumber(word[(last + 1)...]) ? last : nil
    }
    let dongRiTail = word.lastIndex(where: AddressParser.isDongRiEnding).flatMap { last in
      AddressParser.isLotNumber(word[(last + 1)...]) ? last : nil
    }
    let lastNonSyllableOrDigitBeforeDongRi =
      dongRiTail.flatMap { last in word[...last].lastIndex(where: { !$0.isHangulSyllable && !$0.isDigit }) }
      ?? start - 1

    // From the right: the first syllable at or after each index, and the nearest ends of a
    // 시/군/구 prefix whose rest starts with an accepted piece or with a road name.
    let none = Int.max
    var nextNonSyllable = end
    var nextAcceptedEnd = Array(repeating: none, count: count + 3)
    var nextRoadNameEnd = Array(repeating: none, count: count + 3)
    for index in stride(from: end, through: start, by: -1) {
      let offset = index - start
      if index < end, !word[index].isHangulSyllable { nextNonSyllable = index }
      if asked[offset], index < end {
        steps += 1
        splits[offset] = read(
          from: index, lastNonGlueable: lastNonGlueable, nextNonSyllable: nextNonSyllable,
          nextAcceptedEnd: nextAcceptedEnd[offset + 2], nextRoadNameEnd: nextRoadNameEnd[offset + 2],
          numberTail: numberTail, dongRiTail: dongRiTail,
          lastNonSyllableOrDigitBeforeDongRi: lastNonSyllableOrDigitBeforeDongRi, steps: &steps)
      }
      nextAcceptedEnd[offset] = nextAcceptedEnd[offset + 1]
      nextRoadNameEnd[offset] = nextRoadNameEnd[offset + 1]
      if offset > 0, AddressParser.isSigunguEnding(word[index - 1]), let split = splits[offset] {
        if Self.startsAcceptably(split.firstKind) { nextAcceptedEnd[offset] = index }
        if split.firstKind == .roadName { nextRoadNameEnd[offset] = index }
      }
    }
  }

  /// The split of the suffix from `start`, once every later suffix that can be asked for is read.
  private func read(
    from start: Int, lastNonGlueable: Int, nextNonSyllable: Int, nextAcceptedEnd: Int, nextRoadNameEnd: Int,
    numberTail: Int?, dongRiTail: Int?, lastNonSyllableOrDigitBeforeDongRi: Int, steps: inout Int
  ) -> SuffixSplit {
    let end = word.endIndex
    let suffix = word[start...]
    func split(at firstEnd: Int, rest: Rest) -> SuffixSplit {
      SuffixSplit(firstEnd: firstEnd, firstKind: AddressParser.kind(of: word[start..<firstEnd]), rest: rest)
    }

    if Province(aliasScalars: suffix) != nil { return split(at: end, rest: .none) }

    // A province prefix.
    for alias in Province.aliasesLongestFirst
    where word[start] == alias.scalars[0] && suffix.count >= alias.scalars.count + 2
      && suffix.starts(with: alias.scalars)
    {
      steps += 1
      let restStart = start + alias.scalars.count
      guard !word[restStart...].elementsEqual("진구".unicodeScalars) else { continue }
      if let rest = splits[restStart - word.startIndex], Self.startsAcceptably(rest.firstKind) {
        return split(at: restStart, rest: .split)
      }
    }

    // A 시/군/구 prefix of syllables, the shortest whose rest is acceptable. The prefix ends at or
    // before the first scalar that is not a syllable, and leaves at least two scalars.
    if suffix.count >= 4, lastNonGlueable < start {
      let lastPrefixEnd = min(end - 2, nextNonSyllable)
      var prefixEnd = nextAcceptedEnd
      if nextRoadNameEnd < prefixEnd, nextRoadNameEnd <= lastPrefixEnd, AddressParser.kind(of: suffix) == nil {
        prefixEnd = nextRoadNameEnd
      }
      if prefixEnd <= lastPrefixEnd { return split(at: prefixEnd, rest: .split) }
    }

    // A road name with its building number: the number is what follows the last scalar that is
    // neither a digit nor a dash.
    if let last = numberTail, last >= start, word[last] == "로" || word[last] == "길",
      AddressParser.kind(of: word[start...last]) == .roadName
    {
      return split(at: last + 1, rest: .wholeTail)
    }

    // A 동 or 리 with its lot number, the 동/리/가 being the last one in the word.
    if let last = dongRiTail, last >= start, word[start].isHangulSyllable, last > start,
      lastNonSyllableOrDigitBeforeDongRi < start,
      word[last] != "가" || (last - start >= 2 && word[last - 1].isDigit)
    {
      return split(at: last + 1, rest: .wholeTail)
    }
    return split(at: end, rest: .none)
  }

  /// Whether a rest starting with a piece of this kind makes a prefix worth splitting off.
  private static func startsAcceptably(_ kind: WordKind?) -> Bool {
    switch kind {
    case .sigungu?, .eupMyeon?, .dongRi?: true
    default: false
    }
  }

  /// Whether a scalar may be part of a word split at a 시/군/구: a syllable, a number or a dash.
  private static func isGlueable(_ scalar: Unicode.Scalar) -> Bool {
    scalar.isHangulSyllable || scalar == "-" || scalar.properties.numericType != nil
  }
}

extension AddressParser {
  /// Whether a syllable ends a 시, 군 or 구.
  static func isSigunguEnding(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "시" || scalar == "군" || scalar == "구"
  }

  /// Whether a syllable ends a 동, 리 or 가.
  static func isDongRiEnding(_ scalar: Unicode.Scalar) -> Bool {
    scalar == "동" || scalar == "리" || scalar == "가"
  }
}
