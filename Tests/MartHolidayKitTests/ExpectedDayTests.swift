import Foundation
import MartHolidayKit
import Testing

/// Expected days (`closing.expected`) as the kit reads them from the fixtures' bundle: a branch
/// whose source publishes no closing days, in a district whose other stores agree on theirs.
@Suite struct ExpectedDayTests {
  @Test func aBranchWithoutPublishedDaysHasExpectedDaysNeverConfirmedOnes() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    let withExpected = bundle.branches.filter { !$0.schedule.expectedDays.isEmpty }
    let branch = try #require(withExpected.first, "the fixtures hold a branch with expected days")
    #expect(branch.schedule.status == .unknown)
    #expect(branch.schedule.closingDays.isEmpty)
    #expect(branch.schedule.expectedFrom?.isEmpty == false)
    let first = try #require(branch.schedule.expectedDays.first)
    #expect(branch.status(on: first) == .expectedClosed)
    // The day before is unknown (the source says nothing), never open; and the next closing
    // day cannot be promised from an expected day.
    #expect(branch.status(on: first.adding(days: -1)) == .unknown)
    #expect(branch.nextClosing(after: first.adding(days: -1)) == .unknownFrom(first))
    #expect(branch.closingDays(from: first, through: first).isEmpty)
    // Branches with published days carry none.
    #expect(bundle.branches.filter { $0.schedule.status == .closures }.allSatisfy { $0.schedule.expectedDays.isEmpty })
  }
}
