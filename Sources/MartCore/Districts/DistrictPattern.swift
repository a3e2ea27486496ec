/// A 시·군·구 whose head designates the closing days (의무휴업일) of the hypermarkets and SSMs in it
/// (유통산업발전법 §12-2): an autonomous 구, a 시 or a 군. A city divided into non-autonomous 구
/// (`성남시 분당구`, `청주시 흥덕구`) designates once for the whole city, so such a branch belongs to
/// the 시 (`성남시`).
public struct District: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// 시도 by its current official name, as branches' addresses give it (`전남광주통합특별시`).
  public var sido: String
  /// The designating 시·군·구 (`청주시`, `서초구`, `기장군`).
  public var sigungu: String

  public init(sido: String, sigungu: String) {
    self.sido = sido
    self.sigungu = sigungu
  }

  /// The 시도 that has no 시·군·구 (세종특별자치시): it designates for the whole of it, and is one
  /// district whose `sigungu` is its own name. A list, not a set: comparing a name with one
  /// other is cheaper than hashing it (which normalizes every Hangul syllable).
  public static let provincesWithoutSigungu: [String] = ["세종특별자치시"]

  /// The district of a branch's normalized address, or `nil` when it has no 시도 or 시·군·구
  /// (세종 has none: it is its own district).
  public init?(_ address: BranchAddress) {
    guard let sido = address.sido, !sido.isEmpty else { return nil }
    if Self.provincesWithoutSigungu.contains(sido) {
      self.init(sido: sido, sigungu: sido)
      return
    }
    guard let sigungu = address.sigungu, !sigungu.isEmpty else { return nil }
    // `성남시 분당구`: the 시 designates for its 구, the first word (spaces before it left out).
    let bytes = sigungu.utf8
    guard let start = bytes.firstIndex(where: { $0 != UInt8(ascii: " ") }) else {
      self.init(sido: sido, sigungu: sigungu)
      return
    }
    let end = bytes[start...].firstIndex(of: UInt8(ascii: " ")) ?? bytes.endIndex
    let city = start == bytes.startIndex && end == bytes.endIndex ? sigungu : String(sigungu[start..<end])
    self.init(sido: sido, sigungu: city)
  }

  /// `<sido> <sigungu>`, e.g. `충청북도 청주시`; `세종특별자치시` alone.
  public var description: String { sido == sigungu ? sido : "\(sido) \(sigungu)" }

  public static func < (lhs: District, rhs: District) -> Bool {
    lhs.sido != rhs.sido
      ? lhs.sido.utf8.lexicographicallyPrecedes(rhs.sido.utf8)
      : lhs.sigungu.utf8.lexicographicallyPrecedes(rhs.sigungu.utf8)
  }

  /// The same names, byte for byte: the names are NFC (an address parser's, a table's), so the
  /// bytes say what the texts do, and compare without the normalizing a `String` comparison of
  /// Hangul does.
  public static func == (lhs: District, rhs: District) -> Bool {
    lhs.sido.hasSameUTF8(as: rhs.sido) && lhs.sigungu.hasSameUTF8(as: rhs.sigungu)
  }

  /// The names' bytes, as ``==(_:_:)`` compares them.
  public func hash(into hasher: inout Hasher) {
    sido.hashUTF8(into: &hasher)
    sigungu.hashUTF8(into: &hasher)
  }
}

/// One day of a monthly designation: the `ordinal`-th `weekday` of every month (2nd Wednesday),
/// or a day of the month (the 10th: 안산's designation since 2015, 충주's 10th and 25th, its
/// market days, since 2012).
public struct DesignatedDay: Hashable, Comparable, Sendable {
  /// Which day of the month it is.
  public enum Kind: Hashable, Sendable {
    /// The `ordinal`-th (1 to 5) `weekday`.
    case nthWeekday(ordinal: Int, weekday: Weekday)
    /// The `day`-th (1 to 31) of the month; a month without it has no such day.
    case dayOfMonth(Int)
  }

  public var kind: Kind

  /// The `ordinal`-th `weekday` of every month.
  public init(ordinal: Int, weekday: Weekday) {
    kind = .nthWeekday(ordinal: ordinal, weekday: weekday)
  }

  /// The `day`-th of every month.
  public init(dayOfMonth day: Int) {
    kind = .dayOfMonth(day)
  }

  /// The nth weekday `date` is: its weekday and which occurrence of it in its month.
  init(of date: CalendarDate) {
    self.init(ordinal: (date.day - 1) / 7 + 1, weekday: date.weekday)
  }

  /// For an nth weekday, its ordinal; `nil` for a day of the month.
  public var ordinal: Int? {
    if case .nthWeekday(let ordinal, _) = kind { return ordinal }
    return nil
  }

  /// For an nth weekday, its weekday; `nil` for a day of the month.
  public var weekday: Weekday? {
    if case .nthWeekday(_, let weekday) = kind { return weekday }
    return nil
  }

  /// For a day of the month, the day; `nil` for an nth weekday.
  public var dayOfMonth: Int? {
    if case .dayOfMonth(let day) = kind { return day }
    return nil
  }

  /// Its day in the month starting at `monthStart`, if the month has one.
  func date(inMonthStarting monthStart: CalendarDate) -> CalendarDate? {
    switch kind {
    case .nthWeekday(let ordinal, let weekday):
      ClosingRule.date(ordinal: ordinal, weekday: weekday, inMonthStarting: monthStart)
    case .dayOfMonth(let day): CalendarDate(year: monthStart.year, month: monthStart.month, day: day)
    }
  }

  /// A short stable form for storage: `2:wednesday` (an nth weekday), `10` (a day of the month).
  public var code: String {
    switch kind {
    case .nthWeekday(let ordinal, let weekday): "\(ordinal):\(weekday.englishName)"
    case .dayOfMonth(let day): "\(day)"
    }
  }

  /// The day ``code`` gives, or `nil` when it names none (an ordinal outside 1…5, a day outside
  /// 1…31, a weekday not spelled as in ``Weekday/englishName``).
  public init?(code: some StringProtocol) {
    let parts = code.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 1, let day = Int(parts[0]), (1...31).contains(day) {
      self.init(dayOfMonth: day)
    } else if parts.count == 2, let ordinal = Int(parts[0]), (1...5).contains(ordinal),
      let weekday = Weekday.allCases.first(where: { $0.englishName == parts[1] })
    {
      self.init(ordinal: ordinal, weekday: weekday)
    } else {
      return nil
    }
  }

  /// `2nd wednesday`, `10th of the month`.
  public var description: String {
    switch kind {
    case .nthWeekday(let ordinal, let weekday): "\(Self.ordinalName(ordinal)) \(weekday.englishName)"
    case .dayOfMonth(let day): "\(Self.ordinalName(day)) of the month"
    }
  }

  /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, `25th`.
  public static func ordinalName(_ number: Int) -> String {
    let suffix =
      (11...13).contains(number % 100)
      ? "th" : number % 10 == 1 ? "st" : number % 10 == 2 ? "nd" : number % 10 == 3 ? "rd" : "th"
    return "\(number)\(suffix)"
  }

  /// Nth weekdays first (by ordinal, then weekday), then days of the month in order.
  public static func < (lhs: DesignatedDay, rhs: DesignatedDay) -> Bool {
    switch (lhs.kind, rhs.kind) {
    case (.nthWeekday(let a, let x), .nthWeekday(let b, let y)): a != b ? a < b : x < y
    case (.nthWeekday, .dayOfMonth): true
    case (.dayOfMonth, .nthWeekday): false
    case (.dayOfMonth(let a), .dayOfMonth(let b)): a < b
    }
  }
}

/// A day the stores of a district closed instead of one of its pattern's days (a 설 or 추석
/// swap), and the agreeing stores that did.
public struct DistrictSwap: Hashable, Sendable {
  public var date: CalendarDate
  /// Sorted.
  public var ids: [BranchID]
  /// The pattern day it replaced; `nil` in bundles made before it was kept.
  public var replaces: CalendarDate?

  public init(date: CalendarDate, ids: [BranchID], replaces: CalendarDate? = nil) {
    self.date = date
    self.ids = ids
    self.replaces = replaces
  }
}

/// The closing days one store class keeps in a district, as its stores that publish theirs
/// show them, now or when they last did: one entry of `districts.json`. See
/// ``DistrictDesignations`` for how it is inferred and kept.
public struct DistrictPattern: Hashable, Sendable {
  public var district: District
  /// The class of store the designation binds.
  public var storeClass: StoreClass
  /// The days of every month, sorted by ordinal then weekday.
  public var pattern: [DesignatedDay]
  /// The stores that followed the pattern when it was last confirmed, sorted.
  public var evidence: [BranchID]
  /// How many stores of the class in the district publish closing days for the window now.
  public var stores: Int
  /// Days the stores following it closed instead of a pattern day, in date order.
  public var swaps: [DistrictSwap]
  /// The as-of date of the first run whose stores showed this pattern; `nil` when it is cited.
  public var firstConfirmed: CalendarDate?
  /// The as-of date of the last run whose stores showed it: the run's own when its stores
  /// confirm it, an earlier one when it is kept without fresh evidence; `nil` when it is cited.
  public var lastConfirmed: CalendarDate?
  /// The researched source of a cited pattern (``DesignationBasis/cited``: from
  /// `data/designations.json`, no run's stores have established it); `nil` when learned.
  public var citation: DesignationCitation?
  /// The stores of the class in the district that keep days of their own and have for
  /// ``DistrictDesignations/exceptionAfterMonths`` months (standing exceptions), sorted by id.
  public var exceptions: [StoreException]

  public init(
    district: District, pattern: [DesignatedDay], evidence: [BranchID], stores: Int, swaps: [DistrictSwap],
    storeClass: StoreClass = .hypermarket, firstConfirmed: CalendarDate? = CalendarDate(dayNumber: 0),
    lastConfirmed: CalendarDate? = CalendarDate(dayNumber: 0), exceptions: [StoreException] = [],
    citation: DesignationCitation? = nil
  ) {
    self.citation = citation
    self.district = district
    self.storeClass = storeClass
    self.pattern = pattern
    self.evidence = evidence
    self.stores = stores
    self.swaps = swaps
    self.firstConfirmed = firstConfirmed
    self.lastConfirmed = lastConfirmed
    self.exceptions = exceptions
  }

  /// Which designation it is.
  public var key: DesignationKey { DesignationKey(district: district, storeClass: storeClass) }

  /// How many stores follow the pattern (the evidence).
  public var agreeing: Int { evidence.count }

  /// `cited` when its days come from the researched table, `learned` when stores established them.
  public var basis: DesignationBasis { citation == nil ? .learned : .cited }

  /// How many days before `asOf` it was last confirmed (0 when confirmed by the run of `asOf`);
  /// `nil` when it is cited and no stores have confirmed it.
  public func daysSinceConfirmed(asOf: CalendarDate) -> Int? {
    lastConfirmed.map { max(0, asOf.dayNumber - $0.dayNumber) }
  }

  /// What the pattern rests on, for messages: `evidence: <ids>`, and for a cited pattern
  /// `cited since 2014-05 (경기일보, 2014-05-01)` first.
  public var basisDescription: String {
    let stores = "evidence: " + (evidence.isEmpty ? "no store" : evidence.map(\.description).joined(separator: ", "))
    return citation.map { "cited \($0); \(stores)" } ?? stores
  }

  /// `2nd wednesday, 4th wednesday`.
  public var patternDescription: String { Self.describe(pattern) }

  /// `2nd wednesday, 4th wednesday`.
  public static func describe(_ pattern: [DesignatedDay]) -> String {
    pattern.map(\.description).joined(separator: ", ")
  }

  /// The pattern's days within `window`, sorted.
  public func patternDates(in window: DateWindow) -> [CalendarDate] { Self.dates(of: pattern, in: window) }

  /// The days of `pattern` within `window`, sorted.
  public static func dates(of pattern: [DesignatedDay], in window: DateWindow) -> [CalendarDate] {
    var dates: [CalendarDate] = []
    var month = window.from.firstOfMonth()
    while month <= window.through {
      for day in pattern {
        if let date = day.date(inMonthStarting: month), window.contains(date) { dates.append(date) }
      }
      month = month.firstOfMonth(addingMonths: 1)
    }
    dates.sortOnceEach()
    return dates
  }
}

/// The days a branch that publishes none is expected to close, from its district's pattern:
/// `closing.expected`. Never confirmed days: clients show them apart and tentatively.
public struct ExpectedClosing: Hashable, Sendable, Codable {
  /// Within the bundle's window, sorted.
  public var dates: [CalendarDate]
  /// What the days are inferred from: `learned` (its class's pattern in the branch's district,
  /// as the district's stores established it), `cited` (its class's designation in the
  /// researched table, `data/designations.json`, which the stores have not established) or
  /// `store-exception` (the days the store kept on its own, as a standing exception, while it
  /// published them). Bundles made before `cited` existed wrote `district` for `learned`.
  public var basis: String
  /// `<sido> <sigungu>` of the district whose pattern gave the days.
  public var district: String
  /// The class of store whose designation gave the days; `nil` in bundles made before classes.
  public var storeClass: StoreClass?

  /// ``basis`` of days from the district's pattern as its stores established it.
  public static let learnedBasis = DesignationBasis.learned.rawValue
  /// ``basis`` of days from the researched table's designation for the class in the district.
  public static let citedBasis = DesignationBasis.cited.rawValue
  /// ``basis`` of days from the district's pattern, whatever it rests on: ``learnedBasis``.
  public static let districtBasis = learnedBasis
  /// What bundles made before ``citedBasis`` existed wrote for ``learnedBasis``.
  public static let legacyDistrictBasis = "district"
  /// ``basis`` of days from a standing store exception.
  public static let storeExceptionBasis = "store-exception"

  public init(dates: [CalendarDate], basis: String = districtBasis, district: String, storeClass: StoreClass? = nil) {
    self.dates = dates
    self.basis = basis
    self.district = district
    self.storeClass = storeClass
  }
}
