/// What ``DistrictDesignations/infer(from:window:exempt:storeClasses:sources:asOf:memory:reference:)`` found.
public struct DistrictInference: Sendable {
  /// One per district and store class with a pattern (confirmed now, or kept from ``memory``),
  /// sorted by district then class.
  public var districts: [DistrictPattern]
  /// The stores whose published days break their class's pattern in their district (standing
  /// exceptions aside), by district, class, then id.
  public var mismatches: [DesignationMismatch]
  /// Each designation's expected days within the window: its pattern's days, with the swaps all
  /// the stores following it made.
  public var expectedDates: [DesignationKey: [CalendarDate]]
  /// The brands not subject to the designation, whose branches the inference left out.
  public var exempt: Set<BrandSlug>
  /// The class of each designated brand (one not named is a hypermarket).
  public var storeClasses: [BrandSlug: StoreClass]
  /// The run's as-of date.
  public var asOf: CalendarDate
  /// The designations the stores replaced this run, by key.
  public var changes: [DesignationChange] = []
  /// What the next run starts from: every designation above, and the store exceptions standing
  /// or on their way to being one (including those of stores this run did not see).
  public var memory = DesignationMemory()

  public init(
    districts: [DistrictPattern], mismatches: [DesignationMismatch], expectedDates: [DesignationKey: [CalendarDate]],
    exempt: Set<BrandSlug>, storeClasses: [BrandSlug: StoreClass] = [:], asOf: CalendarDate
  ) {
    self.districts = districts
    self.mismatches = mismatches
    self.expectedDates = expectedDates
    self.exempt = exempt
    self.storeClasses = storeClasses
    self.asOf = asOf
  }

  /// The class of `brand`'s stores as this inference reads them.
  public func storeClass(of brand: BrandSlug) -> StoreClass { storeClasses[brand] ?? .hypermarket }

  /// The designation `storeClass` keeps in `district` (confirmed now or kept), if it has one.
  public func pattern(for district: District, storeClass: StoreClass) -> DistrictPattern? {
    districts.first { $0.district == district && $0.storeClass == storeClass }
  }

  /// The days a store of `storeClass` in `district` that publishes none is expected to close
  /// within the window: its class's pattern there, with the swaps the stores following it made;
  /// `nil` when the class has no established pattern in the district.
  public func expectedDays(for district: District, storeClass: StoreClass) -> [CalendarDate]? {
    expectedDates[DesignationKey(district: district, storeClass: storeClass)]
  }

  /// The expected closing days of `branch` when it is subject to the designation (its brand is
  /// not in ``exempt``), trades and its source publishes no days (status `unknown`): its own
  /// days when it is a standing store exception (`store-exception`), else its class's pattern
  /// in its district (its own ``Branch/storeClass`` when it has one, else its brand's; `learned`
  /// or `cited`, ``expectedClosing(for:storeClass:)``); `nil` when neither is known.
  public func expected(for branch: Branch) -> ExpectedClosing? {
    guard !exempt.contains(branch.brand), branch.storeStatus.isTrading, branch.closing.status == .unknown,
      let district = District(branch.address)
    else { return nil }
    let key = DesignationKey(district: district, storeClass: branch.storeClass ?? storeClass(of: branch.brand))
    if let exception = memory.exceptions[branch.id], exception.key == key, exception.isStanding(asOf: asOf),
      let window = window
    {
      return ExpectedClosing(
        dates: exception.dates(in: window), basis: ExpectedClosing.storeExceptionBasis, district: district.description,
        storeClass: key.storeClass)
    }
    return expectedClosing(for: district, storeClass: key.storeClass)
  }

  /// What a store of `storeClass` in `district` that publishes no days is expected to close
  /// on: ``expectedDays(for:storeClass:)`` with what they rest on (`basis` `learned` or
  /// `cited`, ``DistrictPattern/basis``); `nil` when the class has no pattern in the district.
  public func expectedClosing(for district: District, storeClass: StoreClass) -> ExpectedClosing? {
    guard let dates = expectedDays(for: district, storeClass: storeClass) else { return nil }
    let basis = pattern(for: district, storeClass: storeClass)?.basis ?? .learned
    return ExpectedClosing(dates: dates, basis: basis.rawValue, district: district.description, storeClass: storeClass)
  }

  /// The window the inference read, as its patterns' days show it.
  public var window: DateWindow?

  /// `branches` with `closing.expected` set as ``expected(for:)`` says (and cleared elsewhere);
  /// nothing else changes.
  public func withExpectedDays(_ branches: [Branch]) -> [Branch] {
    var branches = branches
    setExpectedDays(of: &branches)
    return branches
  }

  /// Sets each branch's `closing.expected` as ``expected(for:)`` says (and clears it elsewhere),
  /// in place; nothing else changes. A branch whose expected days stay as they were is left
  /// alone, so that it still shares its properties with its other copies (``Branch``).
  public func setExpectedDays(of branches: inout [Branch]) {
    for index in branches.indices {
      let expected = expected(for: branches[index])
      if branches[index].closing.expected != expected { branches[index].closing.expected = expected }
    }
  }
}

/// A store whose confirmed closing days break its district's pattern: worth a look (a parsing or
/// source error, or a known exception), never a reason to change its data.
public struct DesignationMismatch: Hashable, Sendable {
  public var branch: BranchID
  /// Its closing days within the window.
  public var dates: [CalendarDate]
  /// The district's pattern and its evidence.
  public var district: DistrictPattern
  /// The days within the window it closes and the pattern does not.
  public var closedOffPattern: [CalendarDate]
  /// The pattern's days within the window it is known to open (days its source says nothing
  /// about are left out).
  public var openOnPatternDays: [CalendarDate]

  public init(
    branch: BranchID, dates: [CalendarDate], district: DistrictPattern, closedOffPattern: [CalendarDate] = [],
    openOnPatternDays: [CalendarDate] = []
  ) {
    self.branch = branch
    self.dates = dates
    self.district = district
    self.closedOffPattern = closedOffPattern
    self.openOnPatternDays = openOnPatternDays
  }

  /// Names the days that disagree: `closes 2026-11-08, 2026-11-22, which the district does not;
  /// opens 2026-11-11, 2026-11-25, which it closes; 충청북도 청주시 keeps 2nd wednesday, 4th
  /// wednesday (evidence: …)`, with the table's source first when the pattern is cited.
  public var message: String {
    var parts: [String] = []
    if !closedOffPattern.isEmpty {
      parts.append("closes \(closedOffPattern.map(\.iso).joined(separator: ", ")), which the district does not")
    }
    if !openOnPatternDays.isEmpty {
      parts.append("opens \(openOnPatternDays.map(\.iso).joined(separator: ", ")), which it closes")
    }
    if parts.isEmpty { parts.append("closes \(dates.isEmpty ? "no day" : dates.map(\.iso).joined(separator: ", "))") }
    return parts.joined(separator: "; ") + "; \(district.district) keeps \(district.patternDescription) "
      + "(\(district.basisDescription))"
  }
}
