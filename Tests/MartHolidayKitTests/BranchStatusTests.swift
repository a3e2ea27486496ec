import Foundation
import MartHolidayKit
import TestSupport
import Testing

/// The kit's answers over the bundle the fixtures publish, checked against the bundle's own
/// files read as plain JSON, and against dates taken from the calendar.
@Suite struct BranchStatusTests {
  /// What the bundle files say of one branch on one day of the window (docs/bundle-format.md).
  static func expectedStatus(of branch: [String: Any], on day: String, asOf: String) -> MartDayStatus {
    let store = branch["storeStatus"] as? [String: Any] ?? [:]
    let state = store["state"] as? String ?? "trading"
    let until = store["until"] as? String
    let closesOn = store["closesOn"] as? String
    switch state {
    case "closed" where day >= asOf: return .shut
    case "temporarily-closed" where day >= asOf && (until.map { day <= $0 } ?? true): return .shut
    case "trading" where closesOn.map({ day >= $0 }) ?? false: return .shut
    default: break
    }
    let closing = branch["closing"] as? [String: Any] ?? [:]
    if (closing["dates"] as? [String] ?? []).contains(day) { return .closed }
    // An expected day (inferred from the district) is a day the source says nothing of.
    if ((closing["expected"] as? [String: Any])?["dates"] as? [String] ?? []).contains(day) { return .expectedClosed }
    for range in closing["unknownRanges"] as? [[String: String]] ?? [] {
      if let from = range["from"], let through = range["through"], from <= day, day <= through { return .unknown }
    }
    return .open
  }

  @Test func everyBranchAgreesWithTheBundleFilesOverTheWindow() async throws {
    let output = try await PublishedFixtures.shared.output()
    let raw = try RawBundle(output: output)
    let bundle = try await PublishedFixtures.shared.bundle()
    #expect(bundle.branches.count == raw.branches.count)
    let days = isoDays(from: raw.window.from, through: raw.window.through)
    #expect(days.count == 92)
    var closedByDay: [String: [String]] = [:]
    var unknownByDay: [String: [String]] = [:]
    for record in raw.branches {
      let id = try #require(record["id"] as? String)
      let branch = try #require(bundle.branch(id: id))
      for day in days {
        let status = branch.status(on: try #require(MartDay(iso: day)))
        let expected = Self.expectedStatus(of: record, on: day, asOf: raw.asOf)
        #expect(status == expected, "\(id) on \(day)")
        if status == .closed { closedByDay[day, default: []].append(id) }
        // closures.json lists an expected day among the unknown ones too (and in `expected`).
        if status == .unknown || status == .expectedClosed { unknownByDay[day, default: []].append(id) }
      }
    }
    // closures.json: the branches whose day is unknown, the kit's `.unknown` inside the window.
    let unknown = try #require(raw.closures["unknown"] as? [String: [String]])
    #expect(!unknown.isEmpty, "the fixtures have branches with unknown days")
    #expect(Set(unknown.keys) == Set(unknownByDay.keys))
    for day in days {
      #expect((unknownByDay[day] ?? []).sorted() == (unknown[day] ?? []), "closures.json unknown on \(day)")
    }
    // closures.json: the branches closed on each day, shut stores left out.
    let closures = try #require(raw.closures["dates"] as? [String: [String]])
    for day in days {
      let listed = closures[day] ?? []
      #expect((closedByDay[day] ?? []).sorted() == listed, "closures.json on \(day)")
      #expect(bundle.branchesClosed(on: try #require(MartDay(iso: day))).map(\.id) == listed, "branchesClosed \(day)")
    }
    let shut = try #require(raw.closures["shut"] as? [String])
    let asOf = try #require(MartDay(iso: raw.asOf))
    #expect(bundle.branchesShut(on: asOf).filter { $0.storeStatus.state != .trading }.map(\.id) == shut)
  }

  /// `nextClosing(after:)`, and days past the window expanded from the schedule. Expected dates
  /// from python3's calendar module (2nd and 4th Sundays; `calendar.monthcalendar`) and, for 설날
  /// and 추석, the KASI dates (2027-02-07, 2027-09-15).
  static let nextClosingCases: [(id: String, after: String, expected: MartNextClosing)] = [
    // E-mart publishes three months of dates: known through 2027-01-31, then unknown. "After"
    // is exclusive: 2026-11-22 (a 4th Sunday) is not its own next closing day.
    ("emart-1059", "2026-11-20", .closing(martDay("2026-11-22"))),
    ("emart-1059", "2026-11-22", .closing(martDay("2026-12-13"))),
    ("emart-1059", "2026-11-21", .closing(martDay("2026-11-22"))),
    // 2027-01-24 is the 4th Sunday of January; the 25th to the 31st are open, February unknown.
    ("emart-1059", "2027-01-24", .unknownFrom(martDay("2027-02-01"))),
    // A rule without an end (2nd and 4th Sundays), expanded past the window.
    ("homeplus-685", "2027-01-24", .closing(martDay("2027-02-14"))),
    ("homeplus-685", "2027-02-14", .closing(martDay("2027-02-28"))),
    ("homeplus-685", "2027-12-12", .closing(martDay("2027-12-26"))),
    // Costco: 2nd and 4th Sundays, 1/1, 설날 and 추석.
    ("costco-Busan", "2027-01-31", .closing(martDay("2027-02-07"))),
    ("costco-Busan", "2027-09-12", .closing(martDay("2027-09-15"))),
    ("costco-Busan", "2027-12-26", .closing(martDay("2028-01-01"))),
    // Next closing day listed up to 11/25 (the 4th Wednesday: 2026-11-01 is a Sunday), nothing
    // known after.
    ("homeplus-658", "2026-11-20", .closing(martDay("2026-11-25"))),
    ("homeplus-658", "2026-11-25", .unknownFrom(martDay("2026-11-26"))),
    // Unknown closing days: no promise at all, from the next day on.
    ("emart-1099", "2026-11-20", .unknownFrom(martDay("2026-11-21"))),
    // Temporarily closed through 2026-12-31: the shut days are passed over, and the answer is
    // the 2nd Sunday after it reopens (2027-01-03 is the 1st Sunday of January).
    ("lottemart-마산점", "2026-11-20", .closing(martDay("2027-01-10"))),
    // Closes for good on 2026-12-15: shut every day after, so no closing day is known.
    ("gs-thefresh-10972", "2026-12-14", .noneKnown),
    // Closed for good from the as-of day (2026-11-20); the day before it is unknown.
    ("homeplus-655", "2026-11-20", .noneKnown),
    ("homeplus-655", "2026-11-18", .unknownFrom(martDay("2026-11-19"))),
  ]

  @Test func nextClosing() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    forEachCase(Self.nextClosingCases, named: { "\($0.id) after \($0.after)" }) { example, comment in
      let branch = try #require(bundle.branch(id: example.id), comment)
      #expect(branch.nextClosing(after: martDay(example.after)) == example.expected, comment)
    }
  }

  /// The deprecated `nextClosingDay(after:horizon:)` still answers: the day of a `.closing`
  /// answer, `nil` for the others; and a horizon too short to reach the day gives `nil`.
  @Test func deprecatedNextClosingDayStillAnswers() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    forEachCase(Self.nextClosingCases, named: { "\($0.id) after \($0.after)" }) { example, comment in
      let branch: any LegacyNextClosingDay = try #require(bundle.branch(id: example.id), comment)
      let expected: MartDay? = if case .closing(let next) = example.expected { next } else { nil }
      #expect(branch.nextClosingDay(after: martDay(example.after), horizon: 366) == expected, comment)
    }
    // 2026-11-22 is 2 days after 2026-11-20: a horizon of 1 day does not reach it, 2 days do.
    let branch: any LegacyNextClosingDay = try #require(bundle.branch(id: "emart-1059"))
    #expect(branch.nextClosingDay(after: martDay("2026-11-20"), horizon: 1) == nil)
    #expect(branch.nextClosingDay(after: martDay("2026-11-20"), horizon: 2) == martDay("2026-11-22"))
  }

  @Test func status() async throws {
    let cases: [(id: String, day: String, expected: MartDayStatus)] = [
      // Inside the window.
      ("emart-1059", "2026-11-22", MartDayStatus.closed),
      ("emart-1059", "2026-11-23", .open),
      // Before the window, and after knownThrough (2027-01-31).
      ("emart-1059", "2026-10-25", .unknown),
      ("emart-1059", "2027-02-14", .unknown),
      // A rule without an end, past the window; 2028-02-13 is a 2nd Sunday.
      ("homeplus-685", "2027-03-14", .closed),
      ("homeplus-685", "2027-03-15", .open),
      ("homeplus-685", "2028-02-13", .closed),
      // 설날 2027 is 2027-02-07; beyond the lunar table (2050) a lunar schedule is not promised,
      // a rule alone still is (2051-01-08 is a 2nd Sunday).
      ("costco-Busan", "2027-02-07", .closed),
      ("costco-Busan", "2027-02-08", .open),
      ("costco-Busan", "2051-01-09", .unknown),
      ("homeplus-685", "2051-01-08", .closed),
      ("homeplus-685", "2051-01-09", .open),
      // Closing days unknown: never open, inside or past the window.
      ("emart-1099", "2026-11-21", .unknown),
      ("emart-1099", "2027-03-01", .unknown),
      // Dates for November and December only: January is unknown.
      ("gs-thefresh-10112", "2027-01-05", .unknown),
      // Shut: closed for good from the as-of day, before it unknown; temporarily closed through
      // 2026-12-31, then its 2nd and 4th Sundays; closing for good on 2026-12-15.
      ("homeplus-655", "2026-11-20", .shut),
      ("homeplus-655", "2027-06-01", .shut),
      ("homeplus-655", "2026-11-19", .unknown),
      ("lottemart-마산점", "2026-12-31", .shut),
      ("lottemart-마산점", "2027-01-10", .closed),
      ("lottemart-마산점", "2027-01-11", .open),
      ("gs-thefresh-10972", "2026-12-14", .open),
      ("gs-thefresh-10972", "2026-12-15", .shut),
      ("gs-thefresh-10972", "2027-03-01", .shut),
    ]
    let bundle = try await PublishedFixtures.shared.bundle()
    forEachCase(cases, named: { "\($0.id) on \($0.day)" }) { example, comment in
      let branch = try #require(bundle.branch(id: example.id), comment)
      #expect(branch.status(on: try #require(MartDay(iso: example.day), comment)) == example.expected, comment)
    }
  }

  @Test func theIssueExampleAnswersInFiveLines() async throws {
    let outputDirectoryURL = try await PublishedFixtures.shared.output()
    let bundle = try MartBundle(contentsOf: outputDirectoryURL)
    let branch = bundle.branch(id: "emart-1059")
    let day = MartDay(year: 2026, month: 11, day: 22)
    #expect(branch?.status(on: day) == .closed)
    #expect(branch?.nextClosing(after: day) == .closing(MartDay(year: 2026, month: 12, day: 13)))
    #expect(branch?.brand == MartBrand(slug: "emart", name: "이마트"))
    #expect(branch?.displayName == "이마트 창원점")
    #expect(bundle.branchesClosed(on: day).contains { $0.id == "emart-1059" })
    #expect(bundle.branch(id: "emart-0") == nil)
  }
}

/// The day `iso` names; traps on a malformed literal of the test's own tables.
func martDay(_ iso: String) -> MartDay {
  guard let day = MartDay(iso: iso) else { preconditionFailure("not a YYYY-MM-DD day: \(iso)") }
  return day
}

/// The deprecated API, called through a protocol so that the test of it compiles without
/// deprecation warnings.
protocol LegacyNextClosingDay {
  func nextClosingDay(after day: MartDay, horizon: Int) -> MartDay?
}

extension MartBranch: LegacyNextClosingDay {}
