import MartReport

/// The frame every page shares: `lang="ko"`, the title, the one stylesheet, a canonical link
/// when the site's URL is known, a header that leads home and a footer that says where the data
/// comes from. No script, style, font or image from another site.
struct SitePage {
  /// The page's path from the site's root (`emart/1059.html`).
  var path: String
  var title: String
  var description: String
  /// The page's content, inside `<main>`.
  var body: String
  /// Extra elements for `<head>` (the structured data of a branch).
  var head: String = ""
  /// Script at the end of `<body>` (the search of the home page); the page works without it.
  var script: String = ""

  /// A generator mark: the site writer replaces a folder only when its `index.html` has it.
  static let generatorMark = #"<meta name="generator" content="mart-holiday site">"#

  func render(_ site: SiteData) -> String {
    let home = SitePaths.href(from: path, to: SitePaths.index)
    var html = "<!doctype html>\n<html lang=\"ko\"><head><meta charset=\"utf-8\">"
    html += #"<meta name="viewport" content="width=device-width, initial-scale=1">"#
    html += "<title>\(HTML.escape(title))</title>"
    html += "<meta name=\"description\" content=\"\(HTML.escape(description))\">"
    html += Self.generatorMark
    html += "<link rel=\"stylesheet\" href=\"\(SitePaths.href(from: path, to: SitePaths.stylesheet))\">"
    if let base = site.baseURL {
      let canonical = path == SitePaths.index ? base : SitePaths.absolute(path, base: base)
      html += "<link rel=\"canonical\" href=\"\(HTML.escape(canonical))\">"
    }
    html += head
    html += "</head><body><header><a href=\"\(home)\">마트 휴무일</a></header>\n<main>\n"
    html += body
    html += "</main>\n<footer><p>\(site.asOf.koreanTextWithYear) 기준 · 각 브랜드 매장 사이트가 게시한 휴무일을 그대로 옮겼습니다"
    html += " (데이터 \(HTML.escape(site.version))). 휴무일은 바뀔 수 있으니 방문 전에 매장에 확인하세요.</p></footer>\n"
    html += script
    html += "</body></html>\n"
    return html
  }

  /// The one stylesheet: phone first (390 px and up), readable contrast (4.5:1 and more for every
  /// text colour on its background), cells that carry a word and not only a colour.
  static let stylesheet = """
    *{box-sizing:border-box}
    body{margin:0 auto;max-width:52rem;padding:0 1rem 2rem;font:16px/1.55 system-ui,sans-serif;color:#1a1a1a;background:#fff;word-break:keep-all;overflow-wrap:anywhere}
    header{padding:.75rem 0;border-bottom:1px solid #ccc}
    header a{font-weight:700;text-decoration:none;color:#1a1a1a}
    a{color:#0645ad}
    h1{font-size:1.5rem;line-height:1.3;margin:1rem 0 .5rem}
    h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
    table{border-collapse:collapse;width:100%;margin:.5rem 0}
    th,td{border:1px solid #ccc;padding:.3rem .4rem;text-align:left;vertical-align:top}
    th{background:#f2f2f2}
    .cal{table-layout:fixed}
    .cal th,.cal td{text-align:center;padding:.2rem .1rem;font-size:.9rem}
    .cal td span{display:block;font-size:.75rem}
    .cal caption{font-weight:700;text-align:left;padding:.25rem 0}
    .x{background:#fbe0de;color:#7a1010}
    .e{background:#fff0bf;color:#594200}
    .u{background:#e6e6e6;color:#303030}
    .s{background:#d6d6d6;color:#1a1a1a}
    .today{outline:3px solid #1a1a1a;outline-offset:-3px}
    .warn{background:#fff0bf;color:#3d2d00;padding:.5rem .75rem;border-left:4px solid #8a6500}
    .status{font-size:1.1rem}
    dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
    dt{font-weight:700}
    dd{margin:0}
    ul.cols{columns:14rem;padding-left:1.2rem}
    summary{cursor:pointer;padding:.25rem 0}
    label{display:block;font-weight:700;margin:.5rem 0 .25rem}
    input[type=search]{width:100%;font-size:1rem;padding:.5rem;border:1px solid #555;border-radius:4px}
    footer{margin-top:2rem;border-top:1px solid #ccc;font-size:.85rem;color:#444}

    """
}
