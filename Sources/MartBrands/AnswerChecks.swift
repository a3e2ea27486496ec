import Foundation
import MartFetch
import Synchronization

/// What the request checks of the sources (`<Source>+RequestCheck.swift`) share.
///
/// Each request kind of each source says what in its answer ties it to the request: an id, a
/// name, a page number, an area, a month (its `answering:` check, a mismatch). Where an answer
/// can carry nothing of its request (a client-rendered shell, a list without its query), it is
/// compared with the other answers of the run instead (``AnswerLedger``, ``allAlike(_:)``).
/// docs/checks.md lists the evidence each check rests on.
enum AnswerChecks {
  /// Whether the body, after leading whitespace, opens a JSON object or array: an answer that
  /// cannot be an HTML page.
  static func isJSON(_ body: Data) -> Bool {
    guard let first = body.first(where: { !($0 == 0x20 || (0x09...0x0D).contains($0)) }) else { return false }
    return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
  }

  /// Why an HTML answer is cut short, or nil when the element the parser reads is complete:
  /// after the last `marker` (a class the element or its content carries), an element named one
  /// of `elements` that is open there (the marker inside it) must be closed (`</li>`), counting
  /// the same elements opened and closed on the way. A page cut mid-row (a right Content-Length,
  /// a body that stops) lacks that end; libxml2 would close it silently and the row would be read
  /// without its address, or with its closing text cut. Tag names are matched without regard to
  /// case; a body without the marker is not judged here (its parser says what it lacks).
  static func cutShort(_ body: Data, after marker: String, closing elements: [String]) -> String? {
    let complete: Bool? = body.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard let end = endOfLast(Array(marker.utf8), in: bytes) else { return nil }
      let tail = UnsafeBufferPointer(rebasing: bytes[end...])
      return elements.contains { closes($0, in: tail) }
    }
    guard complete == false else { return nil }
    return "the page is cut short: no </\(elements.joined(separator: "> or </"))> closes the element of its last"
      + " \"\(marker)\""
  }

  /// Where the last occurrence of `needle` in `bytes` ends; `nil` when there is none.
  private static func endOfLast(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let base = bytes.baseAddress, let first = needle.first, needle.count <= bytes.count else { return nil }
    var start = bytes.count - needle.count
    while start >= 0 {
      if base[start] == first, memcmp(base + start, needle, needle.count) == 0 { return start + needle.count }
      start -= 1
    }
    return nil
  }

  /// Whether an `element` open at the start of `bytes` is closed in them, tag names compared
  /// with `A`…`Z` in `bytes` taken as `a`…`z`.
  private static func closes(_ element: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let open = Array("<\(element)".utf8)
    let close = Array("</\(element)".utf8)
    var depth = 1
    var index = 0
    func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
    func starts(with word: [UInt8], at position: Int) -> Bool {
      guard position + word.count <= bytes.count else { return false }
      for offset in word.indices where lowered(bytes[position + offset]) != word[offset] { return false }
      return true
    }
    func nameEnds(at position: Int) -> Bool {
      guard position < bytes.count else { return false }
      let byte = bytes[position]
      return byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x20 || (0x09...0x0D).contains(byte)
    }
    guard let base = bytes.baseAddress else { return false }
    // Each step goes to the next `<` (memchr), the only byte a tag starts with.
    while index < bytes.count, let found = memchr(base + index, Int32(UInt8(ascii: "<")), bytes.count - index) {
      index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
      if starts(with: close, at: index), nameEnds(at: index + close.count) {
        depth -= 1
        if depth == 0 { return true }
        index += close.count
        continue
      }
      if starts(with: open, at: index), nameEnds(at: index + open.count) {
        depth += 1
        index += open.count
        continue
      }
      index += 1
    }
    return false
  }

  /// Whether two or more answers are all byte-equal: what a cache that ignores the query string
  /// gives every request of a kind. Such answers cannot tell whose they are, and none of them is
  /// believed; different requests of a real site answer differently somewhere in a run.
  static func allAlike(_ bodies: [Data]) -> Bool {
    guard let first = bodies.first, bodies.count >= 2 else { return false }
    return bodies.dropFirst().allSatisfy { $0 == first }
  }
}

/// An answer's body as a dictionary key: equal when the bytes are, hashed on every byte.
/// `Data`'s own hash reads only the first bytes, which a site's pages share (the same head and
/// menu), so a dictionary of a run's pages keyed by `Data` compares most of them with each other.
struct AnswerBody: Hashable {
  let body: Data
  private let hash: UInt64

  init(_ body: Data) {
    self.body = body
    hash = Self.hash(of: body)
  }

  static func == (left: AnswerBody, right: AnswerBody) -> Bool {
    left.hash == right.hash && left.body == right.body
  }

  func hash(into hasher: inout Hasher) { hasher.combine(hash) }

  /// A 64-bit hash of every byte of `body`, taken 8 bytes at a time: each word is xored in and
  /// the result multiplied by an odd number and xored with its upper half shifted down, steps
  /// that are one to one, so two bodies of one length that differ in one word never share it.
  /// `Hasher`'s SipHash, made to withstand inputs chosen to collide (which a run's answers are
  /// not), costs several times as much a byte, and every answer is read through it once or twice.
  static func hash(of body: Data) -> UInt64 {
    body.withUnsafeBytes { bytes in
      var hash: UInt64 = 0
      func mix(_ word: UInt64) {
        hash = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 32
      }
      var offset = 0
      // Four words a round, the same as one at a time with fewer turns of the loop.
      while offset + 32 <= bytes.count {
        mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        mix(bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        mix(bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
        mix(bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
        offset += 32
      }
      while offset + 8 <= bytes.count {
        mix(bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        offset += 8
      }
      // The last bytes, fewer than 8, as one word (a body's length tells the lengths apart).
      mix(bytes[offset...].reduce(0) { $0 << 8 | UInt64($1) })
      return hash
    }
  }
}

/// How a request is told from another: method, URL and body (not the connection it goes on).
struct AskedRequest: Hashable, Sendable {
  var method: HTTPMethod
  var url: String
  var body: Data

  init(_ request: HTTPRequest) {
    method = request.method
    url = request.url
    body = request.body ?? Data()
  }
}

/// The answers a source's run received, by body, and which requests each answered: an answer
/// that carries nothing of its request is compared with the others (``SourceSession/send(_:answering:unproven:)``).
/// One ledger is shared by a session and the item sessions of its ``SourceSession/sideBySide(_:_:)``.
final class AnswerLedger: Sendable {
  /// A body as the ledger keeps it: its length and ``AnswerBody/hash(of:)`` of every byte (the
  /// run keeps no bodies; two bodies alike in both and different in content would only cost one
  /// more asking).
  private struct Fingerprint: Hashable {
    var count: Int
    var hash: UInt64

    init(_ body: Data) {
      count = body.count
      hash = AnswerBody.hash(of: body)
    }
  }

  private let requestsByBody = Mutex<[Fingerprint: Set<AskedRequest>]>([:])
  /// What the answers on each lane showed of its connection (``SourceSession/onOneConnection(_:closingWith:_:)``).
  let laneRecords = Mutex<[ConnectionLane: LaneRecord]>([:])

  /// Notes that `body` answered `request`.
  func record(_ body: Data, answering request: AskedRequest) {
    let print = Fingerprint(body)
    requestsByBody.withLock { _ = $0[print, default: []].insert(request) }
  }

  /// Whether `body` also answered a request other than `request` in this run.
  func repeats(_ body: Data, answering request: HTTPRequest) -> Bool {
    let key = AskedRequest(request)
    let print = Fingerprint(body)
    return requestsByBody.withLock { $0[print]?.contains { $0 != key } ?? false }
  }
}

extension SourceSession {
  /// `items` with every answer that is not yet proven asked again, once, on a fresh connection,
  /// until none is left: an answer that came on a reused connection and equals another
  /// request's answer may be that request's leftover, and is never believed as it came.
  ///
  /// One pass is not enough. A server or proxy that sends an answer twice shifts every later
  /// answer on that connection by one: the request after the copy reads the answer of the
  /// request before it, whose own answer no request had noted yet (that request read the copy).
  /// Asking that request again notes its own answer, and only then does the shifted answer equal
  /// another request's; so the answers are compared again after every round of asking, until a
  /// round asks nothing. An answer on a fresh connection is its request's (no leftover reaches a
  /// new connection), and may equal another's legitimately (stores of one district share their
  /// days): it is believed. Each item is asked again at most once; `reused` gives the request and
  /// the answer's body of an item whose answer came on a reused connection (nil for one whose
  /// answer came on a fresh connection, or that holds none), `again` asks an item's request
  /// again on a fresh connection.
  ///
  /// With a `proof`, a round's items are asked again one after another on one new connection,
  /// closed by the proof's request (``onOneConnection(_:closingWith:_:)``): one connection a
  /// round instead of one an item, and each answer believed as a fresh connection's is. When
  /// the proof fails (its answer is not its own, a request on the lane failed or mismatched),
  /// the round's items are asked again each on a fresh connection of its own, as without one.
  func reaskingRepeats<Item: Sendable>(
    _ items: [Item], proof: LaneProof? = nil, reused: (Item) -> (request: HTTPRequest, body: Data)?,
    again: @escaping @Sendable (SourceSession, Item, HTTPRequest.ConnectionChoice) async -> Item
  ) async -> [Item] {
    var items = items
    var askedAgain = Set<Int>()
    while true {
      let repeating = items.indices.filter { index in
        guard !askedAgain.contains(index), let (request, body) = reused(items[index]) else { return false }
        return answers.repeats(body, answering: request)
      }
      guard !repeating.isEmpty else { return items }
      askedAgain.formUnion(repeating)
      // What the first answers warned about goes with them: the answers asked again warn anew.
      dropWarnings(ofAskings: Set(repeating.compactMap { reused(items[$0]).map { AskedRequest($0.request) } }))
      let reread = await askingAgain(repeating.map { items[$0] }, proof: proof, again)
      for (index, item) in zip(repeating, reread) { items[index] = item }
    }
  }
}
