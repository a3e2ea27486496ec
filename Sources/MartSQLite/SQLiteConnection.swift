import CSQLite
import Foundation
import MartCore

/// A failed SQLite operation: which database (``location``), what was done (``operation``),
/// SQLite's words (``reason``) and result code (``code``).
public struct SQLiteError: LocatedError, Hashable, Sendable {
  /// The database file.
  public var path: String
  /// What was being done: `open`, `prepare <SQL>`, the SQL run, …
  public var operation: String
  /// Why, in SQLite's words (`unable to open database file`), or the system's when the failure
  /// was not SQLite's.
  public var reason: String
  /// SQLite's primary result code, or `nil` when the failure was not SQLite's.
  public var code: Int32?

  public init(path: String, operation: String, reason: String, code: Int32? = nil) {
    self.path = path
    self.operation = operation
    self.reason = reason
    self.code = code
  }

  /// Whether the file itself is at fault: not a database at all, or a corrupt one.
  public var isDamagedFile: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }

  /// The database file.
  public var location: String { path }

  /// What failed and why, without the path: `<operation> failed: <reason>`. SQLite gives its
  /// reason as a code and text, not as an error: this error is the first of its chain.
  public var message: String { "\(operation) failed: \(reason)" }

  /// `<path>: <operation> failed: <reason>`.
  public var description: String { "\(location): \(message)" }
}

/// A value bound to a statement parameter or read from a column.
public enum SQLiteValue: Sendable, Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob(Data)
}

/// One SQLite connection, owning its handle and its prepared statements: each statement is
/// prepared the first time its SQL is run, kept for the next call (a lookup per request costs a
/// step, not a parse), and finalized with the connection, so no SQLite pointer outlives it.
/// Serialized by a lock.
public final class SQLiteConnection: @unchecked Sendable {
  // @unchecked Sendable: the handle and the statements are used only while `lock` is held,
  // opened in `init` and closed in `deinit`.
  private let handle: OpaquePointer
  private let lock = NSLock()
  /// Prepared statements by their SQL.
  private var statements: [String: OpaquePointer] = [:]
  /// The database file.
  public let path: String

  /// Opens (creating if needed) the database at `path`, in write-ahead-log mode. With
  /// `creating: false`, only a database that exists is opened (a missing file is an error, never
  /// created), as it is (its journal mode unchanged).
  public init(path: String, creating: Bool = true) throws(SQLiteError) {
    self.path = path
    var opened: OpaquePointer?
    let status = sqlite3_open_v2(
      path, &opened, SQLITE_OPEN_READWRITE | (creating ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX, nil)
    guard status == SQLITE_OK, let opened else {
      let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(opened)
      throw SQLiteError(path: path, operation: "open", reason: message, code: status & 0xFF)
    }
    handle = opened
    sqlite3_busy_timeout(opened, 5000)
    guard creating else { return }
    _ = try rows("PRAGMA journal_mode = WAL")
    try run("PRAGMA synchronous = NORMAL")
  }

  deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close_v2(handle)
  }

  /// Runs a statement that returns no rows.
  public func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) {
    _ = try rows(sql, parameters)
  }

  /// Runs a statement and returns every row's columns.
  public func rows(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
    lock.lock()
    defer { lock.unlock() }
    let statement = try prepared(sql)
    // Ready for the next call, whatever this one ends with; a failed step's error is read first.
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (offset, value) in parameters.enumerated() {
      let index = Int32(offset + 1)
      let status: Int32
      switch value {
      case .null: status = sqlite3_bind_null(statement, index)
      case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
      case .real(let number): status = sqlite3_bind_double(statement, index, number)
      case .text(let text): status = mart_sqlite3_bind_text_transient(statement, index, text)
      case .blob(let data):
        status = data.withUnsafeBytes { bytes in
          mart_sqlite3_bind_blob_transient(
            statement, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count))
        }
      }
      guard status == SQLITE_OK else { throw failure("bind parameter \(index) of \(sql)") }
    }
    var result: [[SQLiteValue]] = []
    while true {
      switch sqlite3_step(statement) {
      case SQLITE_ROW:
        result.append((0..<sqlite3_column_count(statement)).map { column(statement, $0) })
      case SQLITE_DONE:
        return result
      default:
        throw failure(sql)
      }
    }
  }

  /// The statement for `sql`, prepared once. Called with `lock` held.
  private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var prepared: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &prepared, nil) == SQLITE_OK, let statement = prepared else {
      sqlite3_finalize(prepared)
      throw failure("prepare \(sql)")
    }
    statements[sql] = statement
    return statement
  }

  private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
    switch sqlite3_column_type(statement, index) {
    case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
    case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
    case SQLITE_TEXT:
      return sqlite3_column_text(statement, index).map { .text(String(cString: $0)) } ?? .null
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, index))
      guard let bytes = sqlite3_column_blob(statement, index), count > 0 else { return .blob(Data()) }
      return .blob(Data(bytes: bytes, count: count))
    default: return .null
    }
  }

  private func failure(_ operation: String) -> SQLiteError {
    SQLiteError(
      path: path, operation: operation, reason: String(cString: sqlite3_errmsg(handle)),
      code: sqlite3_errcode(handle) & 0xFF)
  }

  /// Opens the database at `path` with `open`; when the file turns out not to be a database or
  /// to be corrupt, it is set aside under a new name (with its `-wal` and `-shm` files) and a new,
  /// empty one is opened in its place.
  /// - Returns: what `open` made, and where the damaged file went, if one was set aside.
  public static func openSettingAsideDamaged<Opened>(
    path: String, with open: (String) throws(SQLiteError) -> Opened
  ) throws(SQLiteError) -> (opened: Opened, setAside: String?) {
    do {
      return (try open(path), nil)
    } catch  where error.isDamagedFile {
      var stamp = timespec()
      clock_gettime(CLOCK_REALTIME, &stamp)
      let aside = "\(path).damaged-\(stamp.tv_sec)"
      guard Foundation.rename(path, aside) == 0 else {
        throw SQLiteError(
          path: path, operation: "set aside the damaged file (\(error.reason))",
          reason: String(cString: strerror(errno)))
      }
      for suffix in ["-wal", "-shm"] { _ = Foundation.rename(path + suffix, aside + suffix) }
      return (try open(path), aside)
    }
  }
}

extension SQLiteValue {
  /// The text, if this is text.
  public var text: String? {
    if case .text(let value) = self { return value }
    return nil
  }
  /// The integer, if this is an integer.
  public var integer: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }
  /// The number, if this is a real or an integer.
  public var real: Double? {
    switch self {
    case .real(let value): value
    case .integer(let value): Double(value)
    default: nil
    }
  }
  /// The bytes of a blob or a text.
  public var blob: Data? {
    switch self {
    case .blob(let value): value
    case .text(let value): Data(value.utf8)
    default: nil
    }
  }
}
