import Foundation
import MartBrands
import MartCore
import MartFetch
import TestSupport
import Testing

@Suite("LotteSuperSource")
struct LotteSuperSourceTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  static func collect() async throws -> (branches: [RawBranch], warnings: [SourceWarning], requests: [HTTPRequest]) {
    let fetcher = try FixtureFetcher(hosts: ["www.lotteon.com"])
    let session = SourceSession(for: LotteSuperSource.self, fetcher: fetcher, asOf: asOf, brands: [.lotteSuper])
    let branches = try await LotteSuperSource().collect(session)
    return (branches, session.warnings, await fetcher.requests)
  }

  static func date(_ iso: String) throws -> CalendarDate { try #require(CalendarDate(iso: iso)) }

  @Test func readsPagesUntilAnEmptyOneThenTheHolidayListOfEachStore() async throws {
    let (branches, _, requests) = try await Self.collect()
    let urls = requests.map(\.url)
    #expect(urls.prefix(3).map { $0.contains("scrollIndex=\(urls.firstIndex(of: $0)!)") } == [true, true, true])
    #expect(
      urls.prefix(3).allSatisfy { $0.contains("/offlinestore/selectStoreSearchList?") && $0.contains("oflnMallNo=5") })
    // Eight stores with an sstrCd, one without a trNo: seven stores' holiday lists. (How often
    // each is asked depends on connections, which this fetcher has none of: a lane cannot hold
    // here. KeptConnectionTests counts the requests over a real one.)
    let holidayURLs = urls.dropFirst(3).filter { $0.contains("/holiday/selectHolidayList?trNo=") }
    #expect(Set(holidayURLs).count == 7)
    #expect(urls.dropFirst(3).allSatisfy { $0.contains("/holiday/selectHolidayList?trNo=") || $0 == urls[0] })
    #expect(branches.count == 8)
    #expect(branches.allSatisfy { $0.id.brand == .lotteSuper })
  }

  @Test func datesAreThePublishedOnes() async throws {
    let (branches, _, _) = try await Self.collect()
    func branch(_ code: String) throws -> RawBranch { try #require(branches.first { $0.id.storeID == code }) }
    // 2026-11-08 and 11-22 are the 2nd and 4th Sundays; 11-09/11-23 Mondays; 11-11/11-25 Wednesdays.
    #expect(try branch("5010").closingDates == [try Self.date("2026-11-08"), try Self.date("2026-11-22")])
    #expect(try branch("5077").closingDates == [try Self.date("2026-11-09"), try Self.date("2026-11-23")])
    #expect(try branch("5089").closingDates == [try Self.date("2026-11-11"), try Self.date("2026-11-25")])
    #expect(branches.allSatisfy { $0.closingText == nil })
  }

  @Test func storesWithoutAnAnswerAreUnknownNeverOpen() async throws {
    let (branches, warnings, _) = try await Self.collect()
    // 6061 has no trNo (and a numeric sstrCd); 5052 answered an empty holidayList.
    for code in ["6061", "5052"] {
      let branch = try #require(branches.first { $0.id.storeID == code }, "\(code)")
      #expect(branch.closingDates.isEmpty && branch.closingText == nil, "\(code)")
      let schedule = ClosingSchedule.published(text: branch.closingText, dates: branch.closingDates, asOf: Self.asOf)
      #expect(schedule.status == .unknown, "\(code)")
      #expect(warnings.contains { $0.branch == branch.id }, "\(code)")
    }
    // The row without an sstrCd is skipped, with a warning naming it.
    #expect(warnings.contains { $0.message.contains("(가칭)송도점") })
  }

  @Test func namesKeepWhatWasPublished() async throws {
    let (branches, _, _) = try await Self.collect()
    let names = Dictionary(uniqueKeysWithValues: branches.map { ($0.id.storeID, ($0.name, $0.publishedName)) })
    #expect(names["5023"]! == ("다산역점", "E다산역점"))
    #expect(names["5031"]! == ("속초조양점", "G속초조양점"))
    #expect(names["5044"]! == ("일산점", "(백)일산점"))
    #expect(names["5052"]! == ("남양주도곡", nil))
    #expect(names["5010"]! == ("잠실점", nil))
    let dasan = try #require(branches.first { $0.id.storeID == "5023" })
    #expect(dasan.phone == "0315507300" && dasan.address == "경기도 남양주시 다산중앙로 82")
  }

  @Test func displayNames() {
    let table = [
      ("E다산역점", "다산역점"), ("G속초조양점", "속초조양점"), ("(백)일산점", "일산점"), ("남양주도곡", "남양주도곡"),
      ("롯데슈퍼 잠실점", "잠실점"), ("GS점", "GS점"), ("E", "E"),
    ]
    forEachCase(table, named: \.0) { example, comment in
      #expect(LotteSuperSource.displayName(example.0) == example.1, comment)
    }
  }

  @Test func holidayDatesAsTextOrNumber() throws {
    let body = #"{"holidayList":[{"holidayDate":20261122},{"holidayDate":"2026-11-08"},{"holidayDate":"미정"},{}]}"#
    let read = try LotteSuperSource.parseHolidayList(Data(body.utf8), url: "https://www.lotteon.com/x")
    #expect(read.dates == [try Self.date("2026-11-08"), try Self.date("2026-11-22")])
    #expect(read.unreadable == ["미정"])
    #expect(try LotteSuperSource.parseHolidayList(Data(#"{"holidayList":null}"#.utf8), url: "u").dates.isEmpty)
  }
}
