import MartCore
import MartExport

extension ReportPage {
  /// Where a point falls on the map, in the map's SVG units.
  static func project(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
    (
      (longitude - KoreaMap.west) * KoreaMap.longitudeFactor * KoreaMap.scale,
      (KoreaMap.north - latitude) * KoreaMap.scale
    )
  }

  /// What a branch's mark says: name, brand, next closing day.
  func tooltip(_ branch: Branch) -> String {
    "\(title(branch)) (\(branch.id)) · \(name(branch.brand)) · \(nextClosing(branch))"
  }

  /// `next closing day 2026-11-22(일)`, `shut (closed)`, `closing days unknown`, ….
  func nextClosing(_ branch: Branch) -> String {
    if !branch.storeStatus.isTrading {
      let state = branch.storeStatus.state == .closed ? "closed for good" : "temporarily closed"
      return "shut (\(state)" + (branch.storeStatus.until.map { " until \(DisplayText.long($0))" } ?? "") + ")"
    }
    if branch.closing.status == .unknown { return "closing days unknown" }
    let today = asOf ?? branch.closing.dates.first ?? CalendarDate(dayNumber: 0)
    if let next = branch.closing.dates.first(where: { $0 >= today }) {
      let unknownBefore = branch.closing.unknownRanges.contains { $0.from < next && $0.through >= today }
      return "next closing day " + DisplayText.long(next) + (unknownBefore ? " (some days before it unknown)" : "")
    }
    if branch.closing.status == .openAllYear { return "open all year" }
    if let unknown = branch.closing.unknownRanges.first(where: { $0.through >= today }) {
      return "no closing day known; unknown from " + DisplayText.long(max(unknown.from, today))
    }
    return "no closing day in the window"
  }

  /// Whether some day of the window from the as-of date on is unknown for the branch.
  func hasUnknownDays(_ branch: Branch) -> Bool {
    let today = asOf ?? CalendarDate(dayNumber: 0)
    return branch.closing.unknownRanges.contains { $0.through >= today }
  }

  func mapSection() -> String {
    let located = branches.filter { $0.coordinate != nil }
    let unlocated = branches.filter { $0.coordinate == nil }
    var marks = ""
    for branch in located {
      guard let coordinate = branch.coordinate else { continue }
      let (x, y) = Self.project(latitude: coordinate.latitude, longitude: coordinate.longitude)
      let colour = palette.colour(branch.brand)
      var classes = ["mark"]
      if !branch.storeStatus.isTrading { classes.append("shut") }
      if hasUnknownDays(branch) { classes.append("unknown") }
      let common =
        "data-branch-id=\"\(HTML.escape(branch.id.description))\" data-brand=\"\(HTML.escape(branch.brand.rawValue))\""
        + " class=\"\(classes.joined(separator: " "))\" tabindex=\"0\" role=\"img\""
      let label = "<title>\(HTML.escape(tooltip(branch)))</title>"
      if !branch.storeStatus.isTrading {
        // A shut store: a square, outlined in black.
        marks +=
          "<rect \(common) x=\"\(HTML.number(x - 4))\" y=\"\(HTML.number(y - 4))\" width=\"8\" height=\"8\" fill=\"\(colour)\" stroke=\"#000000\" stroke-width=\"1.5\">\(label)</rect>\n"
      } else {
        // Unknown days: a hollow ring in the brand's colour; otherwise a filled dot.
        let paint =
          classes.contains("unknown")
          ? "fill=\"#ffffff\" stroke=\"\(colour)\" stroke-width=\"2.2\"" : "fill=\"\(colour)\" stroke=\"#ffffff\""
        marks +=
          "<circle \(common) cx=\"\(HTML.number(x))\" cy=\"\(HTML.number(y))\" r=\"4\" \(paint)>\(label)</circle>\n"
      }
    }
    let shut = located.filter { !$0.storeStatus.isTrading }.count
    let unknown = located.filter { $0.storeStatus.isTrading && hasUnknownDays($0) }.count
    let description =
      "\(located.count) branches with coordinates drawn over an outline of South Korea, coloured by brand; "
      + "\(shut) shut stores as squares, \(unknown) branches with unknown closing days as hollow rings. "
      + "The same branches are listed per brand in the table below."
    let width = HTML.number(KoreaMap.width)
    let height = HTML.number(KoreaMap.height)
    var html = """
      <section id="map" aria-labelledby="map-heading">
      <h2 id="map-heading">Map</h2>
      <div class="map-layout">
      <figure class="map">
      <a class="skip-inline" href="#map-legend">Skip the branch marks</a>
      <svg viewBox="0 0 \(width) \(height)" width="\(width)" height="\(height)" role="group" aria-labelledby="map-title" aria-describedby="map-desc">
      <title id="map-title">Branches on the map of Korea</title>
      <desc id="map-desc">\(HTML.escape(description))</desc>
      <path class="land" d="\(KoreaMap.outline)" aria-hidden="true"/>
      <g class="marks">
      \(marks)</g>
      </svg>
      <figcaption><p id="map-info" aria-live="polite">\(HTML.escape(description))</p>
      <p id="day-info" aria-live="polite" hidden></p></figcaption>
      </figure>
      <aside class="map-side" aria-label="Legend and branches without coordinates">
      <h3 id="map-legend">Legend</h3>
      <ul class="legend">
      <li><svg width="14" height="14" aria-hidden="true"><circle cx="7" cy="7" r="5" fill="#555"/></svg> trading, closing days known</li>
      <li><svg width="14" height="14" aria-hidden="true"><circle cx="7" cy="7" r="4.5" fill="#fff" stroke="#555" stroke-width="2"/></svg> some days unknown</li>
      <li><svg width="14" height="14" aria-hidden="true"><rect x="2" y="2" width="10" height="10" fill="#555" stroke="#000" stroke-width="1.5"/></svg> shut (temporarily or for good)</li>

      """
    let counts = Dictionary(grouping: located, by: \.brand).mapValues(\.count)
    for brand in brandNames.keys.sorted() {
      html +=
        "<li data-brand=\"\(HTML.escape(brand.rawValue))\"><svg width=\"14\" height=\"14\" aria-hidden=\"true\"><circle cx=\"7\" cy=\"7\" r=\"5\" fill=\"\(palette.colour(brand))\"/></svg> "
        + "\(HTML.escape(name(brand))) (\(counts[brand] ?? 0))</li>\n"
    }
    html += "</ul>\n<h3>Without coordinates (\(unlocated.count))</h3>\n"
    if unlocated.isEmpty {
      html += "<p>Every branch has coordinates.</p>\n"
    } else {
      html += "<ul class=\"unlocated\">\n"
      for branch in unlocated {
        html +=
          "<li data-brand=\"\(HTML.escape(branch.brand.rawValue))\">\(HTML.escape(title(branch))) <code>\(HTML.escape(branch.id.description))</code>"
          + (branch.address.published.map { "<br><small>\(HTML.escape($0))</small>" } ?? "") + "</li>\n"
      }
      html += "</ul>\n"
    }
    html += "</aside>\n</div>\n</section>\n"
    return html
  }
}
