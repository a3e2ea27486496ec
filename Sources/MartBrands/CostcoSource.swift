import Foundation
import MartCore
import MartFetch
import MartHTML

/// Costco Korea's store finder: `GET /store-finder/search?q=Korea%2C+Republic+of&page=0`
/// answers JSON `{"data": [warehouse, …]}` holding every Korean warehouse on page 0.
///
/// Each warehouse's closing rules live in `storeContent`, an HTML fragment (JSON-escaped, with
/// a stray `</body> </html>` and free text after it): the rule (`매월 둘째, 넷째 일요일 의무 휴무`),
/// the fixed holidays (`*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)`) and notices such as
/// `※ 일산점은 2월 13일 (수요일) 정상영업 합니다.`. A notice naming another warehouse is dropped;
/// the rest becomes the branch's closing text.
///
/// Branch ids are `costco-<name>`, `name` being the warehouse's English name from the feed with
/// each run of whitespace replaced by `-` (`costco-Daejeon`, `costco-Daegu-Innovation-City`).
/// `sourceURL` is the warehouse page, the feed's `url` without its search query.
public struct CostcoSource: BrandSource {
  public static let name = "costco"
  public static let brands: [BrandSlug] = [.costco]
  public static let origin = "https://www.costco.co.kr"
  /// The text is the warehouse's rules; a date in it is a notice about that day alone
  /// (`2월 13일 정상영업`).
  public static let closingDateCoverage = DateCoverage.listedDaysOnly

  public init() {}

  /// The search listing every Korean warehouse.
  static let storeFinderPath = "/store-finder/search?q=Korea%2C+Republic+of&page=0"

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    guard session.brands.contains(.costco) else { return [] }
    let response = try await session.get(Self.storeFinderPath)
    return try Self.parseStoreFinder(response.body, url: response.requestURL, origin: session.baseURL)
  }

  // MARK: - Parsing

  private struct StoreFinderBody: Decodable {
    let data: [[String: JSONScalar]]
  }

  /// Reads a store-finder answer into branches, in feed order; a repeated `name` keeps its
  /// first record. `origin` (`scheme://host`) makes the warehouse pages absolute.
  ///
  /// Throws `SourceError.unexpectedContent` when the body has no `data` array or no record has
  /// a `name` and a `displayName`.
  public static func parseStoreFinder(
    _ data: Data, url: String, origin: String = CostcoSource.origin
  ) throws(SourceError) -> [RawBranch] {
    let records =
      try decodeRows(
        data, key: "data", url: url, expecting: "a \"data\" array", fallback: StoreFinderBody.self, rows: \.data) ?? []
    var branches: [RawBranch] = []
    var seen = Set<String>()
    for record in records {
      guard let englishName = record.text("name"), let displayName = record.text("displayName") else {
        continue
      }
      let storeID = storeID(fromName: englishName)
      guard seen.insert(storeID).inserted else { continue }
      let content = record.text("storeContent").map { StoreContent(html: $0, url: url) }
      let coordinate = record.point(latitude: "latitude", longitude: "longitude")
      branches.append(
        RawBranch(
          id: BranchID(brand: .costco, storeID: storeID),
          name: displayName,
          address: record.text("line1"),
          lotAddress: record.text("line2"),
          phone: record.text("phone"),
          openingHours: content?.openingHours,
          coordinate: coordinate,
          closingText: content?.closingText(forWarehouse: displayName),
          sourceURL: url,
          pageURL: storePage(record.text("url"), origin: origin)))
    }
    guard !branches.isEmpty else {
      throw SourceError(
        source: Self.name, url: url,
        reason: .unexpectedContent("\"data\" has \(records.count) records but none with a name and a displayName"))
    }
    return branches
  }

  /// `Daegu Innovation City` → `Daegu-Innovation-City`.
  static func storeID(fromName name: String) -> String {
    name.split(whereSeparator: \.isWhitespace).joined(separator: "-")
  }

  /// The absolute warehouse page for the feed's `url` (`/store/Daejeon?lat=…&q=Korea, Republic of`):
  /// the path only, percent-encoded once, on `origin`.
  static func storePage(_ published: String?, origin: String) -> String? {
    guard let published else { return nil }
    let path = published.prefix { $0 != "?" && $0 != "#" }.trimmingSpaces()
    guard path.hasPrefix("/"),
      let encoded = (path.removingPercentEncoding ?? path).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)
    else { return nil }
    return origin + encoded
  }
}

/// The text of a warehouse's `storeContent` fragment, with the parts the branch needs.
struct StoreContent {
  /// The fragment's text: text nodes in document order, `<br>` and block ends as newlines.
  let text: String

  init(html: String, url: String) {
    var lines = ""
    // libxml2 reads the fragment, the stray `</body> </html>` and the text after it; any text
    // it keeps is in a text node somewhere, so walking all of them loses nothing.
    if let document = try? HTMLDocument(data: Data(html.utf8), url: url, charset: "UTF-8") {
      // `//text() | //br | //p | //h3 | //div`, in document order.
      for node in document.nodes {
        if node.isText {
          lines += node.rawText
        } else if node.hasName("br") || node.hasName("p") || node.hasName("h3") || node.hasName("div") {
          lines += "\n"
        }
      }
    } else {
      lines = html
    }
    text = lines
  }

  /// `오전 10:00 - 오후 10:00`: the first range of two 오전/오후 times (`오전|오후`, spaces, one or
  /// two digits, `:`, two digits; spaces, `-` or `~`, spaces; the second time alike).
  var openingHours: String? {
    var start = text.startIndex
    while let found = Self.meridiem(in: text, from: start) {
      var scanner = TextScanner(text, at: found)
      if scanner.skipTime(), scanner.skip(\.isWhitespace), scanner.take(["-", "~"]), scanner.skip(\.isWhitespace),
        scanner.skipTime()
      {
        return String(text[found..<scanner.index])
      }
      start = text.index(after: found)
    }
    return nil
  }

  /// Where the first `오전` or `오후` at or after `start` begins.
  private static func meridiem(in text: String, from start: String.Index) -> String.Index? {
    var index = start
    while let found = text[index...].firstIndex(of: "오") {
      let next = text.index(after: found)
      if next < text.endIndex, text[next] == "전" || text[next] == "후" { return found }
      index = next
    }
    return nil
  }

  /// The closing-day text for warehouse `displayName`: the monthly rule, the fixed holidays and
  /// the notices that name this warehouse or none, joined by `, `. `nil` when there is none.
  func closingText(forWarehouse displayName: String) -> String? {
    var parts: [String] = []
    let flat = text.replacingOccurrences(of: "\n", with: "")
    if let rule = Self.monthlyRule(in: flat) {
      parts.append(String(rule))
    }
    for line in text.split(separator: "\n") {
      if let holidays = Self.holidayLine(in: line) {
        parts.append(holidays.trimmingSpaces())
      }
      // Each `※` and what follows it up to the next `※` or the end of the line.
      for notice in line.split(separator: "※", omittingEmptySubsequences: false).dropFirst() {
        let notice = ("※" + notice).trimmingSpaces()
        if let named = Self.warehouseNamed(in: notice), !Self.sameWarehouse(named, displayName) { continue }
        parts.append(notice)
      }
    }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// The monthly rule: the first `매월 … 휴무` within a sentence (no `.` or `※` between them). Each
  /// sentence is read once, where a lazy pattern tried from every `매월` rereads the sentence from
  /// each one.
  static func monthlyRule(in text: String) -> Substring? {
    for sentence in text.split(whereSeparator: { $0 == "." || $0 == "※" }) {
      guard let month = sentence.firstRange(of: "매월"),
        let closure = sentence[month.upperBound...].firstRange(of: "휴무")
      else { continue }
      return sentence[month.lowerBound..<closure.upperBound]
    }
    return nil
  }

  /// The fixed holidays of a line: `* 휴무일: …` up to a `※` or the end of the line. The pattern
  /// starts at `휴무일`, and the `*` and spaces before it are taken after the match, so that a long
  /// run of spaces is not read again from each of its spaces.
  static func holidayLine(in line: Substring) -> Substring? {
    var from = line.startIndex
    while let word = line[from...].firstRange(of: "휴무일") {
      var scanner = TextScanner(line, at: word.upperBound)
      if scanner.skip(\.isWhitespace), scanner.take([":", "："]) {
        let end = line[scanner.index...].firstIndex(of: "※") ?? line.endIndex
        var start = word.lowerBound
        while start > line.startIndex, line[line.index(before: start)].isWhitespace { start = line.index(before: start) }
        if start > line.startIndex, line[line.index(before: start)] == "*" { start = line.index(before: start) }
        return line[start..<end]
      }
      from = word.upperBound
    }
    return nil
  }

  /// The warehouse a notice is about (`※ 일산점은 …` → `일산점`), if it names one: after `※` and
  /// spaces, the shortest run of Hangul, Latin letters, digits and spaces ending in `점` (at
  /// least one character before it) that spaces and `은`, `는`, `:`, `의` or `에서` follow. A
  /// name may begin with spaces only when none of the names after them fits (`※ 점은` → ` 점`).
  static func warehouseNamed(in notice: String) -> String? {
    guard notice.first == "※" else { return nil }
    let afterMark = notice.index(after: notice.startIndex)
    var first = afterMark
    while first < notice.endIndex, notice[first].isWhitespace { first = notice.index(after: first) }
    // The spaces skipped are given back one by one, the name then starting earlier.
    var start = first
    while true {
      if let name = shortestName(in: notice, from: start) { return name }
      guard start > afterMark else { return nil }
      start = notice.index(before: start)
    }
  }

  /// The shortest name starting at `start` (see ``warehouseNamed(in:)``).
  private static func shortestName(in notice: String, from start: String.Index) -> String? {
    func isNameCharacter(_ character: Character) -> Bool {
      guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first else { return false }
      return (0xAC00...0xD7A3).contains(scalar.value) || (scalar.isASCII && (character.isLetter || character.isNumber))
        || character == " "
    }
    var index = start
    while index < notice.endIndex, isNameCharacter(notice[index]) {
      let end = notice.index(after: index)
      if notice[index] == "점", index > start {
        var scanner = TextScanner(notice, at: end)
        if scanner.skip(\.isWhitespace), scanner.takeAny(of: ["은", "는", ":", "의", "에서"]) {
          return String(notice[start..<end])
        }
      }
      index = end
    }
    return nil
  }

  static func sameWarehouse(_ left: String, _ right: String) -> Bool {
    left.filter { !$0.isWhitespace } == right.filter { !$0.isWhitespace }
  }
}

extension BrandSlug {
  /// 코스트코.
  public static let costco: BrandSlug = "costco"
}
