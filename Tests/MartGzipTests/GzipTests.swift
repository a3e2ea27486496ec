import Foundation
import MartGzip
import Testing

/// gzip: deterministic headers, round trips, and streams that are not whole.
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
