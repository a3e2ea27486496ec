import CIconv
import Foundation

/// Text decoded from bytes, with the encoding used, where it came from, and any doubts.
public struct DecodedText: Sendable, Hashable {
  /// Where the encoding came from.
  public enum Source: String, Sendable, Hashable {
    case byteOrderMark = "byte order mark"
    case contentType = "Content-Type header"
    case metaTag = "<meta> charset declaration"
    case sniffed = "sniffing"
  }

  public var text: String
  /// The encoding the bytes were read as: `UTF-8`, `CP949`, `WINDOWS-1252`, `UTF-16LE`, …
  public var encoding: String
  public var source: Source
  /// Declarations that were unknown or did not fit the bytes; empty when all went as declared.
  public var warnings: [String]

  public init(text: String, encoding: String, source: Source, warnings: [String] = []) {
    self.text = text
    self.encoding = encoding
    self.source = source
    self.warnings = warnings
  }
}

/// Turns response bodies into text the way browsers pick an encoding: a byte order mark, then
/// the Content-Type `charset`, then an HTML `<meta charset>` (or `http-equiv`) declaration, then
/// sniffing (valid UTF-8, else valid CP949).
///
/// Korean labels (`euc-kr`, `ks_c_5601-1987`, …) decode as CP949, the superset Korean sites emit
/// under any of them. An unknown label, or bytes that do not fit the declared encoding, is a
/// warning and the next source is tried; nothing silently falls back to Latin-1.
public enum CharsetDecoder {
  /// Decodes `data`. `declaredCharset` is the Content-Type `charset` parameter; `isHTML` enables
  /// the `<meta>` prescan of the first 4 KiB.
  public static func decode(_ data: Data, declaredCharset: String?, isHTML: Bool = true) -> DecodedText {
    let (text, encoding, source, warnings) = choose(
      data, declaredCharset: declaredCharset, isHTML: isHTML,
      convert: { convert($0, from: $1) },
      repairing: { String(decoding: $0, as: UTF8.self) })
    return DecodedText(text: text, encoding: encoding, source: source, warnings: warnings)
  }

  /// `decode` as UTF-8 bytes: the same encoding chosen for the same reasons, and the text's
  /// bytes. When the bytes are UTF-8 already (declared or sniffed, and valid) they are `data`
  /// itself, not a copy (without a byte order mark).
  public static func decodeToUTF8(_ data: Data, declaredCharset: String?, isHTML: Bool = true) -> DecodedBytes {
    let (bytes, encoding, source, warnings) = choose(
      data, declaredCharset: declaredCharset, isHTML: isHTML,
      convert: { data, encoding in
        encoding == "UTF-8" ? (isValidUTF8(data) ? data : nil) : convert(data, from: encoding).map { Data($0.utf8) }
      },
      repairing: { Data(String(decoding: $0, as: UTF8.self).utf8) })
    return DecodedBytes(
      utf8: bytes, summary: DecodedText.Summary(encoding: encoding, source: source, warnings: warnings))
  }

  /// The choice `decode` documents: `convert` reads bytes in an encoding (`nil` when they are
  /// not valid in it), `repairing` reads them as UTF-8 with invalid bytes replaced.
  private static func choose<Text>(
    _ data: Data, declaredCharset: String?, isHTML: Bool, convert: (Data, String) -> Text?,
    repairing: (Data) -> Text
  ) -> (Text, encoding: String, source: DecodedText.Source, warnings: [String]) {
    if let (encoding, bomLength) = byteOrderMark(data), let text = convert(data.dropFirst(bomLength), encoding) {
      return (text, encoding, .byteOrderMark, [])
    }
    var warnings: [String] = []
    // The `<meta>` prescan runs only when the Content-Type charset is missing or does not fit.
    let declarations: [(label: () -> String?, source: DecodedText.Source)] = [
      ({ declaredCharset.flatMap { $0.isEmpty ? nil : $0 } }, .contentType),
      ({ isHTML ? metaCharset(in: data) : nil }, .metaTag),
    ]
    for (declaration, source) in declarations {
      guard let label = declaration() else { continue }
      guard let encoding = encodingName(forLabel: label) else {
        warnings.append("unknown charset \"\(label)\" in the \(source.rawValue); the encoding was sniffed")
        continue
      }
      if let text = convert(data, encoding) {
        return (text, encoding, source, warnings)
      }
      warnings.append(
        "the body is not valid \(encoding) as the \(source.rawValue) declares (\"\(label)\"); the encoding was sniffed")
    }
    if let text = convert(data, "UTF-8") {
      return (text, "UTF-8", .sniffed, warnings)
    }
    if let text = convert(data, "CP949") {
      return (text, "CP949", .sniffed, warnings)
    }
    warnings.append("the body is neither valid UTF-8 nor valid CP949; it was read as UTF-8 with invalid bytes replaced")
    return (repairing(data), "UTF-8", .sniffed, warnings)
  }

  /// Whether `data` is valid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
  /// U+10FFFF), checked in place. Runs of ASCII, most of a page's markup, are skipped eight
  /// bytes at a time; the standard library's validator takes each byte on its own.
  public static func isValidUTF8(_ data: Data) -> Bool {
    data.withUnsafeBytes { isValidUTF8($0) }
  }

  public static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    var index = 0
    func byte(_ offset: Int) -> UInt8 { base.load(fromByteOffset: index + offset, as: UInt8.self) }
    while index < count {
      let lead = byte(0)
      if lead < 0x80 {
        index += 1
        // The run of ASCII this byte starts, skipped eight bytes at a time (tried after ASCII
        // only: text in Hangul is three-byte characters one after another).
        while index + 8 <= count,
          base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
          index += 8
        }
        continue
      }
      // The second byte's range depends on the lead (Unicode's table 3-7); the others are
      // plain continuation bytes.
      let (length, low, high): (Int, UInt8, UInt8)
      switch lead {
      case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
      case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
      case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
      case 0xED: (length, low, high) = (3, 0x80, 0x9F)
      case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
      case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
      case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
      default: return false
      }
      guard index + length <= count, byte(1) >= low, byte(1) <= high,
        length < 3 || byte(2) & 0xC0 == 0x80, length < 4 || byte(3) & 0xC0 == 0x80
      else { return false }
      index += length
    }
    return true
  }

  /// The encoding a charset label names (`UTF-8`, `CP949`, `WINDOWS-1252`, or the label itself
  /// when iconv knows it), or nil when the label is unknown.
  public static func encodingName(forLabel label: String) -> String? {
    // The labels servers send (`UTF-8`, `utf-8`, `euc-kr`) are found without normalizing more
    // than ASCII case.
    if label.utf8.count <= 32, label.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x27 }),
      let known = knownLabels[asciiLowercased(label)]
    {
      return known
    }
    let isPadding: (Character) -> Bool = { " \t\"'".contains($0) }
    let normalized = String(label.drop(while: isPadding).reversed().drop(while: isPadding).reversed()).lowercased()
    guard !normalized.isEmpty else { return nil }
    if let known = knownLabels[normalized] { return known }
    guard normalized.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }),
      let converter = mart_iconv_open("UTF-8", normalized.uppercased())
    else { return nil }
    mart_iconv_close(converter)
    return normalized.uppercased()
  }

  /// The charset a `<meta charset>` or `<meta http-equiv="Content-Type" content="…; charset=…">`
  /// declares in the first 4 KiB, if any.
  public static func metaCharset(in data: Data) -> String? {
    // Byte for byte (Latin-1) so that non-ASCII bytes cannot hide the ASCII markup.
    let head = String(String.UnicodeScalarView(data.prefix(4096).map { Unicode.Scalar($0) })).lowercased()
    var searchStart = head.startIndex
    while let meta = head.range(of: "<meta", range: searchStart..<head.endIndex) {
      let tagEnd = head[meta.upperBound...].firstIndex(of: ">") ?? head.endIndex
      let tag = head[meta.upperBound..<tagEnd]
      if let charset = tag.range(of: "charset") {
        var rest = tag[charset.upperBound...].drop { $0 == " " || $0 == "\t" }
        if rest.first == "=" {
          rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'" }
          let value = rest.prefix { !" \t\"';/>".contains($0) }
          if !value.isEmpty { return String(value) }
        }
      }
      searchStart = tagEnd
    }
    return nil
  }

  /// `data` converted from `encoding` to a String, or nil when the bytes are not valid in it.
  public static func convert(_ data: Data, from encoding: String) -> String? {
    if encoding == "UTF-8" { return String(validating: data, as: UTF8.self) }
    guard !data.isEmpty else { return "" }
    guard let converter = mart_iconv_open("UTF-8", encoding) else { return nil }
    defer { mart_iconv_close(converter) }
    let capacity = data.count * 4 + 16
    var output = [UInt8](repeating: 0, count: capacity)
    var outputLeft = 0
    let status = data.withUnsafeBytes { input in
      output.withUnsafeMutableBytes { buffer in
        var inputLeft = 0
        return mart_iconv_convert(
          converter, input.baseAddress?.assumingMemoryBound(to: CChar.self), input.count, &inputLeft,
          buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count, &outputLeft)
      }
    }
    guard status == 0 else { return nil }
    return String(validating: output[0..<(capacity - outputLeft)], as: UTF8.self)
  }

  /// `label` with `A`…`Z` lowered.
  private static func asciiLowercased(_ label: String) -> String {
    guard label.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return label }
    return String(decoding: label.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
  }

  private static func byteOrderMark(_ data: Data) -> (String, Int)? {
    let bytes = [UInt8](data.prefix(3))
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return ("UTF-8", 3) }
    if bytes.starts(with: [0xFF, 0xFE]) { return ("UTF-16LE", 2) }
    if bytes.starts(with: [0xFE, 0xFF]) { return ("UTF-16BE", 2) }
    return nil
  }

  private static let knownLabels: [String: String] = {
    var table: [String: String] = [:]
    let groups: [(String, [String])] = [
      ("UTF-8", ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"]),
      (
        "CP949",
        [
          "euc-kr", "euckr", "ks_c_5601-1987", "ks_c_5601-1989", "ks_c_5601", "ksc5601", "ksc_5601", "csksc56011987",
          "cseuckr", "iso-ir-149", "korean", "windows-949", "x-windows-949", "cp949", "ms949", "uhc", "x-uhc",
        ]
      ),
      (
        "WINDOWS-1252",
        [
          "windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987",
          "latin1", "l1", "cp819", "ibm819", "csisolatin1", "iso-ir-100", "us-ascii", "ascii", "ansi_x3.4-1968",
        ]
      ),
      ("UTF-16LE", ["utf-16", "utf-16le"]),
      ("UTF-16BE", ["utf-16be"]),
    ]
    for (encoding, labels) in groups {
      for label in labels { table[label] = encoding }
    }
    return table
  }()
}

extension DecodedText {
  /// How text was decoded, without the text.
  public struct Summary: Sendable, Hashable {
    public var encoding: String
    public var source: Source
    public var warnings: [String]

    public init(_ decoded: DecodedText) {
      self.init(encoding: decoded.encoding, source: decoded.source, warnings: decoded.warnings)
    }

    public init(encoding: String, source: Source, warnings: [String]) {
      self.encoding = encoding
      self.source = source
      self.warnings = warnings
    }
  }
}

/// Text as UTF-8 bytes, with how it was decoded (`CharsetDecoder.decodeToUTF8`).
public struct DecodedBytes: Sendable, Hashable {
  /// The text in UTF-8.
  public var utf8: Data
  public var summary: DecodedText.Summary

  public init(utf8: Data, summary: DecodedText.Summary) {
    self.utf8 = utf8
    self.summary = summary
  }
}
