import Foundation
import MartCore
import MartFiles
import SystemPackage
import Testing

/// What a `FileError` says and carries: the path, what failed, and its cause chain; and what
/// `Files.kind(at:)` answers for a link, followed or not.
@Suite struct FileErrorTests {
  func temporaryDirectory() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("file-error-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
  }

  /// A failed system call is the cause: its words end the line, and its number is found down the
  /// chain of an error that wraps it.
  @Test func theSystemErrorIsTheCauseAndFoundDownTheChain() throws {
    let root = try temporaryDirectory()
    let error = try #require(throws: FileError.self) {
      try Files.syncFile(root + "/missing.json")
    }
    #expect(error.errno == .noSuchFileOrDirectory)
    #expect(error.description == "\(root)/missing.json: cannot open: \(String(cString: strerror(ENOENT)))")
    #expect(error.reason == String(cString: strerror(ENOENT)))

    let wrapped = FileError(.read, path: root + "/bundle", message: "cannot read the bundle", cause: error)
    #expect(wrapped.causes.count == 2)
    #expect(wrapped.errno == .noSuchFileOrDirectory)
    #expect(wrapped.description.hasPrefix("\(root)/bundle: cannot read the bundle: \(root)/missing.json: cannot open"))
  }

  /// An error about the content has no system error: its reason is its message.
  @Test func contentAtFaultHasNoSystemError() {
    let error = FileError(.malformed, path: "output/latest.json", message: "not a valid LatestPointer")
    #expect(error.errno == nil)
    #expect(error.reason == "not a valid LatestPointer")
    #expect(error.description == "output/latest.json: not a valid LatestPointer")
    #expect(error.code == .malformed && error.code != .read)
  }

  /// A link is a link unless the caller asks where it leads; a link leading nowhere is nothing
  /// there when followed.
  @Test func aLinkIsFollowedOnlyWhenAsked() throws {
    let root = try temporaryDirectory()
    try FileManager.default.createDirectory(atPath: root + "/folder", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/folder")
    try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: root + "/nowhere")
    #expect(Files.kind(at: root + "/link") == .symbolicLink)
    #expect(Files.kind(at: root + "/link", followingLinks: true) == .directory)
    #expect(Files.kind(at: root + "/dangling") == .symbolicLink)
    #expect(Files.kind(at: root + "/dangling", followingLinks: true) == nil)
    #expect(Files.exists(root + "/link"))
    #expect(!Files.exists(root + "/dangling"))
  }

  /// Newest first by modification time, equal times by name (newest name first), hidden names
  /// left out, each with what it leads to.
  @Test func newestFirstOrdersByTimeThenName() throws {
    let root = try temporaryDirectory()
    let day = Date(timeIntervalSince1970: 1_790_000_000)
    for (name, offset) in [("old", 0.0), ("b", 60), ("a", 60), (".hidden", 120)] {
      try Files.write(Data(name.utf8), to: root + "/" + name)
      try FileManager.default.setAttributes(
        [.modificationDate: day.addingTimeInterval(offset)], ofItemAtPath: root + "/" + name)
    }
    let entries = PlainFiles.newestFirst(in: root)
    #expect(entries.map(\.name) == ["b", "a", "old"])
    #expect(entries.allSatisfy { $0.kind == .regularFile })
  }
}
