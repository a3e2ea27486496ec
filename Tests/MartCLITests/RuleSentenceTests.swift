import Foundation
import TestSupport
import Testing

/// `mart-holiday rule` on notices written as sentences: the store status it reads
/// (`storeStatus`), and a bare list known through its last date only.
@Suite struct RuleSentenceTests {
  func run(_ arguments: [String]) throws -> [String: Any] {
    let outcome = try ProcessRunner.run(
      CommandLineContractTests.binary, ["rule", "--format", "json"] + arguments, in: FixturePaths.repositoryRoot)
    #expect(outcome.status == 0)
    return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdoutText.utf8)) as? [String: Any])
  }

  @Test func aStoreClosingFromADayIsShutEveryDayAfter() throws {
    // KBC 2025-08-31: 원천, 동촌, 장림, 울산북구 and 계산 close on 2025-11-16.
    let text = "홈플러스는 오는 11월 16일부터 수원 원천점, 대구 동촌점 등 5개 점포가 문을 닫는다고 밝혔습니다."
    let json = try run(["--as-of", "2025-08-31", "--from", "2025-11-01", "--to", "2025-11-30", text])
    let status = try #require(json["storeStatus"] as? [String: Any])
    #expect(status["state"] as? String == "closed")
    #expect(status["from"] as? String == "2025-11-16")
    #expect(status["until"] is NSNull)
    #expect(status["text"] as? String == text)
    let dates = try #require(json["dates"] as? [String])
    #expect(dates.first == "2025-11-16")
    #expect(dates.count == 15)  // 11-16 … 11-30
    #expect(dates.last == "2025-11-30")
  }

  @Test func aTradingStoreReportsTrading() throws {
    let json = try run(["--as-of", "2026-11-20", "매월 둘째·넷째 일요일"])
    let status = try #require(json["storeStatus"] as? [String: Any])
    #expect(status["state"] as? String == "trading")
    #expect(status["from"] is NSNull)
    #expect(status["until"] is NSNull)
    #expect(status["text"] is NSNull)
  }

  @Test func aBareListIsKnownThroughItsLastDate() throws {
    // 2026-09-27 and 2026-10-11 are Sundays; October's second closure is not called open.
    let json = try run(["--as-of", "2026-09-20", "--from", "2026-09-01", "--to", "2026-11-30", "9/27(일), 10/11(일)"])
    #expect(json["dates"] as? [String] == ["2026-09-27", "2026-10-11"])
    #expect(json["knownThrough"] as? String == "2026-10-11")
    let unknown = try #require(json["unknownRanges"] as? [[String: String]])
    #expect(unknown.last == ["from": "2026-10-12", "through": "2026-11-30"])
  }
}
