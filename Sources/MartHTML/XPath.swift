/// Builders for XPath fragments that are tedious to write by hand.
public enum XPath {
  /// A predicate body true when the context node's `class` attribute contains `className` as a
  /// whole word: `XPath.hasClass("day-off")` is
  /// `contains(concat(' ', normalize-space(@class), ' '), ' day-off ')`.
  public static func hasClass(_ className: String) -> String {
    "contains(concat(' ', normalize-space(@class), ' '), \(literal(" \(className) ")))"
  }

  /// `text` as an XPath 1.0 string literal, using `concat` when it holds both quote kinds.
  public static func literal(_ text: String) -> String {
    if !text.contains("'") { return "'\(text)'" }
    if !text.contains("\"") { return "\"\(text)\"" }
    let pieces = text.split(separator: "'", omittingEmptySubsequences: false).map { "'\($0)'" }
    return "concat(" + pieces.joined(separator: ", \"'\", ") + ")"
  }
}
