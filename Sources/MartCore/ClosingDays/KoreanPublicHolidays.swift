/// One Korean public holiday (공휴일): its day, its name and why it is a holiday.
public struct PublicHoliday: Hashable, Sendable {
  /// Why a day is a public holiday.
  public enum Kind: String, Hashable, Sendable, Codable {
    /// A solar day the law names (삼일절, 한글날, …).
    case fixed
    /// A lunar day the law names: the three days of 설날 and 추석, 부처님오신날.
    case lunar
    /// A substitute holiday (대체공휴일) for a holiday on a weekend or on another holiday.
    case substitute
    /// A day proclaimed once: an election day or a temporary holiday (임시공휴일).
    case oneOff = "one-off"
  }

  /// The law or proclamation that makes a day a holiday.
  public struct Source: Hashable, Sendable {
    public let text: String
    init(_ text: String) { self.text = text }
  }

  /// The day.
  public let date: CalendarDate
  /// Its name: `한글날`, `추석 전날`, `대체공휴일(추석)`, `제9회 전국동시지방선거일`.
  public let name: String
  /// Why it is a holiday.
  public let kind: Kind
  /// For a substitute: the name of the holiday it stands for, and that holiday's day.
  public let substituteFor: (name: String, date: CalendarDate)?
  /// The law or proclamation behind it.
  public let source: Source

  init(
    _ date: CalendarDate, _ name: String, _ kind: Kind, substituteFor: String? = nil, on: CalendarDate? = nil,
    source: Source
  ) {
    self.date = date
    self.name = name
    self.kind = kind
    self.substituteFor = substituteFor.flatMap { name in on.map { (name, $0) } }
    self.source = source
  }

  /// Reads the generated table (`KoreanPublicHolidays.generated.swift`): a holiday a line,
  /// `date|kind|source|name`, and for a substitute `|holiday it stands for|that holiday's date`.
  /// The text is generated and checked by the tests, so a row it cannot read is a programming error.
  static func readTable(_ text: String, sources: [String: Source]) -> [PublicHoliday] {
    text.split(separator: "\n").map { line in
      let fields = line.split(separator: "|", omittingEmptySubsequences: false)
      guard fields.count == 4 || fields.count == 6,
        let date = CalendarDate(iso: fields[0]),
        let kind = Kind(rawValue: String(fields[1])),
        let source = sources[String(fields[2])]
      else { preconditionFailure("unreadable row of the public-holiday table: \(line)") }
      guard fields.count == 6 else { return PublicHoliday(date, String(fields[3]), kind, source: source) }
      guard let standsForDate = CalendarDate(iso: fields[5]) else {
        preconditionFailure("unreadable row of the public-holiday table: \(line)")
      }
      return PublicHoliday(
        date, String(fields[3]), kind, substituteFor: String(fields[4]), on: standsForDate, source: source)
    }
  }

  public static func == (lhs: PublicHoliday, rhs: PublicHoliday) -> Bool {
    lhs.date == rhs.date && lhs.name == rhs.name && lhs.kind == rhs.kind
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(date)
    hasher.combine(name)
  }

  /// `한글날 (public holiday)`, `대체공휴일(추석) (substitute for 추석 전날 2025-10-05)`,
  /// `제9회 전국동시지방선거일 (one-off: 공직선거법 제34조 …)`.
  public var explanation: String {
    switch kind {
    case .fixed, .lunar: "\(name) (public holiday)"
    case .substitute:
      "\(name) (substitute holiday for \(substituteFor.map { "\($0.name) \($0.date.iso)" } ?? "a holiday"))"
    case .oneOff: "\(name) (one-off public holiday: \(source.text))"
    }
  }
}

/// What the table says of one day.
public enum PublicHolidayStatus: Hashable, Sendable {
  /// A public holiday.
  case holiday(PublicHoliday)
  /// Not a public holiday, as far as the table knows (see ``KoreanPublicHolidays/oneOffsKnownThrough``).
  case notHoliday
  /// The table cannot tell: the year is outside it, or the law leaves the day open. The reason says which.
  case unknown(String)
}

/// Korean public holidays (공휴일) for 2000–2050, as 「관공서의 공휴일에 관한 규정」 and
/// 「공휴일에 관한 법률」 name them year by year: the fixed and lunar days, the substitute
/// holidays by the rule in force on each holiday's date, and the one-off days (elections,
/// temporary holidays) proclaimed up to ``oneOffsKnownThrough``.
///
/// The table lives in `KoreanPublicHolidays.generated.swift`, written by
/// `scripts/generate_public_holidays.py`, which cites the source of every rule and one-off day.
/// Sundays are not listed: they are not holidays a closing-day text speaks of.
///
/// Regular holidays are known for every covered year. One-off days proclaimed after
/// ``oneOffsKnownThrough`` cannot be in the table: a day after it is ``PublicHolidayStatus/notHoliday``
/// unless the law names it, and callers say the table is complete only up to that day.
public enum KoreanPublicHolidays {
  /// The years the table covers.
  public static var years: ClosedRange<Int> { coveredYears }

  /// The last day for which the one-off days (elections, temporary holidays) are known.
  public static var oneOffsKnownThrough: CalendarDate { oneOffsCheckedThrough }

  private static let byDate: [CalendarDate: PublicHoliday] = Dictionary(
    table.map { ($0.date, $0) }, uniquingKeysWith: { first, _ in first })

  /// What the table says of `date`.
  public static func status(of date: CalendarDate) -> PublicHolidayStatus {
    guard coveredYears.contains(date.year) else {
      return .unknown("public holidays are known for \(coveredYears.lowerBound)–\(coveredYears.upperBound) only")
    }
    if let holiday = byDate[date] { return .holiday(holiday) }
    if let why = unsettledDays[date] { return .unknown(why) }
    return .notHoliday
  }

  /// The holiday on `date`, or `nil` when it is none or the table cannot tell.
  public static func holiday(on date: CalendarDate) -> PublicHoliday? {
    if case .holiday(let holiday) = status(of: date) { return holiday }
    return nil
  }

  /// The public holidays of `year`, in date order (empty outside ``years``).
  public static func holidays(inYear year: Int) -> [PublicHoliday] {
    table.filter { $0.date.year == year }
  }

  /// The days of public holidays within `from...through`, sorted and unique.
  public static func dates(from: CalendarDate, through: CalendarDate) -> [CalendarDate] {
    guard from <= through else { return [] }
    return Set(table.lazy.map(\.date).filter { $0 >= from && $0 <= through }).sorted()
  }

  /// The days within `from...through` the table cannot tell, sorted: outside ``years``, or
  /// left open by the law.
  public static func unknownDates(from: CalendarDate, through: CalendarDate) -> [CalendarDate] {
    guard from <= through else { return [] }
    var days = unsettledDays.keys.filter { $0 >= from && $0 <= through }
    var day = from
    while day <= through {
      if !coveredYears.contains(day.year) { days.append(day) }
      day = day.adding(days: 1)
    }
    return days.sorted()
  }
}
