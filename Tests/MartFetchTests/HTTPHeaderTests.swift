import Foundation
import MartFetch
import Testing

@Suite struct HTTPHeaderTests {
  func response(_ headers: [HTTPHeader]) -> HTTPResponse {
    HTTPResponse(
      requestURL: "https://example.com/", finalURL: "https://example.com/", status: 200, headers: headers, body: Data())
  }

  @Test(
    arguments: [
      ("text/html; charset=EUC-KR", "euc-kr"), ("text/html;charset=\"utf-8\"", "utf-8"),
      ("text/html; Charset = ' UTF-8 ' ", "utf-8"), ("text/html;\tCHARSET=ks_c_5601-1987", "ks_c_5601-1987"),
      ("application/json", nil), ("text/html; boundary=x; charset=utf-8", "utf-8"), ("text/html; charsets=x", nil),
      // Empty parts are skipped, the first part left is the media type; leading `=`s are no name.
      (";charset=utf-8", nil), (";;a;charset=x", "x"), ("a;=charset=x", "x"), ("a;==charset==x", "=x"),
      ("a;charset=", nil), ("a;charset==", "="), ("a; charset;charset=b", "b"),
    ] as [(String, String?)])
  func theCharsetParameterIsReadWhateverItsCaseQuotesAndSpaces(contentType: String, charset: String?) {
    #expect(response([HTTPHeader("content-TYPE", contentType)]).charset == charset)
  }

  @Test func aHeaderIsFoundByItsNameInAnyCaseAndTheLastOneWins() {
    let headers = [HTTPHeader("ETag", "\"a\""), HTTPHeader("Last-Modified", "x"), HTTPHeader("etag", "\"b\"")]
    #expect(headers.value(named: "ETAG") == "\"b\"")
    #expect(headers.value(named: "last-modified") == "x")
    #expect(headers.value(named: "Last-Modifie") == nil)
    // Only ASCII letters fold: a non-ASCII name equals only itself.
    #expect([HTTPHeader("X-Ä", "1")].value(named: "x-ä") == nil)
  }

  @Test func fieldLinesAreReadWithTheirContinuations() {
    var headers: [HTTPHeader] = []
    let read = [
      "Content-Type:  text/html;\t", "\t charset=EUC-KR", "X-Empty:", ": no name", "not a field",
    ].map { headers.appendFieldLine($0) }
    #expect(read == [true, true, true, false, false])
    #expect(headers.map(\.name) == ["Content-Type", "X-Empty"])
    #expect(headers.map(\.value) == ["text/html; charset=EUC-KR", ""])
    // A continuation with nothing to continue is not a field.
    var none: [HTTPHeader] = []
    let orphan = none.appendFieldLine(" orphan")
    #expect(!orphan && none.isEmpty)
  }
}
