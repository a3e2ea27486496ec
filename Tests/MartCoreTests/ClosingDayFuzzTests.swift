import Testing

@testable import MartCore

/// Random and adversarial text never crashes or hangs the engine, and what it returns
/// keeps its promises: dates sorted, unique and inside the window, none of them named open;
/// unknown has no dates.
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
    "휴무", "없음", "오후", "시", "까지", "및", "부터", "명절", "단", "쉬지 않습니다", "와", "과", "월·화요일", "영업", "휴점", "1", "2", "12", "31",
    "2026", "20261108", "2026-11-08", "99999999999999",
    "/", ".", ",", "·", "~", "-", ":", "(", ")", "[", "]", "((((", "))))", " ", "\n", "\t", "\u{0}", "\u{7}",
    "\u{202E}",
    "에서", "로 변경", "변경", "기존", "→", "->", "부터", "적용", "행사", "할인", "영업시간", "단축", "재오픈", "포함", "[", "2026. 12. 7.",
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
    #expect(schedule.text == text, input)
    checkInvariants(schedule, from: window.from, through: window.through, input: input)
  }

  /// What every schedule promises for a window: closed dates sorted, unique and inside it;
  /// unknown ranges sorted, maximal, inside it and apart from the closed dates; `unknown` knows
  /// no day and closes none. `input` names the input briefly in failure messages.
  static func checkInvariants(
    _ schedule: ClosingSchedule, from: CalendarDate, through: CalendarDate, input: Comment
  ) {
    let dates = schedule.closedDates(from: from, through: through)
    #expect(dates == Array(Set(dates)).sorted(), input)
    #expect(dates.allSatisfy { $0 >= from && $0 <= through }, input)
    if schedule.status != .closures { #expect(dates.isEmpty, input) }
    if schedule.status == .unknown { #expect(!schedule.warnings.isEmpty, input) }
    let ranges = schedule.unknownRanges(from: from, through: through)
    #expect(ranges.allSatisfy { from <= $0.from && $0.from <= $0.through && $0.through <= through }, input)
    for (earlier, later) in zip(ranges, ranges.dropFirst()) {
      // Sorted, and never touching: touching ranges would be one.
      #expect(earlier.through.adding(days: 1) < later.from, input)
    }
    #expect(!dates.contains { date in ranges.contains { $0.from <= date && date <= $0.through } }, input)
    // No day is both a closure and named open by the text.
    #expect(Set(dates).isDisjoint(with: schedule.exceptions), input)
    switch schedule.status {
    case .unknown:
      // Nothing closes; a day it knows can only be one the text names as trading with other
      // hours (`둘째 일요일 11:00~19:00`), known open: every other day of the window is unknown.
      let open = Set(schedule.exceptions)
      var day = from
      while day <= through {
        #expect(open.contains(day) || ranges.contains { $0.from <= day && day <= $0.through }, input)
        day = day.adding(days: 1)
      }
    case .openAllYear:
      // Only days the text cannot tell (`연중무휴, 공휴일 휴무`) are unknown.
      #expect(
        ranges.allSatisfy { range in
          schedule.uncertain.contains { $0.from <= range.from && range.through <= $0.through }
        }, input)
    case .closures: break
    }
  }

  @Test("random mixtures of keywords, digits, punctuation and noise", arguments: SeedBatch.batches(3, of: 100))
  func randomText(batch: SeedBatch) {
    for seed in batch.seeds {
      var random = SeededGenerator(seed: UInt64(seed) &* 7919)
      let text = Self.randomText(length: Int.random(in: 0...200, using: &random), using: &random)
      Self.checkInvariants(text, input: "seed \(seed): \(text)")
    }
  }

  /// A long repetitive input, described briefly in failure messages.
  struct Adversarial: CustomTestStringConvertible, Sendable {
    let piece: String
    let count: Int
    var text: String { String(repeating: piece, count: count) }
    var testDescription: String { "\(count) × \(piece.debugDescription)" }
  }

  /// Long repetitions of pieces with digits (dates, numbers, brackets around them) and of
  /// words and marks: two tests, so that neither runs long.
  static let numberInputs = [
    Adversarial(piece: "(", count: 50_000),
    Adversarial(piece: "9/13(추석당일", count: 2_500),
    Adversarial(piece: "1/1,", count: 25_000),
    Adversarial(piece: "12/", count: 25_000),
    Adversarial(piece: "2", count: 50_000),
    Adversarial(piece: "\u{0}\u{1}\u{1B}[31m", count: 10_000),
    Adversarial(piece: "12/24~", count: 10_000),
    Adversarial(piece: "12/1부터 ", count: 10_000),
    Adversarial(piece: "12/13 → ", count: 10_000),
    Adversarial(piece: "[정상영업] 12/13 ", count: 10_000),
    Adversarial(piece: "1월부터 ", count: 10_000),
  ]

  static let wordInputs = [
    Adversarial(piece: "둘째,", count: 25_000),
    Adversarial(piece: "둘째 ", count: 25_000),
    Adversarial(piece: "매월 ", count: 10_000),
    Adversarial(piece: "설·", count: 10_000),
    Adversarial(piece: "정상영업", count: 10_000),
    Adversarial(piece: "월·", count: 25_000),
    Adversarial(piece: "명절 ", count: 10_000),
    Adversarial(piece: "단, 영업 ", count: 10_000),
    Adversarial(piece: "e\u{301}", count: 25_000),
    Adversarial(piece: "둘째 일요일에서 셋째 일요일로 변경 ", count: 2_500),
    Adversarial(piece: "기존 둘째 일요일 ", count: 2_500),
  ]

  /// Each input is a case of its own, held to a minute; the time limit, on a loaded machine,
  /// stops a hang. The inputs are 20,000 to 100,000 characters long, tens of times any
  /// closing-day text a source publishes; that the work grows linearly with the length is
  /// checked by `LinearWorkTests`, on inputs of several lengths.
  @Test("adversarial inputs of numbers and dates", .timeLimit(.minutes(5)), arguments: numberInputs)
  func adversarialNumbers(_ input: Adversarial) {
    checkAdversarial(input)
  }

  @Test("adversarial inputs of words and marks", .timeLimit(.minutes(5)), arguments: wordInputs)
  func adversarialWords(_ input: Adversarial) {
    checkAdversarial(input)
  }

  /// The input as it is and with a day after it: the invariants hold, within a minute.
  func checkAdversarial(_ input: Adversarial) {
    let elapsed = ContinuousClock().measure {
      Self.checkInvariants(input.text, input: "\(input.testDescription)")
      Self.checkInvariants(input.text + "일요일", input: "\(input.testDescription) + \"일요일\"")
    }
    #expect(elapsed < .seconds(60), "\(input.testDescription) took \(elapsed)")
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
