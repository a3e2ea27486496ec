import MartCore
import MartExport

extension ReportPage {
  /// Per day of the window, how many branches do not know whether they are closed: the ids
  /// `closures.json` lists under `unknown` that day (see ``unknownDays(_:in:)``).
  func unknownPerDay(_ closures: ClosuresFile) -> [Int: Int] {
    var counts: [Int: Int] = [:]
    for (day, ids) in closures.unknown {
      if let date = CalendarDate(iso: day) { counts[date.dayNumber] = ids.count }
    }
    return counts
  }

  /// Appends the calendar section to `page`: the window's months, each day with its counts and
  /// its branches, then the shut stores and those closing for good.
  func appendCalendarSection(to page: inout HTMLBytes) {
    var html = """
      <section id="calendar" aria-labelledby="calendar-heading">
      <h2 id="calendar-heading">Calendar</h2>

      """
    guard let bundle, let closures else {
      page.append(html + "<p>No bundle is published, so there are no closing days to show.</p>\n</section>\n")
      return
    }
    let window = bundle.manifest.window
    let unknown = unknownPerDay(closures)
    let most = closures.dates.values.map(\.count).max() ?? 0
    html += """
      <p>Each day shows how many branches are closed (the darker, the more) and, after <q>?</q>, how many \
      do not know whether they are closed: unknown is never open. Open a day for its branches (a link to \
      <code>report.html#day-2026-11-22</code> opens that day)\
      <span class="js-only" hidden>; choosing a day also marks its branches on the map</span>. \
      Shut stores are not counted on the days they are shut (listed below). After <q>~</q>, in a lighter       shade, how many branches that publish no closing days are expected to close, from their district's       other stores: expected, never confirmed.</p>
      <ul class="heat-legend" aria-label="Colour scale">
      <li><span class="heat-0">0</span> no closure</li><li><span class="heat-1">few</span></li>\
      <li><span class="heat-2">more</span></li><li><span class="heat-3">many</span></li>\
      <li><span class="heat-4">\(most)</span> the most on one day</li></ul>
      <div class="months">

      """
    page.append(html)
    var month = window.from.firstOfMonth()
    while month <= window.through {
      appendMonthTable(month, window: window, unknown: unknown, most: most, to: &page)
      month = month.firstOfMonth(addingMonths: 1)
    }
    html = "</div>\n"
    if !closures.shut.isEmpty {
      html += "<h3>Shut stores (\(closures.shut.count))</h3>\n<ul class=\"shut-list\">\n"
      for id in closures.shut {
        let branch = branch(withID: id)
        html +=
          "<li data-brand=\"\(HTML.escape(id.brand.rawValue))\">\(branch.map { escapedTitle($0) } ?? "") <code>\(HTML.escape(id.description))</code>"
          + (branch.map { " — \(escapedNextClosing($0))" } ?? "") + "</li>\n"
      }
      html += "</ul>\n"
    }
    if !closures.closingForGood.isEmpty {
      html += "<h3>Closing for good</h3>\n<ul>\n"
      for (day, ids) in closures.closingForGood.sorted(by: { $0.key < $1.key }) {
        let label = CalendarDate(iso: day).map(DisplayText.long) ?? day
        html +=
          "<li>\(HTML.escape(label)): "
          + ids.map { id in
            "\(branch(withID: id).map { escapedTitle($0) } ?? "") <code>\(HTML.escape(id.description))</code>"
          }.joined(separator: ", ") + "</li>\n"
      }
      html += "</ul>\n"
    }
    page.append(html + "</section>\n")
  }

  /// Appends to `page` one month as a table of weeks, Sunday first.
  func appendMonthTable(
    _ first: CalendarDate, window: DateWindow, unknown: [Int: Int], most: Int, to page: inout HTMLBytes
  ) {
    let last = first.lastOfMonth
    let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    var html = """
      <table class="month">
      <caption>\(first.year)-\(first.month < 10 ? "0" : "")\(first.month)</caption>
      <thead><tr>\(Weekday.allCases.map { "<th scope=\"col\"><abbr title=\"\(weekdays[$0.rawValue - 1])\">\($0.koreanShortName)</abbr></th>" }.joined())</tr></thead>
      <tbody>
      <tr>
      """
    let leading = first.weekday.rawValue - 1
    html += String(repeating: "<td class=\"pad\"></td>", count: leading)
    page.append(html)
    var column = leading
    var day = first
    while day <= last {
      if column == 7 {
        page.append("</tr>\n<tr>")
        column = 0
      }
      appendDayCell(
        day, inWindow: day >= window.from && day <= window.through, unknown: unknown, most: most, to: &page)
      column += 1
      day = day.adding(days: 1)
    }
    page.append(String(repeating: "<td class=\"pad\"></td>", count: (7 - column) % 7))
    page.append("</tr>\n</tbody>\n</table>\n")
  }

  /// The most branches a day lists by name; the rest are counted. A page for a person to read
  /// stays readable (and small) at any scale; `closures.json` has every branch.
  static let dayListLimit = 200

  /// `expected from its district's ssm designation as cited, not confirmed`: what a branch's
  /// expected days rest on (its class, and `learned`, `cited` or `store-exception`).
  static func expectedBasis(_ expected: ExpectedClosing?) -> String {
    let designation = "its district's " + (expected?.storeClass.map { "\($0.rawValue) " } ?? "") + "designation"
    let basis =
      switch expected?.basis {
      case ExpectedClosing.citedBasis: "\(designation) as cited"
      case ExpectedClosing.storeExceptionBasis: "the store's own standing exception"
      case nil: "its district"
      default: "\(designation) as its stores show it"
      }
    return "expected from \(basis), not confirmed"
  }

  /// Appends to `page` a day's cell: its counts, the branches closed that day (the first
  /// ``dayListLimit``, each titled, or by its id when the bundle lacks it) and those expected to
  /// close with what that rests on.
  func appendDayCell(_ day: CalendarDate, inWindow: Bool, unknown: [Int: Int], most: Int, to page: inout HTMLBytes) {
    guard inWindow else {
      page.append("<td class=\"outside\"><span class=\"day\">\(day.day)</span></td>")
      return
    }
    let ids = closures?.dates[day.iso] ?? []
    let expected = closures?.expected[day.iso] ?? []
    let unknownCount = unknown[day.dayNumber] ?? 0
    let level =
      ids.isEmpty || most == 0 ? 0 : min(4, max(1, Int((4.0 * Double(ids.count) / Double(most)).rounded(.up))))
    var classes = ["heat-\(level)"]
    if day == asOf { classes.append("today") }
    let label =
      "\(DisplayText.long(day)): \(DisplayText.branches(ids.count)) closed"
      + (unknownCount > 0 ? ", \(unknownCount) unknown" : "")
      + (expected.isEmpty ? "" : ", \(expected.count) expected to close (not confirmed)")
    let cell =
      "<td id=\"day-\(day.iso)\" class=\"\(classes.joined(separator: " "))\" data-date=\"\(day.iso)\" data-closed=\"\(ids.count)\" data-unknown=\"\(unknownCount)\">"
    let counts =
      "<span class=\"day\">\(day.day)</span> <span class=\"closed\">\(ids.count)</span>"
      + (unknownCount > 0 ? " <span class=\"unknown-count\">?\(unknownCount)</span>" : "")
      + (expected.isEmpty ? "" : " <span class=\"expected-count\">~\(expected.count)</span>")
    page.append(cell)
    if ids.isEmpty && expected.isEmpty {
      page.append("<span class=\"cell\" aria-label=\"\(HTML.escape(label))\">\(counts)</span></td>")
      return
    }
    page.append("<details><summary aria-label=\"\(HTML.escape(label))\">\(counts)</summary><div class=\"day-list\">")
    page.append("<p>\(HTML.escape(label))</p><ul>")
    for id in ids.prefix(Self.dayListLimit) {
      page.append("<li data-closed-id=\"")
      let escapedID = page.count
      page.appendEscaped(id.description)
      let escapedIDEnd = page.count
      page.append("\" data-brand=\"")
      page.appendEscaped(id.brand.rawValue)
      page.append("\">")
      if let branch = branch(withID: id) {
        appendTitle(branch, to: &page)
      } else {
        page.append(copyOf: escapedID..<escapedIDEnd)
      }
      page.append("</li>")
    }
    if ids.count > Self.dayListLimit {
      page.append(
        "<li class=\"more\">and \(ids.count - Self.dayListLimit) more (<code>closures.json</code> lists every one)</li>"
      )
    }
    for id in expected.prefix(Self.dayListLimit) {
      let branch = branch(withID: id)
      page.append("<li class=\"expected\" data-brand=\"")
      page.appendEscaped(id.brand.rawValue)
      page.append("\">")
      if let branch {
        appendTitle(branch, to: &page)
      } else {
        page.appendEscaped(id.description)
      }
      page.append(" (")
      page.appendEscaped(Self.expectedBasis(branch?.closing.expected))
      page.append(")</li>")
    }
    page.append("</ul></div></details></td>")
  }
}
