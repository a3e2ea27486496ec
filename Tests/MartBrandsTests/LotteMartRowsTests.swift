import Foundation
import MartBrands
import MartCore
import MartFetch
import TestSupport
import Testing

/// Lotte Mart's lists as the site serves them in 2026 (`fixtures/web/company.lottemart.com`):
/// table rows with the address in two `div.address` parts, an hours memo, banners in the logo's
/// `alt`, no `brnchCd`; and the all-format list beside the search.
@Suite("LotteMartSource 2026 rows")
struct LotteMartRowsTests {
  static let searchURL = "http://company.lottemart.com/shop/shop_search_type.asp?schArea=&schType=01&schWord="
  static let allURL = "http://company.lottemart.com/shop/shop_search.asp?page=1&list_num=500"
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!
  static let hosts: Set<String> = ["company.lottemart.com"]

  static func searched() throws -> [RawBranch] {
    try LotteMartSource.parseStoreList(
      try FixturePaths.data("web/company.lottemart.com/shop_search_type-01.body.html"), url: searchURL)
  }

  static func collected() async throws -> (branches: [RawBranch], session: SourceSession) {
    let fetcher = try FixtureFetcher(hosts: hosts)
    let session = SourceSession(for: LotteMartSource.self, fetcher: fetcher, asOf: asOf, brands: [.lottemart])
    return (try await LotteMartSource().collect(session), session)
  }

  @Test func rowsWithTwoAddressPartsHaveNamesAndOneAddress() throws {
    let branches = try Self.searched()
    // 23 rows: 원주점 twice, a 토이저러스 and a 그랑그로서리 row (other sources' banners) and the
    // announced (가칭)동탄2점 skipped.
    #expect(branches.count == 17)
    let seoksa = try #require(branches.first { $0.name == "석사점" })
    #expect(seoksa.address == "강원도 춘천시 세실로 108 (석사동)")
    #expect(seoksa.id.description == "lottemart-석사점")
    #expect(seoksa.phone == "033 260 7700")
    #expect(seoksa.closingText == "11/22(일)")
    #expect(seoksa.pageURL == nil)
    #expect(branches.allSatisfy { $0.address != nil && $0.id.storeID == $0.name })
  }

  @Test func theMemoIsHoursAndNeverClosingDays() throws {
    let cheongnyangni = try #require(try Self.searched().first { $0.name == "청량리점" })
    #expect(cheongnyangni.openingHours == "10:00~23:00 (둘째,넷째주 일요일: 11:00~19:00)")
    #expect(cheongnyangni.closingText == "매월 둘째, 넷째주 수요일 (11/11, 11/25)")
    #expect(OpeningHours.parse(cheongnyangni.openingHours) == OpeningHours(open: "10:00", close: "23:00"))
    // The store closes on the 2nd and 4th Wednesdays: 2026-11-11 and 11-25 (Wednesdays 4, 11,
    // 18, 25); the memo's Sundays (11-08, 11-22) are days it opens short, never closures.
    let schedule = ClosingSchedule.published(
      text: cheongnyangni.closingText, dates: cheongnyangni.closingDates, asOf: Self.asOf,
      coverage: LotteMartSource.closingDateCoverage)
    let closed = schedule.closedDates(
      from: CalendarDate(year: 2026, month: 11, day: 1)!, through: CalendarDate(year: 2026, month: 11, day: 30)!
    ).map(\.iso)
    #expect(closed == ["2026-11-11", "2026-11-25"])
  }

  @Test func aMemoWithoutADayOffIsNoClosingText() throws {
    let html = """
      <table><tbody><tr><td><img alt="롯데마트"></td><td>테스트점</td>
      <td><span class="time">10:00~23:00</span><span class="memo">둘째,넷째주 일요일: 11:00~19:00</span></td>
      <td><span class="call">02-000-0000</span></td><td><span class="day-off">-</span></td>
      <td><div class="address">서울특별시 중구</div><div class="address">1 (소공동)</div></td></tr></tbody></table>
      """
    let branch = try #require(try LotteMartSource.parseStoreList(Data(html.utf8), url: Self.searchURL).first)
    #expect(branch.closingText == nil)
    #expect(branch.closingDates.isEmpty)
    #expect(branch.openingHours == "10:00~23:00 (둘째,넷째주 일요일: 11:00~19:00)")
    let schedule = ClosingSchedule.published(
      text: branch.closingText, dates: branch.closingDates, asOf: Self.asOf,
      coverage: LotteMartSource.closingDateCoverage)
    #expect(schedule.status == .unknown)
  }

  @Test func otherBannersAreLeftToTheirSource() throws {
    let names = try Self.searched().map(\.name)
    #expect(!names.contains { $0.contains("구리") || $0.contains("토이저러스") || $0.contains("그랑그로서리") })
  }

  @Test func theAllFormatListAddsTheZettaplexStoresOnce() async throws {
    let (branches, session) = try await Self.collected()
    #expect(session.fallbackUsed == nil)
    #expect(session.warnings.isEmpty)
    #expect(branches.count == 19)
    #expect(Set(branches.map(\.id)).count == 19 && Set(branches.map(\.name)).count == 19)
    let jamsil = try #require(branches.first { $0.id.storeID == "잠실점" })
    #expect(jamsil.banner == "제타플렉스" && jamsil.name == "잠실점")
    #expect(jamsil.sourceURL == Self.allURL)
    #expect(jamsil.address == "서울특별시 송파구 올림픽로 240 (잠실동)")
    let seoulStation = try #require(branches.first { $0.id.storeID == "서울역점" })
    #expect(seoulStation.banner == "제타플렉스")
    #expect(seoulStation.closingText == "11/25(수)")
    // Neither list makes a 롯데마트 branch of the other formats (맥스, 보틀벙커, 그랑그로서리).
    #expect(!branches.contains { $0.name.contains("금천") || $0.name.contains("구리") || $0.name.contains("제타플렉스") })
    #expect(branches.filter { $0.sourceURL == Self.searchURL }.count == 17)
  }

  @Test func theAllFormatListStandsInWhenTheSearchFails() async throws {
    // A copy of the recordings whose search answers 500.
    let folder = Scratch.directory.appendingPathComponent("lotte-\(UUID().uuidString)")
    try FileManager.default.copyItem(
      at: FixturePaths.web.appendingPathComponent("company.lottemart.com"),
      to: folder.appendingPathComponent("company.lottemart.com"))
    let exchange = folder.appendingPathComponent("company.lottemart.com/shop_search_type-01.exchange.json")
    let text = try String(contentsOf: exchange, encoding: .utf8)
    try #require(text.contains("\"status\" : 200"))
    try Data(text.replacingOccurrences(of: "\"status\" : 200", with: "\"status\" : 500").utf8).write(to: exchange)
    let fetcher = try FixtureFetcher(hosts: Self.hosts, folder: folder)
    let session = SourceSession(for: LotteMartSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.lottemart])
    let branches = try await LotteMartSource().collect(session)
    #expect(session.fallbackUsed == LotteMartSource.allFormatsData)
    #expect(branches.count == 19)
    #expect(branches.allSatisfy { $0.sourceURL == Self.allURL })
    #expect(session.warnings.contains { $0.message.contains("shop_search_type.asp") })
  }

  @Test func theOlderFormStillPublishes() async throws {
    // The older search page (one address per row, brnchCd links) with no all-format list.
    let fetcher = try FixtureFetcher(hosts: Self.hosts, folder: FixturePaths.olderWeb)
    let session = SourceSession(for: LotteMartSource.self, fetcher: fetcher, asOf: Self.asOf, brands: [.lottemart])
    let branches = try await LotteMartSource().collect(session)
    #expect(branches.count == 19)
    #expect(branches.contains { $0.id.storeID == "0100161" })
    #expect(session.warnings.count == 1, "the missing all-format list is a warning")
  }
}
