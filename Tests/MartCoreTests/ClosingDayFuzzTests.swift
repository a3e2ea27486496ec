import Testing

@testable import MartCore

/// Random and adversarial text never crashes or hangs the engine, and what it returns
/// keeps its promises: dates sorted, unique and inside the window; unknown has no dates.
@Suite("Closing-day robustness")
struct ClosingDayFuzzTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 22)!
  static let window = (
    from: CalendarDate(year: 2026, month: 1, day: 1)!, through: CalendarDate(year: 2027, month: 12, day: 31)!
  )

  /// Pieces that exercise every path of the scanner and parser, plus noise.
  static let pieces: [String] = [
    "둘째", "넷 째", "두번째", "마지막", "째", "쨰", "번째", "주", "제", "매월", "매주", "일요일", "수요일", "(일)", "(수요일",
    "월", "일", "년", "설", "설날", "추석", "당일", "전날", "연휴", "신정", "정상영업", "정상", "영업", "연중무휴", "무휴",
    "휴무", "없음", "오후", "시", "까지", "및", "1", "2", "12", "31", "2026", "20261108", "2026-11-08", "99999999999999",
    "/", ".", ",", "·", "~", "-", ":", "(", ")", "[", "]", "((((", "))))", " ", "\n", "\t", "\u{0}", "\u{7}",
    "\u{202E}",
    "１２", "／", "～", "　", "세일", "두부", "1+1", "10:00~23:00", "🛒", "é", "\u{301}", "漢字", "日", "abc", "ㄱㄴ", "\u{FEFF}",
  ]

  static func randomText<G: RandomNumberGenerator>(length: Int, using random: inout G) -> String {
    var text = ""
    for _ in 0..<length {
      if Int.random(in: 0..<8, using: &random) == 0 {
        text.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0...0xD7FF, using: &random)) ?? "?")
      } else {
        text += pieces.randomElement(using: &random)!
      }
    }
    return text
  }

  /// `input` names the input briefly in failure messages.
  static func checkInvariants(_ text: String, input: Comment) {
    let schedule = ClosingSchedule.parse(text, asOf: asOf)
    let dates = schedule.closedDates(from: window.from, through: window.through)
    #expect(dates == Array(Set(dates)).sorted(), input)
    #expect(dates.allSatisfy { $0 >= window.from && $0 <= window.through }, input)
    if schedule.status != .closures { #expect(dates.isEmpty, input) }
    if schedule.status == .unknown { #expect(!schedule.warnings.isEmpty, input) }
    #expect(schedule.text == text, input)
  }

  @Test("random mixtures of keywords, digits, punctuation and noise", arguments: SeedBatch.batches(3, of: 100))
  func randomText(batch: SeedBatch) {
    for seed in batch.seeds {
      var random = SeededGenerator(seed: UInt64(seed) &* 7919)
      let text = Self.randomText(length: Int.random(in: 0...200, using: &random), using: &random)
      Self.checkInvariants(text, input: "seed \(seed): \(text)")
    }
  }

  /// A long repetition, named briefly in the test log (the text itself can be 200 kB).
  struct Repetition: CustomTestStringConvertible, Sendable {
    var unit: String
    var count: Int
    var suffix = ""

    var text: String { String(repeating: unit, count: count) + suffix }
    var testDescription: String {
      "\(count) × \(unit.debugDescription)" + (suffix.isEmpty ? "" : " + \(suffix.debugDescription)")
    }
  }

  @Test(
    "adversarial inputs", .timeLimit(.minutes(1)),
    arguments: [
      Repetition(unit: "(", count: 100_000),
      Repetition(unit: "9/13(추석당일", count: 5_000),
      Repetition(unit: "1/1,", count: 50_000),
      Repetition(unit: "둘째,", count: 50_000, suffix: "일요일"),
      Repetition(unit: "12/", count: 50_000),
      Repetition(unit: "2", count: 100_000),
      Repetition(unit: "매월 ", count: 20_000),
      Repetition(unit: "설·", count: 20_000, suffix: "연휴"),
      Repetition(unit: "정상영업", count: 20_000),
      Repetition(unit: "\u{0}\u{1}\u{1B}[31m", count: 20_000),
      Repetition(unit: "12/24~", count: 20_000),
      Repetition(unit: "e\u{301}", count: 50_000),
    ])
  func adversarial(_ input: Repetition) {
    Self.checkInvariants(input.text, input: "\(input.testDescription)")
  }

  @Test("warnings stay few however much is not understood")
  func boundedWarnings() {
    let schedule = ClosingSchedule.parse(String(repeating: "2/30 일요일 ", count: 10_000), asOf: Self.asOf)
    #expect(schedule.warnings.count <= 21)
    #expect(schedule.status == .unknown)
  }

  @Test("a megabyte of mixed text is processed", .timeLimit(.minutes(1)))
  func megabyte() {
    var random = SeededGenerator(seed: 42)
    var text = ""
    while text.utf8.count < 1_000_000 { text += Self.randomText(length: 1_000, using: &random) }
    Self.checkInvariants(text, input: "a megabyte of random mixtures, seed 42")
  }
}
