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

  /// `next closing day 2026-11-22(일)`, `shut (폐점, closed for good)`, `closing days unknown`, ….
  func nextClosing(_ branch: Branch) -> String {
    if !branch.storeStatus.isTrading {
      let state = branch.storeStatus.state == .closed ? "폐점, closed for good" : "임시휴업, temporarily closed"
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

  /// The capital region, 서울·인천·경기, drawn again beside the map at ``CapitalInset/zoom``
  /// times its scale: about a third of the branches trade there, and on the whole map their
  /// marks lie on one another.
  enum CapitalInset {
    /// The box drawn, in degrees: the mainland of 서울, 인천 and 경기 up to 38.0° N.
    static let south = 36.85
    static let north = 38.0
    static let west = 126.35
    static let east = 127.9
    /// How many times larger than the whole map the inset draws the box.
    static let zoom = 4.0

    /// The box in the whole map's units.
    static var frame: (x: Double, y: Double, width: Double, height: Double) {
      let corner = ReportPage.project(latitude: north, longitude: west)
      let opposite = ReportPage.project(latitude: south, longitude: east)
      return (corner.x, corner.y, opposite.x - corner.x, opposite.y - corner.y)
    }

    /// Whether the point lies in the box.
    static func contains(_ coordinate: Coordinate) -> Bool {
      (south...north).contains(coordinate.latitude) && (west...east).contains(coordinate.longitude)
    }
  }

  /// What every mark of a branch shares, wherever it is drawn: its brand's shape and colour,
  /// hollow when some day of the window is unknown, outlined in black when the store is shut,
  /// and its tooltip. Made once per branch for both its marks (the map's and the inset's).
  struct MarkLook {
    /// `<use href="#shape-…" `.
    let start: String
    /// `="<id>" data-brand="…" class="…"`, after the id attribute's name.
    let idAndClasses: String
    /// The paint, the tooltip and the end of the element, after the position.
    let end: String
  }

  /// The look of `branch`'s marks.
  func markLook(_ branch: Branch) -> MarkLook {
    let colour = palette.colour(branch.brand)
    var classes = ["mark"]
    let paint: String
    if !branch.storeStatus.isTrading {
      classes.append("shut")
      paint = "fill=\"\(colour)\" stroke=\"#000000\" stroke-width=\"1.6\""
    } else if unknownDayCount(branch) > 0 {
      classes.append("unknown")
      paint = "fill=\"#ffffff\" stroke=\"\(colour)\" stroke-width=\"2.2\""
    } else {
      paint = "fill=\"\(colour)\" stroke=\"#ffffff\" stroke-width=\"0.8\""
    }
    return MarkLook(
      start: "<use href=\"#shape-\(palette.shape(branch.brand).name)\" ",
      idAndClasses: "=\"\(HTML.escape(branch.id.description))\""
        + " data-brand=\"\(HTML.escape(branch.brand.rawValue))\" class=\"\(classes.joined(separator: " "))\"",
      end: " \(paint)><title>\(HTML.escape(tooltip(branch)))</title></use>\n")
  }

  /// Appends to `marks` a branch's mark at `x`, `y`, with the look ``markLook(_:)`` gave: piece
  /// by piece, so that no intermediate string is made for each of ten thousand marks.
  func appendMark(
    _ look: MarkLook, x: Double, y: Double, idAttribute: String, focusable: Bool, to marks: inout String
  ) {
    marks += look.start
    marks += idAttribute
    marks += look.idAndClasses
    if focusable { marks += " tabindex=\"0\" role=\"img\"" }
    marks += " x=\""
    marks += HTML.number(x)
    marks += "\" y=\""
    marks += HTML.number(y)
    marks += "\""
    marks += look.end
  }

  func mapSection() -> String {
    // Lazily: filtering into new arrays would copy every branch.
    let located = branches.lazy.filter { $0.coordinate != nil }
    let unlocated = branches.lazy.filter { $0.coordinate == nil }
    let frame = CapitalInset.frame
    let zoom = CapitalInset.zoom
    var marks = ""
    var insetMarks = ""
    var inInset = 0
    for branch in located {
      guard let coordinate = branch.coordinate else { continue }
      let (x, y) = Self.project(latitude: coordinate.latitude, longitude: coordinate.longitude)
      let look = markLook(branch)
      appendMark(look, x: x, y: y, idAttribute: "data-branch-id", focusable: true, to: &marks)
      if CapitalInset.contains(coordinate) {
        inInset += 1
        appendMark(
          look, x: (x - frame.x) * zoom, y: (y - frame.y) * zoom, idAttribute: "data-inset-branch-id",
          focusable: false, to: &insetMarks)
      }
    }
    let shut = located.count { !$0.storeStatus.isTrading }
    let hollow = located.count { $0.storeStatus.isTrading && unknownDayCount($0) > 0 }
    let unknown = branchesWithUnknownDays
    let windowText = bundle.map { " (" + DisplayText.range($0.manifest.window, long: true) + ")" } ?? ""
    let description =
      "\(located.count) branches with coordinates drawn over an outline of South Korea, each brand with its own "
      + "shape and colour; \(shut) shut stores outlined in black, \(hollow) branches with at least one unknown day "
      + "in the window hollow. In all, \(unknown.some) branches, shut ones and those without coordinates included, have "
      + "at least one unknown day in the window\(windowText), \(unknown.every) of them every day: the brand table counts "
      + "them per brand."
    let width = HTML.number(KoreaMap.width)
    let height = HTML.number(KoreaMap.height)
    let insetWidth = HTML.number(frame.width * zoom)
    let insetHeight = HTML.number(frame.height * zoom)
    let insetDescription =
      "서울, 인천 and 경기 (\(CapitalInset.south)–\(CapitalInset.north)° N, \(CapitalInset.west)–\(CapitalInset.east)° E) "
      + "at \(Int(zoom)) times the scale of the whole map: \(inInset) branches."
    var html = """
      <section id="map" aria-labelledby="map-heading">
      <h2 id="map-heading">Map</h2>
      <div class="map-layout">
      <figure class="map">
      <a class="skip-inline" href="#map-legend">Skip the branch marks</a>
      <svg viewBox="0 0 \(width) \(height)" width="\(width)" height="\(height)" role="group" aria-labelledby="map-title" aria-describedby="map-desc">
      <title id="map-title">Branches on the map of Korea</title>
      <desc id="map-desc">\(HTML.escape(description))</desc>
      <use href="#korea-land" class="land" aria-hidden="true"/>
      <rect class="inset-frame" x="\(HTML.number(frame.x))" y="\(HTML.number(frame.y))" width="\(HTML.number(frame.width))" height="\(HTML.number(frame.height))" aria-hidden="true"/>
      <g class="marks">
      \(marks)</g>
      </svg>
      <figcaption><p id="map-info" aria-live="polite">\(HTML.escape(description))</p>
      <p id="day-info" aria-live="polite" hidden></p></figcaption>
      </figure>
      <div class="map-side-column">
      <figure class="map inset">
      <svg viewBox="0 0 \(insetWidth) \(insetHeight)" width="\(insetWidth)" height="\(insetHeight)" role="img" aria-labelledby="inset-title">
      <title id="inset-title">\(HTML.escape(insetDescription))</title>
      <g transform="scale(\(HTML.number(zoom))) translate(\(HTML.number(-frame.x)) \(HTML.number(-frame.y)))"><use href="#korea-land" class="land"/></g>
      <g class="marks">
      \(insetMarks)</g>
      </svg>
      <figcaption>The capital region: \(HTML.escape(insetDescription)) The box on the map shows where it lies.</figcaption>
      </figure>
      <aside class="map-side" aria-label="Legend and branches without coordinates">
      <h3 id="map-legend">Legend</h3>
      <ul class="legend">
      <li><svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true"><use href="#shape-circle" fill="#555555"/></svg> trading, every day of the window known</li>
      <li><svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true"><use href="#shape-circle" fill="#ffffff" stroke="#555555" stroke-width="2"/></svg> at least one day of the window unknown</li>
      <li><svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true"><use href="#shape-circle" fill="#555555" stroke="#000000" stroke-width="1.6"/></svg> shut (temporarily or for good)</li>

      """
    var counts: [BrandSlug: Int] = [:]
    for branch in located { counts[branch.brand, default: 0] += 1 }
    for brand in brandNames.keys.sorted() {
      html +=
        "<li data-brand=\"\(HTML.escape(brand.rawValue))\">\(palette.swatch(brand)) "
        + "\(HTML.escape(name(brand))) <small>(\(palette.shape(brand).name), \(counts[brand] ?? 0))</small></li>\n"
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
    html += "</aside>\n</div>\n</div>\n</section>\n"
    return html
  }
}
