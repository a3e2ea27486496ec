import Testing

@testable import MartCore

/// A small deterministic generator, so that a failing seed can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    // SplitMix64.
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Random schedules written out in the many ways staff type them, read back, and compared
/// day by day with a brute-force reading of the schedule.
@Suite("Closing-day round trip")
struct ClosingDayPropertyTests {
  /// What a random schedule says, kept apart from the engine's types.
  struct Model {
    var nth: [(ordinals: [Int], weekday: Weekday)] = []
    var weekly: [Weekday] = []
    var monthDays: [Int] = []
    var dates: [CalendarDate] = []
    var lunar: [(LunarHoliday, [Int])] = []

    func closes(_ date: CalendarDate) -> Bool {
      let length = CalendarDate.daysInMonth(year: date.year, month: date.month)
      let occurrence = (date.day - 1) / 7 + 1
      let isLast = date.day + 7 > length
      for rule in nth where rule.weekday == date.weekday {
        if rule.ordinals.contains(occurrence) || (rule.ordinals.contains(-1) && isLast) { return true }
      }
      if weekly.contains(date.weekday) || monthDays.contains(date.day) || dates.contains(date) { return true }
      for (holiday, offsets) in lunar {
        for offset in offsets
        where KoreanLunarHolidays.date(of: holiday, inYear: date.adding(days: -offset).year)
          == date.adding(days: -offset)
        {
          return true
        }
      }
      return false
    }
  }

  static let koreanOrdinals = [1: "첫째", 2: "둘째", 3: "셋째", 4: "넷째", 5: "다섯째", -1: "마지막"]
  static let spelledOrdinals = [1: "첫번째", 2: "두번째", 3: "세번째", 4: "네번째", 5: "다섯번째", -1: "마지막"]
  static let weekdayNames = ["일요일", "월요일", "화요일", "수요일", "목요일", "금요일", "토요일"]

  static func render<G: RandomNumberGenerator>(_ ordinals: [Int], _ weekday: Weekday, using random: inout G) -> String {
    let day = weekdayNames[weekday.rawValue - 1]
    let separator = [", ", "·", ",", " 및 ", "/", "."].randomElement(using: &random)!
    let week = Bool.random(using: &random) ? "주" : ""
    let prefix = Bool.random(using: &random) ? "매월 " : ""
    if ordinals.contains(-1) || Bool.random(using: &random) {
      let names = Bool.random(using: &random) ? koreanOrdinals : spelledOrdinals
      return prefix + ordinals.map { names[$0]! }.joined(separator: separator) + week + " " + day
    }
    let digits = ordinals.map(String.init)
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return prefix + digits.joined(separator: separator) + "번째 " + day
    case 1: return prefix + digits.joined(separator: separator) + "주 " + day
    case 2: return prefix + "제" + digits.joined(separator: ", ") + " " + day
    default: return prefix + digits.map { $0 + "째" }.joined(separator: separator) + week + " " + day
    }
  }

  static func render<G: RandomNumberGenerator>(_ date: CalendarDate, using random: inout G) -> String {
    let weekday = Bool.random(using: &random) ? "(\(date.weekday.koreanShortName))" : ""
    let month = date.month < 10 ? "0\(date.month)" : "\(date.month)"
    let day = date.day < 10 ? "0\(date.day)" : "\(date.day)"
    switch Int.random(in: 0..<6, using: &random) {
    case 0: return "\(date.month)/\(date.day)\(weekday)"
    case 1: return "\(date.month)월 \(date.day)일\(weekday)"
    case 2: return "\(date.month).\(date.day)\(weekday)"
    case 3: return date.iso + weekday
    case 4: return "\(date.year)\(month)\(day)"
    default: return "\(date.year).\(month).\(day)\(weekday)"
    }
  }

  static func randomCase(seed: UInt64) -> (text: String, model: Model, asOf: CalendarDate) {
    var random = SeededGenerator(seed: seed)
    let asOf = CalendarDate(
      year: Int.random(in: 2001...2049, using: &random), month: Int.random(in: 1...12, using: &random),
      day: Int.random(in: 1...28, using: &random))!
    var model = Model()
    var parts: [String] = []
    var weekdays = Weekday.allCases.shuffled(using: &random)
    for _ in 0..<Int.random(in: 0...2, using: &random) {
      let weekday = weekdays.removeLast()
      var ordinals = Array([1, 2, 3, 4, 5].shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)))
        .sorted()
      if Int.random(in: 0..<5, using: &random) == 0 { ordinals = [-1] }
      model.nth.append((ordinals, weekday))
      parts.append(render(ordinals, weekday, using: &random))
    }
    if Int.random(in: 0..<4, using: &random) == 0 {
      let weekday = weekdays.removeLast()
      model.weekly.append(weekday)
      parts.append("매주 " + weekdayNames[weekday.rawValue - 1])
    }
    if Int.random(in: 0..<4, using: &random) == 0 {
      let days = Array(
        Set((0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 2...28, using: &random) })
      ).sorted()
      model.monthDays = days
      parts.append("매월 " + days.map { "\($0)일" }.joined(separator: ", "))
    }
    if Bool.random(using: &random) {
      // Within five months of the as-of date, so that the nearest year is the right one.
      let dates = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        asOf.adding(days: Int.random(in: -150...150, using: &random))
      }
      .filter { !($0.month == 1 && $0.day == 1) }
      model.dates = dates
      if !dates.isEmpty {
        parts.append(
          dates.map { render($0, using: &random) }.joined(
            separator: [", ", " / ", "·", ","].randomElement(using: &random)!))
      }
    }
    if Int.random(in: 0..<3, using: &random) == 0 {
      let holiday = LunarHoliday.allCases.randomElement(using: &random)!
      let (words, offsets) = [
        ("당일", [0]), ("전날", [-1]), ("연휴", [-1, 0, 1]), ("전날, 당일, 다음날", [-1, 0, 1]), ("익일", [1]),
      ]
      .randomElement(using: &random)!
      model.lunar.append((holiday, offsets))
      let name =
        holiday == .seollal
        ? ["설날", "설", "구정"].randomElement(using: &random)! : ["추석", "한가위"].randomElement(using: &random)!
      parts.append("\(name) \(words) 휴무")
    }
    let filler = ["", " 의무휴업", " 휴무", " 정기휴무"].randomElement(using: &random)!
    return (
      parts.shuffled(using: &random).joined(separator: [", ", " / ", "; ", "\n", " 및 "].randomElement(using: &random)!)
        + filler, model, asOf
    )
  }

  @Test("random schedules written in Korean read back to the same dates", arguments: SeedBatch.batches(2, of: 500))
  func roundTrip(batch: SeedBatch) {
    for seed in batch.seeds { roundTrip(seed: seed) }
  }

  func roundTrip(seed: Int) {
    let (text, model, asOf) = Self.randomCase(seed: UInt64(seed))
    // The model's explicit dates are whole months (its months are all known).
    let schedule = ClosingSchedule.parse(text, asOf: asOf, coverage: .wholeMonths)
    let from = asOf.firstOfMonth(addingMonths: -6)
    let through = asOf.firstOfMonth(addingMonths: 7).adding(days: -1)
    var expected: [CalendarDate] = []
    var day = from
    while day <= through {
      if model.closes(day) { expected.append(day) }
      day = day.adding(days: 1)
    }
    let isEmpty =
      model.nth.isEmpty && model.weekly.isEmpty && model.monthDays.isEmpty && model.dates.isEmpty && model.lunar.isEmpty
    #expect(schedule.status == (isEmpty ? .unknown : .closures), "seed \(seed): \(text)")
    #expect(schedule.closedDates(from: from, through: through) == expected, "seed \(seed): \(text)")
    ClosingDayFuzzTests.checkInvariants(schedule, from: from, through: through, input: "seed \(seed): \(text)")
    // Rules speak of every day; dates alone speak of their months.
    let ranges = schedule.unknownRanges(from: from, through: through)
    let recurring = !(model.nth.isEmpty && model.weekly.isEmpty && model.monthDays.isEmpty && model.lunar.isEmpty)
    if recurring { #expect(ranges.isEmpty, "seed \(seed): \(text)") }
    if !recurring && !model.dates.isEmpty {
      let months = Set(model.dates.map { $0.firstOfMonth() })
      var day = from
      while day <= through {
        let isUnknown = ranges.contains { $0.from <= day && day <= $0.through }
        #expect(isUnknown == !months.contains(day.firstOfMonth()), "\(text) \(day.iso)")
        day = day.adding(days: 1)
      }
    }
  }

  @Test("openings and closures decided by their verb, in random order", arguments: SeedBatch.batches(3, of: 100))
  func verbs(batch: SeedBatch) {
    for seed in batch.seeds { verbs(seed: seed) }
  }

  func verbs(seed: Int) {
    var random = SeededGenerator(seed: UInt64(seed) &* 104_729)
    let asOf = CalendarDate(
      year: Int.random(in: 2001...2049, using: &random), month: Int.random(in: 1...12, using: &random), day: 15)!
    // A closing rule, and a date of the as-of month said to be open, in either order.
    let weekday = Weekday.allCases.randomElement(using: &random)!
    let ordinal = Int.random(in: 1...4, using: &random)
    let open = asOf.firstOfMonth().adding(days: Int.random(in: 0...27, using: &random))
    let rule =
      "매월 \(Self.koreanOrdinals[ordinal]!) \(Self.weekdayNames[weekday.rawValue - 1]) "
      + ["휴무", "휴점", "의무휴업", ""].randomElement(using: &random)!
    let opening =
      Self.render(open, using: &random) + " "
      + ["영업", "정상영업", "정상 영업", "영업합니다", "휴무 없음", "은 쉬지 않습니다"].randomElement(using: &random)!
    let text =
      Bool.random(using: &random) ? "\(rule) (단, \(opening))" : "\(opening). \(rule)"
    let schedule = ClosingSchedule.parse(text, asOf: asOf)
    #expect(schedule.rules == [.nthWeekday(ordinals: [ordinal], weekday: weekday)], "seed \(seed): \(text)")
    #expect(schedule.exceptions == [open], "seed \(seed): \(text)")
    #expect(
      !schedule.closedDates(from: asOf.firstOfMonth(), through: asOf.lastOfMonth).contains(open),
      "seed \(seed): \(text)")
  }
}

/// Consecutive seeds run as one test case, so the test log names a batch in one short line
/// instead of a line per seed; a failure names its seed.
struct SeedBatch: CustomTestStringConvertible, Sendable {
  var seeds: Range<Int>

  /// `count` batches of `size` seeds, from 0.
  static func batches(_ count: Int, of size: Int) -> [SeedBatch] {
    (0..<count).map { SeedBatch(seeds: ($0 * size)..<(($0 + 1) * size)) }
  }

  var testDescription: String { "seeds \(seeds.lowerBound)..<\(seeds.upperBound)" }
}
