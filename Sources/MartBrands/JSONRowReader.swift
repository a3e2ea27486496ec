import Foundation
import MartCharset
import MartCore

/// Reads the rows a brand feed publishes, an array of flat objects under one key of a JSON
/// object (`{"dataList": [{"ID": "1000", …}, …]}`) or the whole document (`[{…}, …]`),
/// straight from the bytes: no Foundation objects, no `Decodable` machinery. A feed may also
/// have a flat object beside its rows (`"pagination": {"pageSize": 3, …}`), read the same way.
/// Every other member is checked for syntax and skipped.
///
/// The reader accepts a strict subset of what `JSONDecoder` accepts and gives the same rows;
/// anything it does not accept (a byte-order mark, a duplicate key in a row, a lone surrogate,
/// invalid JSON) makes it return `nil`, and callers fall back to `JSONDecoder`, which decides
/// and words the error.
struct JSONRowReader {
  /// What the key held.
  enum Found {
    /// The rows, in order.
    case rows([JSONRow])
    /// The key is absent or `null`.
    case absent
  }

  /// What one of the members asked for of the top-level object held.
  enum Member: Equatable {
    /// An array of flat objects: the rows, in order.
    case rows([JSONRow])
    /// One flat object.
    case object(JSONRow)
  }

  /// When set, the reader declines every document, so sources read their feeds with
  /// `JSONDecoder` alone; tests compare the two readings this way.
  @TaskLocal static var declinesEverything = false

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0
  /// The last row read, and where each of its members' name and string value lay in `bytes`
  /// (quotes included): a feed's rows share their names, in order, and many of their values
  /// (the same hours, the same facility text). A member whose bytes repeat those of the last
  /// row's member at its index is that member's name or value again: it is taken as it is, not
  /// made anew (a new string checks and copies its bytes).
  private var lastRow: [JSONRow.Member] = []
  private var lastTokens: [Tokens] = []
  /// The storage of the tokens before `lastTokens`, kept for the next row to fill.
  private var spareTokens: [Tokens] = []

  /// Where a member's name and its value, when a string, lay in `bytes`.
  private struct Tokens {
    var name: Range<Int>
    var string: Range<Int>?
  }

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The rows under `key` of the top-level object in `data`, or `nil` when the reader does not
  /// accept the document (see the type's documentation).
  static func rows(in data: Data, key: String) -> Found? {
    guard let members = members(in: data, keys: [key]) else { return nil }
    switch members[key] {
    case .rows(let rows)?: return .rows(rows)
    case .object?: return nil
    case nil: return .absent
    }
  }

  /// The members `keys` of the top-level object in `data`, each an array of flat objects or a
  /// flat object; a key that is absent or `null` has no entry. `nil` when the reader does not
  /// accept the document (see the type's documentation), or one of `keys` holds anything else.
  static func members(in data: Data, keys: Set<String>) -> [String: Member]? {
    read(data) { reader in reader.document(keys: keys) }
  }

  /// The rows of `data` when the whole document is an array of flat objects, or `nil` when the
  /// reader does not accept it (see the type's documentation).
  static func rows(in data: Data) -> [JSONRow]? {
    read(data) { reader in
      reader.skipSpace()
      guard let rows = reader.rows() else { return nil }
      reader.skipSpace()
      return reader.position == reader.bytes.count ? rows : nil
    }
  }

  /// What `body` reads of `data`, `nil` when the document is not valid UTF-8. Checked once for
  /// the whole document: outside its strings JSON accepts nothing but ASCII, and every string
  /// lies between two ASCII quotes, so each string of a valid document is valid UTF-8 (and a
  /// document with a string that is not is declined either way).
  private static func read<Value>(_ data: Data, _ body: (inout JSONRowReader) -> Value?) -> Value? {
    guard !declinesEverything else { return nil }
    return data.withUnsafeBytes { raw in
      guard CharsetDecoder.isValidUTF8(raw) else { return nil }
      var reader = JSONRowReader(raw.bindMemory(to: UInt8.self))
      return body(&reader)
    }
  }

  private mutating func document(keys: Set<String>) -> [String: Member]? {
    skipSpace()
    var found: [String: Member] = [:]
    var seenKeys = Set<String>()
    let read = object { reader, _ in
      guard let name = reader.string(), reader.takeColon() else { return false }
      guard keys.contains(name) else { return reader.skipValue() }
      // A repeated key: left to JSONDecoder.
      guard seenKeys.insert(name).inserted else { return false }
      switch reader.peek {
      case 0x6E:
        return reader.literal("null")
      case 0x5B:
        guard let rows = reader.rows() else { return false }
        found[name] = .rows(rows)
      case 0x7B:
        guard let object = reader.row() else { return false }
        found[name] = .object(object)
      default:
        return false
      }
      return true
    }
    guard read else { return nil }
    skipSpace()
    return position == bytes.count ? found : nil
  }

  private mutating func rows() -> [JSONRow]? {
    guard take(0x5B) else { return nil }
    var rows: [JSONRow] = []
    skipSpace()
    if take(0x5D) { return rows }
    repeat {
      skipSpace()
      guard let row = row() else { return nil }
      rows.append(row)
      skipSpace()
    } while take(0x2C)
    return take(0x5D) ? rows : nil
  }

  private mutating func row() -> JSONRow? {
    var members: [JSONRow.Member] = []
    members.reserveCapacity(lastRow.count)
    var tokens: [Tokens] = []
    swap(&tokens, &spareTokens)
    tokens.removeAll(keepingCapacity: true)
    // Whether each name so far is the last row's name at its index.
    var namesRepeat = true
    let read = object { reader, index in
      let last = index < reader.lastRow.count ? index : nil
      let nameStart = reader.position
      let name: String
      if let last, reader.takeRepeat(of: reader.lastTokens[last].name) {
        name = reader.lastRow[last].name
      } else {
        guard let read = reader.string() else { return false }
        name = read
        namesRepeat = false
      }
      let nameToken = nameStart..<reader.position
      guard reader.takeColon() else { return false }
      let valueStart = reader.position
      let value: JSONScalar
      if let last, let string = reader.lastTokens[last].string, reader.takeRepeat(of: string) {
        value = reader.lastRow[last].value
      } else {
        guard let read = reader.scalar() else { return false }
        value = read
      }
      let isString = reader.bytes[valueStart] == 0x22
      tokens.append(Tokens(name: nameToken, string: isString ? valueStart..<reader.position : nil))
      members.append(JSONRow.Member(name: name, value: value))
      return true
    }
    // A repeated name: left to JSONDecoder. The last row's names are unique, and so are any
    // of them in their order.
    guard read, namesRepeat || Self.namesAreUnique(members) else { return nil }
    lastRow = members
    spareTokens = lastTokens
    lastTokens = tokens
    return JSONRow(members: members)
  }

  /// Whether no two of `members` share a name.
  private static func namesAreUnique(_ members: [JSONRow.Member]) -> Bool {
    Set(members.lazy.map(\.name)).count == members.count
  }

  /// Reads one object, `{ "name": value, … }`: `member` reads each member, its name and its
  /// value, given its index, and says whether it could. `false` when the object or a member is
  /// not what it should be.
  private mutating func object(_ member: (inout JSONRowReader, Int) -> Bool) -> Bool {
    guard take(0x7B) else { return false }
    skipSpace()
    if take(0x7D) { return true }
    var index = 0
    repeat {
      skipSpace()
      guard member(&self, index) else { return false }
      index += 1
      skipSpace()
    } while take(0x2C)
    return take(0x7D)
  }

  /// Takes the `:` between a member's name and its value, and the space around it.
  private mutating func takeColon() -> Bool {
    skipSpace()
    guard take(0x3A) else { return false }
    skipSpace()
    return true
  }

  /// Takes the bytes ahead when they repeat those of `token`, a string read before (quotes
  /// included, so the repeat ends where the string does).
  private mutating func takeRepeat(of token: Range<Int>) -> Bool {
    guard position + token.count <= bytes.count, let base = bytes.baseAddress,
      memcmp(base + position, base + token.lowerBound, token.count) == 0
    else { return false }
    position += token.count
    return true
  }

  private mutating func scalar() -> JSONScalar? {
    switch peek {
    case 0x22: return string().map(JSONScalar.string)
    case 0x74: return literal("true") ? .bool(true) : nil
    case 0x66: return literal("false") ? .bool(false) : nil
    case 0x6E: return literal("null") ? .null : nil
    case 0x7B, 0x5B: return skipValue() ? .nested : nil
    default: return number().map(JSONScalar.number)
    }
  }

  // MARK: Scanning

  private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func take(_ byte: UInt8) -> Bool {
    guard peek == byte else { return false }
    position += 1
    return true
  }

  private mutating func skipSpace() {
    while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
  }

  private mutating func literal(_ word: StaticString) -> Bool {
    let count = word.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
    position += count
    return true
  }

  /// A JSON number, as `Double`; `nil` unless it follows JSON's grammar.
  private mutating func number() -> Double? {
    let start = position
    _ = take(0x2D)
    guard let first = peek, first >= 0x30, first <= 0x39 else { return nil }
    position += 1
    if first != 0x30 { skipDigits() }
    if take(0x2E) {
      guard digitFollows else { return nil }
      skipDigits()
    }
    if peek == 0x65 || peek == 0x45 {
      position += 1
      if !take(0x2B) { _ = take(0x2D) }
      guard digitFollows else { return nil }
      skipDigits()
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }

  private var digitFollows: Bool { peek.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }

  private mutating func skipDigits() {
    while let byte = peek, byte >= 0x30, byte <= 0x39 { position += 1 }
  }

  /// A JSON string, unescaped; `nil` for control characters, bad escapes and lone surrogates
  /// (the document's UTF-8 is checked before it is read). Read eight bytes at a time up to the
  /// next quote, backslash or control character (``quotesBackslashesAndControls(in:)``).
  private mutating func string() -> String? {
    guard take(0x22) else { return nil }
    let start = position
    var escaped = false
    while true {
      if position + 8 <= bytes.count {
        let marks = Self.quotesBackslashesAndControls(in: ByteWords.word(of: bytes, at: position))
        guard marks != 0 else {
          position += 8
          continue
        }
        position += marks.trailingZeroBitCount / 8
      }
      guard let byte = peek else { return nil }
      if byte == 0x22 { break }
      guard byte >= 0x20 else { return nil }
      if byte == 0x5C {
        escaped = true
        position += 2
      } else {
        position += 1
      }
    }
    let content = UnsafeBufferPointer(rebasing: bytes[start..<position])
    position += 1
    guard escaped else { return String(decoding: content, as: UTF8.self) }
    return Self.unescape(content)
  }

  /// The marks of the quotes, backslashes and bytes below 0x20 in `word` (``ByteWords``): 0 when
  /// there is none, and the lowest mark is always one of them.
  private static func quotesBackslashesAndControls(in word: UInt64) -> UInt64 {
    ByteWords.bytes(equalTo: 0x22, in: word) | ByteWords.bytes(equalTo: 0x5C, in: word)
      | ByteWords.bytes(below: 0x20, in: word)
  }

  private static func unescape(_ content: UnsafeBufferPointer<UInt8>) -> String? {
    var output: [UInt8] = []
    output.reserveCapacity(content.count)
    var index = 0
    func hex4(_ at: Int) -> UInt32? {
      guard at + 4 <= content.count else { return nil }
      var value: UInt32 = 0
      for offset in 0..<4 {
        let byte = content[at + offset]
        let digit: UInt8
        switch byte {
        case 0x30...0x39: digit = byte - 0x30
        case 0x41...0x46: digit = byte - 0x41 + 10
        case 0x61...0x66: digit = byte - 0x61 + 10
        default: return nil
        }
        value = value << 4 | UInt32(digit)
      }
      return value
    }
    while index < content.count {
      let byte = content[index]
      guard byte == 0x5C else {
        output.append(byte)
        index += 1
        continue
      }
      guard index + 1 < content.count else { return nil }
      let escape = content[index + 1]
      index += 2
      switch escape {
      case 0x22, 0x5C, 0x2F: output.append(escape)
      case 0x62: output.append(0x08)
      case 0x66: output.append(0x0C)
      case 0x6E: output.append(0x0A)
      case 0x72: output.append(0x0D)
      case 0x74: output.append(0x09)
      case 0x75:
        guard var scalar = hex4(index) else { return nil }
        index += 4
        if (0xD800..<0xDC00).contains(scalar) {
          guard index + 6 <= content.count, content[index] == 0x5C, content[index + 1] == 0x75,
            let low = hex4(index + 2), (0xDC00..<0xE000).contains(low)
          else { return nil }
          index += 6
          scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { return nil }
        output.append(contentsOf: Array(String(Character(unicode)).utf8))
      default: return nil
      }
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Skips any JSON value; `false` when it is not one.
  private mutating func skipValue() -> Bool {
    switch peek {
    case 0x22: return string() != nil
    case 0x74: return literal("true")
    case 0x66: return literal("false")
    case 0x6E: return literal("null")
    case 0x5B:
      position += 1
      skipSpace()
      if take(0x5D) { return true }
      repeat {
        skipSpace()
        guard skipValue() else { return false }
        skipSpace()
      } while take(0x2C)
      return take(0x5D)
    case 0x7B:
      position += 1
      skipSpace()
      if take(0x7D) { return true }
      repeat {
        skipSpace()
        guard string() != nil else { return false }
        skipSpace()
        guard take(0x3A) else { return false }
        skipSpace()
        guard skipValue() else { return false }
        skipSpace()
      } while take(0x2C)
      return take(0x7D)
    default: return number() != nil
    }
  }
}

extension BrandSource {
  /// The rows under `key` of a JSON object feed, `nil` when the key is absent or `null`. Read
  /// by ``JSONRowReader``; what it does not accept goes through `JSONDecoder` (as `Body`, whose
  /// only stored property is the rows under `key`), which words the error.
  static func decodeRows<Body: Decodable>(
    _ data: Data, key: String, url: String, expecting shape: String, fallback: Body.Type,
    rows: (Body) -> [JSONRow]?
  ) throws(SourceError) -> [JSONRow]? {
    switch JSONRowReader.rows(in: data, key: key) {
    case .rows(let found): return found
    case .absent?, nil: return rows(try decodeJSON(Body.self, from: data, url: url, expecting: shape))
    }
  }

  /// The rows of a feed whose whole body is an array of objects. Read by ``JSONRowReader``;
  /// what it does not accept goes through `JSONDecoder`, which words the error.
  static func decodeRows(
    _ data: Data, url: String, expecting shape: String
  ) throws(SourceError) -> [JSONRow] {
    if let rows = JSONRowReader.rows(in: data) { return rows }
    return try decodeJSON([JSONRow].self, from: data, url: url, expecting: shape)
  }
}
