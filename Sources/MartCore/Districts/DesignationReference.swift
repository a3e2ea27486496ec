/// The designations the project has researched (`data/designations.json`): per district and
/// store class, the days a 시·군·구 designated, since when, and the notice or report that says
/// so, with the stores it names as exceptions. A starting point to check what the stores show,
/// never a source of days: learned evidence confirms or contradicts it, and a contradiction is
/// told with both sides (``DistrictInference/contradictions(with:)``), never silently settled.
public struct DesignationReference: Codable, Hashable, Sendable {
  /// One researched designation.
  public struct Entry: Codable, Hashable, Sendable {
    /// A store the designation (or a later report) names as keeping other days.
    public struct StoreException: Codable, Hashable, Sendable {
      /// The store as the source names it (`코스트코 의정부점`).
      public var store: String
      /// Its branch id (`costco-Uijeongbu`) when it is a store of a brand the project reads.
      public var branch: String?
      /// Its days, in the form of ``DesignatedDay/code`` (`2:sunday`); empty when the source
      /// names no days.
      public var pattern: [String]
      public var note: String?
    }

    public var sido: String
    public var sigungu: String
    /// The classes the designation binds (`hypermarket`, `ssm`).
    public var storeClasses: [StoreClass]
    /// The days, in the form of ``DesignatedDay/code`` (`2:wednesday`, `10`); empty when the
    /// district designates none (부산 강서구 withdrew its designation in 2024-05).
    public var pattern: [String]
    /// From when (`YYYY-MM-DD` or `YYYY-MM`), when the source says.
    public var since: String?
    /// The notice or report, with its date.
    public var source: String
    /// When the source was published: `YYYY-MM-DD`, or `YYYY-MM` when the day is not known.
    public var sourceDate: String
    public var note: String?
    public var storeExceptions: [StoreException]?

    /// Its days, or `nil` when one of them is not a day (`pattern` empty: none).
    public var days: [DesignatedDay]? {
      let days = pattern.compactMap { DesignatedDay(code: $0) }
      return days.count == pattern.count ? days.sorted() : nil
    }

    public var district: District { District(sido: sido, sigungu: sigungu) }

    /// Where the designation is written: its source, the source's date and since when.
    public var citation: DesignationCitation {
      DesignationCitation(source: source, sourceDate: sourceDate, since: since)
    }
  }

  /// What the table covers and how it was made.
  public var description: String
  /// When the entries were last checked (`YYYY-MM-DD`).
  public var checked: String
  public var designations: [Entry]

  /// The entry for `storeClass` in `district`, if the table has one.
  public func entry(for district: District, storeClass: StoreClass) -> Entry? {
    designations.first { $0.district == district && $0.storeClasses.contains(storeClass) }
  }

  /// Whether the table names `branch` as a store of `key` keeping `pattern` of its own (코스트코
  /// 의정부점 on Sundays in a city of Wednesdays): breaking the designation so is what the
  /// source says it does, not a mismatch.
  public func namesException(_ branch: BranchID, key: DesignationKey, pattern: [DesignatedDay]) -> Bool {
    guard let entry = entry(for: key.district, storeClass: key.storeClass) else { return false }
    return (entry.storeExceptions ?? []).contains { exception in
      exception.branch == branch.description
        && exception.pattern.compactMap { DesignatedDay(code: $0) }.sorted() == pattern
    }
  }

  /// The designation the table gives `key` as a starting point: its days with its citation, never
  /// confirmed by stores; `nil` when the table has no entry, the entry designates no day (부산
  /// 강서구) or one of its days is not read.
  public func seed(for key: DesignationKey) -> RememberedDesignation? {
    guard let entry = entry(for: key.district, storeClass: key.storeClass), let days = entry.days, !days.isEmpty
    else { return nil }
    return RememberedDesignation(cited: days, citation: entry.citation)
  }
}

/// The researched source of a designation (an entry of `data/designations.json`).
public struct DesignationCitation: Codable, Hashable, Sendable, CustomStringConvertible {
  /// The notice or report.
  public var source: String
  /// When the source was published: `YYYY-MM-DD`, or `YYYY-MM` when the day is not known.
  public var sourceDate: String
  /// From when the designation applies (`YYYY-MM-DD` or `YYYY-MM`), when the source says.
  public var since: String?

  public init(source: String, sourceDate: String, since: String? = nil) {
    self.source = source
    self.sourceDate = sourceDate
    self.since = since
  }

  /// `since 2014-05 (경기일보, 2014-05-01)`.
  public var description: String { (since.map { "since \($0) " } ?? "") + "(\(source), \(sourceDate))" }
}

/// What a designation's days rest on.
public enum DesignationBasis: String, Codable, Hashable, Sendable, CaseIterable {
  /// The researched table (`data/designations.json`): no run's stores have established it yet
  /// (too few stores, one source alone, none at all), though some may follow it.
  case cited
  /// The stores: fresh stores of at least two independent sources, a majority of the class in
  /// the district, showed it (now, or on ``DistrictPattern/lastConfirmed``).
  case learned
}

/// A designation the stores confirmed this run whose days differ from the researched table's:
/// both sides, for a human to settle (the ordinance may have changed, or the stores be wrong).
public struct DesignationContradiction: Hashable, Sendable {
  public var key: DesignationKey
  /// What the stores show now.
  public var learned: DistrictPattern
  /// What the table says.
  public var reference: DesignationReference.Entry

  /// `경기도 하남시 (hypermarket): the stores show 2nd sunday, 4th sunday (evidence: …); the
  /// table says 2nd wednesday, 4th wednesday since 2014-05 (경기일보, 2014-05-01)`.
  public var message: String {
    let table = reference.days.map { $0.isEmpty ? "no designation" : DistrictPattern.describe($0) } ?? "days not read"
    return "\(key): the stores show \(learned.patternDescription) (evidence: "
      + "\(learned.evidence.map(\.description).joined(separator: ", "))); the table says \(table)"
      + (reference.since.map { " since \($0)" } ?? "") + " (\(reference.source), \(reference.sourceDate))"
  }
}

extension DistrictInference {
  /// The designations the stores confirmed this run (``DistrictPattern/lastConfirmed`` is the
  /// as-of date) whose days differ from `reference`'s, by key. Kept designations are not
  /// evidence now, and a district the table does not list contradicts nothing.
  public func contradictions(with reference: DesignationReference) -> [DesignationContradiction] {
    districts.compactMap { learned in
      guard learned.lastConfirmed == asOf,
        let entry = reference.entry(for: learned.district, storeClass: learned.storeClass),
        entry.days != learned.pattern
      else { return nil }
      return DesignationContradiction(key: learned.key, learned: learned, reference: entry)
    }
  }
}
