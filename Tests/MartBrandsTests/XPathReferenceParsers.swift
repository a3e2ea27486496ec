import Foundation
import MartCore
import MartHTML

@testable import MartBrands

/// The HTML parsers as they were written with one XPath expression per field, kept to check
/// that the tree walks that replaced them read every page the same way.
enum XPathReference {
  /// `HTMLElement.text` as it was: libxml2's joined content, whitespace collapsed scalar by scalar.
  static func text(_ element: HTMLElement) -> String {
    var collapsed = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in element.rawText.unicodeScalars {
      switch scalar.value {
      case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
        pendingSpace = !collapsed.isEmpty
        continue
      default:
        if pendingSpace {
          collapsed.append(" ")
          pendingSpace = false
        }
        collapsed.append(scalar)
      }
    }
    return String(collapsed)
  }

  // MARK: - Lotte Mart

  static func lotteMartStoreList(_ data: Data, url: String, charset: String?) throws -> [RawBranch] {
    let document = try HTMLDocument(data: data, url: url, charset: charset)
    let rows = try lotteMartRows(in: document)
    guard !rows.isEmpty else { throw ReferenceError.noRows }
    var branches: [RawBranch] = []
    var seenStoreIDs = Set<String>()
    var seenNames = Set<String>()
    for row in rows {
      guard let branch = try lotteMartRow(row, url: url) else { continue }
      guard seenStoreIDs.insert(branch.id.storeID).inserted, seenNames.insert(branch.name).inserted else { continue }
      branches.append(branch)
    }
    guard !branches.isEmpty else { throw ReferenceError.noBranches }
    return branches
  }

  static func lotteMartRows(in document: HTMLDocument) throws -> [HTMLElement] {
    let rowFields = LotteMartSource.rowFields
    var counts: [HTMLElement: [Int]] = [:]
    for (kind, (element, className)) in rowFields.enumerated() {
      for field in try document.select("//\(element)[\(XPath.hasClass(className))]") {
        var ancestor = field.parent
        while let current = ancestor {
          counts[current, default: Array(repeating: 0, count: rowFields.count)][kind] += 1
          ancestor = current.parent
        }
      }
    }
    let most = LotteMartSource.mostPerRow
    func holdsAtMostOneOfEach(_ element: HTMLElement) -> Bool {
      counts[element]?.enumerated().allSatisfy { $0.element <= most[$0.offset] } ?? true
    }
    let rows = Set(
      counts.keys.filter { element in
        holdsAtMostOneOfEach(element) && !(element.parent.map(holdsAtMostOneOfEach) ?? false)
      })
    guard !rows.isEmpty else { return [] }
    return try document.select("//*").filter(rows.contains)
  }

  private static func lotteMartRow(_ row: HTMLElement, url: String) throws -> RawBranch? {
    func field(_ element: String, _ className: String) throws -> String? {
      let text = try row.first(".//\(element)[\(XPath.hasClass(className))]").map(text)
      return text?.isEmpty == false ? text : nil
    }
    let state = try field("*", "state")
    if let state, LotteMartSource.notYetOpenStates.contains(where: state.contains) { return nil }
    let link = try row.first(".//a[contains(@href, 'brnchCd=')]")
    let storeCode = link?.attribute("href").flatMap(LotteMartSource.branchCode(fromHref:))
    guard let rawName = try lotteMartName(of: row, link: link) else { return nil }
    let (prefixBanner, name) = LotteMartSource.splittingBanner(rawName)
    let alt = try row.first(".//img[@alt != '']")?.attribute("alt")?.trimmingCharacters(in: .whitespaces)
    let logoBanner = alt.map { alt in LotteMartSource.banners.first { $0.name == alt }?.banner }
    let banner = (logoBanner ?? nil) ?? prefixBanner ?? .lotteMart(banner: nil)
    guard case .lotteMart(let bannerName) = banner else { return nil }
    let addresses = try row.select(".//div[\(XPath.hasClass("address"))]").map(text).filter { !$0.isEmpty }
    let dayOff = try field("span", "day-off")
    return RawBranch(
      id: BranchID(brand: .lottemart, storeID: storeCode ?? name), name: name,
      banner: bannerName ?? (prefixBanner == .lotteMart(banner: "제타플렉스") ? "제타플렉스" : nil),
      address: addresses.isEmpty ? nil : addresses.joined(separator: " "), phone: try field("span", "call"),
      openingHours: LotteMartSource.openingHours(try field("span", "time"), memo: try field("span", "memo")),
      closingText: dayOff == "-" ? nil : dayOff, statusText: state,
      sourceURL: url,
      pageURL: link?.attribute("href").flatMap { LotteMartSource.storePage(href: $0, searchURL: url) })
  }

  private static func lotteMartName(of row: HTMLElement, link: HTMLElement?) throws -> String? {
    if let named = try row.first(".//*[\(XPath.hasClass("name"))]").map(text), !named.isEmpty { return named }
    if let linkText = link.map(text), !linkText.isEmpty { return linkText }
    let outsideFields = (LotteMartSource.rowFields.map(\.1) + ["state", "memo"]).map { "ancestor::*[\(XPath.hasClass($0))]" }
      .joined(separator: " or ")
    for node in try row.select(".//text()[not(\(outsideFields))]") {
      let text = text(node)
      if text.hasSuffix("점"), !LotteMartSource.splittingBanner(text).1.contains(" ") { return text }
    }
    return nil
  }

  // MARK: - Homeplus

  static func homeplusDetail(_ data: Data, url: String, charset: String?) throws -> HomeplusSource.StoreDetail? {
    if String(decoding: data, as: UTF8.self).allSatisfy(\.isWhitespace) { return nil }
    let document = try HTMLDocument(data: data, url: url, charset: charset)
    guard let list = try document.first("//dl[\(XPath.hasClass("shop_detail_01"))]") else {
      let bodyText = try document.first("//body").map(text) ?? document.root.map(text) ?? ""
      if bodyText.isEmpty { return nil }
      throw ReferenceError.noDetailList
    }
    let cells = try list.select(".//dd").map(text)
    guard cells.count >= 2 else { throw ReferenceError.tooFewCells(cells.count) }
    func cell(_ index: Int) -> String? { cells.indices.contains(index) && !cells[index].isEmpty ? cells[index] : nil }
    return HomeplusSource.StoreDetail(
      openingHours: cell(0), closingText: cell(1), phone: cell(2),
      address: cell(4).flatMap(HomeplusSource.strippingDirectionsLink))
  }

  // MARK: - E-mart

  static func emartDetailPhone(_ data: Data, url: String, charset: String?) throws -> String? {
    let document = try HTMLDocument(data: data, url: url, charset: charset)
    guard let intro = try document.first("//*[\(XPath.hasClass("intro-wrap"))]") else {
      throw ReferenceError.noIntroWrap
    }
    let phone = try intro.first("./ul/*[3][self::li]/p").map(text)
    return phone?.isEmpty == false ? phone : nil
  }

  static func emartStorePlace(_ data: Data, url: String, charset: String?) throws -> EmartSource.StorePlace {
    let document = try HTMLDocument(data: data, url: url, charset: charset)
    func address(_ className: String) throws -> String? {
      guard let holder = try document.first("//*[\(XPath.hasClass(className))]") else { return nil }
      guard
        let cell = holder.name == "dd"
          ? holder
          : try holder.first(".//dd[\(XPath.hasClass("data"))]") ?? holder.first(".//dd")
            ?? holder.first("following-sibling::*[1][self::dd]")
      else { return nil }
      let value = text(cell)
      return value.isEmpty || EmartSource.addressLabels.contains(value.filter { !$0.isWhitespace }) ? nil : value
    }
    var coordinate: GeoPoint?
    if let holder = try document.first("//*[@data-x and @data-y]"),
      let latitude = holder.attribute("data-x"), let longitude = holder.attribute("data-y")
    {
      coordinate = (["x": .string(latitude), "y": .string(longitude)] as JSONRow).point(latitude: "x", longitude: "y")
    }
    let phone = try document.first("//*[\(XPath.hasClass("intro-wrap"))]/ul/*[3][self::li]/p").map(text)
    return EmartSource.StorePlace(
      address: try address("road-name"), lotAddress: try address("lot-number"),
      phone: phone?.isEmpty == false ? phone : nil, coordinate: coordinate, url: url)
  }

  // MARK: - Lotte 도와센터

  static func lotteDowaSearchPage(_ data: Data, url: String, charset: String?) throws -> [LotteDowaSource.Store] {
    let document = try HTMLDocument(data: data, url: url, charset: charset)
    var stores: [LotteDowaSource.Store] = []
    for title in try document.select("//*[\(XPath.hasClass("shop-tit"))]") {
      let name = text(title)
      guard !name.isEmpty else { continue }
      let row = try title.first("ancestor::li[1]") ?? title.parent ?? title
      var store = LotteDowaSource.Store(title: name)
      for line in try row.select(".//li") {
        let text = text(line)
        guard let colon = text.firstIndex(where: { $0 == ":" || $0 == "：" }) else { continue }
        let label = text[..<colon].filter { !$0.isWhitespace }
        let value = text[text.index(after: colon)...].trimmingSpaces()
        let published = value.isEmpty ? nil : value
        switch label {
        case "영업시간": store.hours = store.hours ?? published
        case "휴점일", "휴무일": store.closingText = store.closingText ?? published
        case "주소": store.address = store.address ?? published
        case "상담전화", "전화", "전화번호":
          let linked = try line.first(".//a").map(Self.text)
          store.phone = store.phone ?? (linked?.isEmpty == false ? linked : published)
        default: continue
        }
      }
      if let link = try row.first(".//a[contains(@href, 'werks=')]"), let href = link.attribute("href") {
        store.detailHref = href.trimmingSpacesAndNewlines()
        store.code = LotteDowaSource.queryValue("werks", in: href)
      }
      if store.code == nil {
        for element in try row.select(".//*[contains(@onclick, 'goClick')]") {
          if let code = element.attribute("onclick").flatMap(LotteDowaSource.goClickCode) {
            store.code = code
            break
          }
        }
      }
      stores.append(store)
    }
    return stores
  }

  // MARK: - Costco

  static func costcoContentText(html: String, url: String) -> String {
    var lines = ""
    if let document = try? HTMLDocument(data: Data(html.utf8), url: url, charset: "UTF-8"),
      let nodes = try? document.select("//text() | //br | //p | //h3 | //div")
    {
      for node in nodes {
        switch node.name {
        case "br", "p", "h3", "div": lines += "\n"
        default: lines += node.rawText
        }
      }
    } else {
      lines = html
    }
    return lines
  }

  enum ReferenceError: Error {
    case noRows, noBranches, noDetailList, tooFewCells(Int), noIntroWrap
  }
}
