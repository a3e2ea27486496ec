import CZlib
import Foundation
import MartCore
import MartExport
import MartFetch
import MartFiles
import MartGzip
import MartReplay
import Synchronization
import Testing

/// A run's responses kept as a WARC file through real HTTP (libcurl against a server on
/// 127.0.0.1), read back the way a replay reads them; damaged files are refused with an error.
@Suite struct WARCArchiveTests {
  func scratch(_ label: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// A site answering a JSON list, a form post, a gzip-coded page and a 404.
  func site() throws -> LocalHTTPServer {
    let page = Data("<html><body>상봉점 휴무일: 매월 둘째, 넷째 일요일</body></html>".utf8)
    return try LocalHTTPServer { request in
      switch (request.method, request.path) {
      case ("GET", "/list"):
        return ServerResponse(
          headers: [HTTPHeader("Content-Type", "application/json;charset=UTF-8")],
          body: Data(#"{"query":"\#(request.query)"}"#.utf8))
      case ("POST", "/search"):
        return ServerResponse(
          headers: [HTTPHeader("Content-Type", "application/json")],
          body: Data(#"{"form":"\#(String(decoding: request.body, as: UTF8.self))"}"#.utf8))
      case ("GET", "/page"):
        return ServerResponse(
          headers: [HTTPHeader("Content-Type", "text/html; charset=UTF-8"), HTTPHeader("Content-Encoding", "gzip")],
          body: Gzip.compress(page))
      default:
        return .text("not found", status: 404)
      }
    }
  }

  @Test func aWARCArchiveReplaysTheResponsesAsReceived() async throws {
    let server = try site()
    defer { server.stop() }
    let file = try scratch("warc").appendingPathComponent("run.warc.gz")
    let writer = try ArchiveWriter(warcFile: file, recordedOn: "2026-11-20", userAgent: "mart-holiday-test")
    let archiving = ArchivingFetcher(wrapping: CurlHTTPClient(), keeper: writer)
    let requests: [HTTPRequest] = [
      .get(server.baseURL + "/list?year=2026&month=11"),
      .postForm(server.baseURL + "/search", fields: [("jMode", "true"), ("searchType", "EM")]),
      .get(server.baseURL + "/page"),
      .get(server.baseURL + "/missing"),
    ]
    var live: [HTTPResponse] = []
    for request in requests { live.append(try await archiving.fetch(request)) }
    try writer.finish()
    #expect(writer.writeFailures.isEmpty)
    #expect(live.map(\.status) == [200, 200, 200, 404])

    let archive = try ReplayArchive.load(from: file)
    #expect(archive.recordedOn == "2026-11-20")
    #expect(archive.exchanges.map(\.url) == requests.map(\.url))
    #expect(archive.exchanges.map(\.method) == ["GET", "POST", "GET", "GET"])
    #expect(archive.exchanges[1].requestBody == "jMode=true&searchType=EM")
    #expect(archive.exchanges.map(\.status) == live.map(\.status))
    // Bodies as received: the gzip-coded page decoded, as libcurl gave it to the run.
    #expect(archive.exchanges.map(\.body) == live.map(\.body))
    #expect(String(decoding: archive.exchanges[2].body, as: UTF8.self).contains("상봉점"))
    // Headers as received, the coding headers under their own names again.
    #expect(archive.exchanges[2].headers.value(named: "Content-Encoding") == "gzip")
    #expect(archive.exchanges.map(\.headers) == live.map(\.headers))

    // The replay server answers from the file what the site answered.
    for (request, response) in zip(requests, live) {
      #expect(archive.match(request)?.body == response.body, "\(request.url)")
    }
  }

  @Test func eachRecordIsItsOwnGzipMemberAndTheStoredPageIsUncoded() async throws {
    let server = try site()
    defer { server.stop() }
    let file = try scratch("warc-members").appendingPathComponent("run.warc.gz")
    let writer = try ArchiveWriter(warcFile: file, recordedOn: "2026-11-20", userAgent: nil)
    let archiving = ArchivingFetcher(wrapping: CurlHTTPClient(), keeper: writer)
    _ = try await archiving.fetch(.get(server.baseURL + "/page"))
    try writer.finish()
    let members = try Gzip.members(Data(contentsOf: file), atMost: 1 << 20)
    // warcinfo, request, response.
    #expect(members.count == 3)
    let texts = members.map { String(decoding: $0, as: UTF8.self) }
    #expect(texts.allSatisfy { $0.hasPrefix("WARC/1.1\r\n") && $0.hasSuffix("\r\n\r\n") })
    #expect(texts[0].contains("WARC-Type: warcinfo") && texts[0].contains("recordedOn: 2026-11-20"))
    #expect(texts[1].contains("WARC-Type: request") && texts[1].contains("GET /page HTTP/1.1\r\n"))
    #expect(texts[2].contains("WARC-Type: response") && texts[2].contains("X-Archive-Orig-Content-Encoding: gzip"))
    #expect(texts[2].contains("상봉점"))
  }

  /// Every record has its own `WARC-Record-ID`, a random (version 4, RFC 9562 variant) UUID
  /// URN in lower case; a request and its response name each other.
  @Test func recordIDsAreDistinctRandomUUIDs() async throws {
    let server = try site()
    defer { server.stop() }
    let file = try scratch("warc-ids").appendingPathComponent("run.warc.gz")
    let writer = try ArchiveWriter(warcFile: file, recordedOn: "2026-11-20", userAgent: nil)
    let archiving = ArchivingFetcher(wrapping: CurlHTTPClient(), keeper: writer)
    for _ in 0..<20 { _ = try await archiving.fetch(.get(server.baseURL + "/list")) }
    try writer.finish()
    let members = try Gzip.members(Data(contentsOf: file), atMost: 1 << 20).map { String(decoding: $0, as: UTF8.self) }
    let uuidPattern = #/<urn:uuid:([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})>/#
    let ids = try members.map { text in
      let id = try #require(text.firstMatch(of: #/WARC-Record-ID: (\S+)\r\n/#)?.1, "\(text.prefix(300))")
      let uuid = try #require(String(id).wholeMatch(of: uuidPattern)?.1, "\(id)")
      #expect(UUID(uuidString: String(uuid)) != nil)
      return String(id)
    }
    #expect(ids.count == 41)
    #expect(Set(ids).count == ids.count)
    for pair in stride(from: 1, to: members.count, by: 2) {
      #expect(members[pair].contains("WARC-Concurrent-To: \(ids[pair + 1])"))
      #expect(members[pair + 1].contains("WARC-Concurrent-To: \(ids[pair])"))
    }
  }

  @Test func aRequestAnsweredTwiceReplaysWithTheLastAnswer() async throws {
    let count = CountingBox()
    let server = try LocalHTTPServer { _ in .text("answer \(count.next())") }
    defer { server.stop() }
    let file = try scratch("warc-twice").appendingPathComponent("run.warc.gz")
    let writer = try ArchiveWriter(warcFile: file, recordedOn: "2026-11-20", userAgent: nil)
    let archiving = ArchivingFetcher(wrapping: CurlHTTPClient(), keeper: writer)
    let request = HTTPRequest.get(server.baseURL + "/list")
    _ = try await archiving.fetch(request)
    let last = try await archiving.fetch(request)
    try writer.finish()
    #expect(String(decoding: last.body, as: UTF8.self) == "answer 2")
    #expect(try ReplayArchive.load(from: file).match(request)?.body == last.body)
  }

  @Test func aDamagedOrForeignFileIsOneClearError() async throws {
    let server = try site()
    defer { server.stop() }
    let folder = try scratch("warc-damaged")
    let good = folder.appendingPathComponent("good.warc.gz")
    let writer = try ArchiveWriter(warcFile: good, recordedOn: "2026-11-20", userAgent: nil)
    let archiving = ArchivingFetcher(wrapping: CurlHTTPClient(), keeper: writer)
    _ = try await archiving.fetch(.get(server.baseURL + "/list"))
    try writer.finish()
    let bytes = try Data(contentsOf: good)
    let plain = Data(try Gzip.members(bytes, atMost: 1 << 20).joined())
    let plainText = String(decoding: plain, as: UTF8.self)
    let lengthCut = plainText.replacingOccurrences(of: "Content-Length: ", with: "Content-Length: 9")

    let cases: [(String, Data, String)] = [
      ("cut.warc.gz", bytes.prefix(bytes.count - 7), "gzip member"),
      ("garbage.warc.gz", bytes + Data("not gzip".utf8), "gzip member"),
      ("text.warc", Data("<html>hello</html>\n".utf8), "not a WARC file"),
      ("empty.warc", Data(), "holds no record"),
      ("long.warc", Data(lengthCut.utf8), "is cut short"),
      ("bomb.warc.gz", Self.gzipBomb(mebibytes: 257, of: 0x57), "more than"),
    ]
    for (name, data, expected) in cases {
      let file = folder.appendingPathComponent(name)
      try data.write(to: file)
      let error = #expect(throws: FileError.self) { try ReplayArchive.load(from: file) }
      #expect(error?.location == file.path, "\(name)")
      #expect(error?.description.contains(expected) == true, "\(name): \(error?.description ?? "")")
    }
  }
}

extension WARCArchiveTests {
  /// One gzip member that inflates to `mebibytes` MiB of `byte`, as gzip writes it, made from one
  /// deflated MiB: the MiB is compressed once and ended by a full flush (byte-aligned, nothing
  /// carried over), so the same deflate bytes stand for every MiB. Deflating the whole of
  /// 256 MiB was most of its test's time.
  static func gzipBomb(mebibytes: Int, of byte: UInt8) -> Data {
    let piece = [UInt8](repeating: byte, count: 1 << 20)
    var stream = z_stream()
    let started = deflateInit2_(
      &stream, 9, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
    precondition(started == Z_OK)
    defer { deflateEnd(&stream) }
    func deflated(_ input: [UInt8], flush: Int32) -> [UInt8] {
      var input = input
      // A MiB of one byte deflates to about a kilobyte.
      var output = [UInt8](repeating: 0, count: 64 << 10)
      let written = input.withUnsafeMutableBufferPointer { input in
        output.withUnsafeMutableBufferPointer { output in
          stream.next_in = input.baseAddress
          stream.avail_in = UInt32(input.count)
          stream.next_out = output.baseAddress
          stream.avail_out = UInt32(output.count)
          let status = deflate(&stream, flush)
          precondition(status != Z_STREAM_ERROR && stream.avail_in == 0 && stream.avail_out > 0)
          return output.count - Int(stream.avail_out)
        }
      }
      return Array(output.prefix(written))
    }
    let block = deflated(piece, flush: Z_FULL_FLUSH)
    let end = deflated([], flush: Z_FINISH)
    let pieceCRC = piece.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
    var crc = crc32(0, nil, 0)
    for _ in 0..<mebibytes { crc = crc32_combine(crc, pieceCRC, 1 << 20) }
    var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
    for _ in 0..<mebibytes { member += block }
    member += end
    for value in [UInt32(truncatingIfNeeded: crc), UInt32(truncatingIfNeeded: mebibytes << 20)] {
      member += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
    return Data(member)
  }

  /// The bomb is what it says: a gzip member that inflates to the bytes asked for, CRC and all.
  @Test func theGzipBombInflatesToWhatItSays() throws {
    let bomb = Self.gzipBomb(mebibytes: 3, of: 0x57)
    #expect(bomb.count < 10_000)
    #expect(try Gzip.decompress(bomb, atMost: 3 << 20) == Data(repeating: 0x57, count: 3 << 20))
  }
}

/// Counts the answers of a test server.
final class CountingBox: Sendable {
  private let count = Mutex(0)
  func next() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
}
