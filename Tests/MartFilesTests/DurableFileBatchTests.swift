import Foundation
import MartCore
@testable import MartFiles
import Testing

/// `DurableFileBatch`: files appear whole under their names only when the batch is made
/// durable, new ones without a temporary name, replaced ones by a rename that never writes an
/// existing file in place; what is not yet named when the batch ends early is gone.
@Suite struct DurableFileBatchTests {
  func temporaryDirectory() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("batch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
  }

  func names(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  }

  func inode(_ path: String) throws -> (inode: UInt64, links: UInt64) {
    var status = stat()
    try #require(lstat(path, &status) == 0, "lstat \(path): \(String(cString: strerror(errno)))")
    return (UInt64(status.st_ino), UInt64(status.st_nlink))
  }

  /// Nothing is under its name before `finish`; after it every file holds its bytes, and no
  /// hidden temporary is left beside them. On the disk and on a tmpfs (`/dev/shm`).
  @Test(arguments: ["disk", "tmpfs"])
  func newFilesAppearWholeAtFinish(_ filesystem: String) throws {
    let root =
      filesystem == "disk" ? try temporaryDirectory() : "/dev/shm/batch-\(UUID().uuidString)"
    try Files.createDirectory(root + "/branches")
    defer { if filesystem == "tmpfs" { Files.remove(root) } }
    let batch = DurableFileBatch(root: root, batchSize: 100)
    let files = (1...12).map { ("\(root)/branches/emart-\($0).json", Data("{\"id\":\($0)}\n".utf8)) }
    for (path, data) in files { try batch.add(path, with: data) }
    #expect(try names(root + "/branches") == [])
    try batch.finish()
    #expect(try names(root + "/branches") == files.map { ($0.0 as NSString).lastPathComponent }.sorted())
    for (path, data) in files {
      #expect(PlainFiles.contents(of: path) == data, "\(path)")
      #expect(try inode(path).links == 1)
    }
  }

  /// With a batch of 5, the first ten of twelve files are named as the batch fills, the last
  /// two at `finish`.
  @Test func aFullBatchIsNamedBeforeTheNextFile() throws {
    let root = try temporaryDirectory()
    let batch = DurableFileBatch(root: root, batchSize: 5)
    for index in 1...12 { try batch.add("\(root)/\(index).json", with: Data("\(index)".utf8)) }
    #expect(try names(root).count == 10)
    try batch.finish()
    #expect(try names(root).count == 12)
    #expect(PlainFiles.contents(of: root + "/12.json") == Data("12".utf8))
  }

  /// A file that replaces one gets a new inode: the old file, which has another name (as a
  /// bundle's calendar has), keeps its bytes.
  @Test func aReplacedFileIsNeverWrittenInPlace() throws {
    let root = try temporaryDirectory()
    try Files.write(Data("old".utf8), to: root + "/bundle.ics")
    try #require(link(root + "/bundle.ics", root + "/current.ics") == 0)
    let batch = DurableFileBatch(root: root)
    try batch.add(root + "/current.ics", with: Data("new".utf8))
    #expect(PlainFiles.contents(of: root + "/current.ics") == Data("old".utf8))
    try batch.finish()
    #expect(PlainFiles.contents(of: root + "/current.ics") == Data("new".utf8))
    #expect(PlainFiles.contents(of: root + "/bundle.ics") == Data("old".utf8))
    #expect(try inode(root + "/bundle.ics").links == 1)
    #expect(try names(root) == ["bundle.ics", "current.ics"])
  }

  /// `sameAs` makes the path a second name of the original, over a file that was there.
  @Test func sameAsLinksOverAnExistingFile() throws {
    let root = try temporaryDirectory()
    try Files.write(Data("bundle's".utf8), to: root + "/bundle.ics")
    try Files.write(Data("stale".utf8), to: root + "/current.ics")
    let batch = DurableFileBatch(root: root)
    try batch.add(root + "/current.ics", sameAs: root + "/bundle.ics")
    try batch.finish()
    #expect(PlainFiles.isSameFile(root + "/current.ics", root + "/bundle.ics"))
    #expect(try names(root) == ["bundle.ics", "current.ics"])
  }

  /// A symbolic link at the path is not replaced and nothing is written through it; the error
  /// names the path.
  @Test func aSymbolicLinkIsNeitherReplacedNorFollowed() throws {
    let root = try temporaryDirectory()
    let outside = try temporaryDirectory()
    try Files.write(Data("private".utf8), to: outside + "/secret")
    try FileManager.default.createSymbolicLink(atPath: root + "/branch.json", withDestinationPath: outside + "/secret")
    let batch = DurableFileBatch(root: root)
    try batch.add(root + "/branch.json", with: Data("ours".utf8))
    let error = #expect(throws: FileError.self) { try batch.finish() }
    #expect(error?.location == root + "/branch.json")
    #expect(PlainFiles.contents(of: outside + "/secret") == Data("private".utf8))
    #expect(Files.kind(at: root + "/branch.json") == .symbolicLink)
    #expect(try names(root) == ["branch.json"])
  }

  /// A batch released before `finish` leaves nothing: no name, no temporary (a replacement is
  /// written under one), the files that were there untouched.
  @Test func aBatchNotFinishedLeavesNothing() throws {
    let root = try temporaryDirectory()
    try Files.write(Data("kept".utf8), to: root + "/existing.json")
    try Files.write(Data("bundle".utf8), to: root + "/bundle.ics")
    do {
      let batch = DurableFileBatch(root: root)
      try batch.add(root + "/new.json", with: Data("new".utf8))
      try batch.add(root + "/existing.json", with: Data("replaced".utf8))
      try batch.add(root + "/existing.json", sameAs: root + "/bundle.ics")
    }
    #expect(try names(root) == ["bundle.ics", "existing.json"])
    #expect(PlainFiles.contents(of: root + "/existing.json") == Data("kept".utf8))
    #expect(try inode(root + "/bundle.ics").links == 1)
  }

  /// Where no file can be unnamed, each is written at its hidden temporary name and renamed at
  /// the barrier: the same files appear, a replaced one gets a new inode, and an unfinished batch
  /// leaves no temporary behind.
  @Test func withoutUnnamedFilesTemporariesAreRenamedIn() throws {
    let root = try temporaryDirectory()
    try Files.write(Data("old".utf8), to: root + "/bundle.ics")
    try #require(link(root + "/bundle.ics", root + "/current.ics") == 0)
    let batch = DurableFileBatch(root: root, batchSize: 100, writesUnnamedFiles: false)
    try batch.add(root + "/new.json", with: Data("new".utf8))
    try batch.add(root + "/current.ics", with: Data("replaced".utf8))
    // Before the barrier: the temporaries, under their hidden names, and nothing else new.
    #expect(
      try names(root)
        == [".current.ics.\(getpid())", ".new.json.\(getpid())", "bundle.ics", "current.ics"].sorted())
    try batch.finish()
    #expect(try names(root) == ["bundle.ics", "current.ics", "new.json"])
    #expect(PlainFiles.contents(of: root + "/new.json") == Data("new".utf8))
    #expect(PlainFiles.contents(of: root + "/current.ics") == Data("replaced".utf8))
    #expect(PlainFiles.contents(of: root + "/bundle.ics") == Data("old".utf8))

    do {
      let unfinished = DurableFileBatch(root: root, batchSize: 100, writesUnnamedFiles: false)
      try unfinished.add(root + "/later.json", with: Data("later".utf8))
    }
    #expect(try names(root) == ["bundle.ics", "current.ics", "new.json"])
  }
}
