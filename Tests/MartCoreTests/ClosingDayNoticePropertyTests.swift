import Testing

@testable import MartCore

/// Random change notices and non-closure notices written as staff type them, read back and
/// compared day by day with a brute-force reading: the old rule before the day the change
/// applies from and the new one from it, a replaced day never closed, and no day both closed and
/// named open.
@Suite("Closing-day notices, round trip")
struct ClosingDayNoticePropertyTests {
  typealias Model = ClosingDayPropertyTests.Model

  /// A rule change: the closed days must be the old rule's before `appliesFrom` and the new
  /// rule's from it, over the horizon.
  @Test(
    "a rule change applies the old rule before its day and the new one from it",
    arguments: SeedBatch.batches(2, of: 100))
  func ruleChanges(batch: SeedBatch) {
    for seed in batch.seeds { ruleChange(seed: seed) }
  }

  func ruleChange(seed: Int) {
    var random = SeededGenerator(seed: UInt64(seed) &* 6_700_417)
    let asOf = CalendarDate(
      year: Int.random(in: 2002...2048, using: &random), month: Int.random(in: 1...12, using: &random), day: 15)!
    var weekdays = Weekday.allCases.shuffled(using: &random)
    let oldWeekday = weekdays.removeLast()
    let newWeekday = weekdays.removeLast()
    let oldOrdinals = Array([1, 2, 3, 4].shuffled(using: &random).prefix(2)).sorted()
    let newOrdinals = Array([1, 2, 3, 4].shuffled(using: &random).prefix(2)).sorted()
    var old = Model()
    old.nth = [(oldOrdinals, oldWeekday)]
    var new = Model()
    new.nth = [(newOrdinals, newWeekday)]
    let appliesFrom = asOf.firstOfMonth(addingMonths: Int.random(in: -3...6, using: &random))
    let oldText = ClosingDayPropertyTests.render(oldOrdinals, oldWeekday, using: &random)
    let newText = ClosingDayPropertyTests.render(newOrdinals, newWeekday, using: &random)
    let when = "\(appliesFrom.year)년 \(appliesFrom.month)월부터"
    let text: String
    switch Int.random(in: 0..<5, using: &random) {
    case 0: text = "\(when) 의무휴업일이 \(oldText)에서 \(newText)로 변경"
    case 4: text = "\(oldText) 휴무 → \(newText) 휴무 (\(when))"
    case 1: text = "기존 \(oldText) → 변경 \(newText) (\(when) 적용)"
    case 2: text = "\(oldText) -> \(newText) (\(when))"
    default: text = "기존 휴무일: \(oldText)\n변경 휴무일: \(newText)\n\(when) 적용"
    }
    let schedule = ClosingSchedule.parse(text, asOf: asOf)
    let horizon = ClosingSchedule.horizon(asOf: asOf)
    let closed = Set(schedule.closedDates(from: horizon.from, through: horizon.through))
    var day = horizon.from
    while day <= horizon.through {
      let expected = day < appliesFrom ? old.closes(day) : new.closes(day)
      if closed.contains(day) != expected {
        Issue.record("seed \(seed): \(text) as of \(asOf.iso): \(day.iso) closed \(closed.contains(day))")
        return
      }
      day = day.adding(days: 1)
    }
    // A replaced day (the old rule's from the day on, not the new rule's) is never closed.
    #expect(
      !closed.contains { $0 >= appliesFrom && old.closes($0) && !new.closes($0) }, "seed \(seed): \(text)")
    ClosingDayFuzzTests.checkInvariants(
      schedule, from: horizon.from, through: horizon.through, input: "seed \(seed): \(text)")
  }

  /// A moved date, alone or after a rule: the new day closes, the replaced day does not.
  @Test("a moved day closes its new day and never the day it replaces", arguments: SeedBatch.batches(2, of: 100))
  func movedDays(batch: SeedBatch) {
    for seed in batch.seeds { movedDay(seed: seed) }
  }

  func movedDay(seed: Int) {
    var random = SeededGenerator(seed: UInt64(seed) &* 15_485_863)
    let asOf = CalendarDate(
      year: Int.random(in: 2002...2048, using: &random), month: Int.random(in: 1...12, using: &random), day: 15)!
    let replaced = asOf.adding(days: Int.random(in: -120...120, using: &random))
    let replacement = replaced.adding(days: [-3, -2, -1, 1, 2, 3].randomElement(using: &random)!)
    func written(_ date: CalendarDate) -> String {
      "\(date.month)/\(date.day)(\(date.weekday.koreanShortName))"
    }
    let rule = Bool.random(using: &random) ? "매월 둘째·넷째 일요일 휴무, " : ""
    let notice: String
    switch Int.random(in: 0..<3, using: &random) {
    case 0: notice = "\(written(replaced)) → \(written(replacement))"
    case 1: notice = "\(written(replaced)) 휴무 -> \(written(replacement)) 휴무로 변경"
    default:
      notice =
        replaced.month == replacement.month
        ? "\(replaced.month)월 \(replaced.day)일에서 \(replacement.day)일로 변경"
        : "\(written(replaced))에서 \(written(replacement))로 변경"
    }
    let text = rule + notice
    let schedule = ClosingSchedule.parse(text, asOf: asOf)
    let from = replaced.firstOfMonth(addingMonths: -1)
    let through = replaced.firstOfMonth(addingMonths: 2).adding(days: -1)
    let closed = schedule.closedDates(from: from, through: through)
    #expect(closed.contains(replacement), "seed \(seed): \(text) as of \(asOf.iso)")
    #expect(!closed.contains(replaced), "seed \(seed): \(text) as of \(asOf.iso)")
    ClosingDayFuzzTests.checkInvariants(schedule, from: from, through: through, input: "seed \(seed): \(text)")
  }

  /// Dates named for a sale, shorter hours or a re-opening, or marked open before them, are never
  /// closed; a date marked closed is.
  @Test("dates named for something else, or open, are never closed", arguments: SeedBatch.batches(2, of: 100))
  func notClosures(batch: SeedBatch) {
    for seed in batch.seeds { notClosure(seed: seed) }
  }

  func notClosure(seed: Int) {
    var random = SeededGenerator(seed: UInt64(seed) &* 32_452_843)
    let asOf = CalendarDate(
      year: Int.random(in: 2002...2048, using: &random), month: Int.random(in: 1...12, using: &random), day: 15)!
    let named = asOf.adding(days: Int.random(in: -60...60, using: &random))
    let closing = named.adding(days: Int.random(in: 1...20, using: &random))
    func written(_ date: CalendarDate) -> String {
      Bool.random(using: &random)
        ? "\(date.month)/\(date.day)(\(date.weekday.koreanShortName))" : "\(date.month)/\(date.day)"
    }
    let opening: String
    switch Int.random(in: 0..<7, using: &random) {
    case 0: opening = "\(written(named)) 1+1 행사"
    case 1: opening = "\(written(named)) 할인"
    case 2: opening = "\(written(named)) 영업시간 단축"
    case 3: opening = "\(written(named)) 10:00 재오픈"
    case 4: opening = "[정상영업] \(written(named))"
    case 5: opening = "정상영업 \(written(named))"
    default: opening = "\(written(named)) (정상영업)"
    }
    let closure = Bool.random(using: &random) ? "[휴무] \(written(closing))" : "\(written(closing)) 휴무"
    let separator = Bool.random(using: &random) ? "\n" : ". "
    let text = Bool.random(using: &random) ? opening + separator + closure : closure + separator + opening
    let schedule = ClosingSchedule.parse(text, asOf: asOf)
    let from = named.firstOfMonth(addingMonths: -1)
    let through = closing.firstOfMonth(addingMonths: 2).adding(days: -1)
    let closed = schedule.closedDates(from: from, through: through)
    #expect(!closed.contains(named), "seed \(seed): \(text) as of \(asOf.iso)")
    #expect(closed.contains(closing), "seed \(seed): \(text) as of \(asOf.iso)")
    ClosingDayFuzzTests.checkInvariants(schedule, from: from, through: through, input: "seed \(seed): \(text)")
  }
}
