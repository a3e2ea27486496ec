import Foundation
import MartCore
import MartDigest
import MartGzip
import Testing

@testable import MartExport

/// The gzip copies a bundle's files get, made on a queue of their own while the next file is
/// encoded: each is `Gzip.compress` of its whole file, listed with its own digest and size, and
/// handed to the sink like the file it copies.
@Suite struct BundleOutputCopyTests {
  @Test func eachCopyIsItsWholeFileCompressedAndListed() throws {
    let kept = KeptBundleFiles()
    let output = BundleOutput(sink: kept)
    var contents: [String: Data] = [:]
    let names = ["branches.json", "brands/emart.json", "index.json", "calendars/brands/emart.ics"]
    for (index, name) in names.enumerated() {
      let text = (0..<(5_000 * (index + 1))).map { "{\"id\":\"emart-\($0)\",\"name\":\"\($0 % 97)호점\"}" }
      let data = Data(text.joined(separator: ",").utf8)
      contents[name] = data
      let file = output.open(name, gzip: name.hasSuffix(".json"))
      // Written in pieces of uneven sizes, as the exporters write.
      var offset = 0
      var size = 1
      while offset < data.count {
        let end = min(data.count, offset + size)
        file.write(Array(data[offset..<end]))
        offset = end
        size = size * 7 % 100_003 + 1
      }
      try output.close(file)
    }
    try output.finishCopies()
    let handed = Dictionary(uniqueKeysWithValues: kept.files.map { ($0.path, $0.data) })
    let listed = Dictionary(uniqueKeysWithValues: output.listed.map { ($0.path, $0) })
    #expect(
      Set(handed.keys) == Set(contents.keys).union(contents.keys.filter { $0.hasSuffix(".json") }.map { $0 + ".gz" }))
    for (path, data) in contents {
      #expect(handed[path] == data, "\(path)")
      guard path.hasSuffix(".json") else { continue }
      let copy = try #require(handed[path + ".gz"])
      #expect(copy == Gzip.compress(data), "\(path)")
      #expect(try Gzip.decompress(copy) == data, "\(path)")
      #expect(listed[path + ".gz"]?.sha256 == SHA256.hex(copy), "\(path)")
      #expect(listed[path + ".gz"]?.bytes == copy.count, "\(path)")
    }
  }
}
