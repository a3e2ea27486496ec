import Foundation
import MartHTML
import TestSupport
import Testing

@Suite("HTML tree walk")
struct HTMLWalkTests {
  static func parse(_ html: String) throws -> HTMLDocument {
    try HTMLDocument(data: Data(html.utf8), url: "https://example.com/walk", charset: "UTF-8")
  }

  /// A `class` attribute (its markup, or none) and a class name asked about.
  struct ClassCase: CustomTestStringConvertible, Sendable {
    var attribute: String?
    var className: String
    var matches: Bool
    var testDescription: String {
      "\(attribute.map { "class=\($0.debugDescription)" } ?? "no class") ∋ \(className.debugDescription)"
    }
  }

  static let classCases: [ClassCase] = [
    ClassCase(attribute: "day-off", className: "day-off", matches: true),
    ClassCase(attribute: "day-offs", className: "day-off", matches: false),
    ClassCase(attribute: "day", className: "day-off", matches: false),
    ClassCase(attribute: "day-off holiday", className: "day", matches: false),
    ClassCase(attribute: "xday-off", className: "day-off", matches: false),
    ClassCase(attribute: "day-off holiday", className: "holiday", matches: true),
    ClassCase(attribute: "  day-off  ", className: "day-off", matches: true),
    ClassCase(attribute: "box\tday-off\nx", className: "day-off", matches: true),
    ClassCase(attribute: "box\r\nday-off", className: "day-off", matches: true),
    ClassCase(attribute: "a\tb", className: "a", matches: true),
    ClassCase(attribute: "a&#9;b", className: "b", matches: true),
    // A no-break space is not XPath whitespace: it does not separate classes.
    ClassCase(attribute: "day-off&nbsp;x", className: "day-off", matches: false),
    ClassCase(attribute: "Day-Off", className: "day-off", matches: false),
    ClassCase(attribute: "", className: "day-off", matches: false),
    ClassCase(attribute: nil, className: "day-off", matches: false),
    ClassCase(attribute: "휴점일 day-off", className: "휴점일", matches: true),
    // Names with spaces or none: the XPath test as written.
    ClassCase(attribute: "box-info  other-info", className: "box-info other-info", matches: true),
    ClassCase(attribute: "other-info box-info", className: "box-info other-info", matches: false),
    ClassCase(attribute: nil, className: "", matches: true),
    ClassCase(attribute: " \t ", className: "", matches: true),
    ClassCase(attribute: "x", className: "", matches: false),
  ]

  @Test func hasClassMatchesTheXPathTest() throws {
    forEachCase(Self.classCases) { example, comment in
      let markup = example.attribute.map { " class=\"\($0)\"" } ?? ""
      let document = try Self.parse("<html><body><p id='x'\(markup)>t</p></body></html>")
      let element = try #require(try document.first("//p"))
      #expect(element.hasClass(example.className) == example.matches, comment)
      let byXPath = try document.select("//p[\(XPath.hasClass(example.className))]").count == 1
      #expect(byXPath == example.matches, comment)
    }
  }

  static let page = """
    <!DOCTYPE html>
    <html><head><title>walk</title></head>
    <body>
      <!-- a comment -->
      <ul class="list">
        <li class="shop"><span class="name">창원점</span> <a href="/v?brnchCd=01" onclick="goClick('7')">보기</a></li>
        <li class="shop"><div><span class="call">055</span></div><p>a<br>b</p></li>
      </ul>
      <div data-x="35.1" data-y="">끝</div>
    </body></html>
    """

  @Test func elementsAreInDocumentOrderWithTheirDepth() throws {
    let document = try Self.parse(Self.page)
    #expect(Array(document.elements) == (try document.select("//*")))
    var walk = document.elements
    var depths: [String: Int] = [:]
    while let element = walk.next() {
      if depths[element.name] == nil { depths[element.name] = walk.depth }
    }
    #expect(
      depths == [
        "html": 1, "head": 2, "title": 3, "body": 2, "ul": 3, "li": 4, "span": 5, "a": 5, "div": 5, "p": 5, "br": 6,
      ])
  }

  @Test func descendantsStayBelowTheirElement() throws {
    let document = try Self.parse(Self.page)
    for element in try document.select("//*") {
      #expect(Array(element.descendants) == (try element.select(".//*")), "\(element.name)")
      #expect(Array(element.descendantNodes) == (try element.select(".//* | .//text()")), "\(element.name)")
    }
    #expect(Array(document.nodes) == (try document.select("//* | //text()")))
    let leaf = try #require(try document.first("//br"))
    #expect(Array(leaf.descendants).isEmpty)
  }

  @Test func firstMatchesAndNames() throws {
    let document = try Self.parse(Self.page)
    let shop = try #require(document.firstElement { $0.hasClass("shop") })
    #expect(shop == (try document.first("//li")))
    #expect(shop.hasName("li") && !shop.hasName("LI") && !shop.hasName("l"))
    #expect(shop.firstDescendant { $0.hasName("a") }?.text == "보기")
    #expect(shop.firstDescendant { $0.hasClass("call") } == nil)
    let link = try #require(try document.first("//a"))
    #expect(link.attribute("href", contains: "brnchCd="))
    #expect(!link.attribute("href", contains: "werks="))
    #expect(link.attribute("onclick", contains: "goClick"))
    #expect(!link.attribute("title", contains: "x"))
    #expect(link.attribute("title", contains: ""))
    let point = try #require(document.firstElement { $0.hasAttribute("data-x") && $0.hasAttribute("data-y") })
    #expect(point.attribute("data-y") == "")
    #expect(!shop.hasAttribute("data-x"))
    let comment = try #require(try document.first("//comment()"))
    #expect(!comment.isElement && !comment.isText && !comment.hasName("comment"))
  }

  @Test func textMatchesTheJoinedContentCollapsed() throws {
    let html = """
      <div id="a">  매월&nbsp;둘째,\t넷째 <b>일요일</b>\u{3000}(11/8,&#x2003;11/22)&#x85;<i></i>  </div>
      <div id="b"><!-- 주석 --><span> </span>&#xA0;</div>
      <div id="c">x<script>var a = "  b  ";</script>y</div>
      <div id="d"></div>
      """
    let document = try Self.parse(html)
    let expected = ["매월 둘째, 넷째 일요일 (11/8, 11/22)", "", #"xvar a = " b ";y"#, ""]
    #expect(try document.select("//div").map(\.text) == expected)
    for node in try document.select("//node()") {
      #expect(node.text == Self.collapsed(node.rawText), "\(node.name)")
    }
  }

  /// Whitespace collapsed scalar by scalar, as `text` is documented.
  static func collapsed(_ text: String) -> String {
    let whitespace: Set<UInt32> = Set(
      [0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0x20] + Array(0x09...0x0D) + Array(0x2000...0x200A))
    return text.unicodeScalars.split(whereSeparator: { whitespace.contains($0.value) }).map {
      String(String.UnicodeScalarView($0))
    }.joined(separator: " ")
  }

  @Test func elementsOutliveTheirDocumentVariable() throws {
    func walk() throws -> HTMLElementWalk { try Self.parse(Self.page).elements }
    var elements = try walk()
    for _ in 0..<20 { _ = try Self.parse(Self.page) }
    #expect(elements.next()?.name == "html")
    #expect(elements.next()?.name == "head")
  }
}
