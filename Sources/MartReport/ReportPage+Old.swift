import Foundation

extension ReportPage {
  /// The page `html` of an earlier run, marked as old: a banner at the top of its body saying
  /// that the run started at `startedAt` (ISO 8601, shown in Korean time) could not write its
  /// own page, why, and where to look. A page that already carries such a banner has it
  /// replaced, so failures in a row do not stack banners.
  public static func markedOld(_ html: String, startedAt: String?, reason: String) -> String {
    let failedAt = startedAt.map(KoreanTime.text) ?? "a later run"
    let start = "<!-- mart-holiday: older page -->"
    let end = "<!-- /mart-holiday: older page -->"
    var page = html
    if let first = page.range(of: start), let last = page.range(of: end, range: first.upperBound..<page.endIndex) {
      page.removeSubrange(first.lowerBound..<last.upperBound)
    }
    let banner =
      "\(start)<div class=\"banner bad\" role=\"alert\"><p><strong>This page is of an earlier run.</strong> "
      + "The run started \(HTML.escape(failedAt)) could not write its own page (\(HTML.escape(reason))): "
      + "<code>report.json</code> beside it says what that run did. The next run writes the page again.</p></div>\(end)"
    guard let body = page.range(of: "<body>") else { return banner + page }
    page.insert(contentsOf: banner, at: body.upperBound)
    return page
  }
}
