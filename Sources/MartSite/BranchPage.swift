import Foundation
import MartCore
import MartExport
import MartReport

/// A branch's page: its status today and tomorrow in words, the next closing day, the source's
/// own words, the calendar of the window's three months, where it is and how to reach it, how
/// fresh the data is, its calendar subscription and the nearby branches open on its next
/// closing day; with its schema.org structured data.
enum BranchPage {
  static func render(_ days: BranchDays, site: SiteData) -> String {
    let branch = days.branch
    let path = SitePaths.branch(branch.id)
    let name = site.displayName(branch)
    let link = { (target: String) in SitePaths.href(from: path, to: target) }
    var body = "<h1>\(HTML.escape(name)) 휴무일</h1>\n"
    body += "<p>\(HTML.escape(site.brandName(branch.brand)))"
    if let district = District(branch.address) {
      body += " · <a href=\"\(link(SitePaths.district(district)))\">\(HTML.escape(district.description))</a>"
    }
    body += " · <a href=\"\(link(SitePaths.brand(branch.brand)))\">\(HTML.escape(site.brandName(branch.brand))) 전체 매장</a></p>\n"
    body += freshness(branch.brand, site: site)
    if !branch.storeStatus.isTrading || branch.storeStatus.closesOn != nil {
      body += "<p class=\"warn\">\(HTML.escape(storeStatusText(branch.storeStatus)))</p>\n"
    }
    body += "<h2>오늘과 내일</h2>\n<ul class=\"status\">"
    body += "<li>오늘 \(days.asOf.koreanText): \(HTML.escape(days.sentence(on: days.asOf)))</li>"
    body += "<li>내일 \(site.tomorrow.koreanText): \(HTML.escape(days.sentence(on: site.tomorrow)))</li></ul>\n"
    body += "<p>다음 휴무일: \(nextClosingText(days))</p>\n"

    body += "<h2>매장이 밝힌 휴무일</h2>\n"
    if let text = branch.closing.schedule.text, !text.isEmpty {
      body += "<blockquote><p>\(HTML.escape(text))</p></blockquote>\n"
    } else if branch.closing.status == .unknown {
      body += "<p>매장 사이트가 휴무일을 밝히지 않았거나 읽을 수 없었습니다.</p>\n"
    } else {
      body += "<p>매장 사이트가 문장 없이 날짜만 게시했습니다.</p>\n"
    }
    if let expected = branch.closing.expected, !expected.dates.isEmpty {
      body += "<p>휴무 예상일은 \(HTML.escape(expected.district))의 다른 매장들이 쉬는 날입니다. 이 매장이 밝힌 날이 아닙니다.</p>\n"
    }

    body += "<h2>휴무일 달력</h2>\n" + MonthCalendar.legend
    for month in site.window.months { body += MonthCalendar.render(month: month, days) }
    body += "<p><a href=\"\(link(SitePaths.branchCalendar(branch.id)))\">휴무일 캘린더 구독 (.ics)</a>: 캘린더 앱에 이 주소를 구독으로 추가하면 휴무일이 바뀔 때 따라 바뀝니다.</p>\n"

    body += "<h2>매장 정보</h2>\n<dl>"
    body += "<dt>주소</dt><dd>\(address(branch, name: name))</dd>"
    body += "<dt>전화</dt><dd>\(phone(branch))</dd>"
    body += "<dt>영업시간</dt><dd>\(HTML.escape(branch.openingHours ?? "매장 사이트에 없음"))</dd>"
    if let page = branch.pageURL {
      body += "<dt>매장 페이지</dt><dd><a href=\"\(HTML.escape(page))\" rel=\"nofollow\">\(HTML.escape(site.brandName(branch.brand))) 사이트</a></dd>"
    }
    body += "<dt>매장 번호</dt><dd>\(HTML.escape(branch.id.description))</dd></dl>\n"
    body += nearby(days, site: site, path: path)

    let structured = StructuredData(
      days, name: name, url: site.baseURL.map { SitePaths.absolute(path, base: $0) })
    return SitePage(
      path: path, title: "\(name) 휴무일 · 오늘 \(days.word(on: days.asOf))",
      description: "\(name)의 휴무일, 오늘과 내일 영업 여부, 석 달 달력, 주소와 전화번호.",
      body: body, head: structured.scriptElement()
    ).render(site)
  }

  /// "as of …, source checked …", or a plain warning for a stale brand.
  static func freshness(_ slug: BrandSlug, site: SiteData) -> String {
    let summary = site.summary(of: slug)
    let checked = summary?.lastFetchedAsOf
    switch summary?.freshness {
    case .fresh?:
      return "<p>\(site.asOf.koreanTextWithYear) 기준 · 매장 사이트 확인 \(checked.map(\.koreanTextWithYear) ?? "기록 없음")</p>\n"
    default:
      let since = checked.map { "\($0.koreanTextWithYear) 이후 " } ?? ""
      let daysStale = checked.map { " \($0.dayNumber.distance(to: site.asOf.dayNumber))일째" } ?? ""
      return "<p class=\"warn\">주의: \(since)매장 사이트를 읽지 못해 \(site.asOf.koreanTextWithYear) 현재\(daysStale) 갱신되지 않은 정보입니다. 그 뒤에 바뀐 휴무일은 빠져 있을 수 있습니다.</p>\n"
    }
  }

  static func storeStatusText(_ status: StoreStatus) -> String {
    var text: String
    switch status.state {
    case .closed: text = "영업을 종료한 매장입니다."
    case .temporarilyClosed:
      text = "임시 휴업 중입니다" + (status.until.map { " (\($0.koreanTextWithYear)까지)." } ?? ".")
    case .trading: text = status.closesOn.map { "\($0.koreanTextWithYear)에 영업을 종료합니다." } ?? ""
    }
    if let published = status.text, !published.isEmpty { text += " 매장 사이트: “\(published)”" }
    return text
  }

  static func nextClosingText(_ days: BranchDays) -> String {
    switch days.nextClosing {
    case .day(let day): day == days.asOf ? "오늘, \(day.koreanText)" : day.koreanTextWithYear
    case .unknownFrom(let day): "알 수 없음 (\(day.koreanText)부터 매장 사이트가 밝히지 않은 날이 있습니다)"
    case .noneInWindow: "\(days.window.through.koreanTextWithYear)까지 없음"
    }
  }

  static func address(_ branch: Branch, name: String) -> String {
    let text = branch.address.road ?? branch.address.jibun ?? branch.address.published
    guard let text else { return "매장 사이트에 없음" }
    var html = HTML.escape(text)
    if let published = branch.address.published, published != text {
      html += "<br>게시된 주소: \(HTML.escape(published))"
    }
    html += " <a href=\"\(HTML.escape(mapLink(branch, name: name, address: text)))\" rel=\"nofollow\">지도</a>"
    return html
  }

  /// A link to the branch on Kakao Map, a map most people in Korea use: its point with its name
  /// when the point is known, else a search for its address. Kakao Map's web links
  /// `map.kakao.com/link/map/<name>,<lat>,<lng>` and `map.kakao.com/link/search/<query>` (as
  /// the kakaomap_webview package on pub.dev and lustre_kakaomap on hexdocs.pm build them, read
  /// 2026-12-02). A link only: nothing of the map is loaded by the page.
  static func mapLink(_ branch: Branch, name: String, address: String) -> String {
    if let point = branch.coordinate {
      return "https://map.kakao.com/link/map/\(SitePaths.encode(name.replacingOccurrences(of: ",", with: " "))),\(point.latitude),\(point.longitude)"
    }
    return "https://map.kakao.com/link/search/\(SitePaths.encode(address))"
  }

  static func phone(_ branch: Branch) -> String {
    if let phone = branch.phone {
      return "<a href=\"tel:\(HTML.escape(phone))\">\(HTML.escape(phone))</a>"
    }
    return "매장 사이트에 없음"
  }

  static func nearby(_ days: BranchDays, site: SiteData, path: String) -> String {
    guard case .day(let day) = days.nextClosing else { return "" }
    var html = "<h2>\(day.koreanText)에 여는 가까운 매장</h2>\n"
    let found = site.nearbyOpen(to: days, on: day)
    guard !found.isEmpty else {
      return html + "<p>10 km 안에 그날 영업한다고 알려진 매장이 없습니다.</p>\n"
    }
    html += "<ul>"
    for (other, metres) in found {
      let distance = metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
      html += "<li><a href=\"\(SitePaths.href(from: path, to: SitePaths.branch(other.branch.id)))\">\(HTML.escape(site.displayName(other.branch)))</a> (\(distance))</li>"
    }
    return html + "</ul>\n"
  }
}
