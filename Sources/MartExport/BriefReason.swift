/// A brand's reason as people read it in reports, diffs and logs: one line, at most about 200
/// characters, without a clause said twice.
public enum BriefReason {
  /// The most characters of a brief reason.
  public static let limit = 200

  /// `text` on one line (runs of white space as one space), with a clause that repeats the one
  /// before it (`a: a: b`, `x; x`) said once, and cut to ``limit`` characters at a word (past
  /// the limit to the end of a URL it would cut), ending in `…`. A leading `<source>: ` stays:
  /// it says which source failed, which for a brand that shares its source (`everyday` of
  /// `emart`) is not the brand's own name.
  public static func brief(_ text: String) -> String {
    var line = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    for separator in [": ", "; "] {
      var clauses: [Substring] = []
      for clause in line.split(separator: separator, omittingEmptySubsequences: false) where clauses.last != clause {
        clauses.append(clause)
      }
      line = clauses.joined(separator: separator)
    }
    guard line.count > limit else { return line }
    var cut = String(line.prefix(limit - 1))
    let rest = line.dropFirst(cut.count)
    if let next = rest.first, next != " " {
      // The limit falls inside a word: a URL is said whole (half of one names no place), any
      // other word is left out.
      let wordStart = cut.lastIndex(of: " ").map { cut.index(after: $0) } ?? cut.startIndex
      let restOfWord = rest.prefix { $0 != " " }
      if (cut[wordStart...] + restOfWord).contains("://") {
        cut += restOfWord
      } else if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
        cut = String(cut[..<space])
      }
    }
    while let last = cut.last, last == ";" || last == ":" || last == "," || last == " " { cut.removeLast() }
    return cut + "…"
  }
}
