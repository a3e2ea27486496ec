import Foundation
import MartBrands
import MartFetch
import Testing

/// A response that is not what a source's reader expects is told by what it is.
@Suite struct ResponseDescriptionTests {
  let maintenance = """
    <!DOCTYPE html>
    <html><head><meta charset="utf-8"><title>
      시스템 점검 안내
    </title></head><body><h1>보다 나은 서비스를 위해 점검 중입니다</h1></body></html>
    """

  @Test func anHTMLPageIsToldByItsTitle() {
    #expect(ResponseDescription.body(Data(maintenance.utf8)) == "an HTML page titled '시스템 점검 안내'")
    let untitled = "<html><body><p>잠시 후   다시 시도해 주세요</p></body></html>"
    #expect(ResponseDescription.body(Data(untitled.utf8)) == "an HTML page beginning '잠시 후 다시 시도해 주세요'")
  }

  @Test func aTitleInALegacyKoreanEncodingIsReadInTheDeclaredCharset() {
    // 점검 중 in CP949 (EUC-KR): C1A1 B0CB 20 C1DF.
    var bytes = Data("<html><head><title>".utf8)
    bytes += Data([0xC1, 0xA1, 0xB0, 0xCB, 0x20, 0xC1, 0xDF])
    bytes += Data("</title></head><body></body></html>".utf8)
    #expect(ResponseDescription.body(bytes, declaredCharset: "euc-kr") == "an HTML page titled '점검 중'")
  }

  @Test func otherBodiesAreToldByTheirFirstWords() {
    #expect(ResponseDescription.body(Data()) == "an empty body")
    #expect(ResponseDescription.body(Data(" \n ".utf8)) == "an empty body")
    #expect(ResponseDescription.body(Data(#"{"error": "denied"}"#.utf8)) == #"JSON beginning '{"error": "denied"}'"#)
    let long = String(repeating: "가", count: 200)
    #expect(ResponseDescription.body(Data(long.utf8)) == "text beginning '\(String(repeating: "가", count: 80))…'")
  }

  @Test func theErrorSaysWhatTheURLAnsweredAndWhatWasExpected() {
    let response = HTTPResponse(
      requestURL: "https://example.com/api", finalURL: "https://example.com/api", status: 200,
      headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")], body: Data(maintenance.utf8))
    let error = SourceError(
      source: "example", url: "https://example.com/api",
      reason: .unexpectedContent("expected a JSON object with a \"data\" array"),
      answered: ResponseDescription.body(response), responseFacts: ResponseDescription.facts(response))
    #expect(
      error.description
        == "example: unexpected content at https://example.com/api: it answered an HTML page titled '시스템 점검 안내'"
        + " (HTTP 200, text/html; charset=utf-8) — expected a JSON object with a \"data\" array")
    #expect(!error.description.contains("DecodingError"))
  }
}
