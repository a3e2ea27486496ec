import Foundation
import MartCore

/// `districts.json`: the closing days each district keeps per store class, as its stores show
/// them now or last did (``DistrictDesignations``), one entry per district and class with a
/// pattern, sorted by 시도, 시·군·구, then class (`hypermarket` before `ssm`).
public struct DistrictsFile: Codable, Hashable, Sendable {
  /// One designation: `{"agreeing","basis","citation","evidence","exceptions","firstConfirmed",
  /// "lastConfirmed","pattern","sido","sigungu","storeClass","stores","swaps"}`.
  public struct Entry: Codable, Hashable, Sendable {
    /// `{"ordinal": 2, "weekday": "wednesday"}` (an nth weekday) or `{"dayOfMonth": 10}`.
    public struct Day: Codable, Hashable, Sendable {
      /// 1 to 5, for an nth weekday.
      public var ordinal: Int?
      /// `sunday` … `saturday`, for an nth weekday.
      public var weekday: String?
      /// 1 to 31, for a day of the month.
      public var dayOfMonth: Int?

      init(_ day: DesignatedDay) {
        ordinal = day.ordinal
        weekday = day.weekday?.englishName
        dayOfMonth = day.dayOfMonth
      }

      private enum CodingKeys: String, CodingKey { case ordinal, weekday, dayOfMonth }

      /// Writes the keys of its kind only.
      public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let dayOfMonth {
          try container.encode(dayOfMonth, forKey: .dayOfMonth)
        } else {
          try container.encode(ordinal, forKey: .ordinal)
          try container.encode(weekday, forKey: .weekday)
        }
      }

      /// The day it names, or `nil` when it names none.
      public var designatedDay: DesignatedDay? {
        if let dayOfMonth { return DesignatedDay(code: "\(dayOfMonth)") }
        guard let ordinal, let weekday else { return nil }
        return DesignatedDay(code: "\(ordinal):\(weekday)")
      }

      /// `2nd wednesday`, `10th of the month`.
      public var description: String {
        if let dayOfMonth { return "\(DesignatedDay.ordinalName(dayOfMonth)) of the month" }
        return "\(ordinal.map(DesignatedDay.ordinalName) ?? "?") \(weekday ?? "?")"
      }
    }

    public struct Swap: Codable, Hashable, Sendable {
      public var date: CalendarDate
      public var ids: [BranchID]
      /// The pattern day it replaced; absent in bundles made before it was written.
      public var replaces: CalendarDate?
    }

    /// A store of the class that keeps days of its own, and has since `since` (a standing
    /// exception: not a mismatch, and its days are the ones expected of it).
    public struct Exception: Codable, Hashable, Sendable {
      public var branch: BranchID
      public var pattern: [Day]
      public var since: CalendarDate
    }

    public var sido: String
    public var sigungu: String
    /// `hypermarket` (대규모점포) or `ssm` (준대규모점포).
    public var storeClass: StoreClass
    public var pattern: [Day]
    /// The stores that followed it when it was last confirmed.
    public var evidence: [BranchID]
    public var agreeing: Int
    public var stores: Int
    public var swaps: [Swap]
    /// The as-of date of the first run whose stores showed this pattern; `null` when it is
    /// cited.
    public var firstConfirmed: CalendarDate?
    /// The as-of date of the last run whose stores showed it; before the bundle's as-of date
    /// when the pattern is kept without fresh evidence (a stale brand, a split district); `null`
    /// when it is cited.
    public var lastConfirmed: CalendarDate?
    public var exceptions: [Exception]
    /// What the pattern rests on: `learned` (stores established it, ``firstConfirmed`` …
    /// ``lastConfirmed``) or `cited` (the researched table, ``citation``; ``evidence`` are the
    /// stores that follow it). Bundles made before it was written read as `learned`.
    public var basis: DesignationBasis
    /// The table's source of a cited pattern (`{"since","source","sourceDate"}`); `null` when
    /// learned.
    public var citation: DesignationCitation?

    private enum CodingKeys: String, CodingKey {
      case sido, sigungu, storeClass, pattern, evidence, agreeing, stores, swaps, firstConfirmed, lastConfirmed,
        exceptions, basis, citation
    }

    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      sido = try container.decode(String.self, forKey: .sido)
      sigungu = try container.decode(String.self, forKey: .sigungu)
      storeClass = try container.decode(StoreClass.self, forKey: .storeClass)
      pattern = try container.decode([Day].self, forKey: .pattern)
      evidence = try container.decode([BranchID].self, forKey: .evidence)
      agreeing = try container.decode(Int.self, forKey: .agreeing)
      stores = try container.decode(Int.self, forKey: .stores)
      swaps = try container.decode([Swap].self, forKey: .swaps)
      firstConfirmed = try container.decodeIfPresent(CalendarDate.self, forKey: .firstConfirmed)
      lastConfirmed = try container.decodeIfPresent(CalendarDate.self, forKey: .lastConfirmed)
      exceptions = try container.decode([Exception].self, forKey: .exceptions)
      basis = try container.decodeIfPresent(DesignationBasis.self, forKey: .basis) ?? .learned
      citation = try container.decodeIfPresent(DesignationCitation.self, forKey: .citation)
    }

    /// Every key, `null` where there is no value.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(sido, forKey: .sido)
      try container.encode(sigungu, forKey: .sigungu)
      try container.encode(storeClass, forKey: .storeClass)
      try container.encode(pattern, forKey: .pattern)
      try container.encode(evidence, forKey: .evidence)
      try container.encode(agreeing, forKey: .agreeing)
      try container.encode(stores, forKey: .stores)
      try container.encode(swaps, forKey: .swaps)
      try container.encode(firstConfirmed, forKey: .firstConfirmed)
      try container.encode(lastConfirmed, forKey: .lastConfirmed)
      try container.encode(exceptions, forKey: .exceptions)
      try container.encode(basis, forKey: .basis)
      try container.encode(citation, forKey: .citation)
    }

    public init(_ district: DistrictPattern) {
      sido = district.district.sido
      sigungu = district.district.sigungu
      storeClass = district.storeClass
      pattern = district.pattern.map(Day.init)
      evidence = district.evidence
      agreeing = district.agreeing
      stores = district.stores
      swaps = district.swaps.map { Swap(date: $0.date, ids: $0.ids, replaces: $0.replaces) }
      firstConfirmed = district.firstConfirmed
      lastConfirmed = district.lastConfirmed
      basis = district.basis
      citation = district.citation
      exceptions = district.exceptions.map { Exception(branch: $0.branch, pattern: $0.pattern.map(Day.init), since: $0.since) }
    }

    /// Which designation it is.
    public var key: DesignationKey {
      DesignationKey(district: District(sido: sido, sigungu: sigungu), storeClass: storeClass)
    }

    /// What a run learned of it, as the next run would start from it; `nil` when a day of its
    /// pattern names no day.
    public var remembered: RememberedDesignation? {
      let days = pattern.compactMap(\.designatedDay)
      guard days.count == pattern.count, !days.isEmpty else { return nil }
      let swaps = swaps.map { DistrictSwap(date: $0.date, ids: $0.ids, replaces: $0.replaces) }
      if basis == .cited, let citation {
        return RememberedDesignation(cited: days, citation: citation, evidence: evidence, swaps: swaps)
      }
      guard let firstConfirmed, let lastConfirmed else { return nil }
      return RememberedDesignation(
        pattern: days, firstConfirmed: firstConfirmed, lastConfirmed: lastConfirmed, evidence: evidence, swaps: swaps)
    }

    /// `<name> (<class>)`: `서울특별시 관악구 (ssm)`.
    public var title: String { "\(name) (\(storeClass.rawValue))" }

    /// `<sido> <sigungu>`; `세종특별자치시` alone.
    public var name: String { sido == sigungu ? sido : "\(sido) \(sigungu)" }

    /// `2nd wednesday, 4th sunday`, `4th sunday, 10th of the month`.
    public var patternDescription: String { pattern.map(\.description).joined(separator: ", ") }
  }

  public var schemaVersion: Int
  public var window: DateWindow
  public var districts: [Entry]

  /// The districts `branches` support within `window`, the branches of `exempt` brands left out,
  /// each brand's stores in its class of `storeClasses` and its closing days from its source in
  /// `sources` (``DistrictDesignations``), with what `memory` (earlier runs) knew and what
  /// `reference` (the researched table) cites.
  public init(
    branches: [Branch], window: DateWindow, exempt: Set<BrandSlug>, storeClasses: [BrandSlug: StoreClass] = [:],
    sources: [BrandSlug: String] = [:], asOf: CalendarDate? = nil, memory: DesignationMemory = DesignationMemory(),
    reference: DesignationReference? = nil
  ) {
    self.init(
      window: window,
      inference: DistrictDesignations.infer(
        from: branches, window: window, exempt: exempt, storeClasses: storeClasses, sources: sources, asOf: asOf,
        memory: memory, reference: reference))
  }

  /// What a run that wrote this file knew of the designations it lists, and of their standing
  /// store exceptions: inferring again from the bundle's branches with it gives the same file.
  public var memory: DesignationMemory {
    var memory = DesignationMemory()
    for entry in districts {
      guard let remembered = entry.remembered else { continue }
      memory.designations[entry.key] = remembered
      for exception in entry.exceptions {
        let days = exception.pattern.compactMap(\.designatedDay)
        guard days.count == exception.pattern.count else { continue }
        memory.exceptions[exception.branch] = StoreException(
          branch: exception.branch, key: entry.key, pattern: days, since: exception.since)
      }
    }
    return memory
  }

  /// The districts `inference` found within `window`: what ``init(branches:window:exempt:)``
  /// says when `inference` is that of the same branches, window and exempt brands (before or
  /// after their expected days were set: expected days are no evidence).
  public init(window: DateWindow, inference: DistrictInference) {
    schemaVersion = bundleSchemaVersion
    self.window = window
    districts = inference.districts.map(Entry.init)
  }
}
