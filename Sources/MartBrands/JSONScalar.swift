import Foundation

/// A JSON value that brand feeds use as a scalar: a string, a number, a boolean or null.
/// Feeds are inconsistent about quoting numbers, so readers take whichever arrives as text.
enum JSONScalar: Decodable, Hashable, Sendable {
  case string(String)
  case number(Double)
  case bool(Bool)
  case null
  /// Objects and arrays where a scalar was expected; kept so one odd field does not fail a row.
  case nested

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else {
      self = .nested
    }
  }

  /// The value as text, trimmed; `nil` for null, nested values and blank strings.
  var text: String? {
    switch self {
    case .string(let value):
      let trimmed = value.trimmingSpacesAndNewlines()
      return trimmed.isEmpty ? nil : trimmed
    case .number(let value):
      return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    case .bool(let value): return String(value)
    case .null, .nested: return nil
    }
  }

  /// The value as a number, from a JSON number or a numeric string.
  var number: Double? {
    switch self {
    case .number(let value): value
    case .string: text.flatMap(Double.init)
    default: nil
    }
  }
}

extension Dictionary where Key == String, Value == JSONScalar {
  /// The trimmed, non-blank text of `key`.
  func text(_ key: String) -> String? { self[key]?.text }
}
