// The Codable form read by mobile clients; see docs/closing-days.md.

extension ClosingRule: Codable {
  private enum CodingKeys: String, CodingKey {
    case kind, ordinals, weekday, days, month, day
  }

  private enum Kind: String, Codable {
    case nthWeekday = "nth-weekday"
    case weekly
    case dayOfMonth = "day-of-month"
    case annual
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    switch try container.decode(Kind.self, forKey: .kind) {
    case .nthWeekday:
      self = .nthWeekday(
        ordinals: try container.decode([Int].self, forKey: .ordinals),
        weekday: try Self.decodeWeekday(container))
    case .weekly:
      self = .weekly(try Self.decodeWeekday(container))
    case .dayOfMonth:
      self = .dayOfMonth(try container.decode([Int].self, forKey: .days))
    case .annual:
      self = .annual(
        month: try container.decode(Int.self, forKey: .month),
        day: try container.decode(Int.self, forKey: .day))
    }
  }

  private static func decodeWeekday(_ container: KeyedDecodingContainer<CodingKeys>) throws -> Weekday {
    let name = try container.decode(String.self, forKey: .weekday)
    guard let weekday = Weekday.allCases.first(where: { $0.englishName == name }) else {
      throw DecodingError.dataCorruptedError(
        forKey: .weekday, in: container, debugDescription: "unknown weekday \"\(name)\"")
    }
    return weekday
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .nthWeekday(let ordinals, let weekday):
      try container.encode(Kind.nthWeekday, forKey: .kind)
      try container.encode(ordinals, forKey: .ordinals)
      try container.encode(weekday.englishName, forKey: .weekday)
    case .weekly(let weekday):
      try container.encode(Kind.weekly, forKey: .kind)
      try container.encode(weekday.englishName, forKey: .weekday)
    case .dayOfMonth(let days):
      try container.encode(Kind.dayOfMonth, forKey: .kind)
      try container.encode(days, forKey: .days)
    case .annual(let month, let day):
      try container.encode(Kind.annual, forKey: .kind)
      try container.encode(month, forKey: .month)
      try container.encode(day, forKey: .day)
    }
  }
}

extension ClosingSchedule: Codable {
  private enum CodingKeys: String, CodingKey {
    case status, rules, dates, lunar, exceptions, lunarExceptions, text, warnings, uncertain, coverage, holidayMoves
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      status: try container.decode(ClosingStatus.self, forKey: .status),
      rules: try container.decodeIfPresent([ClosingRule].self, forKey: .rules) ?? [],
      dates: try container.decodeIfPresent([CalendarDate].self, forKey: .dates) ?? [],
      lunar: try container.decodeIfPresent([LunarClosing].self, forKey: .lunar) ?? [],
      exceptions: try container.decodeIfPresent([CalendarDate].self, forKey: .exceptions) ?? [],
      lunarExceptions: try container.decodeIfPresent([LunarClosing].self, forKey: .lunarExceptions) ?? [],
      text: try container.decodeIfPresent(String.self, forKey: .text),
      warnings: try container.decodeIfPresent([String].self, forKey: .warnings) ?? [],
      // Schedules written before these keys existed have no uncertain days and speak of what
      // their rules and dates imply.
      uncertain: try container.decodeIfPresent([DateWindow].self, forKey: .uncertain) ?? [],
      coverage: try container.decodeIfPresent([DateWindow].self, forKey: .coverage))
    holidayMoves = try container.decodeIfPresent([HolidayMove].self, forKey: .holidayMoves) ?? []
  }

  /// Encodes every key (`text` and `coverage` as `null` when absent), in a fixed order, so that
  /// equal schedules encode identically; `holidayMoves` only when there are some.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(status, forKey: .status)
    try container.encode(rules, forKey: .rules)
    try container.encode(dates, forKey: .dates)
    try container.encode(lunar, forKey: .lunar)
    try container.encode(exceptions, forKey: .exceptions)
    try container.encode(lunarExceptions, forKey: .lunarExceptions)
    try container.encode(text, forKey: .text)
    try container.encode(warnings, forKey: .warnings)
    try container.encode(uncertain, forKey: .uncertain)
    try container.encode(coverage, forKey: .coverage)
    if !holidayMoves.isEmpty { try container.encode(holidayMoves, forKey: .holidayMoves) }
  }
}
