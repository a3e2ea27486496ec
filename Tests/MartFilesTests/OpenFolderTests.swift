import Foundation
import Testing

@testable import MartFiles

/// `OpenFolder`: files looked at, made and linked by their names in a folder held open, with the
/// same refusals as by whole paths.
@Suite struct OpenFolderTests {
  func folder(_ name: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("open-folder-\(UUID().uuidString)/\(name)")
      .path
    try Files.createDirectory(path)
    return path
  }

  @Test func aMissingFolderOrAFileDoesNotOpen() throws {
    let root = try folder("a")
    #expect(OpenFolder(root + "/missing") == nil)
    try Files.write(Data("x".utf8), to: root + "/file")
    #expect(OpenFolder(root + "/file") == nil)
  }

  /// A calendar linked from one folder into another is the same inode under both names; a
  /// symbolic link is not followed.
  @Test func aFileIsLinkedBetweenFoldersAndLinksAreNotFollowed() throws {
    let sourcePath = try folder("bundle/calendars")
    let targetPath = try folder("current/calendars")
    try Files.write(Data("BEGIN:VCALENDAR\r\n".utf8), to: sourcePath + "/emart-1001.ics")
    symlink(sourcePath + "/emart-1001.ics", sourcePath + "/link.ics")
    let source = try #require(OpenFolder(sourcePath))
    let target = try #require(OpenFolder(targetPath))

    #expect(try target.hardLink("emart-1001.ics", in: source, as: "emart-1001.ics"))
    #expect(PlainFiles.isSameFile(targetPath + "/emart-1001.ics", sourcePath + "/emart-1001.ics"))
    // The name is taken now: an error naming it, not a second file.
    #expect(throws: FileError.self) { try target.hardLink("emart-1001.ics", in: source, as: "emart-1001.ics") }
    // A symbolic link is neither linked nor followed, and nothing is left under the name.
    #expect(throws: FileError.self) { try target.hardLink("link.ics", in: source, as: "link.ics") }
    #expect(Files.kind(at: targetPath + "/link.ics") == nil)
  }

  /// An unnamed file has no name in the folder until it is given one.
  @Test func anUnnamedFileAppearsOnlyWhenNamed() throws {
    let path = try folder("branches")
    let folder = try #require(OpenFolder(path))
    let file = try #require(folder.unnamedFile(for: path + "/emart-1001.json"))
    try file.write(Data("{}\n".utf8))
    #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
    #expect(folder.name(file, as: "emart-1001.json"))
    try file.close()
    #expect(PlainFiles.contents(of: path + "/emart-1001.json") == Data("{}\n".utf8))
  }
}
