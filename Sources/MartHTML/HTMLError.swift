import MartCore

/// Parsing HTML or evaluating XPath failed: what failed, on which document, and libxml2's reason.
/// A ``LocatedError`` at the document's URL.
public struct HTMLError: LocatedError, Sendable, Hashable {
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

  /// The document's URL, or `an HTML document without a URL` when the caller gave none.
  public var location: String { url ?? "an HTML document without a URL" }

  /// What failed and libxml2's reason, without the URL: `cannot parse HTML: <detail>`,
  /// `invalid XPath '<expression>': <detail>`, `cannot evaluate XPath '<expression>': <detail>`.
  /// libxml2 gives its reason as text, not as an error: this error is the first of its chain.
  public var message: String { "\(failed): \(detail)" }

  /// What failed, without the URL and the reason.
  private var failed: String {
    switch kind {
    case .parse: "cannot parse HTML"
    case .invalidXPath(let expression): "invalid XPath '\(expression)'"
    case .xpathEvaluation(let expression): "cannot evaluate XPath '\(expression)'"
    }
  }

  /// ``message`` with the URL in parentheses after what failed, when there is one:
  /// `cannot parse HTML (https://…): <detail>`.
  public var description: String {
    "\(failed)\(url.map { " (\($0))" } ?? ""): \(detail)"
  }
}
