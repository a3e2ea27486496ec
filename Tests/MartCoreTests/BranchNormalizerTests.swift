import Foundation
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

  @Test("branches normalized with shared readings are the branches normalized each on its own")
  func sharedReadings() {
    // The same texts again and again, as a brand's branches publish them, with the inputs that
    // change a reading around them: other dates, coverages, a status, a decomposed spelling.
    let decomposed = "매월 둘째, 넷째 일요일".decomposedStringWithCanonicalMapping
    let dates = [CalendarDate(iso: "2026-11-11")!, CalendarDate(iso: "2026-11-25")!]
    var raws: [RawBranch] = []
    for index in 0..<24 {
      var branch = RawBranch(
        id: BranchID(brand: "emart", storeID: "\(1000 + index)"), name: "\(index)점",
        address: "서울특별시 송파구 올림픽로 \(index + 1)", phone: "02-411-\(1000 + index)",
        openingHours: ["10:00 ~ 23:00", "10:00~22:00", "오전 10:00 - 오후 10:00", "마트 임시휴업"][index % 4],
        closingText: ["매월 둘째, 넷째 일요일", decomposed, "11/22(일)", nil][index % 4 == 3 ? 3 : index % 3],
        statusText: [nil, "12/1~12/31 리뉴얼 공사로 휴점", "폐점", nil, "영업중"][index % 5], sourceURL: "https://example.com/")
      if index % 2 == 0 { branch.closingDates = dates }
      if index % 3 == 0 { branch.closingCoverage = .asOfThroughLastListed }
      if index % 7 == 0 { branch.closingTextCoverage = .listedDaysOnly }
      raws.append(branch)
    }
    var readings = BranchReadings()
    for raw in raws {
      #expect(normalizer.normalize(raw, reusing: &readings) == normalizer.normalize(raw))
    }
    // Another day's normalizer given the same readings reads as of its own day.
    let later = BranchNormalizer(day: RunDay(asOf: CalendarDate(iso: "2026-12-20")!))
    for raw in raws {
      #expect(later.normalize(raw, reusing: &readings) == later.normalize(raw))
    }
  }
}
