import Foundation
import Testing

@testable import MartCore

/// Random texts read with every coverage, as of random days, expanded for random windows, keep
/// the promises a client relies on: no date outside the window, closed dates never unknown,
/// every day after `knownThrough` unknown, and a JSON round trip that changes nothing.
@Suite("Closing-day known days")
struct ClosingDayKnownDaysPropertyTests {
  /// Pieces of real closing-day texts, the words that make days uncertain, and noise.
  static let pieces: [String] = [
    "매월", "매주", "둘째", "넷째", "마지막", "일요일", "월요일", "수요일", "(일)", "휴무", "휴점", "정상영업", "영업",
    "오후 6시까지", "10:00~22:00", "설날", "설", "추석", "추석맞이", "연휴", "당일", "익일", "전일", "명절", "신정",
    "공휴일", "공휴일인 경우", "겹칠 경우", "격주", "시설", "공사로", "12월은", "11월", "셋째", "단,", "(", ")", ",", "·",
    "~", " ", "\n", "11/22", "12/13,/27", "12/24~12/26", "1/1", "2/10", "9/20", "20261108", "2026-12-24", "13일",
    "연중무휴", "세일", "1+1", "🛒",
  ]

  static func randomText<G: RandomNumberGenerator>(using random: inout G) -> String {
    (0..<Int.random(in: 0...14, using: &random)).map { _ in pieces.randomElement(using: &random)! }
      .joined(separator: Bool.random(using: &random) ? " " : "")
  }

  static func randomDate<G: RandomNumberGenerator>(using random: inout G) -> CalendarDate {
    CalendarDate(year: 2026, month: 1, day: 1)!.adding(days: Int.random(in: -400...800, using: &random))
  }

  @Test(
    "closed dates in the window, never unknown; every day after knownThrough unknown",
    arguments: SeedBatch.batches(4, of: 150))
  func knownDays(batch: SeedBatch) throws {
    for seed in batch.seeds {
      var random = SeededGenerator(seed: UInt64(seed) &* 104_729)
      let text = Self.randomText(using: &random)
      let asOf = Self.randomDate(using: &random)
      let coverage = DateCoverage.allCases.randomElement(using: &random)!
      let from = asOf.firstOfMonth(addingMonths: Int.random(in: -2...1, using: &random))
      let through = from.adding(days: Int.random(in: 0...400, using: &random))
      let published = Bool.random(using: &random) ? [Self.randomDate(using: &random)] : []
      let schedule = ClosingSchedule.published(
        text: text.isEmpty && !published.isEmpty ? nil : text, dates: published, asOf: asOf, coverage: coverage)
      let input = Comment(rawValue: "seed \(seed): \(text) [\(coverage.rawValue), as of \(asOf)]")

      let dates = schedule.closedDates(from: from, through: through)
      #expect(dates.allSatisfy { from <= $0 && $0 <= through }, input)
      let unknown = schedule.unknownRanges(from: from, through: through)
      func isUnknown(_ day: CalendarDate) -> Bool { unknown.contains { $0.contains(day) } }
      #expect(!dates.contains(where: isUnknown), input)
      #expect(unknown.allSatisfy { from <= $0.from && $0.from <= $0.through && $0.through <= through }, input)
      let known = schedule.knownThrough(from: from, through: through)
      if let known {
        var day = max(known.adding(days: 1), from)
        while day <= through {
          #expect(isUnknown(day), "\(input): \(day) after knownThrough \(known)")
          day = day.adding(days: 1)
        }
      } else {
        #expect(schedule.coverage == nil && schedule.status != .unknown, input)
      }
      for range in schedule.uncertain {
        #expect(!dates.contains { range.contains($0) && !schedule.dates.contains($0) }, input)
      }
      let branch = BranchClosing(schedule: schedule, window: DateWindow(from: from, through: through))
      if let known = branch.knownThrough, known < through {
        let first = max(known.adding(days: 1), from)
        #expect(branch.unknownRanges.contains { $0.from <= first && through <= $0.through }, input)
      }
      let encoded = try JSONEncoder().encode(schedule)
      #expect(try JSONDecoder().decode(ClosingSchedule.self, from: encoded) == schedule, input)
    }
  }
}
