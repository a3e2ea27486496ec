import CSQLite
import Foundation
import MartCore

/// A failed cache operation: which database, which statement, SQLite's message.
public struct GeocodeCacheError: Error, Hashable, Sendable, CustomStringConvertible {
  public var path: String
  public var operation: String
  public var message: String

  public init(path: String, operation: String, message: String) {
    self.path = path
    self.operation = operation
    self.message = message
  }

  public var description: String { "geocode cache \(path): \(operation) failed: \(message)" }
}

/// What a provider answered for a query, as remembered by the cache.
public struct CachedGeocode: Hashable, Sendable {
  /// The match, or `nil` for a remembered "not found".
  public var match: GeocodeMatch?
  /// When the provider answered.
  public var storedAt: Date

  public init(match: GeocodeMatch?, storedAt: Date) {
    self.match = match
    self.storedAt = storedAt
  }
}

/// A persistent geocoding cache in an embedded SQLite database, keyed by provider and normalized
/// query, so that scheduled runs do not geocode unchanged addresses again.
///
/// The database uses write-ahead logging and commits every write at once, so a killed process
/// loses at most the write in flight and leaves a readable database.
public final class GeocodeCache: @unchecked Sendable {
  // @unchecked Sendable: the connection is only used while `lock` is held, and the handle is
  // opened in `init` and closed in `deinit`, when no other reference exists.
  private let connection: OpaquePointer
  private let lock = NSLock()
  /// The database file.
  public let path: String

  /// Opens (creating if needed) the cache at `path`.
  public init(path: String) throws(GeocodeCacheError) {
    self.path = path
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
    let status = sqlite3_open_v2(path, &handle, flags, nil)
    guard status == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
      sqlite3_close(handle)
      throw GeocodeCacheError(path: path, operation: "open", message: message)
    }
    connection = handle
    sqlite3_busy_timeout(handle, 5000)
    try execute("PRAGMA journal_mode = WAL")
    try execute("PRAGMA synchronous = NORMAL")
    try execute(
      """
      CREATE TABLE IF NOT EXISTS geocode (
        provider TEXT NOT NULL,
        query TEXT NOT NULL,
        found INTEGER NOT NULL,
        latitude REAL,
        longitude REAL,
        precision TEXT,
        matched_address TEXT,
        stored_at REAL NOT NULL,
        PRIMARY KEY (provider, query)
      ) WITHOUT ROWID
      """)
  }

  deinit {
    sqlite3_close_v2(connection)
  }

  /// The cache key for a query: spaces collapsed, NFC.
  public static func normalizedQuery(_ query: String) -> String {
    query.precomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The remembered answer of `provider` for `query`, if any.
  public func lookup(provider: CoordinateSource, query: String) throws(GeocodeCacheError) -> CachedGeocode? {
    lock.lock()
    defer { lock.unlock() }
    let statement = try prepare(
      "SELECT found, latitude, longitude, precision, matched_address, stored_at FROM geocode WHERE provider = ?1 AND query = ?2"
    )
    defer { sqlite3_finalize(statement) }
    try bind(provider.rawValue, at: 1, in: statement)
    try bind(Self.normalizedQuery(query), at: 2, in: statement)
    switch sqlite3_step(statement) {
    case SQLITE_ROW:
      let storedAt = Date(timeIntervalSince1970: sqlite3_column_double(statement, 5))
      guard sqlite3_column_int(statement, 0) != 0 else { return CachedGeocode(match: nil, storedAt: storedAt) }
      let precision = text(statement, 3).flatMap(CoordinatePrecision.init(rawValue:)) ?? .district
      let match = GeocodeMatch(
        point: GeoPoint(latitude: sqlite3_column_double(statement, 1), longitude: sqlite3_column_double(statement, 2)),
        precision: precision, matchedAddress: text(statement, 4))
      return CachedGeocode(match: match, storedAt: storedAt)
    case SQLITE_DONE:
      return nil
    default:
      throw failure("lookup")
    }
  }

  /// Remembers the answer of `provider` for `query` (`nil` = not found), replacing any older one.
  public func store(
    provider: CoordinateSource, query: String, match: GeocodeMatch?, at date: Date = Date()
  ) throws(GeocodeCacheError) {
    lock.lock()
    defer { lock.unlock() }
    let statement = try prepare(
      """
      INSERT OR REPLACE INTO geocode (provider, query, found, latitude, longitude, precision, matched_address, stored_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
      """)
    defer { sqlite3_finalize(statement) }
    try bind(provider.rawValue, at: 1, in: statement)
    try bind(Self.normalizedQuery(query), at: 2, in: statement)
    sqlite3_bind_int(statement, 3, match == nil ? 0 : 1)
    if let match {
      sqlite3_bind_double(statement, 4, match.point.latitude)
      sqlite3_bind_double(statement, 5, match.point.longitude)
      try bind(match.precision.rawValue, at: 6, in: statement)
      try bind(match.matchedAddress, at: 7, in: statement)
    }
    sqlite3_bind_double(statement, 8, date.timeIntervalSince1970)
    guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("store") }
  }

  /// The number of remembered answers.
  public func count() throws(GeocodeCacheError) -> Int {
    lock.lock()
    defer { lock.unlock() }
    let statement = try prepare("SELECT COUNT(*) FROM geocode")
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("count") }
    return Int(sqlite3_column_int64(statement, 0))
  }

  /// Runs SQLite's integrity check; throws unless the database is intact.
  public func verifyIntegrity() throws(GeocodeCacheError) {
    lock.lock()
    defer { lock.unlock() }
    let statement = try prepare("PRAGMA integrity_check")
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { throw failure("integrity check") }
    let result = text(statement, 0) ?? ""
    guard result == "ok" else {
      throw GeocodeCacheError(path: path, operation: "integrity check", message: result)
    }
  }

  // MARK: SQLite helpers (called with `lock` held, or from `init`)

  private func execute(_ sql: String) throws(GeocodeCacheError) {
    var error: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(connection, sql, nil, nil, &error) == SQLITE_OK else {
      let message = error.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(error)
      throw GeocodeCacheError(path: path, operation: sql, message: message)
    }
  }

  private func prepare(_ sql: String) throws(GeocodeCacheError) -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw failure("prepare \(sql)")
    }
    return statement
  }

  private func bind(_ value: String?, at index: Int32, in statement: OpaquePointer) throws(GeocodeCacheError) {
    let status: Int32
    if let value {
      status = mart_sqlite3_bind_text_transient(statement, index, value)
    } else {
      status = sqlite3_bind_null(statement, index)
    }
    guard status == SQLITE_OK else { throw failure("bind parameter \(index)") }
  }

  private func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
    guard let characters = sqlite3_column_text(statement, column) else { return nil }
    return String(cString: characters)
  }

  private func failure(_ operation: String) -> GeocodeCacheError {
    GeocodeCacheError(path: path, operation: operation, message: String(cString: sqlite3_errmsg(connection)))
  }
}
