import Foundation
import MartCore
import MartDigest
import MartGzip
import MartFetch
import MartFiles

/// Reads a WARC file (1.0 or 1.1, gzip members or plain) into the exchanges a replay serves: each
/// `response` record holding an HTTP message (`Content-Type: application/http…`), with the method
/// and body of the `request` record it is concurrent to (`WARC-Concurrent-To`, either way), in
/// file order, so that a request answered twice replays with the answer received last. Other
/// records are skipped. `recordedOn` is the `warcinfo` record's `recordedOn` field, else the date
/// in Korea of the first record's `WARC-Date`.
///
/// A file that is not a WARC, or a damaged one (a truncated gzip member, a record shorter than its
/// `Content-Length`, a malformed HTTP message), is refused with an error naming the file and the
/// record; nothing but the file itself is read.
public enum WARCReader {
  /// The largest file read (a limit against reading a disk image by mistake).
  static let fileLimit = 4 << 30
  /// The most bytes one gzip member may inflate to.
  static let memberLimit = 256 << 20

  /// Whether `file` is named as a WARC file: `*.warc.gz` or `*.warc`.
  public static func isWARCName(_ file: URL) -> Bool {
    let name = file.lastPathComponent.lowercased()
    return name.hasSuffix(".warc.gz") || name.hasSuffix(".warc")
  }

  /// The exchanges of the WARC file at `file`.
  public static func load(from file: URL) throws(FileError) -> ReplayArchive {
    let path = file.path
    let (kind, size) = try Files.status(at: path)
    guard kind == .regularFile else { throw FileError(.foreign, path: path, message: "is not a regular file") }
    guard size <= fileLimit else {
      throw FileError(.read, path: path, message: "is larger than \(fileLimit >> 30) GiB")
    }
    let data: Data
    do { data = try Data(contentsOf: file) } catch {
      throw FileError(.read, path: path, message: "cannot read: \(error.localizedDescription)")
    }
    var stream = data
    if data.starts(with: [0x1F, 0x8B]) {
      do {
        stream = Data()
        for member in try Gzip.members(data, atMost: memberLimit) { stream.append(member) }
      } catch {
        throw FileError(.malformed, path: path, message: "not a readable WARC file", cause: error)
      }
    }
    do {
      return try exchanges(of: records(in: [UInt8](stream)))
    } catch {
      throw FileError(.malformed, path: path, message: error.message)
    }
  }

  /// One record: its fields in order and its block.
  struct Record {
    var number: Int
    var fields: [HTTPHeader]
    var block: ArraySlice<UInt8>

    func field(_ name: String) -> String? { fields.value(named: name) }
    /// Every value of a field that may repeat (`WARC-Concurrent-To`), angle brackets kept.
    func fields(_ name: String) -> [String] {
      fields.filter { $0.name.equalsIgnoringASCIICase(name) }.map(\.value)
    }
  }

  struct ReadError: Error {
    var message: String
    init(_ message: String) { self.message = message }
  }

  /// The records of an uncompressed WARC stream.
  static func records(in bytes: [UInt8]) throws(ReadError) -> [Record] {
    var records: [Record] = []
    var index = 0
    func line() -> String? {
      var end = index
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      guard end < bytes.count else { return nil }
      var lineEnd = end
      if lineEnd > index, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
      defer { index = end + 1 }
      return String(decoding: bytes[index..<lineEnd], as: UTF8.self)
    }
    while true {
      // The two line ends closing the previous record (and any more) come before the next.
      while index < bytes.count, bytes[index] == UInt8(ascii: "\r") || bytes[index] == UInt8(ascii: "\n") { index += 1 }
      guard index < bytes.count else { break }
      let number = records.count + 1
      guard let version = line(), version == "WARC/1.1" || version == "WARC/1.0" else {
        throw ReadError(
          records.isEmpty
            ? "not a WARC file: it does not start with WARC/1.0 or WARC/1.1"
            : "record \(number) does not start with WARC/1.0 or WARC/1.1")
      }
      var fields: [HTTPHeader] = []
      while true {
        guard let field = line() else { throw ReadError("record \(number) ends inside its header") }
        if field.isEmpty { break }
        guard fields.appendFieldLine(field) else {
          throw ReadError("record \(number): the header line \(String(field.prefix(80)).debugDescription) is not name: value")
        }
      }
      guard let lengthText = fields.value(named: "Content-Length"), let length = Int(lengthText), length >= 0 else {
        throw ReadError("record \(number) has no valid Content-Length")
      }
      guard bytes.count - index >= length else {
        throw ReadError("record \(number) is cut short: its Content-Length is \(length), \(bytes.count - index) bytes follow")
      }
      let record = Record(number: number, fields: fields, block: bytes[index..<(index + length)])
      try verifyDigests(of: record)
      records.append(record)
      index += length
    }
    guard !records.isEmpty else { throw ReadError("not a WARC file: it holds no record") }
    return records
  }

  /// Throws unless the record's block has its `WARC-Block-Digest` and a response's payload (the
  /// bytes after the HTTP header of an `application/http` block, not chunked) its
  /// `WARC-Payload-Digest`: an edited or decayed archive must not replay into other closing
  /// days. A digest is required, not only checked where present: the writer (like wget's and
  /// warcio's) gives every record a block digest and every response a payload digest, so a
  /// record without one has had its digest lines deleted, and could carry an edited body. A
  /// digest of an algorithm other than SHA-256 or SHA-1, or written unreadably, is an error too,
  /// since it cannot vouch for anything.
  static func verifyDigests(of record: Record) throws(ReadError) {
    let uri = record.field("WARC-Target-URI").map { " for \($0)" } ?? ""
    func check(_ field: String, _ bytes: ArraySlice<UInt8>) throws(ReadError) {
      guard let label = record.field(field) else {
        throw ReadError(
          "record \(record.number)\(uri): it has no \(field), so nothing vouches for its"
            + " \(field == "WARC-Block-Digest" ? "block" : "payload"); the archive was changed or damaged")
      }
      guard let digest = LabeledDigest(label) else {
        throw ReadError("record \(record.number)\(uri): \(field) \(label) is not a SHA-256 or SHA-1 digest")
      }
      guard digest.matches(bytes) else {
        throw ReadError(
          "record \(record.number)\(uri): its \(field == "WARC-Block-Digest" ? "block" : "payload") does not match its \(field) \(label); the archive was changed or damaged")
      }
    }
    try check("WARC-Block-Digest", record.block)
    let isResponse = record.field("WARC-Type") == "response"
    guard isResponse || record.field("WARC-Payload-Digest") != nil,
      record.field("Content-Type")?.lowercased().hasPrefix("application/http") == true,
      let headerEnd = record.block.firstRange(of: [13, 10, 13, 10])
    else { return }
    let header = String(decoding: record.block[..<headerEnd.lowerBound], as: UTF8.self).lowercased()
    guard !header.contains("transfer-encoding: chunked") else { return }
    try check("WARC-Payload-Digest", record.block[headerEnd.upperBound...])
  }

  /// The replayable exchanges of `records` (see the type's note).
  static func exchanges(of records: [Record]) throws(ReadError) -> ReplayArchive {
    var recordedOn: String?
    var description: String?
    if let info = records.first(where: { $0.field("WARC-Type") == "warcinfo" }) {
      for line in String(decoding: info.block, as: UTF8.self).split(whereSeparator: \.isNewline) {
        let pair = line.split(separator: ":", maxSplits: 1)
        guard pair.count == 2 else { continue }
        let value = pair[1].trimmingCharacters(in: .whitespaces)
        switch pair[0].trimmingCharacters(in: .whitespaces) {
        case WARCWriter.recordedOnField: recordedOn = value
        case "description": description = value
        default: break
        }
      }
    }
    if recordedOn == nil, let date = records.first?.field("WARC-Date").flatMap(parseDate) {
      recordedOn = KoreanCalendar.today(now: date).iso
    }

    var requests: [String: Record] = [:]
    var requestFor: [String: String] = [:]
    for record in records where record.field("WARC-Type") == "request" {
      guard let id = record.field("WARC-Record-ID") else { continue }
      requests[id] = record
      for response in record.fields("WARC-Concurrent-To") { requestFor[response] = id }
    }
    var exchanges: [RecordedExchange] = []
    for record in records where record.field("WARC-Type") == "response" {
      guard record.field("Content-Type")?.lowercased().hasPrefix("application/http") == true else { continue }
      let number = record.number
      guard var url = record.field("WARC-Target-URI") else {
        throw ReadError("record \(number) (a response) has no WARC-Target-URI")
      }
      if url.hasPrefix("<"), url.hasSuffix(">") { url = String(url.dropFirst().dropLast()) }
      let scheme = url.lowercased()
      guard scheme.hasPrefix("http://") || scheme.hasPrefix("https://") else {
        throw ReadError("record \(number) (a response) has the WARC-Target-URI \(url), not an http(s) URL")
      }
      let received: (status: Int, headers: [HTTPHeader], body: Data)
      do { received = try WARCHTTPMessage.response(WARCHTTPMessage.parse(Data(record.block))) } catch {
        throw ReadError("record \(number) (a response for \(url)): \(error.message)")
      }
      var method = "GET"
      var requestBody: String?
      let requestID =
        record.fields("WARC-Concurrent-To").first { requests[$0] != nil }
        ?? record.field("WARC-Record-ID").flatMap { requestFor[$0] }
      if let requestID, let request = requests[requestID] {
        do {
          let message = try WARCHTTPMessage.parse(Data(request.block))
          method = try WARCHTTPMessage.method(message)
          requestBody = message.body.isEmpty ? nil : String(decoding: message.body, as: UTF8.self)
        } catch {
          throw ReadError("record \(request.number) (a request for \(url)): \(error.message)")
        }
      }
      exchanges.append(
        RecordedExchange(
          method: method, url: url, requestBody: requestBody, status: received.status, headers: received.headers,
          body: received.body))
    }
    return ReplayArchive(exchanges: exchanges, recordedOn: recordedOn, description: description)
  }

  /// A `WARC-Date`: `2026-11-20T01:02:03Z`, with optional fractions of a second.
  static func parseDate(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
  }
}
