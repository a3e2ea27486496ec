import Foundation

/// What the request checks of the sources (`<Source>+RequestCheck.swift`) share.
enum AnswerChecks {
  /// Whether the body, after leading whitespace, opens a JSON object or array: an answer that
  /// cannot be an HTML page.
  static func isJSON(_ body: Data) -> Bool {
    guard let first = body.first(where: { !($0 == 0x20 || (0x09...0x0D).contains($0)) }) else { return false }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
  }
}
