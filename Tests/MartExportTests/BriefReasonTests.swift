import MartExport
import Testing

/// A brand's reason: one line of at most 200 characters, no clause said twice.
@Suite struct BriefReasonTests {
  @Test func repeatedClausesGoAndTheSourceStays() {
    // The source's name says where the failure was (for `traders`, E-mart's source).
    #expect(BriefReason.brief("emart: emart: fetching failed") == "emart: fetching failed")
    #expect(BriefReason.brief("a page failed: a page failed: HTTP 503") == "a page failed: HTTP 503")
    #expect(BriefReason.brief("timed out; timed out; gave up") == "timed out; gave up")
    #expect(BriefReason.brief("line one\n  line two\tend") == "line one line two end")
  }

  @Test func aLongReasonIsCutAtAWordWithinTheLimit() {
    let long = String(repeating: "the site answered a page that is not its store list ", count: 12)
    let brief = BriefReason.brief(long)
    #expect(brief.count <= BriefReason.limit, "\(brief.count)")
    #expect(brief.hasSuffix("…"))
    #expect(brief.hasPrefix("the site answered a page that is not its store list the site"))
    #expect(!brief.dropLast().hasSuffix(" "))
    let short = "fetching https://my.homeplus.co.kr/store/get_list failed: answered HTTP/1.1 503"
    #expect(BriefReason.brief(short) == short)
  }
}
