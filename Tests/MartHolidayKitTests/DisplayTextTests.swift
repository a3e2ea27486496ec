import Foundation
import MartHolidayKit
import TestSupport
import Testing

/// The kit's words for a day's status, a brand's freshness and a branch's next closing day, on
/// the fixtures' bundle (as of 2026-11-20, a Friday: python3 `calendar.weekday(2026, 11, 20) == 4`).
@Suite struct DisplayTextTests {
  @Test(arguments: MartLanguage.allCases)
  func everyDayStatusHasItsOwnWords(language: MartLanguage) {
    let texts = MartDayStatus.allCases.map { $0.displayText(language) }
    #expect(texts.allSatisfy { !$0.isEmpty })
    #expect(Set(texts).count == MartDayStatus.allCases.count, "\(texts)")
    // Unknown is never said to be open, and an expected day is never said to be certain.
    #expect(MartDayStatus.unknown.displayText(language) != MartDayStatus.open.displayText(language))
  }

  @Test func theWordsOfEachStatusInKoreanAndEnglish() {
    let korean: [MartDayStatus: String] = [
      .closed: "휴무", .open: "영업", .unknown: "정보 없음", .shut: "영업 중단", .expectedClosed: "휴무 예상 (미확인)",
    ]
    for status in MartDayStatus.allCases { #expect(status.displayText() == korean[status], "\(status)") }
    #expect(MartDayStatus.unknown.displayText(.english) == "not known")
    #expect(MartDayStatus.expectedClosed.displayText(.english) == "expected to close (not confirmed)")
  }

  @Test func daysAndFreshness() {
    // 2026-11-22 is a Sunday, 2026-12-31 a Thursday (python3 calendar.weekday: 6 and 3).
    #expect(martDay("2026-11-22").displayText() == "11월 22일(일)")
    #expect(martDay("2026-11-22").displayText(.english) == "Sun 22 Nov")
    #expect(martDay("2026-12-31").displayText() == "12월 31일(목)")
    #expect(MartBrandFreshness.fresh.displayText() == "최신 정보")
    #expect(MartBrandFreshness.stale(lastGood: martDay("2026-11-20")).displayText() == "11월 20일(금) 기준 정보 · 매장에 확인하세요")
    #expect(
      MartBrandFreshness.stale(lastGood: martDay("2026-11-20")).displayText(.english)
        == "data as of Fri 20 Nov · check with the store")
    #expect(MartBrandFreshness.stale(lastGood: nil).displayText() == "이전 정보 · 매장에 확인하세요")
    #expect(MartBrandFreshness.missing.displayText() == "휴무 정보 없음")
  }

  @Test func aBranchSaysWhyItIsShutAndWhenItNextCloses() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    let emart = try #require(bundle.branch(id: "emart-1059"))
    #expect(emart.dayText(on: martDay("2026-11-22")) == "휴무")
    #expect(emart.dayText(on: martDay("2026-11-21")) == "영업")
    #expect(emart.nextClosingText(after: martDay("2026-11-20")) == "다음 휴무일 11월 22일(일)")
    #expect(emart.nextClosingText(after: martDay("2026-11-20"), .english) == "next closing day Sun 22 Nov")
    // Listed up to 11/25 (the 4th Wednesday), nothing known after.
    let gangneung = try #require(bundle.branch(id: "homeplus-658"))
    #expect(gangneung.dayText(on: martDay("2026-11-25")) == "휴무")
    #expect(gangneung.dayText(on: martDay("2026-11-26")) == "정보 없음")
    #expect(gangneung.nextClosingText(after: martDay("2026-11-25")) == "다음 휴무일 알 수 없음")
    // Closed for good: 폐점, not 휴무, on every day from the as-of day.
    let closed = try #require(bundle.branch(id: "gs-thefresh-11759"))
    #expect(closed.dayText(on: martDay("2026-11-22")) == "폐점")
    #expect(closed.dayText(on: martDay("2026-11-22"), .english) == "closed for good")
    #expect(closed.nextClosingText(after: martDay("2026-11-20")) == "폐점")
    // Refitting through 2026-12-31.
    let masan = try #require(bundle.branch(id: "lottemart-마산점"))
    #expect(masan.dayText(on: martDay("2026-11-25")) == "임시휴업")
    #expect(masan.nextClosingText(after: martDay("2026-11-20")) == "임시휴업 (12월 31일(목)까지)")
    // A day expected from the district (2026-11-09, a Monday).
    let expected = try #require(bundle.branch(id: "lotte-super-6061"))
    #expect(expected.status(on: martDay("2026-11-09")) == .expectedClosed)
    #expect(expected.dayText(on: martDay("2026-11-09")) == "휴무 예상 (미확인)")
  }

  /// docs/client-kit.md's step 7 gives what the page says it gives.
  @Test func theDocsCardSaysWhatThePageSays() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    let today = MartDay(year: 2026, month: 11, day: 20)
    #expect(
      branchCard(id: "emart-1059", in: bundle, today: today) == [
        "이마트 창원점 · 최신 정보", "11월 8일(일) 휴무", "11월 22일(일) 휴무", "다음 휴무일 11월 22일(일)",
      ])
    #expect(branchCard(id: "emart-0", in: bundle, today: today, language: .english) == ["emart-0: not listed"])
    let shut = branchCard(id: "gs-thefresh-11759", in: bundle, today: today)
    #expect(shut.last == "폐점")
    #expect(shut.contains("11월 20일(금) 폐점"), "\(shut)")
    #expect(!shut.contains { $0.hasSuffix(" 휴무") }, "\(shut)")
  }
}
