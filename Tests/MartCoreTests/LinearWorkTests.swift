import Foundation
import TestSupport
import Testing

@testable import MartCore

/// A pathological input family: `make(n)` builds an input of size proportional to `n`.
struct GrowingInput: Sendable, CustomTestStringConvertible {
  var name: String
  var make: @Sendable (Int) -> String
  var testDescription: String { name }
}

/// The parsers' work grows linearly with pathological inputs (repetitions, long digit runs,
/// nested brackets, long lists, long runs of separators). Work is measured by size, not by a
/// wall-clock limit: the glued-word splitter counts its steps, and the whole parsers compare their
/// CPU time on an input and on one four times as long, where linear work takes about four times as
/// long and quadratic work sixteen times.
@Suite("Linear work on pathological inputs")
struct LinearWorkTests {
  static let asOf = CalendarDate(year: 2026, month: 11, day: 20)!

  /// `text` repeated `count` times.
  static func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

  /// `count` dates `M/D` separated by `, `, cycling through the days of a year.
  static func dateList(_ count: Int) -> String {
    (0..<count).map { "\($0 / 28 % 12 + 1)/\($0 % 28 + 1)" }.joined(separator: ", ")
  }

  // MARK: Glued words

  @Test("the glued-word splitter takes a bounded number of steps per scalar")
  func gluedWordSteps() {
    let words = [
      "서울송파구", "송파구서울", "구", "가시", "서울", "시군구", "경남창원시", "1", "12-3", "동1", "가나다라마바사아자차카타파하",
      "광주특별시광산구", "전남광주통합특별시",
    ]
    forEachCase(words, named: { $0 }) { word, comment in
      // A linear splitter visits each scalar a few times whatever the length; one that backtracks
      // or rereads suffixes takes more steps per scalar as the word grows. The sizes grow from
      // small ones, so that a splitter that backtracks fails before it takes too long.
      var stepsPerScalar: [Double] = []
      for count in [1, 2, 4, 8, 16, 32, 64] {
        let glued = Array(Self.repeated(word, count).unicodeScalars)[...]
        var steps = 0
        _ = AddressParser.splitGlued(glued, steps: &steps)
        stepsPerScalar.append(Double(steps) / Double(glued.count))
        let measured = Comment(rawValue: "\(comment.rawValue): steps per scalar \(stepsPerScalar)")
        guard stepsPerScalar.last! <= 4 else {
          Issue.record(measured)
          return
        }
      }
    }
  }

  @Test("the reported address finishes, and seventeen glued districts after provinces are not understood")
  func reportedAddress() {
    let once = KoreanAddress(parsing: "서울송파구")
    #expect(once.province == .seoul)
    #expect(once.sigungu == "송파구")

    // A province cannot follow a district, so no split of the repeated word reads as an address.
    let input = Self.repeated("서울송파구", 17)
    let address = KoreanAddress(parsing: input)
    #expect(address.province == nil)
    #expect(address.sigungu == nil)
    #expect(address.unparsed == [input])
    #expect(AddressParser.splitGlued(Array(input.unicodeScalars)[...]).count == 1)
  }

  @Test("a long glued word splits as a short one does")
  func longGluedWord() {
    // Every 가시 reads as a 시 and the rest after it starts with one: a split at each.
    let districts = AddressParser.splitGlued(Array(Self.repeated("가시", 200).unicodeScalars)[...])
    #expect(districts.map(AddressParser.string) == Array(repeating: "가시", count: 200))
    let address = AddressParser.splitGlued(Array("경남창원시의창구중앙대로300".unicodeScalars)[...])
    #expect(address.map(AddressParser.string) == ["경남", "창원시", "의창구", "중앙대로", "300"])
  }

  // MARK: Whole parsers

  static let addressInputs: [GrowingInput] = [
    GrowingInput(name: "glued province and district") { repeated("서울송파구", $0) },
    GrowingInput(name: "glued districts") { repeated("가시", $0) + "가나다라마바사아자차" },
    GrowingInput(name: "words") { repeated("서울 송파구 ", $0) + "올림픽로 300" },
    GrowingInput(name: "digits") { "서울 송파구 올림픽로 " + repeated("1", $0 * 10) },
    GrowingInput(name: "spaces") { "서울 송파구" + repeated(" ", $0 * 10) + "올림픽로 300" },
    GrowingInput(name: "spaced dashes") { repeated("1 - ", $0 * 4) },
    GrowingInput(name: "nested brackets") { "올림픽로 300 " + repeated("(", $0 * 5) + "신천동" + repeated(")", $0 * 5) },
    GrowingInput(name: "unbalanced brackets") { repeated("(주", $0 * 5) },
    GrowingInput(name: "commas") { "올림픽로 300" + repeated(" , ", $0 * 5) + "신천동" },
    GrowingInput(name: "references") { "올림픽로 300 " + repeated("(신천동 1-1) ", $0) },
    GrowingInput(name: "names written with an inner space") { repeated("양평동 3가 3공단 6로 ", $0) + "10" },
    GrowingInput(name: "references with an inner space") { "선유로 156 " + repeated("(양평동 3가 15) ", $0) },
    GrowingInput(name: "glued merged province") { repeated("전남광주통합특별시광산구", $0) },
  ]

  @Test("the address parser's work grows linearly")
  func addressParserGrowth() {
    forEachCase(Self.addressInputs) { input, comment in
      expectLinearGrowth(comment, base: 200) { _ = KoreanAddress(parsing: input.make($0)) }
    }
  }

  static let closingInputs: [GrowingInput] = [
    GrowingInput(name: "digits") { repeated("1", $0 * 20) + "일 휴무" },
    GrowingInput(name: "nested brackets") { repeated("(", $0 * 10) + "매월 둘째 일요일" + repeated(")", $0 * 10) },
    GrowingInput(name: "unbalanced brackets") { repeated("((매월 ", $0 * 3) },
    GrowingInput(name: "date list") { dateList($0 * 3) + " 휴무" },
    GrowingInput(name: "rules") { repeated("매월 둘째·넷째 일요일 휴무, ", $0) },
    GrowingInput(name: "ordinal digits") { "매월 " + repeated("2,", $0 * 5) + " 일요일" },
    GrowingInput(name: "separators") { "12/13" + repeated(", ", $0 * 10) + "27 휴무" },
    GrowingInput(name: "holidays") { repeated("설날 추석 ", $0 * 2) + "당일 휴무" },
    GrowingInput(name: "short weekdays") { repeated("월, ", $0 * 5) + "일요일" },
    GrowingInput(name: "opening verbs after hours") {
      "12/24 " + repeated("가 ", $0 * 3) + "오후 " + repeated("영업 ", $0 * 3)
    },
    GrowingInput(name: "spaces") { "둘째" + repeated(" ", $0 * 20) + "일요일" },
    GrowingInput(name: "rule changes") { repeated("2027년 1월부터 둘째 일요일에서 셋째 수요일로 변경. ", $0) },
    GrowingInput(name: "moved dates") { repeated("12/13 → 12/14, ", $0 * 3) },
    GrowingInput(name: "labels before dates") { repeated("[정상영업] 12/13(일) [휴무] 12/30(수) ", $0 * 2) },
    GrowingInput(name: "words that are not closures") { repeated("12/1~12/7 행사 (12/24 영업시간 단축) ", $0 * 2) },
    GrowingInput(name: "replaced rules without an arrow") { "기존 " + repeated("둘째 일요일 ", $0 * 3) },
    GrowingInput(name: "rules scoped to months") {
      (0..<$0).map { "\(2000 + $0 / 12)년 \($0 % 12 + 1)월은 셋째 일요일" }.joined(separator: ". ")
    },
  ]

  @Test("the closing-day parser's work grows linearly")
  func closingParserGrowth() {
    forEachCase(Self.closingInputs) { input, comment in
      expectLinearGrowth(comment, base: 100) { _ = ClosingSchedule.parse(input.make($0), asOf: Self.asOf) }
    }
  }

  @Test("published dates over many months override a schedule in linear work")
  func publishedDatesGrowth() {
    let schedule = ClosingSchedule.parse("매월 둘째·넷째 일요일 휴무, 12/24 정상영업", asOf: Self.asOf)
    func publishedDates(_ count: Int) -> [CalendarDate] {
      (0..<count).map { CalendarDate(year: 2000 + $0 / 24, month: $0 / 2 % 12 + 1, day: $0 % 2 * 10 + 5)! }
    }
    expectLinearGrowth("published dates", base: 250) {
      _ = schedule.overridden(byOfficialDates: publishedDates($0 * 2))
    }
    let overridden = schedule.overridden(byOfficialDates: publishedDates(4))
    // Two published days in each of 2000-01 and 2000-02; the rule's Sundays there give way.
    #expect(
      overridden.closedDates(
        from: CalendarDate(year: 2000, month: 1, day: 1)!, through: CalendarDate(year: 2000, month: 2, day: 29)!
      ).map(\.iso) == ["2000-01-05", "2000-01-15", "2000-02-05", "2000-02-15"])
  }

  @Test("a rule's date in the calendar's last month is read")
  func lastMonthOfCalendar() {
    // Dates in brackets right after a rule are its dates; December 9999 has no month after it.
    let schedule = ClosingSchedule.parse("매월 둘째 일요일 (9999-12-26)", asOf: Self.asOf)
    #expect(schedule.dates.map(\.iso).contains("9999-12-26"))
  }

  @Test("a long run of digits is no number and no date")
  func longDigitRun() {
    let schedule = ClosingSchedule.parse(Self.repeated("9", 10_000) + "일 휴무", asOf: Self.asOf)
    #expect(schedule.rules.isEmpty)
    #expect(schedule.dates.isEmpty)
  }

  static let statusInputs: [GrowingInput] = [
    GrowingInput(name: "temporary closures") { repeated("리뉴얼 공사로 휴점, ", $0) + "12/31까지" },
    GrowingInput(name: "digits") { "임시휴업 " + repeated("1", $0 * 20) },
    GrowingInput(name: "dates") { "임시휴업 " + dateList($0 * 3) },
    GrowingInput(name: "nested brackets") { "폐점 " + repeated("(", $0 * 10) + "12/31" + repeated(")", $0 * 10) },
    GrowingInput(name: "weekdays in brackets") { "임시휴업 " + repeated("( 일 )", $0 * 4) },
    GrowingInput(name: "spaces") { "임시휴업 1" + repeated(" ", $0 * 20) + "/ 1" },
    GrowingInput(name: "closed words") { repeated("폐점시간 ", $0 * 4) },
  ]

  @Test("the store-status reader's work grows linearly")
  func storeStatusGrowth() {
    forEachCase(Self.statusInputs) { input, comment in
      expectLinearGrowth(comment, base: 100) { _ = StoreStatus.read(input.make($0), asOf: Self.asOf) }
    }
  }
}
