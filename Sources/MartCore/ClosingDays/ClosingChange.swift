/// What a change notice in a closing-day text does (`2/8(월) → 2/7(일)`, `2027년 1월부터 둘째·넷째
/// 일요일에서 둘째·넷째 수요일로 변경`), as ``ClosingSchedule/parseExplained(_:asOf:coverage:)``
/// reports it: the schedule already holds its days; this says why they are there.
public struct ClosingChange: Hashable, Sendable, Codable {
  /// `moved`: dates give way to other days; `rule-change`: rules give way to other rules.
  public enum Kind: String, Hashable, Sendable, Codable {
    case moved
    case ruleChange = "rule-change"
  }

  public var kind: Kind
  /// The dates that give way (`moved`): not closing days.
  public var replaced: [CalendarDate]
  /// The dates that replace them (`moved`).
  public var replacement: [CalendarDate]
  /// The rules that give way (`rule-change`): they hold before ``appliesFrom`` only.
  public var rulesBefore: [ClosingRule]
  /// The rules that replace them (`rule-change`): they hold from ``appliesFrom`` on.
  public var rulesAfter: [ClosingRule]
  /// The first day the new rules hold (`rule-change`); `nil` when the text does not say, and then
  /// the days of both are uncertain.
  public var appliesFrom: CalendarDate?

  public init(
    kind: Kind, replaced: [CalendarDate] = [], replacement: [CalendarDate] = [], rulesBefore: [ClosingRule] = [],
    rulesAfter: [ClosingRule] = [], appliesFrom: CalendarDate? = nil
  ) {
    self.kind = kind
    self.replaced = replaced
    self.replacement = replacement
    self.rulesBefore = rulesBefore
    self.rulesAfter = rulesAfter
    self.appliesFrom = appliesFrom
  }

  private enum CodingKeys: String, CodingKey {
    case kind, replaced, replacement, rulesBefore, rulesAfter, appliesFrom
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(kind, forKey: .kind)
    try container.encode(replaced, forKey: .replaced)
    try container.encode(replacement, forKey: .replacement)
    try container.encode(rulesBefore, forKey: .rulesBefore)
    try container.encode(rulesAfter, forKey: .rulesAfter)
    try container.encode(appliesFrom, forKey: .appliesFrom)  // null: the text does not say
  }
}

extension ClosingSchedule {
  /// Parses a closing-day text as ``parse(_:asOf:coverage:)`` does, and says which change
  /// notices it applied: dates moved, and rules replaced from a day on.
  public static func parseExplained(
    _ text: String, asOf: CalendarDate, coverage: DateCoverage = .asOfThroughLastListed
  ) -> (schedule: ClosingSchedule, changes: [ClosingChange]) {
    let syntax = ClosingClauseParser(tokens: ClosingTokens(text), asOf: asOf).parse()
    return ClosingResolver(asOf: asOf, coverage: coverage).resolve(syntax, text: text)
  }
}
