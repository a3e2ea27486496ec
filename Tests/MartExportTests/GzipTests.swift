import Foundation
import MartCore
import MartFiles
import Testing

@testable import MartExport

@Suite struct GzipTests {
  @Test func deterministicHeaderAndRoundTrip() throws {
    let data = Data(String(repeating: "{\"id\":\"emart-1059\",\"name\":\"창원점\"}", count: 200).utf8)
    let compressed = Gzip.compress(data)
    #expect(Array(compressed.prefix(3)) == [0x1F, 0x8B, 0x08])
    #expect(compressed[3] == 0, "no file name, comment or extra field")
    #expect(Array(compressed[4..<8]) == [0, 0, 0, 0], "modification time 0")
    #expect(compressed.count < data.count / 10)
    #expect(Gzip.compress(data) == compressed)
    #expect(try Gzip.decompress(compressed) == data)
    #expect(try Gzip.decompress(Gzip.compress(Data())) == Data())
  }

  @Test func rejectsATruncatedStream() {
    let compressed = Gzip.compress(Data(String(repeating: "closing days ", count: 100).utf8))
    #expect(throws: Gzip.Failure.self) { try Gzip.decompress(compressed.prefix(compressed.count - 5)) }
    #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Data("not gzip".utf8)) }
  }
}

/// The gzip copy made on its own queue: the same bytes as compressing the whole file, and a
/// write that fails on that queue still fails the file.
@Suite struct GzipStreamTests {
  func temporaryFile(_ name: String) throws -> (path: String, file: WritableFile) {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gzip-stream-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent(name).path
    return (path, try WritableFile(creating: path))
  }

  /// Pieces of every size, many pieces in flight: the bytes are `Gzip.compress` of the whole.
  @Test func theQueuedCopyIsTheWholeFileCompressed() throws {
    let text = (0..<40_000).map { "{\"id\":\"emart-\($0)\",\"name\":\"\($0 % 97)호점\"}" }.joined(separator: ",")
    let data = Data(text.utf8)
    let (path, file) = try temporaryFile("branches.json.gz")
    let gzip = GzipStream(into: BundleFileStream(path: path, file: file))
    var offset = 0
    var size = 1
    while offset < data.count {
      let end = min(data.count, offset + size)
      try data[offset..<end].withUnsafeBytes { try gzip.write($0) }
      offset = end
      size = size * 7 % 100_003 + 1
    }
    let finished = try gzip.finish()
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(written == Gzip.compress(data))
    #expect(finished.first?.bytes == written.count)
  }

  /// A disk that is full (`/dev/full`) fails the gzip copy with the file's path and `ENOSPC`,
  /// not silently.
  @Test func aWriteThatFailsOnTheQueueFailsTheFile() throws {
    try #require(FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here")
    let gzip = GzipStream(into: BundleFileStream(path: "full/branches.json.gz", file: try WritableFile(creating: "/dev/full")))
    let noise = Data((0..<(4 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
    do {
      for start in stride(from: 0, to: noise.count, by: 65_536) {
        try noise[start..<(start + 65_536)].withUnsafeBytes { try gzip.write($0) }
      }
      _ = try gzip.finish()
      Issue.record("writing to a full disk did not fail")
    } catch let error as ExportError {
      #expect(error.path == "/dev/full")
      #expect(error.message.contains("write failed"), "\(error.message)")
      #expect(error.errorNumber == ENOSPC && error.isOutOfSpace)
    } catch {
      Issue.record("not an ExportError: \(error)")
    }
  }
}
