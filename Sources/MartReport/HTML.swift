import MartCore

/// Escaping for the text and attribute values the report page and the site write.
public enum HTML {
  /// `text` safe as element content or inside a double-quoted attribute value
  /// (``HTMLBytes/appendEscaped(_:)``); text without a character to escape (most of it) is
  /// returned as it is.
  public static func escape(_ text: String) -> String {
    if text.withContiguousUTF8({ HTMLBytes.escapedByteIndex(in: $0, from: 0) == nil }) { return text }
    var escaped = HTMLBytes()
    escaped.appendEscaped(text)
    return escaped.text
  }

  /// A number as SVG writes it: one decimal (``HTMLBytes/appendNumber(_:)``).
  static func number(_ value: Double) -> String {
    var written = HTMLBytes()
    written.appendNumber(value)
    return written.text
  }
}

/// A page or a part of it as UTF-8 bytes in one growing buffer: markup, escaped text and numbers
/// are appended in place, so that no intermediate string is made for each piece, and the page is
/// written as these bytes.
struct HTMLBytes {
  /// The bytes so far.
  private(set) var bytes: [UInt8] = []

  /// An empty buffer with room for `capacity` bytes.
  init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  /// How many bytes the buffer holds.
  var count: Int { bytes.count }

  /// The bytes as a string.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Appends `markup` as it is: a literal, or text already escaped.
  mutating func append(_ markup: String) {
    markup.withContiguousUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Appends again `range` of the bytes this buffer holds: a short piece written once and
  /// repeated. Byte by byte: a slice of the buffer would hold it while it grows, and so copy it.
  mutating func append(copyOf range: Range<Int>) {
    for index in range { bytes.append(bytes[index]) }
  }

  /// Appends `range` of the bytes `other` holds.
  mutating func append(_ other: HTMLBytes, _ range: Range<Int>) {
    bytes.append(contentsOf: other.bytes[range])
  }

  /// Appends the bytes `other` holds.
  mutating func append(_ other: HTMLBytes) {
    bytes.append(contentsOf: other.bytes)
  }

  /// Appends `value` in decimal.
  mutating func append(_ value: Int) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    let magnitude = value.magnitude
    var unit: UInt = 1
    while unit <= magnitude / 10 { unit *= 10 }
    repeat {
      bytes.append(UInt8(ascii: "0") + UInt8(magnitude / unit % 10))
      unit /= 10
    } while unit > 0
  }

  /// Appends `value` as SVG writes it on the page: rounded to one decimal, `-` only before a
  /// number that does not round to zero (`12.3`, `7.0`, `-0.3`, `0.0`).
  mutating func appendNumber(_ value: Double) {
    let tenths = Int((value * 10).rounded())
    if tenths < 0 { bytes.append(UInt8(ascii: "-")) }
    append(abs(tenths) / 10)
    bytes.append(UInt8(ascii: "."))
    bytes.append(UInt8(ascii: "0") + UInt8(abs(tenths) % 10))
  }

  /// Appends `text` safe as element content or inside a double-quoted attribute value: `&`, `<`,
  /// `>`, `"` and `'` as their references.
  ///
  /// Works on the contiguous UTF-8 bytes: the five characters escaped are ASCII, so no byte of
  /// another character can be taken for one, and the runs between them are copied whole.
  mutating func appendEscaped(_ text: String) {
    text.withContiguousUTF8 { source in
      var start = 0
      while let index = Self.escapedByteIndex(in: source, from: start) {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
        switch source[index] {
        case UInt8(ascii: "&"): append("&amp;")
        case UInt8(ascii: "<"): append("&lt;")
        case UInt8(ascii: ">"): append("&gt;")
        case UInt8(ascii: "\""): append("&quot;")
        default: append("&#39;")
        }
        start = index + 1
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
    }
  }

  /// Where `source` has its first byte at or after `start` that ``appendEscaped(_:)`` replaces.
  static func escapedByteIndex(in source: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var index = start
    while index < source.count {
      switch source[index] {
      case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
        return index
      default: index += 1
      }
    }
    return nil
  }
}
