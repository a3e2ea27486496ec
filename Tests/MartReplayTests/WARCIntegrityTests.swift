import Foundation
import MartCore
import MartExport
import MartFetch
import MartFiles
import MartGzip
import MartReplay
import Testing

/// A WARC file is believed only when its digests agree, and a writer that could not write
/// says how much it lost and leaves whole records.
@Suite struct WARCIntegrityTests {
  let url = "https://my.homeplus.co.kr/store/store_detail?storId=1213"
  let page = Data("<dl class=\"shop_detail_01\"><dd>10:00</dd><dd>매월 둘째, 넷째 수요일 (11/11, 11/25)</dd></dl>".utf8)

  func scratch(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("warc-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent(name)
  }

  /// The uncompressed records of a WARC file written with one exchange.
  func plainArchive() throws -> Data {
    let file = try scratch("run.warc.gz")
    let writer = try WARCWriter(creating: file, recordedOn: "2026-11-20")
    try writer.append(
      .get(url), HTTPResponse(requestURL: url, finalURL: url, status: 200, headers: [], body: page))
    try writer.finish()
    return try Gzip.members(try Data(contentsOf: file), atMost: 1 << 24).reduce(Data(), +)
  }

  func replaceFirst(_ old: String, with new: String, in data: Data) throws -> Data {
    let range = try #require(data.range(of: Data(old.utf8)))
    var changed = data
    changed.replaceSubrange(range, with: Data(new.utf8))
    return changed
  }

  @Test func anIntactArchiveReplays() throws {
    let file = try scratch("intact.warc")
    try plainArchive().write(to: file)
    let archive = try ReplayArchive.load(from: file)
    #expect(archive.exchanges.map(\.body) == [page])
  }

  @Test(arguments: [
    // A closing day edited in the body: the payload and the block no longer match.
    ("11/25", "11/26"),
    // A header of the HTTP message edited: the block no longer matches.
    ("HTTP/1.1 200", "HTTP/1.1 201"),
  ])
  func anEditedRecordIsRefusedNamingTheRecordAndItsURI(old: String, new: String) throws {
    let file = try scratch("edited.warc")
    try replaceFirst(old, with: new, in: try plainArchive()).write(to: file)
    do {
      _ = try ReplayArchive.load(from: file)
      Issue.record("an edited archive was read")
    } catch {
      #expect(error.message.contains("record 3"), "\(error)")
      #expect(error.message.contains(url), "\(error)")
      #expect(error.message.contains("Digest"), "\(error)")
    }
  }

  /// Deleting the digest lines does not make an edited record believed: the writer always
  /// writes them, so a record without them is refused, naming the record and its URI.
  @Test(arguments: [["WARC-Payload-Digest"], ["WARC-Block-Digest"], ["WARC-Block-Digest", "WARC-Payload-Digest"]])
  func anEditedRecordWithoutItsDigestLinesIsRefused(deleted: [String]) throws {
    var text = String(decoding: try replaceFirst("11/25", with: "11/26", in: try plainArchive()), as: UTF8.self)
    // The third record, the response, loses the lines named (each `Name: value\r\n`).
    let responseStart = try #require(text.range(of: "WARC-Type: response"))
    for name in deleted {
      let line = try #require(
        text.range(of: "\(name): [^\r]*\r\n", options: .regularExpression, range: responseStart.lowerBound..<text.endIndex))
      text.removeSubrange(line)
    }
    let file = try scratch("stripped.warc")
    try Data(text.utf8).write(to: file)
    do {
      let archive = try ReplayArchive.load(from: file)
      Issue.record("an edited archive without digests was read: \(archive.exchanges.map(\.body))")
    } catch {
      #expect(error.message.contains("record 3"), "\(error)")
      #expect(error.message.contains(url), "\(error)")
      #expect(error.message.contains("Digest"), "\(error)")
    }
  }

  @Test func aWriterThatCannotWriteCountsEveryExchangeItLost() throws {
    // /dev/full takes the file's creation and refuses every write (ENOSPC).
    let writer = try WARCWriter(creating: URL(fileURLWithPath: "/dev/full"), recordedOn: "2026-11-20")
    let body = Data((0..<6000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
    for store in 0..<150 {
      try writer.append(
        .get(url + "&n=\(store)"),
        HTTPResponse(requestURL: url, finalURL: url, status: 200, headers: [], body: body))
    }
    do { try writer.finish() } catch {
      // A device may refuse the final fsync as well; what was lost is counted either way.
    }
    #expect(writer.unwritten.count == 150)
    #expect(writer.unwritten.allSatisfy { $0.contains("write failed") }, "\(writer.unwritten.prefix(1))")
  }
}
