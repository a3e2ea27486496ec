import Foundation
import MartCore
import MartFiles
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
      #expect(error.path == "/dev/full")
      #expect(error.errorNumber == ENOSPC)
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
      #expect(error.path.hasPrefix(root + "/blocker"))
      #expect(error.errorNumber != nil)
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
}
