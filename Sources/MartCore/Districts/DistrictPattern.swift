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
  /// district whose `sigungu` is its own name.
  public static let provincesWithoutSigungu: Set<String> = ["세종특별자치시"]

  /// The district of a branch's normalized address, or `nil` when it has no 시도 or 시·군·구
  /// (세종 has none: it is its own district).
  public init?(_ address: BranchAddress) {
    guard let sido = address.sido, !sido.isEmpty else { return nil }
    if Self.provincesWithoutSigungu.contains(sido) {
      self.init(sido: sido, sigungu: sido)
      return
    }
    guard let sigungu = address.sigungu, !sigungu.isEmpty else { return nil }
    // `성남시 분당구`: the 시 designates for its 구.
    let city = sigungu.split(separator: " ").first.map(String.init) ?? sigungu
    self.init(sido: sido, sigungu: city)
  }

  /// `<sido> <sigungu>`, e.g. `충청북도 청주시`; `세종특별자치시` alone.
  public var description: String { sido == sigungu ? sido : "\(sido) \(sigungu)" }

  public static func < (lhs: District, rhs: District) -> Bool {
    lhs.sido != rhs.sido
      ? lhs.sido.utf8.lexicographicallyPrecedes(rhs.sido.utf8)
      : lhs.sigungu.utf8.lexicographicallyPrecedes(rhs.sigungu.utf8)
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
      ClosingRule.nthWeekday(ordinals: [ordinal], weekday: weekday).dates(inMonthStarting: monthStart).first
    case .dayOfMonth(let day): CalendarDate(year: monthStart.year, month: monthStart.month, day: day)
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

  public init(date: CalendarDate, ids: [BranchID]) {
    self.date = date
    self.ids = ids
  }
}

/// The closing days a district keeps, as its stores that publish theirs show them: one entry of
/// `districts.json`. See ``DistrictDesignations`` for how it is inferred.
public struct DistrictPattern: Hashable, Sendable {
  public var district: District
  /// The days of every month, sorted by ordinal then weekday.
  public var pattern: [DesignatedDay]
  /// The stores that follow the pattern, sorted.
  public var evidence: [BranchID]
  /// How many stores of the district publish closing days for the window.
  public var stores: Int
  /// Days agreeing stores closed instead of a pattern day, in date order.
  public var swaps: [DistrictSwap]

  public init(district: District, pattern: [DesignatedDay], evidence: [BranchID], stores: Int, swaps: [DistrictSwap]) {
    self.district = district
    self.pattern = pattern
    self.evidence = evidence
    self.stores = stores
    self.swaps = swaps
  }

  /// How many stores follow the pattern (the evidence).
  public var agreeing: Int { evidence.count }

  /// `2nd wednesday, 4th wednesday`.
  public var patternDescription: String { pattern.map(\.description).joined(separator: ", ") }

  /// The pattern's days within `window`, sorted.
  public func patternDates(in window: DateWindow) -> [CalendarDate] {
    var dates: [CalendarDate] = []
    var month = window.from.firstOfMonth()
    while month <= window.through {
      dates += pattern.compactMap { $0.date(inMonthStarting: month) }.filter(window.contains)
      month = month.firstOfMonth(addingMonths: 1)
    }
    return dates.sorted()
  }
}

/// The days a branch that publishes none is expected to close, from its district's pattern:
/// `closing.expected`. Never confirmed days: clients show them apart and tentatively.
public struct ExpectedClosing: Hashable, Sendable, Codable {
  /// Within the bundle's window, sorted.
  public var dates: [CalendarDate]
  /// What the days are inferred from; `district` (the stores of the branch's district).
  public var basis: String
  /// `<sido> <sigungu>` of the district whose pattern gave the days.
  public var district: String

  public init(dates: [CalendarDate], basis: String = "district", district: String) {
    self.dates = dates
    self.basis = basis
    self.district = district
  }
}
