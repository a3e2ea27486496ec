/// Parsing HTML or evaluating XPath failed: what failed, on which document, and libxml2's reason.
public struct HTMLError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What failed.
  public enum Kind: Sendable, Hashable {
    /// libxml2 produced no document at all (e.g. empty input).
    case parse
    /// The XPath expression does not compile.
    case invalidXPath(String)
    /// The XPath expression compiled but could not be evaluated, or did not select nodes.
    case xpathEvaluation(String)
  }

  public var kind: Kind
  /// The document's URL, when the caller gave one.
  public var url: String?
  /// libxml2's message or a description of the problem.
  public var detail: String

  public init(_ kind: Kind, url: String?, detail: String) {
    self.kind = kind
    self.url = url
    self.detail = detail
  }

  public var description: String {
    let location = url.map { " (\($0))" } ?? ""
    switch kind {
    case .parse: return "cannot parse HTML\(location): \(detail)"
    case .invalidXPath(let expression): return "invalid XPath '\(expression)'\(location): \(detail)"
    case .xpathEvaluation(let expression):
      return "cannot evaluate XPath '\(expression)'\(location): \(detail)"
    }
  }
}
