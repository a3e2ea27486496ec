import Foundation
import MartCore
import MartFiles
import SystemPackage
import Testing

/// The files module: what a failure says (the path, and the system's error number, so a full
/// disk is told from a folder that cannot hold the file), and the temporary names a kill leaves.
@Suite struct FilesTests {
  func temporaryDirectory() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
  }

  /// `/dev/full` answers every write with ENOSPC: the error names it and is "out of space".
  @Test func aFullDiskSaysSo() throws {
    try #require(FileManager.default.fileExists(atPath: "/dev/full"), "no /dev/full here")
    do throws(FileError) {
      try Files.write(Data("x".utf8), to: "/dev/full")
      Issue.record("writing to a full disk did not fail")
    } catch {
      #expect(error.location == "/dev/full")
      #expect(error.errno == .noSpace)
      #expect(error.isOutOfSpace)
      #expect(error.description.contains(String(cString: strerror(ENOSPC))), "\(error)")
    }
  }

  /// A file where a folder should be is ENOTDIR, not a full disk, and the message says which.
  @Test func aFileInTheWayIsNotAFullDisk() throws {
    let root = try temporaryDirectory()
    try Files.write(Data("not a folder".utf8), to: root + "/blocker")
    do throws(FileError) {
      try Files.replace(root + "/blocker/report.html", with: Data("<html>".utf8))
      Issue.record("writing under a file did not fail")
    } catch {
      #expect(error.location.hasPrefix(root + "/blocker"))
      #expect(error.errno != nil)
      #expect(!error.isOutOfSpace)
    }
  }

  /// `replace` leaves the new bytes and no temporary beside them; `createDirectory` makes parents.
  @Test func replaceIsWholeAndLeavesNoTemporary() throws {
    let root = try temporaryDirectory()
    let path = root + "/a/b/latest.json"
    try Files.replace(path, with: Data("one".utf8))
    try Files.replace(path, with: Data("two".utf8), syncDirectory: true)
    #expect(PlainFiles.contents(of: path) == Data("two".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a/b") == ["latest.json"])
  }

  /// The temporary name beside a file is `.<name>.<pid>` and is read back as such; other
  /// hidden names are not temporaries.
  @Test func temporaryNamesAreRecognized() {
    let path = Files.temporaryPath(beside: "/out/current/branches/emart-1059.json")
    #expect(path == "/out/current/branches/.emart-1059.json.\(getpid())")
    let name = String(path.split(separator: "/").last!)
    #expect(Files.temporaryProcess(name)?.file == "emart-1059.json")
    #expect(Files.temporaryProcess(name)?.process == getpid())
    #expect(Files.temporaryProcess("emart-1059.json") == nil)
    #expect(Files.temporaryProcess(".hidden") == nil)
    #expect(Files.temporaryProcess(".staging-2026-11-20-12-x") == nil)
  }

  // MARK: Only regular files, never through a link

  /// A file is renamed only over a regular file: a link (to a file elsewhere), a folder, a
  /// pipe or a device there is refused, and what a link leads to is untouched.
  @Test func nothingButARegularFileIsRenamedOver() throws {
    let root = try temporaryDirectory()
    let elsewhere = try temporaryDirectory()
    try Files.write(Data("theirs".utf8), to: elsewhere + "/file")
    try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: elsewhere + "/file")
    try FileManager.default.createDirectory(atPath: root + "/folder", withIntermediateDirectories: false)
    #expect(mkfifo(root + "/pipe", 0o644) == 0)
    for (name, kind) in [("link", "a symbolic link"), ("folder", "a directory"), ("pipe", "a pipe or a socket")] {
      do throws(FileError) {
        try Files.replace(root + "/" + name, with: Data("ours".utf8))
        Issue.record("\(name) was replaced")
      } catch {
        #expect(error.location == root + "/" + name)
        #expect(error.message == "is \(kind), not a regular file: nothing is renamed over it", "\(name)")
      }
      #expect(Files.kind(at: root + "/" + name)?.description == kind)
    }
    #expect(PlainFiles.contents(of: elsewhere + "/file") == Data("theirs".utf8))
    // Nothing is left beside them.
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: root)) == ["link", "folder", "pipe"])
    // A regular file is replaced as before.
    try Files.write(Data("old".utf8), to: root + "/plain")
    try Files.replace(root + "/plain", with: Data("new".utf8))
    #expect(PlainFiles.contents(of: root + "/plain") == Data("new".utf8))
  }

  /// A file created where a link stands is not written through the link.
  @Test func aFileIsNeverCreatedThroughALink() throws {
    let root = try temporaryDirectory()
    let elsewhere = try temporaryDirectory()
    try FileManager.default.createSymbolicLink(atPath: root + "/new.json", withDestinationPath: elsewhere + "/made")
    do throws(FileError) {
      try Files.write(Data("x".utf8), to: root + "/new.json")
      Issue.record("written through a link")
    } catch {
      #expect(error.code == .foreign)
      #expect(error.message.contains("symbolic link"))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
  }

  /// Below a tree's root, a link on the way is found (the root itself may be one); so are a
  /// tree's links, pipes and devices at any depth, hidden folders included.
  @Test func linksBelowATreeRootAreFound() throws {
    let parent = try temporaryDirectory()
    let elsewhere = try temporaryDirectory()
    try FileManager.default.createDirectory(atPath: parent + "/real/current/.hidden", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: parent + "/root", withDestinationPath: parent + "/real")
    try FileManager.default.createSymbolicLink(
      atPath: parent + "/real/current/calendars", withDestinationPath: elsewhere)
    try FileManager.default.createSymbolicLink(
      atPath: parent + "/real/current/.hidden/x.ics", withDestinationPath: elsewhere + "/x.ics")
    try Files.write(Data("x".utf8), to: parent + "/real/current/plain.json")
    let root = parent + "/root"

    try Files.checkNothingForeign(below: root, to: root + "/current/branches/emart-1059.json")
    do throws(FileError) {
      try Files.checkNothingForeign(below: root, to: root + "/current/calendars/brands/emart.ics")
      Issue.record("a link on the way was not found")
    } catch {
      #expect(error.location == root + "/current/calendars")
    }
    let found = PlainFiles.foreignEntries(under: root + "/current")
    #expect(found.map(\.path) == [".hidden/x.ics", "calendars"])
    #expect(found.allSatisfy { $0.kind == .symbolicLink })
    #expect(PlainFiles.entries(under: root + "/current").map(\.path) == [".hidden/x.ics", "calendars", "plain.json"])
  }

  /// A path is resolved through every link of the part that exists; the rest is appended.
  @Test func realPathsResolveLinksOfThePartThatExists() throws {
    let parent = try temporaryDirectory()
    let real = URL(fileURLWithPath: parent).resolvingSymlinksInPath().path
    try FileManager.default.createDirectory(atPath: parent + "/output/private", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: parent + "/state", withDestinationPath: parent + "/output/private")
    #expect(Files.realPath(parent + "/state") == real + "/output/private")
    #expect(Files.realPath(parent + "/state/cache/not-yet/../geo.sqlite") == real + "/output/private/cache/geo.sqlite")
    #expect(Files.isInside(Files.realPath(parent + "/state/cache"), Files.realPath(parent + "/output")))
    #expect(!Files.isInside(Files.realPath(parent + "/output-state"), Files.realPath(parent + "/output")))
    #expect(Files.isInside(real + "/output", real + "/output"))
  }

  // MARK: Hard links

  /// The device, inode and link count of the file at `path` (`lstat`).
  func identity(_ path: String) throws -> (device: UInt64, inode: UInt64, links: UInt64) {
    var status = stat()
    try #require(lstat(path, &status) == 0, "lstat \(path): \(String(cString: strerror(errno)))")
    return (UInt64(status.st_dev), UInt64(status.st_ino), UInt64(status.st_nlink))
  }

  /// A file with the same bytes as the original becomes a second name of it: one inode, two
  /// links, nothing written.
  @Test func aFileWithTheSameBytesIsLinked() throws {
    let root = try temporaryDirectory()
    let bytes = Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)
    try Files.write(bytes, to: root + "/original.ics")
    let linked = try Files.create(root + "/copy.ics", with: bytes, linkingTo: root + "/original.ics")
    #expect(linked)
    let original = try identity(root + "/original.ics")
    let copy = try identity(root + "/copy.ics")
    #expect(copy.device == original.device && copy.inode == original.inode)
    #expect(copy.links == 2)
    #expect(PlainFiles.contents(of: root + "/copy.ics") == bytes)
  }

  /// Other bytes (one byte changed, one byte more, one byte fewer, or empty), a missing
  /// original, or an original reached through a symbolic link: a new file is written.
  @Test func aFileWithOtherBytesOrNoRealOriginalIsWritten() throws {
    let root = try temporaryDirectory()
    let bytes = Data("{\"branches\":[]}\n".utf8)
    try Files.write(bytes, to: root + "/original.json")
    try FileManager.default.createSymbolicLink(atPath: root + "/link.json", withDestinationPath: root + "/original.json")
    var flipped = bytes
    flipped[3] ^= 0x20
    let cases: [(name: String, data: Data, original: String?)] = [
      ("flipped", flipped, root + "/original.json"), ("longer", bytes + Data([0x0A]), root + "/original.json"),
      ("shorter", bytes.dropLast(), root + "/original.json"), ("empty", Data(), root + "/original.json"),
      ("missing", bytes, root + "/nothing.json"), ("none", bytes, nil), ("through-a-link", bytes, root + "/link.json"),
    ]
    let original = try identity(root + "/original.json")
    for example in cases {
      let path = root + "/" + example.name
      let linked = try Files.create(path, with: example.data, linkingTo: example.original)
      #expect(!linked, "\(example.name)")
      #expect(Files.kind(at: path) == .regularFile, "\(example.name)")
      #expect(try identity(path).inode != original.inode, "\(example.name)")
      #expect(PlainFiles.contents(of: path) == example.data, "\(example.name)")
    }
    #expect(try identity(root + "/original.json").links == 1)
    #expect(PlainFiles.contents(of: root + "/original.json") == bytes)
  }

  /// An original on another filesystem cannot be linked (`EXDEV`): the bytes are written.
  /// `/dev/shm` is a tmpfs; the temporary directory is on the disk.
  @Test func anOriginalOnAnotherFilesystemIsCopiedNotLinked() throws {
    let root = try temporaryDirectory()
    let other = "/dev/shm/files-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
    defer { Files.remove(other) }
    let bytes = Data("closures".utf8)
    try Files.write(bytes, to: other + "/original.json")
    try #require(
      try identity(other + "/original.json").device != identity(root).device,
      "/dev/shm and the temporary directory are on one filesystem here")
    #expect(link(other + "/original.json", root + "/probe") == -1 && errno == EXDEV)
    let linked = try Files.create(root + "/copy.json", with: bytes, linkingTo: other + "/original.json")
    #expect(!linked)
    #expect(try identity(root + "/copy.json").links == 1)
    #expect(PlainFiles.contents(of: root + "/copy.json") == bytes)
  }

  /// A file already at the path is never written in place, not even with the original's
  /// bytes: it may be a name of a file another bundle holds.
  @Test func anExistingFileIsNeverWrittenInPlace() throws {
    let root = try temporaryDirectory()
    try Files.write(Data("theirs".utf8), to: root + "/original.ics")
    try #require(link(root + "/original.ics", root + "/shared.ics") == 0)
    for original in [root + "/original.ics", nil] {
      do throws(FileError) {
        try Files.create(root + "/shared.ics", with: Data("ours".utf8), linkingTo: original)
        Issue.record("an existing file was written over")
      } catch {
        #expect(error.errno == .fileExists)
        #expect(error.location == root + "/shared.ics")
      }
    }
    #expect(PlainFiles.contents(of: root + "/original.ics") == Data("theirs".utf8))
    #expect(PlainFiles.contents(of: root + "/shared.ics") == Data("theirs".utf8))
  }

  /// `linkOrCopy` gives a regular file a second name; across filesystems it copies the bytes;
  /// a symbolic link is neither linked nor followed, and a path already taken is an error.
  @Test func linkOrCopyLinksCopiesAcrossFilesystemsAndRefusesLinks() throws {
    let root = try temporaryDirectory()
    let bytes = Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)
    try Files.write(bytes, to: root + "/bundle.ics")
    try Files.linkOrCopy(root + "/bundle.ics", to: root + "/current.ics")
    #expect(PlainFiles.isSameFile(root + "/current.ics", root + "/bundle.ics"))
    #expect(try identity(root + "/bundle.ics").links == 2)

    let other = "/dev/shm/files-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
    defer { Files.remove(other) }
    try Files.linkOrCopy(root + "/bundle.ics", to: other + "/copy.ics")
    #expect(!PlainFiles.isSameFile(other + "/copy.ics", root + "/bundle.ics"))
    #expect(PlainFiles.contents(of: other + "/copy.ics") == bytes)

    let outside = try temporaryDirectory()
    try Data("private".utf8).write(to: URL(fileURLWithPath: outside + "/secret"))
    try FileManager.default.createSymbolicLink(atPath: root + "/link.ics", withDestinationPath: outside + "/secret")
    #expect(throws: FileError.self) { try Files.linkOrCopy(root + "/link.ics", to: root + "/through-link.ics") }
    #expect(Files.kind(at: root + "/through-link.ics") == nil)
    let taken = #expect(throws: FileError.self) { try Files.linkOrCopy(root + "/bundle.ics", to: root + "/current.ics") }
    #expect(taken?.errno == .fileExists)
  }
}
