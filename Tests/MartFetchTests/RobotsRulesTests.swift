import Foundation
import MartFetch
import Testing

@Suite struct RobotsRulesTests {
  @Test func theLongestMatchWinsAndAllowWinsATie() {
    let rules = RobotsRules(
      parsing: "User-agent: *\nDisallow: /shop\nAllow: /shop/list\nDisallow: /x\nAllow: /x\n", userAgent: "mart-holiday"
    )
    #expect(!rules.allows("/shop/1001"))
    #expect(rules.allows("/shop/list?page=2"))
    #expect(rules.allows("/x/y"))
    #expect(rules.allows("/other"))
  }

  @Test func wildcardsAndEndAnchors() {
    let rules = RobotsRules(
      parsing: "User-agent: *\nDisallow: /*?sort=\nDisallow: /*.json$\n", userAgent: "mart-holiday")
    #expect(!rules.allows("/list?sort=name"))
    #expect(rules.allows("/list?page=1"))
    #expect(!rules.allows("/api/stores.json"))
    #expect(rules.allows("/api/stores.json?v=2"))
  }

  @Test func ourGroupIsChosenByProductTokenAndGroupsMayShareLines() {
    let text = """
      User-agent: googlebot
      User-agent: Mart-Holiday
      Disallow: /private
      Crawl-delay: 2

      User-agent: *
      Disallow: /
      """
    let rules = RobotsRules(parsing: text, userAgent: "mart-holiday/0.9.0")
    #expect(rules.allows("/branch"))
    #expect(!rules.allows("/private/1"))
    #expect(rules.crawlDelay == .seconds(2))
    let other = RobotsRules(parsing: text, userAgent: "otherbot")
    #expect(!other.allows("/branch"))
  }

  @Test func anEmptyDisallowAllowsEverything() {
    #expect(RobotsRules(parsing: "User-agent: *\nDisallow:\n", userAgent: "mart-holiday").allows("/anything"))
  }
}

@Suite struct RetryAfterTests {
  @Test func secondsAndHTTPDates() throws {
    // 2026-11-01T00:00:00Z is 1793491200 seconds after the epoch (python3: calendar.timegm).
    let now = Date(timeIntervalSince1970: 1_793_491_200)
    #expect(RetryAfter.delay("3", now: now) == .seconds(3))
    #expect(RetryAfter.delay("Sun, 01 Nov 2026 00:00:30 GMT", now: now) == .seconds(30))
    #expect(RetryAfter.delay("Sun, 01 Nov 2026 00:00:00 GMT", now: now.addingTimeInterval(60)) == .zero)
    #expect(RetryAfter.delay("soon", now: now) == nil)
  }
}
