import Foundation
import MartCore

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

  /// Digits after the decimal point as published (a JSON number in its shortest form), `0` for
  /// a whole number; `nil` when the value is not a plain decimal number.
  var fractionDigits: Int? { decimal?.fractionDigits ?? nil }

  /// ``number`` and ``fractionDigits`` together, from one reading of the text; `nil` when the
  /// value is not a number.
  var decimal: (value: Double, fractionDigits: Int?)? {
    guard let text else { return nil }
    let value: Double
    switch self {
    case .number(let number): value = number
    case .string:
      guard let read = Double(text) else { return nil }
      value = read
    case .bool, .null, .nested: return nil
    }
    // The text of a number is ASCII: its bytes are its characters.
    let bytes = text.utf8
    guard !bytes.contains(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else { return (value, nil) }
    guard let point = bytes.firstIndex(of: UInt8(ascii: ".")) else { return (value, 0) }
    return (value, bytes.distance(from: point, to: bytes.endIndex) - 1)
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

/// A flat JSON object as a feed publishes a row, `{"ID": "1000", "NAME": …}`: its members
/// looked up by name. A row has a few dozen members at most, so comparing names one by one is
/// cheaper than hashing every name into a dictionary, as reading a feed would do for each row.
/// Its names are unique (``JSONRowReader`` declines a row that repeats one); two rows are equal
/// when they have the same members, in any order.
struct JSONRow: Decodable, Equatable, Sendable, ExpressibleByDictionaryLiteral {
  /// One member: a name and its value.
  struct Member: Sendable {
    var name: String
    var value: JSONScalar
  }

  private let members: [Member]

  /// A row of `members`, whose names are unique.
  init(members: [Member]) { self.members = members }

  /// A row of the members of `dictionary`, in no particular order.
  init(_ dictionary: [String: JSONScalar]) {
    members = dictionary.map { Member(name: $0.key, value: $0.value) }
  }

  /// A row of `elements`; of a name given twice, the last value.
  init(dictionaryLiteral elements: (String, JSONScalar)...) {
    self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
  }

  /// A row decoded as a JSON object of scalars (``JSONScalar``), the way `JSONDecoder` reads
  /// what ``JSONRowReader`` declines.
  init(from decoder: any Decoder) throws {
    self.init(try [String: JSONScalar](from: decoder))
  }

  /// The value of the member named `name`, `nil` when the row has none.
  subscript(name: String) -> JSONScalar? {
    for member in members where member.name == name { return member.value }
    return nil
  }

  static func == (left: JSONRow, right: JSONRow) -> Bool {
    left.members.count == right.members.count && left.members.allSatisfy { right[$0.name] == $0.value }
  }

  /// The trimmed, non-blank text of `key`.
  func text(_ key: String) -> String? { self[key]?.text }

  /// The point published as `latitudeKey` and `longitudeKey`, with its published digits;
  /// `nil` unless both are numbers.
  func point(latitude latitudeKey: String, longitude longitudeKey: String) -> GeoPoint? {
    guard let latitude = self[latitudeKey]?.decimal, let longitude = self[longitudeKey]?.decimal else { return nil }
    let digits = [latitude.fractionDigits, longitude.fractionDigits].compactMap { $0 }.min()
    return GeoPoint(latitude: latitude.value, longitude: longitude.value, fractionDigits: digits)
  }
}
