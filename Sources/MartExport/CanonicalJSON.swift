import Foundation
import MartCore

/// The canonical JSON every bundle file is written in: compact (no whitespace), keys sorted by
/// their UTF-8 bytes, UTF-8 text unescaped (also `/`), and every optional property present,
/// as `null` when it has no value.
///
/// Swift's synthesized `Codable` leaves out `nil` optionals (`encodeIfPresent`); this encoder
/// writes them as `null`, so a field documented as "null when unknown" is always there, and
/// a field added to a model type later is covered without a hand-written encoder. Equal values
/// always give equal bytes.
public enum CanonicalJSON {
  /// Encodes `value` canonically, without a trailing newline.
  public static func encode(_ value: some Encodable) throws -> Data {
    let root = JSONNodeBuilder()
    try root.encode(value, codingPath: [])
    var output = [UInt8]()
    output.reserveCapacity(4096)
    try root.write(to: &output, codingPath: [])
    return Data(output)
  }
}

extension String {
  /// Whether the text comes before `other` in the order of their UTF-8 bytes (the order of
  /// canonical JSON's keys and of a manifest's paths, where `<` compares Unicode scalars):
  /// `utf8.lexicographicallyPrecedes(other.utf8)`, as one `memcmp` of the two buffers.
  func precedesInUTF8(_ other: String) -> Bool { utf8Order(other) < 0 }

  /// The order of the text's UTF-8 bytes and `other`'s: negative when they come first, zero
  /// when the bytes are the same, positive when they come after.
  func utf8Order(_ other: String) -> Int {
    withContiguousUTF8 { left in
      other.withContiguousUTF8 { right in
        let common = min(left.count, right.count)
        if common > 0, let first = left.baseAddress, let second = right.baseAddress {
          let order = memcmp(first, second, common)
          if order != 0 { return Int(order) }
        }
        return left.count - right.count
      }
    }
  }
}

/// A JSON value under construction; containers hand out child builders and fill them later.
final class JSONNodeBuilder {
  enum Content {
    case unset
    case null
    case bool(Bool)
    /// A number, already formatted.
    case number(String)
    case string(String)
    case array([JSONNodeBuilder])
    /// The members in the order they were encoded; sorted when written.
    case object([(key: String, value: JSONNodeBuilder)])
  }

  var content: Content = .unset

  /// Strings, numbers of floating point and booleans directly, anything else through its
  /// `encode(to:)`. The value's type is compared, not cast: a failed cast costs more than the
  /// comparison, and most values are of other types.
  func encode<Value: Encodable>(_ value: Value, codingPath: [any CodingKey]) throws {
    if Value.self == String.self {
      content = .string(value as! String)
    } else if Value.self == Double.self {
      content = .number(try Self.format(value as! Double, codingPath: codingPath))
    } else if Value.self == Float.self {
      content = .number(try Self.format(Double(value as! Float), codingPath: codingPath))
    } else if Value.self == Bool.self {
      content = .bool(value as! Bool)
    } else {
      try value.encode(to: CanonicalEncoder(node: self, codingPath: codingPath))
    }
  }

  /// Integral values without a fraction (`127`), others in Swift's shortest round-trip form.
  static func format(_ value: Double, codingPath: [any CodingKey]) throws -> String {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: codingPath, debugDescription: "JSON has no non-finite numbers"))
    }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return value.description
  }

  func appendElement() -> JSONNodeBuilder {
    let child = JSONNodeBuilder()
    if case .array(var elements) = content {
      // Drop the enum's reference first, so the append grows the array in place instead of
      // copying every element (which made long arrays quadratic).
      content = .unset
      elements.append(child)
      content = .array(elements)
    } else {
      content = .array([child])
    }
    return child
  }

  func child(forKey key: String) -> JSONNodeBuilder {
    let child = JSONNodeBuilder()
    if case .object(var members) = content {
      content = .unset
      members.append((key, child))
      content = .object(members)
    } else {
      content = .object([(key, child)])
    }
    return child
  }

  func write(to output: inout [UInt8], codingPath: [any CodingKey]) throws {
    switch content {
    case .unset:
      throw EncodingError.invalidValue(
        "", .init(codingPath: codingPath, debugDescription: "a value encoded nothing"))
    case .null: output.append(contentsOf: "null".utf8)
    case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
    case .number(let text): output.append(contentsOf: text.utf8)
    case .string(let text): Self.writeString(text, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        try element.write(to: &output, codingPath: codingPath)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      // By key, then in the order encoded: a key encoded again replaces what it held, so of
      // members with the same key only the last is written.
      let order = members.indices.sorted {
        let keys = members[$0].key.utf8Order(members[$1].key)
        return keys != 0 ? keys < 0 : $0 < $1
      }
      var first = true
      for (place, index) in order.enumerated() {
        let member = members[index]
        if place + 1 < order.count, members[order[place + 1]].key.utf8Order(member.key) == 0 { continue }
        if !first { output.append(UInt8(ascii: ",")) }
        first = false
        Self.writeString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        try member.value.write(to: &output, codingPath: codingPath)
      }
      output.append(UInt8(ascii: "}"))
    }
  }

  static func writeString(_ text: String, to output: inout [UInt8]) {
    output.append(UInt8(ascii: "\""))
    text.withContiguousUTF8 { CanonicalJSONWriter.appendEscaped($0, to: &output) }
    output.append(UInt8(ascii: "\""))
  }
}

struct CanonicalEncoder: Encoder {
  let node: JSONNodeBuilder
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.content {} else { node.content = .object([]) }
    return KeyedEncodingContainer(CanonicalKeyedContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.content {} else { node.content = .array([]) }
    return CanonicalUnkeyedContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    CanonicalSingleValueContainer(node: node, codingPath: codingPath)
  }
}

struct CanonicalKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: JSONNodeBuilder
  let codingPath: [any CodingKey]

  func encodeNil(forKey key: Key) throws { node.child(forKey: key.stringValue).content = .null }

  // The commonest values, without the generic way's coding path and type checks.
  func encode(_ value: String, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .string(value) }
  func encode(_ value: Bool, forKey key: Key) throws { node.child(forKey: key.stringValue).content = .bool(value) }
  func encode(_ value: Int, forKey key: Key) throws {
    node.child(forKey: key.stringValue).content = .number(String(value))
  }

  func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try node.child(forKey: key.stringValue).encode(value, codingPath: codingPath + [key])
  }

  // Absent optionals are written as `null` rather than left out.
  func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }
  func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
  func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

  private func present<T: Encodable>(_ value: T?, _ key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }

  func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    CanonicalEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
      .container(keyedBy: keyType)
  }

  func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    CanonicalEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
      .unkeyedContainer()
  }

  func superEncoder() -> any Encoder {
    CanonicalEncoder(node: node.child(forKey: "super"), codingPath: codingPath)
  }

  func superEncoder(forKey key: Key) -> any Encoder {
    CanonicalEncoder(node: node.child(forKey: key.stringValue), codingPath: codingPath + [key])
  }
}

struct CanonicalUnkeyedContainer: UnkeyedEncodingContainer {
  let node: JSONNodeBuilder
  let codingPath: [any CodingKey]
  var count: Int {
    if case .array(let elements) = node.content { return elements.count }
    return 0
  }

  func encodeNil() throws { node.appendElement().content = .null }

  func encode<T: Encodable>(_ value: T) throws {
    try node.appendElement().encode(value, codingPath: codingPath)
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    CanonicalEncoder(node: node.appendElement(), codingPath: codingPath).container(keyedBy: keyType)
  }

  func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    CanonicalEncoder(node: node.appendElement(), codingPath: codingPath).unkeyedContainer()
  }

  func superEncoder() -> any Encoder { CanonicalEncoder(node: node.appendElement(), codingPath: codingPath) }
}

struct CanonicalSingleValueContainer: SingleValueEncodingContainer {
  let node: JSONNodeBuilder
  let codingPath: [any CodingKey]

  func encodeNil() throws { node.content = .null }

  func encode<T: Encodable>(_ value: T) throws { try node.encode(value, codingPath: codingPath) }
  func encode(_ value: Bool) throws { node.content = .bool(value) }
  func encode(_ value: String) throws { node.content = .string(value) }
  func encode(_ value: Double) throws {
    node.content = .number(try JSONNodeBuilder.format(value, codingPath: codingPath))
  }
  func encode(_ value: Float) throws { try encode(Double(value)) }
  func encode(_ value: Int) throws { node.content = .number(String(value)) }
  func encode(_ value: Int8) throws { node.content = .number(String(value)) }
  func encode(_ value: Int16) throws { node.content = .number(String(value)) }
  func encode(_ value: Int32) throws { node.content = .number(String(value)) }
  func encode(_ value: Int64) throws { node.content = .number(String(value)) }
  func encode(_ value: UInt) throws { node.content = .number(String(value)) }
  func encode(_ value: UInt8) throws { node.content = .number(String(value)) }
  func encode(_ value: UInt16) throws { node.content = .number(String(value)) }
  func encode(_ value: UInt32) throws { node.content = .number(String(value)) }
  func encode(_ value: UInt64) throws { node.content = .number(String(value)) }
}
