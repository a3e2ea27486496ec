import Foundation
import MartCore
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
  /// Pieces of every size, many pieces in flight: the bytes are `Gzip.compress` of the whole.
  @Test func theQueuedCopyIsTheWholeFileCompressed() throws {
    let text = (0..<40_000).map { "{\"id\":\"emart-\($0)\",\"name\":\"\($0 % 97)호점\"}" }.joined(separator: ",")
    let data = Data(text.utf8)
    let gzip = GzipStream(into: BundleFileStream(path: "branches.json.gz"))
    var offset = 0
    var size = 1
    while offset < data.count {
      let end = min(data.count, offset + size)
      try data[offset..<end].withUnsafeBytes { try gzip.write($0) }
      offset = end
      size = size * 7 % 100_003 + 1
    }
    let finished = try #require(try gzip.finish().first)
    #expect(finished.path == "branches.json.gz")
    #expect(finished.data == Gzip.compress(data))
    #expect(finished.bytes == finished.data.count)
  }
}
