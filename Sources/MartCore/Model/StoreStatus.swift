/// Whether a branch is trading, and if not, what its source said.
///
/// Encoded as `{"state": …, "text": …, "until": …, "closesOn": …}` with every key present:
/// `text`, `until` and `closesOn` are JSON `null` when unknown. Clients check `state` before
/// anything else: a branch that is not trading is shut from the as-of date on (up to `until`);
/// a trading branch with `closesOn` trades until the day before and is closed for good from it.
public struct StoreStatus: Hashable, Sendable {
  /// The trading state on the as-of date.
  public enum State: String, Hashable, Sendable, Codable, CaseIterable {
    /// Open as usual on every day its closing days do not exclude.
    case trading
    /// Shut for a while (임시휴업, 리뉴얼 공사로 휴점, 영업 중단 …), possibly until `until`.
    case temporarilyClosed = "temporarily-closed"
    /// Closed for good (영업종료, 폐점 …).
    case closed
  }

  public var state: State
  /// The published sentence or state cell the state was read from, e.g. `마트 임시휴업.
  /// 몰영업시간 10:00~21:00` or `영업중`; `nil` when the source said nothing about it.
  public var text: String?
  /// The last shut day of a temporary closure, when the source says when it ends
  /// (`리뉴얼 공사로 12/31까지 휴점` → 12-31); otherwise `nil`.
  public var until: CalendarDate?
  /// The day a trading store closes for good, when its source announces one (`2026-12-31
  /// 영업종료 예정`); `nil` otherwise. The store trades until the day before.
  public var closesOn: CalendarDate?

  public init(state: State, text: String? = nil, until: CalendarDate? = nil, closesOn: CalendarDate? = nil) {
    self.state = state
    self.text = text
    self.until = until
    self.closesOn = closesOn
  }

  /// Trading, with nothing published about it.
  public static let trading = StoreStatus(state: .trading)

  /// `true` when the branch trades (its closing days alone say when it is shut).
  public var isTrading: Bool { state == .trading }
}

extension StoreStatus: Codable {
  private enum CodingKeys: String, CodingKey {
    case state, text, until, closesOn
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      state: try container.decode(State.self, forKey: .state),
      text: try container.decodeIfPresent(String.self, forKey: .text),
      until: try container.decodeIfPresent(CalendarDate.self, forKey: .until),
      closesOn: try container.decodeIfPresent(CalendarDate.self, forKey: .closesOn))
  }

  /// Encodes every key; unknown `text`, `until` and `closesOn` are explicit `null`s.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(state, forKey: .state)
    try container.encode(text, forKey: .text)
    try container.encode(until, forKey: .until)
    try container.encode(closesOn, forKey: .closesOn)
  }
}
