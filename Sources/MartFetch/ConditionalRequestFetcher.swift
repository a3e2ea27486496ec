import Foundation
import MartDigest
import MartSQLite
import Synchronization

/// A response kept for revalidation, with the validators the server gave it.
public struct StoredResponse: Sendable, Hashable {
  public var url: String
  public var etag: String?
  public var lastModified: String?
  public var response: HTTPResponse
  public var storedAt: Date
  /// Whether the stored body and headers still match the SHA-256 kept with them. A body that
  /// does not (a damaged file, an entry written before digests were kept) must not be reused.
  public var isIntact: Bool
}

/// `ETag` and `Last-Modified` validators with the bodies they validate, in an embedded SQLite
/// file, so the next run can ask "has it changed?" and reuse the body on `304 Not Modified`.
/// Each entry keeps the SHA-256 of its status, headers and body, checked on every lookup.
public final class HTTPValidatorStore: Sendable {
  private let database: SQLiteConnection
  /// The database file.
  public var path: String { database.path }

  /// Opens (creating if needed) the store at `path`. Throws when the file cannot be opened as a
  /// database (see `SQLiteConnection.openSettingAsideDamaged` to recover from a damaged one).
  public init(path: String) throws(SQLiteError) {
    database = try SQLiteConnection(path: path)
    try database.run(
      """
      CREATE TABLE IF NOT EXISTS http_validators (
        url TEXT NOT NULL PRIMARY KEY,
        etag TEXT,
        last_modified TEXT,
        status INTEGER NOT NULL,
        final_url TEXT NOT NULL,
        headers TEXT NOT NULL,
        body BLOB NOT NULL,
        stored_at REAL NOT NULL
      ) WITHOUT ROWID
      """)
    let columns = try database.rows("PRAGMA table_info(http_validators)").compactMap { $0[1].text }
    if !columns.contains("digest") {
      // Entries stored before digests were kept read as not intact and are fetched again once.
      try database.run("ALTER TABLE http_validators ADD COLUMN digest TEXT")
    }
  }

  /// The SHA-256 kept with an entry: of its status, final URL, headers and body.
  static func digest(status: Int, finalURL: String, headers: Data, body: Data) -> String {
    var covered = Data("\(status)\n\(finalURL)\n".utf8)
    covered.append(headers)
    covered.append(0x0A)
    covered.append(body)
    return SHA256.hex(covered)
  }

  /// The response stored for `url`, if any.
  public func lookup(url: String) throws(SQLiteError) -> StoredResponse? {
    let rows = try database.rows(
      """
      SELECT etag, last_modified, status, final_url, headers, body, stored_at, digest
      FROM http_validators WHERE url = ?1
      """,
      [.text(url)])
    guard let row = rows.first else { return nil }
    let headerText = row[4].blob ?? Data()
    let headerPairs = (try? JSONDecoder().decode([[String]].self, from: headerText)) ?? []
    let headers = headerPairs.compactMap { $0.count == 2 ? HTTPHeader($0[0], $0[1]) : nil }
    let storedAt: Double = if case .real(let seconds) = row[6] { seconds } else { 0 }
    let status = Int(row[2].integer ?? 200)
    let finalURL = row[3].text ?? url
    let body = row[5].blob ?? Data()
    return StoredResponse(
      url: url, etag: row[0].text, lastModified: row[1].text,
      response: HTTPResponse(requestURL: url, finalURL: finalURL, status: status, headers: headers, body: body),
      storedAt: Date(timeIntervalSince1970: storedAt),
      isIntact: row[7].text == Self.digest(status: status, finalURL: finalURL, headers: headerText, body: body))
  }

  /// Keeps `response` for `url` with its validators, replacing what was stored.
  public func store(url: String, response: HTTPResponse, at date: Date) throws(SQLiteError) {
    let headers: Data
    do {
      headers = try JSONEncoder().encode(response.headers.map { [$0.name, $0.value] })
    } catch {
      throw SQLiteError(path: path, operation: "encode headers of \(url)", reason: "\(error)")
    }
    try database.run(
      """
      INSERT OR REPLACE INTO http_validators
        (url, etag, last_modified, status, final_url, headers, body, stored_at, digest)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
      """,
      [
        .text(url), response.headers.value(named: "ETag").map(SQLiteValue.text) ?? .null,
        response.headers.value(named: "Last-Modified").map(SQLiteValue.text) ?? .null,
        .integer(Int64(response.status)), .text(response.finalURL),
        .text(String(decoding: headers, as: UTF8.self)), .blob(response.body), .real(date.timeIntervalSince1970),
        .text(Self.digest(status: response.status, finalURL: response.finalURL, headers: headers, body: response.body)),
      ])
  }

  /// Forgets what was stored for `url`.
  public func remove(url: String) throws(SQLiteError) {
    try database.run("DELETE FROM http_validators WHERE url = ?1", [.text(url)])
  }

  /// The number of stored responses.
  public func count() throws(SQLiteError) -> Int {
    Int(try database.rows("SELECT COUNT(*) FROM http_validators").first?.first?.integer ?? 0)
  }
}

/// Revalidates GET requests: sends `If-None-Match` / `If-Modified-Since` from the validators
/// stored for the URL, and on `304 Not Modified` returns the stored body as a 200 (counted in
/// `statistics` as a reuse). A 200 with an `ETag` or `Last-Modified` replaces what is stored; one
/// without forgets it. Other methods, and requests that set their own validators, pass through.
///
/// The store never fails a fetch: problems reading or writing it are listed in `storeFailures`.
public final class ConditionalRequestFetcher: HTTPFetching {
  public let upstream: any HTTPFetching
  public let store: HTTPValidatorStore
  public let statistics: FetchStatistics
  /// What a stored response is dated by.
  public let clock: any FetchClock
  private let failures = Mutex<[String]>([])

  public init(
    wrapping upstream: any HTTPFetching, store: HTTPValidatorStore, statistics: FetchStatistics,
    clock: any FetchClock = SystemFetchClock()
  ) {
    self.upstream = upstream
    self.store = store
    self.statistics = statistics
    self.clock = clock
  }

  /// Store problems, each naming the URL and SQLite's message.
  public var storeFailures: [String] { failures.withLock { $0 } }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let ownValidators = ["If-None-Match", "If-Modified-Since"].contains { request.headers.value(named: $0) != nil }
    // A request asked again on a connection of its own (fresh, or a lane's) wants the page
    // itself, never a stored body.
    guard request.method == .get, !ownValidators, request.connection == .keptAlive else {
      return try await upstream.fetch(request)
    }
    var stored: StoredResponse?
    do {
      stored = try store.lookup(url: request.url)
    } catch {
      note(error)
    }
    if let damaged = stored, !damaged.isIntact {
      // Never revalidate a body that cannot be reused: ask for the whole page again.
      stored = nil
      failures.withLock {
        $0.append("\(store.path): the body stored for \(request.url) does not match its digest; fetched again in full")
      }
      do { try store.remove(url: request.url) } catch { note(error) }
    }
    var conditional = request
    if let stored {
      if let etag = stored.etag { conditional.headers.append(HTTPHeader("If-None-Match", etag)) }
      if let lastModified = stored.lastModified {
        conditional.headers.append(HTTPHeader("If-Modified-Since", lastModified))
      }
    }
    let response = try await upstream.fetch(conditional)
    if response.status == 304, let stored {
      statistics.record(host: URLParts(request.url).hostAndPort) { $0.notModifiedReuses += 1 }
      var reused = stored.response
      reused.requestURL = request.url
      // A 304 proves no more of its request than a 200 on the same connection: on a reused
      // connection it may be another request's leftover (that page unchanged, not this one), and
      // the stored body is compared with the run's other answers like any answer that came there.
      reused.cameOnReusedConnection = response.cameOnReusedConnection
      // A 304 may carry updated validators; keep them for next time.
      var changed = false
      for name in ["ETag", "Last-Modified"] {
        if let value = response.headers.value(named: name), value != reused.headers.value(named: name) {
          reused.headers.removeAll { $0.name.equalsIgnoringASCIICase(name) }
          reused.headers.append(HTTPHeader(name, value))
          changed = true
        }
      }
      if changed { save(reused, for: request.url) }
      return reused
    }
    if response.status == 200 {
      if response.headers.value(named: "ETag") != nil || response.headers.value(named: "Last-Modified") != nil {
        save(response, for: request.url)
      } else if stored != nil {
        do { try store.remove(url: request.url) } catch { note(error) }
      }
    }
    return response
  }

  private func save(_ response: HTTPResponse, for url: String) {
    do { try store.store(url: url, response: response, at: clock.date) } catch { note(error) }
  }

  private func note(_ error: SQLiteError) {
    failures.withLock { $0.append(error.description) }
  }
}
