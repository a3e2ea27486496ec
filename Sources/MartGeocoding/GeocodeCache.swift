import Foundation
import MartCore
import MartSQLite

/// A failed cache operation: which database, which statement, SQLite's message.
public typealias GeocodeCacheError = SQLiteError

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
public final class GeocodeCache: Sendable {
  private let database: SQLiteConnection
  /// The database file.
  public var path: String { database.path }
  /// Whether answers are only looked up, never stored (``init(readingOnly:)``).
  public let isReadOnly: Bool
  /// Whether the database has the cache's table (a read-only cache may not).
  private let hasTable: Bool

  /// Opens (creating if needed) the cache at `path`.
  public init(path: String) throws(GeocodeCacheError) {
    database = try SQLiteConnection(path: path)
    isReadOnly = false
    hasTable = true
    try database.run(
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

  /// Opens the cache at `path`, which must exist, for lookups only: nothing is stored, no table
  /// created, no file added (a replay reads the cache live runs fill, and never fills it).
  public init(readingOnly path: String) throws(GeocodeCacheError) {
    database = try SQLiteConnection(path: path, creating: false)
    isReadOnly = true
    hasTable = !(try database.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'geocode'")).isEmpty
  }

  /// The cache key for a query: spaces collapsed, NFC.
  public static func normalizedQuery(_ query: String) -> String {
    query.precomposedStringWithCanonicalMapping.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The remembered answer of `provider` for `query`, if any.
  public func lookup(provider: CoordinateSource, query: String) throws(GeocodeCacheError) -> CachedGeocode? {
    guard hasTable else { return nil }
    let rows = try database.rows(
      "SELECT found, latitude, longitude, precision, matched_address, stored_at FROM geocode WHERE provider = ?1 AND query = ?2",
      [.text(provider.rawValue), .text(Self.normalizedQuery(query))])
    guard let row = rows.first else { return nil }
    let storedAt = Date(timeIntervalSince1970: row[5].real ?? 0)
    guard row[0].integer != 0, let latitude = row[1].real, let longitude = row[2].real else {
      return CachedGeocode(match: nil, storedAt: storedAt)
    }
    let match = GeocodeMatch(
      point: GeoPoint(latitude: latitude, longitude: longitude),
      precision: row[3].text.flatMap(CoordinatePrecision.init(rawValue:)) ?? .district, matchedAddress: row[4].text)
    return CachedGeocode(match: match, storedAt: storedAt)
  }

  /// Remembers the answer of `provider` for `query` (`nil` = not found), replacing any older one;
  /// nothing on a read-only cache.
  public func store(
    provider: CoordinateSource, query: String, match: GeocodeMatch?, at date: Date = Date()
  ) throws(GeocodeCacheError) {
    guard !isReadOnly else { return }
    try database.run(
      """
      INSERT OR REPLACE INTO geocode (provider, query, found, latitude, longitude, precision, matched_address, stored_at)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
      """,
      [
        .text(provider.rawValue), .text(Self.normalizedQuery(query)), .integer(match == nil ? 0 : 1),
        match.map { .real($0.point.latitude) } ?? .null, match.map { .real($0.point.longitude) } ?? .null,
        match.map { .text($0.precision.rawValue) } ?? .null, match?.matchedAddress.map(SQLiteValue.text) ?? .null,
        .real(date.timeIntervalSince1970),
      ])
  }

  /// The number of remembered answers.
  public func count() throws(GeocodeCacheError) -> Int {
    guard hasTable else { return 0 }
    return Int(try database.rows("SELECT COUNT(*) FROM geocode").first?.first?.integer ?? 0)
  }

  /// Runs SQLite's integrity check; throws unless the database is intact.
  public func verifyIntegrity() throws(GeocodeCacheError) {
    let result = try database.rows("PRAGMA integrity_check").first?.first?.text ?? ""
    guard result == "ok" else {
      throw GeocodeCacheError(path: path, operation: "integrity check", reason: result)
    }
  }
}
