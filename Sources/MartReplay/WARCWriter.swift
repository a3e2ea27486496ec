import Foundation
import MartCore
import MartDigest
import MartGzip
import MartFetch
import MartFiles
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A WARC 1.1 file (ISO 28500:2017) written record by record as responses arrive: a
/// `warcinfo` record first, then a `request` and a `response` record per exchange, each record
/// its own gzip member, so the file up to any record's end is a valid archive. See
/// `docs/recordings.md` for what the records hold.
///
/// Records are written in chunks of about ``chunkSize`` bytes (a run of thousands of small
/// exchanges makes a few dozen writes, not thousands), and nothing is flushed while writing;
/// ``finish()`` writes the rest and makes the file durable once, when its run ends. A run killed
/// before then leaves a partial archive, which is never replayed (see `docs/recordings.md`).
public final class WARCWriter: Sendable {
  /// The file being written.
  public let file: URL
  /// The `WARC-Record-ID` of the `warcinfo` record, named by every other record.
  let warcinfoID: String
  /// The `User-Agent` the transport sends with every request (recorded in request records).
  let userAgent: String?
  /// What the records are dated by: the run's clock.
  let clock: any FetchClock
  private let output: Mutex<Output>
  /// One compressor for every record, its tables allocated once.
  private let compressor = Mutex(Gzip.Compressor(level: compressionLevel))

  /// The gzip level of each record (libdeflate): the fastest, for a file written while the run
  /// fetches. On the 6,600 records of a 5,000-branch run (11.1 MB, 2026-11-27) level 1 makes
  /// 5.15 MB in 0.07 s of CPU, level 6 4.99 MB in 0.11 s: 3 % larger for a third less time.
  static let compressionLevel: Int32 = 1

  /// The file, the records compressed but not yet written to it, and what could not be.
  private struct Output {
    var file: WritableFile?
    var pending = Data()
    /// The target URIs of the exchanges in `pending`.
    var pendingExchanges: [String] = []
    /// The bytes of whole records in the file.
    var written = 0
    /// The exchanges that are not in the file (`<URI>: <reason>`), in order.
    var unwritten: [String] = []
  }

  /// About how many bytes of compressed records are written at once.
  static let chunkSize = 256 << 10

  /// The `warcinfo` field holding the run's date in Korea.
  static let recordedOnField = "recordedOn"

  /// Creates `file` (emptying one that is there; a symbolic link is not followed) and writes its
  /// `warcinfo` record: the software, the format, and `recordedOn` (`YYYY-MM-DD`, the run's
  /// date in Korea, which a replay without `--as-of` uses). Records are dated by `clock`.
  public init(
    creating file: URL, recordedOn: String, userAgent: String? = nil, clock: any FetchClock = SystemFetchClock()
  ) throws(FileError) {
    self.file = file
    self.clock = clock
    self.userAgent = userAgent
    warcinfoID = Self.newRecordID()
    output = Mutex(Output(file: try WritableFile(creating: file.path)))
    let fields: [(String, String)] = [
      ("software", "\(MartVersion.productToken)/\(MartVersion.current)"),
      ("format", "WARC File Format 1.1"),
      ("conformsTo", "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"),
      ("description", "Responses received by a mart-holiday run."),
      (Self.recordedOnField, recordedOn),
    ]
    let record = WARCRecord(
      fields: [
        ("WARC-Type", "warcinfo"), ("WARC-Record-ID", warcinfoID), ("WARC-Date", Self.warcDate(clock.date)),
        ("WARC-Filename", file.lastPathComponent), ("Content-Type", "application/warc-fields"),
      ], block: Data(fields.map { "\($0.0): \($0.1)\r\n" }.joined().utf8))
    try write([record])
  }

  /// Appends the `request` and `response` records of one exchange, as two gzip members written
  /// together, so the records of concurrent exchanges never interleave. They are dated `date`,
  /// by default the clock's time now.
  public func append(_ request: HTTPRequest, _ response: HTTPResponse, receivedAt date: Date? = nil)
    throws(FileError)
  {
    let requestID = Self.newRecordID()
    let responseID = Self.newRecordID()
    let warcDate = Self.warcDate(date ?? clock.date)
    let (head, body) = WARCHTTPMessage.responseBlock(response)
    try write(exchange: request.url, [
      WARCRecord(
        fields: [
          ("WARC-Type", "request"), ("WARC-Record-ID", requestID), ("WARC-Date", warcDate),
          ("WARC-Target-URI", request.url), ("WARC-Warcinfo-ID", warcinfoID), ("WARC-Concurrent-To", responseID),
          ("Content-Type", "application/http;msgtype=request"),
        ], block: WARCHTTPMessage.requestBlock(request, userAgent: userAgent)),
      WARCRecord(
        fields: [
          ("WARC-Type", "response"), ("WARC-Record-ID", responseID), ("WARC-Date", warcDate),
          ("WARC-Target-URI", request.url), ("WARC-Warcinfo-ID", warcinfoID), ("WARC-Concurrent-To", requestID),
          ("Content-Type", "application/http;msgtype=response"),
          ("WARC-Payload-Digest", "sha256:" + SHA256.hex(body)),
        ], block: head + body),
    ])
  }

  /// Writes what is pending, flushes the file to disk and closes it. Call once, when the run
  /// ends.
  public func finish() throws(FileError) {
    try output.withLock { (output: inout Output) throws(FileError) in
      guard let open = output.file else { return }
      output.file = nil
      Self.writePending(&output, to: open)
      try open.flush()
      try open.close()
    }
  }

  /// Every exchange not in the file, as `<URI>: <reason>`: those of a chunk whose write failed
  /// (the file is then cut back to its last whole record, so it always ends on one).
  public var unwritten: [String] { output.withLock { $0.unwritten } }

  /// Writes `output.pending`; when that fails, cuts the file back to its whole records and
  /// counts the pending exchanges as unwritten.
  private static func writePending(_ output: inout Output, to file: WritableFile) {
    defer {
      output.pending.removeAll(keepingCapacity: true)
      output.pendingExchanges.removeAll(keepingCapacity: true)
    }
    do {
      try file.write(output.pending)
      output.written += output.pending.count
    } catch {
      var reason = "\(error)"
      do { try file.cut(to: output.written) } catch { reason += "; \(error)" }
      output.unwritten += output.pendingExchanges.map { "\($0): \(reason)" }
    }
  }

  /// Compresses `records` (outside the file's lock) and appends them together, so the records
  /// of concurrent exchanges never interleave; a full chunk is written. `exchange` is the URI
  /// of the exchange they keep, if any.
  private func write(exchange: String? = nil, _ records: [WARCRecord]) throws(FileError) {
    var members = Data()
    let serialized = records.map { $0.serialized() }
    compressor.withLock { compressor in
      for record in serialized { members += compressor.compress(record) }
    }
    try output.withLock { (output: inout Output) throws(FileError) in
      guard let file = output.file else {
        throw FileError(.invalid, path: self.file.path, message: "write failed: already finished")
      }
      output.pending += members
      if let exchange { output.pendingExchanges.append(exchange) }
      guard output.pending.count >= Self.chunkSize else { return }
      Self.writePending(&output, to: file)
    }
  }

  /// `<urn:uuid:…>`: a random (version 4) UUID, lower-case. Its 122 random bits come from the
  /// system's generator (`getrandom`), without Foundation's `UUID`, which opens and reads
  /// `/dev/urandom` for each one: two per exchange.
  static func newRecordID() -> String {
    var generator = SystemRandomNumberGenerator()
    var bytes = withUnsafeBytes(of: (generator.next() as UInt64, generator.next() as UInt64)) { Array($0) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
    bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC 9562 variant
    let digits: StaticString = "0123456789abcdef"
    return String(unsafeUninitializedCapacity: 47) { text in
      var count = 0
      func put(_ byte: UInt8) {
        text[count] = byte
        count += 1
      }
      for byte in "<urn:uuid:".utf8 { put(byte) }
      for (index, byte) in bytes.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 { put(UInt8(ascii: "-")) }
        put(digits.utf8Start[Int(byte >> 4)])
        put(digits.utf8Start[Int(byte & 0x0F)])
      }
      put(UInt8(ascii: ">"))
      return count
    }
  }


  /// `2026-11-20T01:02:03Z`: the UTC second of `date` (W3C date and time, as WARC 1.1 asks).
  static func warcDate(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }
}

/// One WARC record: its named fields (without `WARC-Block-Digest` and `Content-Length`, which
/// are computed from the block) and its block.
struct WARCRecord {
  var fields: [(String, String)]
  var block: Data

  /// `WARC/1.1`, the fields, `WARC-Block-Digest`, `Content-Length`, a blank line, the block and
  /// the two line ends that close a record.
  func serialized() -> Data {
    var head: [UInt8] = []
    head.reserveCapacity(640)
    head += "WARC/1.1\r\n".utf8
    for (name, value) in fields {
      head += name.utf8
      head += ": ".utf8
      head += value.utf8
      head += "\r\n".utf8
    }
    head += "WARC-Block-Digest: sha256:".utf8
    head += SHA256.hex(block).utf8
    head += "\r\nContent-Length: ".utf8
    head += String(block.count).utf8
    head += "\r\n\r\n".utf8
    var bytes = Data(capacity: head.count + block.count + 4)
    bytes.append(contentsOf: head)
    bytes.append(block)
    bytes.append(contentsOf: "\r\n\r\n".utf8)
    return bytes
  }
}
