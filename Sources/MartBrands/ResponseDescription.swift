import Foundation
import MartCharset
import MartFetch

/// What a response is, in a person's words, for the errors of a source whose parser did not
/// find what it expects: `an HTML page titled '시스템 점검 안내'` rather than a decoder's message.
public enum ResponseDescription {
  /// How much of a body is looked at: enough for a page's `<title>` and first words.
  static let prefixBytes = 8192
  /// How many characters of a body's first words are quoted.
  static let quotedCharacters = 80

  /// `HTTP 200, text/html; charset=utf-8`: the status and the content type.
  public static func facts(_ response: HTTPResponse) -> String {
    "HTTP \(response.status), " + (response.headers.value(named: "Content-Type") ?? "no Content-Type")
  }

  /// What the response's body is (``body(_:declaredCharset:)``), read in its declared charset.
  public static func body(_ response: HTTPResponse) -> String {
    body(response.body, declaredCharset: response.charset)
  }

  /// What a body is: `an empty body`, `an HTML page titled '…'` (or `an HTML page beginning
  /// '…'` when it has no title), `JSON beginning '…'`, or `text beginning '…'`.
  public static func body(_ data: Data, declaredCharset: String? = nil) -> String {
    let prefix = data.prefix(prefixBytes)
    let text = CharsetDecoder.decode(Data(prefix), declaredCharset: declaredCharset).text
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
    guard !trimmed.isEmpty else { return "an empty body" }
    let lowered = trimmed.lowercased()
    if lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") || lowered.contains("<body")
      || lowered.contains("<title")
    {
      if let title = title(in: trimmed), !title.isEmpty { return "an HTML page titled '\(title)'" }
      let words = words(withoutTags(trimmed))
      return words.isEmpty ? "an HTML page without text" : "an HTML page beginning '\(words)'"
    }
    if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return "JSON beginning '\(words(trimmed))'" }
    return "text beginning '\(words(trimmed))'"
  }

  /// The text of the first `<title>` element, its whitespace collapsed.
  static func title(in html: String) -> String? {
    guard let open = html.range(of: "<title", options: .caseInsensitive),
      let start = html[open.upperBound...].firstIndex(of: ">"),
      let close = html[start...].range(of: "</title", options: .caseInsensitive)
    else { return nil }
    return collapsed(String(html[html.index(after: start)..<close.lowerBound]))
  }

  /// `html` with its tags (`<…>`) replaced by spaces.
  static func withoutTags(_ html: String) -> String {
    var text = ""
    var inTag = false
    for character in html {
      switch character {
      case "<":
        inTag = true
        text.append(" ")
      case ">": inTag = false
      default: if !inTag { text.append(character) }
      }
    }
    return text
  }

  /// The first words of `text`, whitespace collapsed, cut at ``quotedCharacters`` with `…`.
  static func words(_ text: String) -> String {
    let flat = collapsed(text)
    return flat.count > quotedCharacters ? flat.prefix(quotedCharacters) + "…" : flat
  }

  static func collapsed(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// A JSON decoder's error in a person's words: `the key "data" is missing`, `stores.0.name is
  /// not a string`, `it is not JSON`.
  static func decodingProblem(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ keys: [any CodingKey]) -> String {
      keys.isEmpty ? "the top level" : keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, let context):
      let place = context.codingPath.isEmpty ? "" : " in \(path(context.codingPath))"
      return "the key \"\(key.stringValue)\" is missing\(place)"
    case .typeMismatch(let type, let context): return "\(path(context.codingPath)) is not \(typeName(type))"
    case .valueNotFound(let type, let context): return "\(path(context.codingPath)) is null, not \(typeName(type))"
    case .dataCorrupted(let context):
      return context.codingPath.isEmpty ? "it is not JSON" : "\(path(context.codingPath)) is not readable"
    @unknown default: return "\(error)"
    }
  }

  static func typeName(_ type: Any.Type) -> String {
    let name = "\(type)"
    if name.hasPrefix("Array") { return "an array" }
    if name.hasPrefix("Dictionary") { return "an object" }
    if name == "String" { return "a string" }
    if ["Int", "Double", "Float", "Int64"].contains(name) { return "a number" }
    if name == "Bool" { return "true or false" }
    return "a \(name)"
  }
}
