import Foundation
import MartCore
import MartSQLite

/// What the runs of one output have learned of the closing-day designations
/// (``DesignationMemory``), in an embedded SQLite database of the state directory
/// (`<state>/designations.sqlite`): each district's pattern per store class with the days it was
/// first and last confirmed and the stores that last did (or, for a designation cited from the
/// researched table that no stores have established, its source and the stores following it),
/// and the stores keeping days of their own. A run reads it before inferring the districts and
/// replaces it after publishing, in one transaction, so a killed run leaves what the last
/// published run knew.
public final class DesignationStore: Sendable {
  private let database: SQLiteConnection
  public var path: String { database.path }

  /// Opens (creating if needed) the store at `path`.
  public init(path: String) throws(SQLiteError) {
    database = try SQLiteConnection(path: path)
    try database.run(
      """
      CREATE TABLE IF NOT EXISTS designation (
        sido TEXT NOT NULL,
        sigungu TEXT NOT NULL,
        store_class TEXT NOT NULL,
        pattern TEXT NOT NULL,
        first_confirmed TEXT NOT NULL,
        last_confirmed TEXT NOT NULL,
        evidence TEXT NOT NULL,
        swaps TEXT NOT NULL,
        PRIMARY KEY (sido, sigungu, store_class)
      ) WITHOUT ROWID
      """)
    try database.run(
      """
      CREATE TABLE IF NOT EXISTS cited_designation (
        sido TEXT NOT NULL,
        sigungu TEXT NOT NULL,
        store_class TEXT NOT NULL,
        pattern TEXT NOT NULL,
        source TEXT NOT NULL,
        source_date TEXT NOT NULL,
        since TEXT,
        evidence TEXT NOT NULL,
        swaps TEXT NOT NULL,
        PRIMARY KEY (sido, sigungu, store_class)
      ) WITHOUT ROWID
      """)
    try database.run(
      """
      CREATE TABLE IF NOT EXISTS store_exception (
        brand TEXT NOT NULL,
        store_id TEXT NOT NULL,
        sido TEXT NOT NULL,
        sigungu TEXT NOT NULL,
        store_class TEXT NOT NULL,
        pattern TEXT NOT NULL,
        since TEXT NOT NULL,
        PRIMARY KEY (brand, store_id)
      ) WITHOUT ROWID
      """)
  }

  /// Everything stored; a row that cannot be read (a pattern, a date or a class not understood)
  /// is left out and named in `unreadable`.
  public func load() throws(SQLiteError) -> (memory: DesignationMemory, unreadable: [String]) {
    var memory = DesignationMemory()
    var unreadable: [String] = []
    for row in try database.rows(
      "SELECT sido, sigungu, store_class, pattern, first_confirmed, last_confirmed, evidence, swaps FROM designation")
    {
      let texts = row.map { $0.text ?? "" }
      guard let key = Self.key(texts[0], texts[1], texts[2]), let pattern = Self.pattern(texts[3]),
        let first = CalendarDate(iso: texts[4]), let last = CalendarDate(iso: texts[5])
      else {
        unreadable.append("designation \(texts.prefix(3).joined(separator: " "))")
        continue
      }
      memory.designations[key] = RememberedDesignation(
        pattern: pattern, firstConfirmed: first, lastConfirmed: last, evidence: Self.ids(texts[6]),
        swaps: Self.swaps(texts[7]))
    }
    for row in try database.rows(
      "SELECT sido, sigungu, store_class, pattern, source, source_date, since, evidence, swaps FROM cited_designation")
    {
      let texts = row.map { $0.text ?? "" }
      guard let key = Self.key(texts[0], texts[1], texts[2]), let pattern = Self.pattern(texts[3]), !texts[4].isEmpty
      else {
        unreadable.append("cited designation \(texts.prefix(3).joined(separator: " "))")
        continue
      }
      let citation = DesignationCitation(source: texts[4], sourceDate: texts[5], since: row[6].text)
      memory.designations[key] = RememberedDesignation(
        cited: pattern, citation: citation, evidence: Self.ids(texts[7]), swaps: Self.swaps(texts[8]))
    }
    for row in try database.rows(
      "SELECT brand, store_id, sido, sigungu, store_class, pattern, since FROM store_exception")
    {
      let texts = row.map { $0.text ?? "" }
      guard let brand = BrandSlug(rawValue: texts[0]), let key = Self.key(texts[2], texts[3], texts[4]),
        let pattern = Self.pattern(texts[5]), let since = CalendarDate(iso: texts[6])
      else {
        unreadable.append("store exception \(texts[0])-\(texts[1])")
        continue
      }
      let id = BranchID(brand: brand, storeID: texts[1])
      memory.exceptions[id] = StoreException(branch: id, key: key, pattern: pattern, since: since)
    }
    return (memory, unreadable)
  }

  /// Replaces everything stored with `memory`, in one transaction.
  public func save(_ memory: DesignationMemory) throws(SQLiteError) {
    try database.run("BEGIN IMMEDIATE")
    do throws(SQLiteError) {
      try database.run("DELETE FROM designation")
      try database.run("DELETE FROM cited_designation")
      try database.run("DELETE FROM store_exception")
      for (key, designation) in memory.designations.sorted(by: { $0.key < $1.key }) {
        let keyValues: [SQLiteValue] = [
          .text(key.district.sido), .text(key.district.sigungu), .text(key.storeClass.rawValue),
          .text(designation.pattern.map(\.code).joined(separator: " ")),
        ]
        let evidenceAndSwaps: [SQLiteValue] = [
          .text(designation.evidence.map(Self.idText).joined(separator: "\n")),
          .text(designation.swaps.map(Self.swapText).joined(separator: "\n\n")),
        ]
        guard let first = designation.firstConfirmed, let last = designation.lastConfirmed else {
          let citation = designation.citation ?? DesignationCitation(source: "", sourceDate: "")
          try database.run(
            "INSERT INTO cited_designation VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            keyValues + [.text(citation.source), .text(citation.sourceDate), citation.since.map { .text($0) } ?? .null]
              + evidenceAndSwaps)
          continue
        }
        try database.run(
          "INSERT INTO designation VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
          keyValues + [.text(first.iso), .text(last.iso)] + evidenceAndSwaps)
      }
      for (id, exception) in memory.exceptions.sorted(by: { $0.key < $1.key }) {
        try database.run(
          "INSERT INTO store_exception VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
          [
            .text(id.brand.rawValue), .text(id.storeID), .text(exception.key.district.sido),
            .text(exception.key.district.sigungu), .text(exception.key.storeClass.rawValue),
            .text(exception.pattern.map(\.code).joined(separator: " ")), .text(exception.since.iso),
          ])
      }
      try database.run("COMMIT")
    } catch {
      try? database.run("ROLLBACK")
      throw error
    }
  }

  private static func key(_ sido: String, _ sigungu: String, _ storeClass: String) -> DesignationKey? {
    guard !sido.isEmpty, !sigungu.isEmpty, let storeClass = StoreClass(rawValue: storeClass) else { return nil }
    return DesignationKey(district: District(sido: sido, sigungu: sigungu), storeClass: storeClass)
  }

  private static func pattern(_ text: String) -> [DesignatedDay]? {
    let days = text.split(separator: " ").map { DesignatedDay(code: $0) }
    guard !days.isEmpty, days.allSatisfy({ $0 != nil }) else { return nil }
    return days.compactMap { $0 }
  }

  /// `<brand>\t<store id>`: store ids may hold hyphens and spaces, never tabs or line breaks.
  private static func idText(_ id: BranchID) -> String { "\(id.brand.rawValue)\t\(id.storeID)" }

  /// `<date>\t<replaced day>` and its ids on the lines after it; swaps apart by an empty line.
  private static func swapText(_ swap: DistrictSwap) -> String {
    (["\(swap.date.iso)\t\(swap.replaces?.iso ?? "")"] + swap.ids.map(idText)).joined(separator: "\n")
  }

  private static func swaps(_ text: String) -> [DistrictSwap] {
    text.components(separatedBy: "\n\n").compactMap { block in
      let lines = block.split(separator: "\n", maxSplits: 1)
      guard let head = lines.first else { return nil }
      let days = head.split(separator: "\t", omittingEmptySubsequences: false)
      guard let date = days.first.flatMap({ CalendarDate(iso: $0) }) else { return nil }
      return DistrictSwap(
        date: date, ids: lines.count > 1 ? ids(String(lines[1])) : [],
        replaces: days.count > 1 ? CalendarDate(iso: days[1]) : nil)
    }
  }

  private static func ids(_ text: String) -> [BranchID] {
    text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: "\t", maxSplits: 1)
      guard parts.count == 2, let brand = BrandSlug(rawValue: String(parts[0])) else { return nil }
      return BranchID(brand: brand, storeID: String(parts[1]))
    }
  }
}
