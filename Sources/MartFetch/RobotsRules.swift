import Foundation

/// The rules of one robots.txt that apply to one crawler (RFC 9309): the group naming the
/// crawler's product token, else the `*` group; `Allow`/`Disallow` with `*` and `$`, the longest
/// match winning and `Allow` winning a tie; and the non-standard `Crawl-delay`.
public struct RobotsRules: Sendable, Hashable {
  /// One `Allow` or `Disallow` line.
  public struct Rule: Sendable, Hashable {
    public var allows: Bool
    /// The path pattern, as written.
    public var pattern: String
  }

  public var rules: [Rule]
  /// The `Crawl-delay` of the chosen group, if any.
  public var crawlDelay: Duration?

  /// Rules that allow everything (no robots.txt, or one that does not concern this crawler).
  public static let allowAll = RobotsRules(rules: [], crawlDelay: nil)

  public init(rules: [Rule], crawlDelay: Duration?) {
    self.rules = rules
    self.crawlDelay = crawlDelay
  }

  /// Parses `text` for the crawler whose product token is `userAgent` (e.g. `mart-holiday`).
  public init(parsing text: String, userAgent: String) {
    struct Group {
      var agents: [String] = []
      var rules: [Rule] = []
      var crawlDelay: Duration?
    }
    var groups: [Group] = []
    var current: Group?
    var lastWasAgent = false
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
      let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      switch key {
      case "user-agent":
        if !lastWasAgent {
          if let current { groups.append(current) }
          current = Group()
        }
        current?.agents.append(value.lowercased())
        lastWasAgent = true
      case "allow", "disallow":
        lastWasAgent = false
        // An empty Disallow allows everything; an empty Allow says nothing.
        if !value.isEmpty { current?.rules.append(Rule(allows: key == "allow", pattern: value)) }
      case "crawl-delay":
        lastWasAgent = false
        if let seconds = Double(value), seconds >= 0, seconds.isFinite {
          current?.crawlDelay = .milliseconds(Int64(seconds * 1000))
        }
      default:
        continue  // Sitemap and other lines neither end nor belong to a group.
      }
    }
    if let current { groups.append(current) }

    let token = userAgent.split(separator: "/").first.map { $0.lowercased() } ?? userAgent.lowercased()
    let named = groups.filter { $0.agents.contains(token) }
    let chosen = named.isEmpty ? groups.filter { $0.agents.contains("*") } : named
    rules = chosen.flatMap(\.rules)
    crawlDelay = chosen.compactMap(\.crawlDelay).max()
  }

  /// The rule deciding `pathAndQuery` (`/a/b?c=d`), or nil when none matches (allowed).
  public func decidingRule(for pathAndQuery: String) -> Rule? {
    var best: Rule?
    for rule in rules where Self.matches(rule.pattern, pathAndQuery) {
      if let current = best {
        if rule.pattern.count > current.pattern.count || (rule.pattern.count == current.pattern.count && rule.allows) {
          best = rule
        }
      } else {
        best = rule
      }
    }
    return best
  }

  /// Whether the crawler may fetch `pathAndQuery`.
  public func allows(_ pathAndQuery: String) -> Bool {
    decidingRule(for: pathAndQuery)?.allows ?? true
  }

  /// Matches a pattern with `*` (any run of characters) and a final `$` (end of path) against
  /// the start of the path. Percent-encoding is compared as written.
  static func matches(_ pattern: String, _ path: String) -> Bool {
    var pattern = Substring(pattern)
    let anchored = pattern.hasSuffix("$")
    if anchored { pattern = pattern.dropLast() }
    let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
    var rest = Substring(path)
    for (index, piece) in pieces.enumerated() {
      if index == 0 {
        guard rest.hasPrefix(piece) else { return false }
        rest = rest.dropFirst(piece.count)
      } else if index == pieces.count - 1 && anchored {
        return rest.hasSuffix(piece)
      } else {
        guard let found = rest.range(of: piece) else { return false }
        rest = rest[found.upperBound...]
      }
    }
    return !anchored || rest.isEmpty
  }
}
