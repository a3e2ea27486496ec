import TestSupport
import Testing

@testable import MartCore

/// A store closing for good or stopping trade, as notices and the press write it: the day it is
/// shut from, and every later day shut.
///
/// Homeplus closed 원천, 동촌, 장림, 울산북구 and 계산 on 2025-11-16 (KBC 2025-08-31: "홈플러스는 오는
/// 11월 16일부터 수원 원천점 … 등 5개 점포가 문을 닫는다고 밝혔습니다"; 동아일보 2025-09-04).
@Suite("Store status in sentences")
struct StoreStatusSentenceTests {
  struct Example: CustomTestStringConvertible, Sendable {
    var text: String
    var asOf: String
    var state: StoreStatus.State
    var from: String?
    var testDescription: String { text }
  }

  static let examples: [Example] = [
    Example(
      text: "홈플러스는 오는 11월 16일부터 수원 원천점, 대구 동촌점, 부산 장림점, 울산 북구점, 인천 계산점 등 5개 점포가 문을 닫는다고 밝혔습니다.",
      asOf: "2025-08-31", state: .closed, from: "2025-11-16"),
    Example(text: "계산점은 11월 16일부터 문을 닫는다", asOf: "2025-11-20", state: .closed, from: "2025-11-16"),
    Example(text: "홈플러스 계산점은 지난달 16일 영업을 중단했다.", asOf: "2025-12-05", state: .temporarilyClosed, from: "2025-11-16"),
    Example(text: "계산점은 오는 16일 영업을 중단할 예정이다.", asOf: "2025-11-10", state: .closed, from: "2025-11-16"),
    Example(text: "2026년 1월 31일부터 영업을 종료합니다", asOf: "2026-01-10", state: .closed, from: "2026-01-31"),
  ]

  @Test("the first shut day and the state from it", arguments: examples)
  func shutFrom(_ example: Example) throws {
    let asOf = try #require(CalendarDate(iso: example.asOf))
    let reading = try #require(StoreStatus.read(example.text, asOf: asOf))
    let span = try #require(reading.shutSpan)
    #expect(span.from?.iso == example.from)
    #expect(span.until == nil)
    // Announced for a later day, the store trades until then; closed for good or stopped, it is
    // shut from the day on.
    if let from = span.from, from > asOf {
      #expect(reading.status.state == .trading)
      #expect(span.state == .closed)
    } else {
      #expect(span.state == example.state)
    }
  }

  /// A closing day in a sentence is no store status: `문을 닫는다` names the day.
  @Test func aClosingDayIsNoStatus() throws {
    let asOf = try #require(CalendarDate(iso: "2026-11-20"))
    #expect(StoreStatus.read("둘째 일요일인 22일은 대형마트가 문을 닫는다", asOf: asOf)?.shutSpan == nil)
  }
}
