import MartCore
import MartExport
import MartReport

/// The pages that list branches: the home page, a brand's and a district's.
enum ListPages {
  /// A table of branches with their status today and tomorrow and their next closing day.
  static func table(_ branches: [BranchDays], site: SiteData, from path: String, caption: String) -> String {
    var html = "<table><caption>\(HTML.escape(caption))</caption><thead><tr><th scope=\"col\">매장</th>"
    html += "<th scope=\"col\">오늘</th><th scope=\"col\">내일</th><th scope=\"col\">다음 휴무일</th></tr></thead><tbody>"
    for days in branches {
      let next: String
      switch days.nextClosing {
      case .day(let day): next = "\(day.month)/\(day.day)"
      case .unknownFrom: next = "알 수 없음"
      case .noneInWindow: next = "없음"
      }
      html += "<tr><th scope=\"row\"><a href=\"\(SitePaths.href(from: path, to: SitePaths.branch(days.branch.id)))\">"
      html += "\(HTML.escape(site.displayName(days.branch)))</a></th>"
      html += "<td>\(days.word(on: site.asOf))</td><td>\(days.word(on: site.tomorrow))</td><td>\(next)</td></tr>"
    }
    return html + "</tbody></table>\n"
  }

  static func brand(_ summary: BrandSummary, site: SiteData) -> String {
    let path = SitePaths.brand(summary.slug)
    let branches = site.branches(of: summary.slug)
    var body = "<h1>\(HTML.escape(summary.name)) 휴무일</h1>\n"
    body += BranchPage.freshness(summary.slug, site: site)
    body += "<p>매장 \(branches.count)곳. 오늘 \(site.asOf.koreanText) 휴무 \(count(branches, .closed, site.asOf))곳,"
    body += " 내일 휴무 \(count(branches, .closed, site.tomorrow))곳.</p>\n"
    if site.calendars[SitePaths.brandCalendar(summary.slug)] != nil {
      body += "<p><a href=\"\(SitePaths.href(from: path, to: SitePaths.brandCalendar(summary.slug)))\">\(HTML.escape(summary.name)) 전체 휴무일 캘린더 구독 (.ics)</a></p>\n"
    }
    if branches.isEmpty {
      body += "<p>이번 자료에는 이 브랜드의 매장이 없습니다.</p>\n"
    } else {
      var bySido: [String: [BranchDays]] = [:]
      for days in branches { bySido[days.branch.address.sido ?? "지역 미상", default: []].append(days) }
      for sido in bySido.keys.sorted() {
        body += "<h2>\(HTML.escape(sido))</h2>\n"
        body += table(bySido[sido]!, site: site, from: path, caption: "\(summary.name) \(sido) 매장")
      }
    }
    return SitePage(
      path: path, title: "\(summary.name) 휴무일 · 매장별 의무휴업일",
      description: "\(summary.name) 매장 \(branches.count)곳의 휴무일과 오늘·내일 영업 여부.", body: body
    ).render(site)
  }

  static func district(_ district: District, branches: [BranchDays], site: SiteData) -> String {
    let path = SitePaths.district(district)
    var body = "<h1>\(HTML.escape(district.description)) 마트 휴무일</h1>\n"
    body += "<h2>의무휴업일</h2>\n"
    if let entry = site.patterns[district] {
      body += "<p>이 시·군·구의 매장들은 <b>\(entry.pattern.map(koreanPattern).joined(separator: ", "))</b>에 쉽니다"
      body += " (휴무일을 밝힌 매장 \(entry.stores)곳 가운데 \(entry.agreeing)곳이 따름, 서로 다른 출처 둘 이상)."
      body += " 조례 원문이 아니라 매장들이 밝힌 휴무일에서 읽은 것입니다.</p>\n"
      if !entry.swaps.isEmpty {
        body += "<p>바꾼 날: " + entry.swaps.map { "\($0.date.koreanTextWithYear) (\($0.ids.count)곳)" }.joined(separator: ", ") + "</p>\n"
      }
    } else {
      body += "<p>매장들이 밝힌 휴무일로는 이 시·군·구의 의무휴업일을 알 수 없습니다.</p>\n"
    }
    body += table(branches, site: site, from: path, caption: "\(district.description) 매장")
    return SitePage(
      path: path, title: "\(district.description) 마트 휴무일",
      description: "\(district.description)의 대형마트·SSM \(branches.count)곳의 휴무일과 의무휴업일.", body: body
    ).render(site)
  }

  /// `둘째 일요일`, `매월 10일`.
  static func koreanPattern(_ day: DistrictsFile.Entry.Day) -> String {
    if let dayOfMonth = day.dayOfMonth { return "매월 \(dayOfMonth)일" }
    let ordinals = ["", "첫째", "둘째", "셋째", "넷째", "다섯째"]
    let weekdays = [
      "sunday": "일요일", "monday": "월요일", "tuesday": "화요일", "wednesday": "수요일", "thursday": "목요일",
      "friday": "금요일", "saturday": "토요일",
    ]
    let ordinal = day.ordinal.flatMap { ordinals.indices.contains($0) ? ordinals[$0] : nil } ?? "?"
    return "\(ordinal) \(day.weekday.flatMap { weekdays[$0] } ?? "?")"
  }

  static func count(_ branches: [BranchDays], _ status: SiteDayStatus, _ day: CalendarDate) -> Int {
    branches.count { $0.status(on: day) == status }
  }

  static func home(site: SiteData) -> String {
    let path = SitePaths.index
    var body = "<h1>오늘 마트 휴무일</h1>\n<p>\(site.asOf.koreanTextWithYear) 기준.</p>\n"
    body += "<table><caption>브랜드별 휴무 매장 수</caption><thead><tr><th scope=\"col\">브랜드</th>"
    body += "<th scope=\"col\">오늘 \(site.asOf.month)/\(site.asOf.day) 휴무</th>"
    body += "<th scope=\"col\">내일 \(site.tomorrow.month)/\(site.tomorrow.day) 휴무</th>"
    body += "<th scope=\"col\">오늘 알 수 없음</th></tr></thead><tbody>"
    func cell(_ branches: [BranchDays], _ day: CalendarDate) -> String {
      let expected = count(branches, .expected, day)
      return "<td>\(count(branches, .closed, day))곳\(expected > 0 ? " (예상 \(expected)곳)" : "")</td>"
    }
    for summary in site.brands {
      let branches = site.branches(of: summary.slug)
      guard !branches.isEmpty else { continue }
      body += "<tr><th scope=\"row\"><a href=\"\(SitePaths.href(from: path, to: SitePaths.brand(summary.slug)))\">\(HTML.escape(summary.name))</a></th>"
      body += cell(branches, site.asOf) + cell(branches, site.tomorrow)
      body += "<td>\(count(branches, .unknown, site.asOf))곳</td></tr>"
    }
    body += "</tbody></table>\n"
    for (label, day) in [("오늘", site.asOf), ("내일", site.tomorrow)] {
      body += "<h2>\(label) \(day.koreanText) 쉬는 매장</h2>\n"
      var any = false
      for summary in site.brands {
        let closed = site.branches(of: summary.slug).filter { $0.status(on: day) == .closed }
        guard !closed.isEmpty else { continue }
        any = true
        body += "<details><summary>\(HTML.escape(summary.name)) \(closed.count)곳</summary><ul class=\"cols\">"
        for days in closed {
          body += "<li><a href=\"\(SitePaths.href(from: path, to: SitePaths.branch(days.branch.id)))\">\(HTML.escape(days.branch.name))</a></li>"
        }
        body += "</ul></details>\n"
      }
      if !any { body += "<p>이날 쉰다고 밝힌 매장이 없습니다. 알 수 없는 매장은 위 표에 있습니다.</p>\n" }
    }
    body += "<h2>매장 찾기</h2>\n<form id=\"find\" role=\"search\" hidden><label for=\"q\">매장 이름이나 시·군·구</label>"
    body += "<input id=\"q\" type=\"search\" autocomplete=\"off\" placeholder=\"예: 창원점, 송파구\"><ul id=\"hits\" aria-live=\"polite\"></ul></form>\n"
    body += "<p>아래 브랜드나 시·군·구에서 매장을 고를 수도 있습니다.</p>\n"
    body += "<h2>브랜드</h2>\n<ul class=\"cols\">"
    for summary in site.brands {
      body += "<li><a href=\"\(SitePaths.href(from: path, to: SitePaths.brand(summary.slug)))\">\(HTML.escape(summary.name))</a> (\(summary.branchCount)곳)</li>"
    }
    body += "</ul>\n<h2>시·군·구</h2>\n"
    var sido = ""
    for (district, branches) in site.districts {
      if district.sido != sido {
        body += (sido.isEmpty ? "" : "</ul>\n") + "<h3>\(HTML.escape(district.sido))</h3>\n<ul class=\"cols\">"
        sido = district.sido
      }
      body += "<li><a href=\"\(SitePaths.href(from: path, to: SitePaths.district(district)))\">\(HTML.escape(district.sigungu))</a> (\(branches.count)곳)</li>"
    }
    if !sido.isEmpty { body += "</ul>\n" }
    return SitePage(
      path: path, title: "오늘 마트 휴무일 · 이마트 홈플러스 롯데마트 의무휴업일",
      description: "\(site.asOf.koreanTextWithYear) 기준 대형마트·SSM 매장별 휴무일, 오늘과 내일 쉬는 매장.",
      body: body, script: searchScript
    ).render(site)
  }

  /// The search: shows the form, loads `search.json` (`[[path, name, district], …]`) once, and
  /// lists the first 20 branches whose name or district holds every word typed.
  static let searchScript = """
    <script>
    (function(){var f=document.getElementById('find'),q=document.getElementById('q'),h=document.getElementById('hits'),rows=null;
    f.hidden=false;f.addEventListener('submit',function(e){e.preventDefault()});
    function show(){var w=q.value.trim().toLowerCase().split(/\\s+/).filter(Boolean);h.textContent='';if(!w.length||!rows)return;
    var n=0;for(var i=0;i<rows.length&&n<20;i++){var r=rows[i],t=(r[1]+' '+r[2]).toLowerCase();
    if(w.every(function(x){return t.indexOf(x)>=0})){var li=document.createElement('li'),a=document.createElement('a');
    a.href=r[0];a.textContent=r[1]+(r[2]?' · '+r[2]:'');li.appendChild(a);h.appendChild(li);n++}}
    if(!n){var li=document.createElement('li');li.textContent='찾는 매장이 없습니다.';h.appendChild(li)}}
    q.addEventListener('input',function(){if(rows){show();return}
    fetch('search.json').then(function(r){return r.json()}).then(function(d){rows=d;show()})});})();
    </script>

    """
}
