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

  /// Appends to `page`, escaped, what the branch's closing days come to from the page's as-of
  /// day: `next closing day 2026-11-22(일)`, `shut (폐점, closed for good)`, `closing days
  /// unknown`, ….
  func appendNextClosing(_ branch: Branch, to page: inout HTMLBytes) {
    let store = branch.storeStatus
    if !store.isTrading {
      page.append(store.state == .closed ? "shut (폐점, closed for good" : "shut (임시휴업, temporarily closed")
      if let until = store.until {
        page.append(" until ")
        page.appendEscaped(DisplayText.long(until))
      }
      page.append(")")
      return
    }
    // Only the parts of `closing` used here, not a copy of the whole (its schedule too).
    let status = branch.closing.status
    let dates = branch.closing.dates
    let today = asOf ?? dates.first ?? CalendarDate(dayNumber: 0)
    if status == .unknown {
      page.append("closing days unknown")
    } else if let next = dates.first(where: { $0 >= today }) {
      page.append("next closing day ")
      page.appendEscaped(DisplayText.long(next))
      if branch.closing.unknownRanges.contains(where: { $0.from < next && $0.through >= today }) {
        page.append(" (some days before it unknown)")
      }
    } else if status == .openAllYear {
      page.append("open all year")
    } else if let unknown = branch.closing.unknownRanges.first(where: { $0.through >= today }) {
      page.append("no closing day known; unknown from ")
      page.appendEscaped(DisplayText.long(max(unknown.from, today)))
    } else {
      page.append("no closing day in the window")
    }
  }

  /// ``appendNextClosing(_:to:)``'s text as a string.
  func escapedNextClosing(_ branch: Branch) -> String {
    var text = HTMLBytes()
    appendNextClosing(branch, to: &text)
    return text.text
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

  /// Where the pieces of a branch's mark on the whole map lie in the page, for its mark in the
  /// inset to repeat: the mark is written once, its id, brand, shape, paint and tooltip escaped
  /// once for both.
  struct MarkPieces {
    /// `<use href="#shape-…" `.
    let start: Range<Int>
    /// `="<id>" data-brand="…" class="…"`, after the id attribute's name.
    let idAndClasses: Range<Int>
    /// The paint, the tooltip and the end of the element, after the position.
    let end: Range<Int>
  }

  /// Appends `branch`'s mark on the whole map at `x`, `y` to `page`: its brand's shape and colour,
  /// hollow when some day of the window is unknown (`unknown`), outlined in black when the store
  /// is shut, and its tooltip (name, id, brand, next closing day); the mark can be focused.
  /// - Returns: where the pieces the inset's mark repeats lie in `page`.
  func appendMark(_ branch: Branch, unknown: Bool, x: Double, y: Double, to page: inout HTMLBytes) -> MarkPieces {
    let colour = palette.colour(branch.brand)
    let start = page.count
    page.append("<use href=\"#shape-")
    page.append(palette.shape(branch.brand).name)
    page.append("\" ")
    let idStart = page.count
    page.append("data-branch-id")
    let idAndClassesStart = page.count
    page.append("=\"")
    let escapedIDStart = page.count
    page.appendEscaped(branch.id.description)
    let escapedID = escapedIDStart..<page.count
    page.append("\" data-brand=\"")
    page.appendEscaped(branch.brand.rawValue)
    page.append("\" class=\"mark")
    if !branch.storeStatus.isTrading {
      page.append(" shut")
    } else if unknown {
      page.append(" unknown")
    }
    page.append("\"")
    let idAndClasses = idAndClassesStart..<page.count
    page.append(" tabindex=\"0\" role=\"img\"")
    appendPosition(x: x, y: y, to: &page)
    let endStart = page.count
    if !branch.storeStatus.isTrading {
      page.append(" fill=\"")
      page.append(colour)
      page.append("\" stroke=\"#000000\" stroke-width=\"1.6\"")
    } else if unknown {
      page.append(" fill=\"#ffffff\" stroke=\"")
      page.append(colour)
      page.append("\" stroke-width=\"2.2\"")
    } else {
      page.append(" fill=\"")
      page.append(colour)
      page.append("\" stroke=\"#ffffff\" stroke-width=\"0.8\"")
    }
    page.append("><title>")
    appendTitle(branch, to: &page)
    page.append(" (")
    page.append(copyOf: escapedID)
    page.append(") · ")
    page.appendEscaped(name(branch.brand))
    page.append(" · ")
    appendNextClosing(branch, to: &page)
    page.append("</title></use>\n")
    return MarkPieces(start: start..<idStart, idAndClasses: idAndClasses, end: endStart..<page.count)
  }

  /// Appends to `inset` the mark whose pieces `page` holds at `x`, `y` of the inset, not
  /// focusable (the map's mark is).
  func appendInsetMark(_ pieces: MarkPieces, of page: HTMLBytes, x: Double, y: Double, to inset: inout HTMLBytes) {
    inset.append(page, pieces.start)
    inset.append("data-inset-branch-id")
    inset.append(page, pieces.idAndClasses)
    appendPosition(x: x, y: y, to: &inset)
    inset.append(page, pieces.end)
  }

  /// ` x="…" y="…"`.
  func appendPosition(x: Double, y: Double, to page: inout HTMLBytes) {
    page.append(" x=\"")
    page.appendNumber(x)
    page.append("\" y=\"")
    page.appendNumber(y)
    page.append("\"")
  }

  /// Appends the map section to `page`: every branch with coordinates as a mark on the whole map,
  /// those of the capital region again in the inset, the legend and the branches without
  /// coordinates.
  func appendMapSection(to page: inout HTMLBytes) {
    var located = 0
    var shut = 0
    var hollow = 0
    for (position, branch) in branches.enumerated() where branch.coordinate != nil {
      located += 1
      if !branch.storeStatus.isTrading {
        shut += 1
      } else if unknownExtents[position] != .none {
        hollow += 1
      }
    }
    let frame = CapitalInset.frame
    let zoom = CapitalInset.zoom
    let unknown = branchesWithUnknownDays
    let windowText = bundle.map { " (" + DisplayText.range($0.manifest.window, long: true) + ")" } ?? ""
    let description =
      "\(located) branches with coordinates drawn over an outline of South Korea, each brand with its own "
      + "shape and colour; \(shut) shut stores outlined in black, \(hollow) branches with at least one unknown day "
      + "in the window hollow. In all, \(unknown.some) branches, shut ones and those without coordinates included, have "
      + "at least one unknown day in the window\(windowText), \(unknown.every) of them every day: the brand table counts "
      + "them per brand."
    let width = HTML.number(KoreaMap.width)
    let height = HTML.number(KoreaMap.height)
    page.append(
      """
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

      """)
    var insetMarks = HTMLBytes()
    var inInset = 0
    for (position, branch) in branches.enumerated() {
      guard let coordinate = branch.coordinate else { continue }
      let (x, y) = Self.project(latitude: coordinate.latitude, longitude: coordinate.longitude)
      let pieces = appendMark(branch, unknown: unknownExtents[position] != .none, x: x, y: y, to: &page)
      if CapitalInset.contains(coordinate) {
        inInset += 1
        appendInsetMark(pieces, of: page, x: (x - frame.x) * zoom, y: (y - frame.y) * zoom, to: &insetMarks)
      }
    }
    let insetWidth = HTML.number(frame.width * zoom)
    let insetHeight = HTML.number(frame.height * zoom)
    let insetDescription =
      "서울, 인천 and 경기 (\(CapitalInset.south)–\(CapitalInset.north)° N, \(CapitalInset.west)–\(CapitalInset.east)° E) "
      + "at \(Int(zoom)) times the scale of the whole map: \(inInset) branches."
    page.append(
      """
      </g>
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

      """)
    page.append(insetMarks)
    page.append(
      """
      </g>
      </svg>
      <figcaption>The capital region: \(HTML.escape(insetDescription)) The box on the map shows where it lies.</figcaption>
      </figure>
      <aside class="map-side" aria-label="Legend and branches without coordinates">
      <h3 id="map-legend">Legend</h3>
      <ul class="legend">
      <li><svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true"><use href="#shape-circle" fill="#555555"/></svg> trading, every day of the window known</li>
      <li><svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true"><use href="#shape-circle" fill="#ffffff" stroke="#555555" stroke-width="2"/></svg> at least one day of the window unknown</li>
      <li><svg width="14" height="14" viewBox="-7 -7 14 14" aria-hidden="true"><use href="#shape-circle" fill="#555555" stroke="#000000" stroke-width="1.6"/></svg> shut (temporarily or for good)</li>

      """)
    var counts: [BrandSlug: Int] = [:]
    for branch in branches where branch.coordinate != nil { counts[branch.brand, default: 0] += 1 }
    for brand in brandNames.keys.sorted() {
      page.append("<li data-brand=\"")
      page.appendEscaped(brand.rawValue)
      page.append("\">\(palette.swatch(brand)) ")
      page.appendEscaped(name(brand))
      page.append(" <small>(\(palette.shape(brand).name), \(counts[brand] ?? 0))</small></li>\n")
    }
    page.append("</ul>\n<h3>Without coordinates (\(branches.count - located))</h3>\n")
    if located == branches.count {
      page.append("<p>Every branch has coordinates.</p>\n")
    } else {
      page.append("<ul class=\"unlocated\">\n")
      for branch in branches where branch.coordinate == nil {
        page.append("<li data-brand=\"")
        page.appendEscaped(branch.brand.rawValue)
        page.append("\">")
        appendTitle(branch, to: &page)
        page.append(" <code>")
        page.appendEscaped(branch.id.description)
        page.append("</code>")
        if let published = branch.address.published {
          page.append("<br><small>")
          page.appendEscaped(published)
          page.append("</small>")
        }
        page.append("</li>\n")
      }
      page.append("</ul>\n")
    }
    page.append("</aside>\n</div>\n</div>\n</section>\n")
  }
}
