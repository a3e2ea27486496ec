import Foundation
import MartCore
import MartSQLite
import Testing

/// One connection: values go in and come out as they were, a missing database is not created
/// when asked not to, and a file that is no database is set aside for a new one.
@Suite struct SQLiteConnectionTests {
  /// A fresh folder for one test's database files.
  func scratch() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mart-sqlite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func everyKindOfValueComesBackAsItWasStored() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = try SQLiteConnection(path: folder.appendingPathComponent("values.sqlite").path)
    try database.run("CREATE TABLE t (a, b, c, d, e)")
    let stored: [SQLiteValue] = [.null, .integer(-7), .real(2.5), .text("성수점"), .blob(Data([0, 1, 0xFF]))]
    try database.run("INSERT INTO t VALUES (?1, ?2, ?3, ?4, ?5)", stored)
    let rows = try database.rows("SELECT a, b, c, d, e FROM t")
    #expect(rows == [stored])
    #expect(rows[0][1].integer == -7 && rows[0][1].real == -7)
    #expect(rows[0][3].text == "성수점" && rows[0][3].blob == Data("성수점".utf8))
  }

  @Test func aMissingDatabaseIsNotCreatedWhenOnlyAnExistingOneMayBeOpened() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("missing.sqlite").path
    let error = #expect(throws: SQLiteError.self) { try SQLiteConnection(path: path, creating: false) }
    #expect(error?.operation == "open")
    #expect(error?.path == path)
    // A LocatedError at the file: what failed, then SQLite's reason.
    #expect(error?.location == path)
    #expect(error?.reason == "unable to open database file")
    #expect(error?.message == "open failed: unable to open database file")
    #expect(error?.description == "\(path): open failed: unable to open database file")
    #expect(error?.cause == nil)
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test func aFileThatIsNoDatabaseIsSetAsideAndANewOneOpened() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("cache.sqlite").path
    let garbage = Data(repeating: 0x5A, count: 4096)
    try garbage.write(to: URL(fileURLWithPath: path))
    let (database, setAside) = try SQLiteConnection.openSettingAsideDamaged(path: path) {
      (path: String) throws(SQLiteError) -> SQLiteConnection in
      let database = try SQLiteConnection(path: path)
      try database.run("CREATE TABLE IF NOT EXISTS t (a)")
      return database
    }
    let aside = try #require(setAside)
    #expect(aside.hasPrefix(path + ".damaged-"))
    #expect(FileManager.default.contents(atPath: aside) == garbage)
    #expect(try database.rows("SELECT count(*) FROM t") == [[.integer(0)]])
  }
}
