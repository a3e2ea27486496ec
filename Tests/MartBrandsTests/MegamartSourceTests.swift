import Foundation
import MartBrands
import MartCore
import MartFetch
import TestSupport
import Testing

@Suite("MegamartSource")
struct MegamartSourceTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
  static let url = "https://home.megamart.com/boardApi/query"

  static func branches() async throws -> ([RawBranch], [HTTPRequest]) {
    let fetcher = try FixtureFetcher(hosts: ["home.megamart.com"])
    let session = SourceSession(for: MegamartSource.self, fetcher: fetcher, asOf: asOf, brands: [.megamart])
    return (try await MegamartSource().collect(session), await fetcher.requests)
  }

  @Test func oneRequestReturnsEveryStore() async throws {
    let (branches, requests) = try await Self.branches()
    #expect(requests.count == 1)
    #expect(requests.first?.method == .post)
    #expect(
      requests.first.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        == "method=store.selectStore&applyCamelCase=true")
    #expect(branches.count == 11)
    #expect(Set(branches.map(\.id.storeID)).count == 11)
    // A numeric storeCode is read as text.
    #expect(branches.contains { $0.id.description == "megamart-1002" })
  }

  @Test func coordinatesAreStringsAndZeroOrBlankMeansNone() async throws {
    let (branches, _) = try await Self.branches()
    func branch(_ code: String) throws -> RawBranch { try #require(branches.first { $0.id.storeID == code }) }
    #expect(try branch("1001").coordinate == GeoPoint(latitude: 35.2043, longitude: 129.0780))
    #expect(try branch("1003").coordinate == nil)  // "0", "0"
    #expect(try branch("1006").coordinate == nil)  // "", ""
    #expect(try branch("1009").coordinate == GeoPoint(latitude: 35.7450, longitude: 129.3090))  // a number
  }

  @Test func holidayTextGoesThroughTheEngine() async throws {
    let (branches, _) = try await Self.branches()
    // Dates from the calendar: November 2026's 2nd/4th Monday 9, 23; Sunday 8, 22; 2nd Wednesday 11.
    let table: [(String, [String]?)] = [
      ("1001", ["2026-11-09", "2026-11-23"]), ("1005", ["2026-11-08", "2026-11-22"]),
      ("1007", ["2026-11-11", "2026-11-22"]), ("1004", nil), ("1008", nil), ("1011", nil),
    ]
    forEachCase(table, named: \.0) { example, comment in
      let branch = try #require(branches.first { $0.id.storeID == example.0 }, comment)
      let schedule = ClosingSchedule.published(text: branch.closingText, dates: branch.closingDates, asOf: Self.asOf)
      if let expected = example.1 {
        #expect(
          schedule.closedDates(from: Self.asOf.firstOfMonth(), through: Self.asOf.lastOfMonth).map(\.iso) == expected,
          comment)
      } else {
        #expect(branch.closingText == nil && schedule.status == .unknown, comment)
      }
    }
  }

  @Test func fieldsAsPublished() async throws {
    let (branches, _) = try await Self.branches()
    let dongnae = try #require(branches.first { $0.id.storeID == "1001" })
    #expect(dongnae.name == "동래점")
    #expect(dongnae.address == "부산시 동래구 충렬대로 142")
    #expect(dongnae.phone == "051-550-9000")
    #expect(dongnae.openingHours == "10:00~23:00")
    #expect(dongnae.sourceURL == Self.url)
  }

  @Test func notAnArrayIsAnError() {
    #expect(throws: SourceError.self) {
      try MegamartSource.parseStores(Data(#"{"error":"login"}"#.utf8), url: Self.url)
    }
    #expect(throws: SourceError.self) { try MegamartSource.parseStores(Data("[]".utf8), url: Self.url) }
  }
}
