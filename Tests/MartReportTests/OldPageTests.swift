import Foundation
import Testing

@testable import MartReport

/// A page that a run could not replace is kept, marked as of an earlier run.
@Suite struct OldPageTests {
  let page = "<!DOCTYPE html>\n<html lang=\"en\">\n<head><title>t</title></head>\n<body>\n<h1>Run</h1>\n</body>\n</html>\n"

  @Test func theBannerOpensTheBodyAndSaysWhichRunFailedAndWhy() throws {
    // 2026-11-21T00:30:00Z is 09:30 on 2026-11-21 in Korea (UTC+9).
    let marked = ReportPage.markedOld(page, startedAt: "2026-11-21T00:30:00Z", reason: "write failed: <No space>")
    let body = try #require(marked.range(of: "<body>"))
    let banner = try #require(marked.range(of: "This page is of an earlier run."))
    let heading = try #require(marked.range(of: "<h1>Run</h1>"))
    #expect(body.upperBound <= banner.lowerBound && banner.upperBound <= heading.lowerBound)
    #expect(marked.contains("The run started \(KoreanTime.text("2026-11-21T00:30:00Z")) could not write its own page"))
    #expect(KoreanTime.text("2026-11-21T00:30:00Z").hasPrefix("2026-11-21 09:30"))
    #expect(marked.contains("(write failed: &lt;No space&gt;)"))
  }

  @Test func aSecondFailureReplacesTheBannerInsteadOfAddingOne() {
    let once = ReportPage.markedOld(page, startedAt: "2026-11-21T00:30:00Z", reason: "first")
    let twice = ReportPage.markedOld(once, startedAt: "2026-11-22T00:30:00Z", reason: "second")
    #expect(twice.components(separatedBy: "This page is of an earlier run.").count == 2)
    #expect(twice.contains("(second)") && !twice.contains("(first)"))
    #expect(twice.contains("<h1>Run</h1>"))
  }
}
