import Foundation
import MartReplay
import Testing

/// The one definition of a recording folder: `replay.json` or `*.exchange.json` files, directly or
/// one host folder down; not a folder holding a recording deeper, not a file, not a missing path.
@Suite struct RecordingFolderTests {
  func folder(_ files: [String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("recording-\(UUID().uuidString)")
    for file in files {
      let url = root.appendingPathComponent(file)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("{}".utf8).write(to: url)
    }
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    return root
  }

  @Test(arguments: [
    (["replay.json"], true),
    (["list.exchange.json"], true),
    (["store.emart.com/list.exchange.json"], true),
    (["deep/store.emart.com/list.exchange.json"], false),
    (["notes.txt"], false),
    ([], false),
  ])
  func aRecordingFolderHoldsRecordingsAtMostOneFolderDown(files: [String], expected: Bool) throws {
    #expect(ReplayArchive.isRecordingFolder(try folder(files)) == expected, "\(files)")
  }

  @Test func aFileOrAMissingPathIsNoRecordingFolder() throws {
    let root = try folder(["run.warc.gz"])
    #expect(!ReplayArchive.isRecordingFolder(root.appendingPathComponent("run.warc.gz")))
    #expect(!ReplayArchive.isRecordingFolder(root.appendingPathComponent("missing")))
  }
}
