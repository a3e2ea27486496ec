import Foundation
import MartCore
import MartHTML
import Testing

@Suite("HTMLDocument")
struct HTMLDocumentTests {
  static let shopList = """
    <!DOCTYPE html>
    <html lang="ko"><head><meta charset="UTF-8"><title>매장 찾기</title></head>
    <body>
      <ul class="shop-list">
        <li class="shop" data-id="0100161">
          <strong class="name">창원중앙점</strong>
          <div class="info">
            <span class="time">10:00~23:00</span>
            <span class="call">055 240 2500</span>
            <span class="day-off holiday">매월 둘째,&nbsp;넷째주
              일요일</span>
          </div>
          <div class="address">경남 창원시 성산구 중앙대로 123</div>
        </li>
        <li class="shop closed" data-id="0100225">
          <strong class="name">판교점</strong>
          <div class="info"><span class="call">031-8016-2500</span><span class="day-offs">x</span></div>
        </li>
      </ul>
    </body></html>
    """

  static func parse(_ html: String, charset: String? = nil) throws -> HTMLDocument {
    try HTMLDocument(data: Data(html.utf8), url: "https://example.com/shops", charset: charset)
  }

  @Test func selectsByAttributeAndCountsNodes() throws {
    let document = try Self.parse(Self.shopList)
    let shops = try document.select("//li[@data-id]")
    #expect(shops.count == 2)
    #expect(shops.map { $0.attribute("data-id") } == ["0100161", "0100225"])
    #expect(try document.select("//li[@data-id='0100225']").count == 1)
    #expect(shops[0].attribute("data-missing") == nil)
    #expect(shops[0].name == "li")
  }

  @Test func textCollapsesWhitespaceAndNonBreakingSpaces() throws {
    let document = try Self.parse(Self.shopList)
    let dayOff = try #require(try document.first("//span[\(XPath.hasClass("day-off"))]"))
    #expect(dayOff.text == "매월 둘째, 넷째주 일요일")
    #expect(dayOff.rawText.contains("\u{00A0}"))
    #expect(dayOff.rawText.contains("\n"))
  }

  @Test func hasClassMatchesWholeClassNamesOnly() throws {
    #expect(
      XPath.hasClass("day-off") == "contains(concat(' ', normalize-space(@class), ' '), ' day-off ')")
    let document = try Self.parse(Self.shopList)
    // "day-offs" must not match "day-off"; "holiday" is a second class on the same element.
    #expect(try document.select("//*[\(XPath.hasClass("day-off"))]").count == 1)
    #expect(try document.select("//*[\(XPath.hasClass("holiday"))]").count == 1)
    #expect(try document.select("//li[\(XPath.hasClass("closed"))]").count == 1)
  }

  @Test func relativeQueriesStayBelowTheirNode() throws {
    let document = try Self.parse(Self.shopList)
    let shops = try document.select("//li[\(XPath.hasClass("shop"))]")
    #expect(
      try shops.map { try $0.first(".//span[\(XPath.hasClass("call"))]")?.text }
        == ["055 240 2500", "031-8016-2500"])
    #expect(try shops[1].first(".//span[\(XPath.hasClass("time"))]") == nil)
    #expect(try shops[1].select(".//span").count == 2)
    // Without the leading dot the query searches the whole document.
    #expect(try shops[1].select("//span").count == 5)
  }

  @Test func childrenAreElementsInOrder() throws {
    let document = try Self.parse(Self.shopList)
    let shop = try #require(try document.first("//li[@data-id='0100161']"))
    #expect(shop.children.map(\.name) == ["strong", "div", "div"])
    #expect(shop.children[1].children.map(\.name) == ["span", "span", "span"])
  }

  @Test func recoversUnclosedTagsAndStrayEndTags() throws {
    let html = """
      <html><body><ul><li>첫째<li>둘째<li><b>셋째</ul>
      <p>문단 하나<p>문단 둘
      </body></html>
      <div class="late">닫힌 뒤의 글</div>
      """
    let document = try Self.parse(html)
    #expect(try document.select("//li").map(\.text) == ["첫째", "둘째", "셋째"])
    #expect(try document.select("//p").map(\.text) == ["문단 하나", "문단 둘"])
    #expect(try document.first("//div[@class='late']")?.text == "닫힌 뒤의 글")
  }

  @Test func recoversUnbalancedQuotes() throws {
    let html = """
      <div class="a><span>lost</span></div>
      <p class='ok'>kept</p>
      <a href="/shop/shop_view.asp?brnchCd=0100161>제주점</a>
      <span id="after">after</span>
      """
    let document = try Self.parse(html)
    // The open quote swallows markup up to the next double quote; parsing then carries on.
    #expect(try document.first("//div")?.attribute("class")?.hasPrefix("a><span>lost") == true)
    #expect(try document.first("//body")?.text.contains("제주점") == true)
    #expect(try document.first("//span[@id='after']")?.text == "after")
  }

  @Test func decodesEntities() throws {
    let document = try Self.parse("<p id='x'>A &amp; B &#54620;&#xAE00; &lt;tag&gt; &quot;q&quot;</p>")
    #expect(try document.first("//p")?.text == "A & B 한글 <tag> \"q\"")
    #expect(try document.first("//p")?.attribute("id") == "x")
  }

  @Test func readsUndeclaredBytesAsUTF8() throws {
    // Without a declaration libxml2 would assume ISO-8859-1; the wrapper defaults to UTF-8.
    let document = try HTMLDocument(data: Data("<p>이마트 휴무일</p>".utf8))
    #expect(try document.first("//p")?.text == "이마트 휴무일")
  }

  /// `이마트 휴무일` in EUC-KR.
  static let eucKRBytes: [UInt8] = [0xC0, 0xCC, 0xB8, 0xB6, 0xC6, 0xAE, 0x20, 0xC8, 0xDE, 0xB9, 0xAB, 0xC0, 0xCF]

  @Test func decodesEUCKRFromTheCharsetArgument() throws {
    let data = Data("<html><body><p>".utf8) + Data(Self.eucKRBytes) + Data("</p></body></html>".utf8)
    let document = try HTMLDocument(data: data, url: "http://example.com/", charset: "euc-kr")
    #expect(try document.first("//p")?.text == "이마트 휴무일")
  }

  /// A `<meta>` declaration, named in the test log by its attribute.
  struct Meta: CustomTestStringConvertible, Sendable {
    var html: String
    var testDescription: String { html.contains("http-equiv") ? "http-equiv" : "charset" }
  }

  @Test(arguments: [
    Meta(html: #"<meta charset="euc-kr">"#),
    Meta(html: #"<meta http-equiv="Content-Type" content="text/html; charset=EUC-KR">"#),
  ])
  func decodesEUCKRFromAMetaDeclaration(meta: Meta) throws {
    let data =
      Data("<html><head>\(meta.html)</head><body><p>".utf8) + Data(Self.eucKRBytes)
      + Data("</p></body></html>".utf8)
    let document = try HTMLDocument(data: data)
    #expect(try document.first("//p")?.text == "이마트 휴무일")
  }

  @Test func charsetArgumentWinsOverMeta() throws {
    let html = "<html><head><meta charset='euc-kr'></head><body><p>노브랜드</p></body></html>"
    let document = try HTMLDocument(data: Data(html.utf8), charset: "utf-8")
    #expect(try document.first("//p")?.text == "노브랜드")
  }

  @Test func elementOutlivesItsDocumentVariable() throws {
    func firstShop() throws -> HTMLElement? {
      let document = try Self.parse(Self.shopList)
      return try document.first("//li[@data-id]")
    }
    let shop = try #require(try firstShop())
    // Churn the allocator so a freed tree would be overwritten.
    for _ in 0..<50 { _ = try Self.parse(Self.shopList) }
    #expect(shop.attribute("data-id") == "0100161")
    #expect(try shop.first(".//strong")?.text == "창원중앙점")
  }

  @Test func invalidXPathNamesTheExpression() throws {
    for expression in ["//li[", "//*[@class=='x']", "//li]", "//span[@class='unterminated]"] {
      let document = try Self.parse(Self.shopList)
      do {
        _ = try document.select(expression)
        Issue.record("expected an error for \(expression)")
      } catch {
        #expect(error.kind == .invalidXPath(expression), "\(expression)")
        #expect(error.url == "https://example.com/shops", "\(expression)")
        #expect(error.description.contains(expression), "\(expression)")
        #expect(error.detail.contains(" at offset "), "\(expression)")
      }
    }
  }

  @Test func nonNodeResultIsAnError() throws {
    let document = try Self.parse(Self.shopList)
    #expect(throws: HTMLError.self) { try document.select("count(//li)") }
  }

  @Test func emptyInputIsAParseError() throws {
    do {
      _ = try HTMLDocument(data: Data(), url: "https://example.com/empty")
      Issue.record("expected a parse error")
    } catch {
      #expect(error.kind == .parse)
      #expect(error.description.contains("https://example.com/empty"))
    }
  }

  /// An error is a `LocatedError`: where is the document's URL, what failed and libxml2's
  /// reason the message, no cause below it, and the line it prints stays as it was.
  @Test func anErrorIsLocatedAtTheDocumentsURL() throws {
    let document = try Self.parse(Self.shopList)
    let error = try #require(throws: HTMLError.self) { try document.select("//li[") }
    #expect(error.location == "https://example.com/shops")
    #expect(error.message == "invalid XPath '//li[': \(error.detail)")
    #expect(error.description == "invalid XPath '//li[' (https://example.com/shops): \(error.detail)")
    #expect(error.cause == nil)
    let unnamed = try #require(throws: HTMLError.self) { try HTMLDocument(data: Data()) }
    #expect(unnamed.location == "an HTML document without a URL")
    #expect(unnamed.message == "cannot parse HTML: \(unnamed.detail)")
    #expect(unnamed.description == unnamed.message)
  }
}
