import MartBrands
import MartCore
import TestSupport
import Testing

/// Each source says, as data, which of its fields list whole months (docs/closing-days.md, "A
/// list of dates is not a month"): a text field that lists next closing days knows nothing after
/// its last date; one that lists whole months knows them.
@Suite("What each source's closing fields cover")
struct ClosingFieldCoverageTests {
  /// A source's closing-day text as its field publishes it, and whether the field lists whole
  /// months. The texts are the forms of brand-sources.md (§9.1, §9.5, §10.2); 2026-09-13 and
  /// 2026-09-27 are Sundays.
  struct Field: CustomTestStringConvertible, Sendable {
    var name: String
    var dateCoverage: DateCoverage
    var textCoverage: DateCoverage
    var text: String
    var wholeMonths: Bool
    var testDescription: String { "\(name): \(text)" }

    init<Source: BrandSource>(source: Source.Type, text: String, wholeMonths: Bool) {
      name = Source.name
      dateCoverage = Source.closingDateCoverage
      textCoverage = Source.closingTextCoverage
      self.text = text
      self.wholeMonths = wholeMonths
    }
  }

  static let fields: [Field] = [
    Field(source: LotteMartSource.self, text: "09/13(일), 09/27(일)", wholeMonths: false),
    Field(source: HomeplusSource.self, text: "09/13(일), 09/27(일)", wholeMonths: false),
    Field(source: MegamartSource.self, text: "09/13(일), 09/27(일)", wholeMonths: false),
    Field(source: EmartSource.self, text: "09/13(일), 09/27(일)", wholeMonths: false),
    Field(source: GSTheFreshSource.self, text: "09/13(일), 09/27(일)", wholeMonths: false),
    Field(source: LotteDowaSource.self, text: "09/13(일), 09/27(일)", wholeMonths: true),
  ]

  @Test("a field's list knows its months only where the source says so", arguments: fields)
  func coverage(_ field: Field) throws {
    let asOf = try #require(CalendarDate(iso: "2026-09-10"))
    let from = try #require(CalendarDate(iso: "2026-09-01"))
    let through = try #require(CalendarDate(iso: "2026-10-31"))
    let schedule = ClosingSchedule.published(
      text: field.text, dates: [], asOf: asOf, coverage: field.dateCoverage, textCoverage: field.textCoverage)
    #expect(schedule.closedDates(from: from, through: through).map(\.iso) == ["2026-09-13", "2026-09-27"])
    let unknown = schedule.unknownRanges(from: from, through: through).map { "\($0.from.iso)…\($0.through.iso)" }
    if field.wholeMonths {
      #expect(unknown == ["2026-10-01…2026-10-31"])
    } else {
      #expect(unknown == ["2026-09-01…2026-09-09", "2026-09-28…2026-10-31"])
    }
  }

  /// E-mart's dates come one month per request: they list whole months.
  @Test func emartDatesListWholeMonths() {
    #expect(EmartSource.closingDateCoverage == .wholeMonths)
    #expect(EmartSource.closingTextCoverage == .asOfThroughLastListed)
  }
}
