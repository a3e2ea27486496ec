import Testing

@testable import MartCore

/// The normalizer's problems as values, on a run made as of Friday 2026-11-20 (window
/// 2026-11-01 … 2027-01-31).
@Suite("Branch normalizer problems")
struct BranchNormalizerTests {
  static let asOf = CalendarDate(iso: "2026-11-20")!
  let normalizer = BranchNormalizer(day: RunDay(asOf: asOf))
  let id = BranchID(brand: "emart", storeID: "1059")

  func raw(phone: String? = nil, closingText: String? = nil, statusText: String? = nil) -> RawBranch {
    RawBranch(
      id: id, name: "창원점", phone: phone, closingText: closingText, statusText: statusText,
      sourceURL: "https://example.com/")
  }

  @Test("a clean record has no problem")
  func cleanRecord() {
    let normalized = normalizer.normalize(raw(phone: "055-211-1234", closingText: "매월 둘째, 넷째 일요일"))
    #expect(normalized.problems.isEmpty)
    #expect(normalized.branch.phone == "055-211-1234")
    #expect(normalized.address == nil)
  }

  @Test("a record without closing days says so as a closing-day problem")
  func noClosingDays() {
    let normalized = normalizer.normalize(raw(phone: "055-211-1234"))
    #expect(normalized.problems.map(\.kind) == [.closingDays])
    #expect(normalized.branch.closing.status == .unknown)
  }

  @Test("a phone that is not a Korean number is a phone problem naming the branch and the text")
  func phoneProblem() {
    let normalized = normalizer.normalize(raw(phone: "문의 바람", closingText: "매월 둘째, 넷째 일요일"))
    #expect(
      normalized.problems == [
        NormalizationProblem(branch: id, kind: .phone, message: "phone \"문의 바람\" is not a Korean phone number")
      ])
    #expect(normalized.branch.phone == nil)
    #expect(normalized.branch.phonePublished == "문의 바람")
  }

  @Test("an announced temporary closure is a store-status problem and its days are closing dates")
  func announcedClosure() {
    let normalized = normalizer.normalize(
      raw(closingText: "매월 둘째, 넷째 일요일", statusText: "12/1~12/31 리뉴얼 공사로 휴점"))
    #expect(normalized.problems.map(\.kind) == [.storeStatus])
    #expect(normalized.problems.first?.message.hasPrefix("shuts from 2026-12-01 through 2026-12-31") == true)
    // The store trades now: the 2nd and 4th Sundays (2026-11-08, 11-22, 2027-01-10, 01-24) and
    // every day of December 1 … 31 are closing dates, not shut days.
    #expect(normalized.branch.storeStatus.isTrading)
    #expect(normalized.branch.storeStatus.closesOn == nil)
    #expect(
      normalized.branch.closing.dates.map(\.iso)
        == ["2026-11-08", "2026-11-22"] + (1...31).map { "2026-12-\($0 < 10 ? "0" : "")\($0)" } + [
          "2027-01-10", "2027-01-24",
        ])
    #expect(normalized.branch.listedClosingDates == normalized.branch.closing.dates)
  }

  @Test("an announced closing for good is a store-status problem and the status's closing day")
  func announcedClosingForGood() {
    let normalized = normalizer.normalize(raw(closingText: "매월 둘째, 넷째 일요일", statusText: "12/31 폐점 예정"))
    #expect(normalized.problems.map(\.kind) == [.storeStatus])
    #expect(normalized.problems.first?.message.hasPrefix("closes for good on 2026-12-31") == true)
    #expect(normalized.branch.storeStatus.closesOn == CalendarDate(iso: "2026-12-31"))
    // 2nd and 4th Sundays through December 27, then every day from Thursday 2026-12-31 on.
    #expect(
      normalized.branch.listedClosingDates.map(\.iso) == [
        "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2026-12-31",
      ])
    #expect(normalized.problems.first?.description.hasPrefix("emart-1059: closes for good") == true)
  }
}
