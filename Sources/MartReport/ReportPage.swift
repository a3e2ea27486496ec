import MartCore
import MartExport

/// `report.html`: one self-contained page a person can look at after a run — a map of the
/// branches, a table per brand, a calendar of closing days and the changes against the previous
/// bundle, with the run's warnings and errors.
///
/// The page needs nothing but itself: styles and the script are inline, the map outline is
/// built in (``KoreaMap``), and its Content-Security-Policy forbids every load. Everything is
/// readable without JavaScript; the script only adds the brand filter and the click from a day
/// of the calendar to its branches on the map.
public struct ReportPage {
  /// The run report, when the output has one.
  let report: RunReportFile?
  /// The bundle `latest.json` names (after the run).
  let bundle: PublishedBundle?
  let previous: PublishedBundle?
  let diff: BundleDiff?

  let brands: [BrandSummary]
  let brandNames: [BrandSlug: String]
  let palette: BrandPalette
  let branches: [Branch]
  /// Each branch's place in `branches`, by id as written (positions, not copies of branches).
  let positionByID: [String: Int]
  let closures: ClosuresFile?

  /// Renders the page.
  /// - Parameters:
  ///   - report: `report.json` of the run; `nil` for an output without one (the brand table then
  ///     shows the manifest).
  ///   - bundle: the bundle `latest.json` names, drawn on the map and the calendar; `nil` when
  ///     nothing was ever published.
  ///   - previous: the bundle the run compared against, when there is one.
  ///   - diff: `bundle` against `previous`, grouped as `mart-holiday diff` groups it.
  /// - Returns: the whole HTML document.
  public static func render(
    report: RunReportFile?, bundle: PublishedBundle?, previous: PublishedBundle?, diff: BundleDiff?
  ) -> String {
    ReportPage(report: report, bundle: bundle, previous: previous, diff: diff).document()
  }

  init(report: RunReportFile?, bundle: PublishedBundle?, previous: PublishedBundle?, diff: BundleDiff?) {
    self.report = report
    self.bundle = bundle
    self.previous = previous
    self.diff = diff
    let reported = report?.brands ?? []
    brands = reported.isEmpty ? (bundle?.manifest.brands ?? []) : reported
    var names: [BrandSlug: String] = [:]
    for summary in (previous?.manifest.brands ?? []) + (bundle?.manifest.brands ?? []) + reported {
      names[summary.slug] = summary.name
    }
    brandNames = names
    palette = BrandPalette(Array(names.keys))
    let branches = bundle?.branches.branches ?? []
    self.branches = branches
    positionByID = Dictionary(
      branches.indices.map { (branches[$0].id.description, $0) }, uniquingKeysWith: { first, _ in first })
    closures = bundle.map {
      ClosuresFile(branches: $0.branches.branches, window: $0.manifest.window, asOf: $0.manifest.asOf)
    }
  }

  /// The branch of the bundle with this id, if it has one.
  func branch(withID id: BranchID) -> Branch? { positionByID[id.description].map { branches[$0] } }

  /// The brand's Korean name, else its slug.
  func name(_ brand: BrandSlug) -> String { brandNames[brand] ?? brand.rawValue }

  /// `이마트 창원점`, or `홈플러스 스페셜 광주하남점` for a branch trading under a banner.
  func title(_ branch: Branch) -> String { "\(branch.banner ?? name(branch.brand)) \(branch.name)" }

  /// The as-of date the page speaks of: the report's, else the bundle's.
  var asOf: CalendarDate? { report?.asOf ?? bundle?.manifest.asOf }

  func document() -> String {
    var html = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
      <title>\(HTML.escape(pageTitle))</title>
      <style>\(Self.styles)</style>
      </head>
      <body>
      <a class="skip" href="#main">Skip to the report</a>
      <header>
      <h1>\(HTML.escape(pageTitle))</h1>
      \(headerBody())
      </header>
      <nav aria-label="Sections"><ul>
      <li><a href="#map">Map</a></li><li><a href="#brands">Brands</a></li><li><a href="#calendar">Calendar</a></li>
      <li><a href="#changes">Changes</a></li><li><a href="#problems">Warnings and errors</a></li>
      </ul>
      \(brandFilter())
      </nav>
      <main id="main">

      """
    html += mapSection()
    html += brandSection()
    html += calendarSection()
    html += changesSection()
    html += problemsSection()
    html += """
      </main>
      <footer><p>Made by mart-holiday\(report?.toolVersion.map { " " + HTML.escape($0) } ?? "").
      Map outline: Natural Earth \(KoreaMap.sourceVersion), 1:10m Admin 0 (public domain), simplified.</p></footer>
      <script>\(Self.script)</script>
      </body>
      </html>

      """
    return html
  }

  var pageTitle: String {
    "Closing-day dataset: run of " + (asOf?.iso ?? "an unknown day")
  }

  /// The outcome, versions, times and counts under the title.
  func headerBody() -> String {
    var parts: [String] = []
    if let report {
      let outcomeClass = report.didPublish ? (report.outcome == "published" ? "good" : "warn") : "bad"
      parts.append(
        "<p class=\"outcome \(outcomeClass)\" id=\"outcome\">Outcome: <strong>\(HTML.escape(report.outcome))</strong>"
          + (report.change.map { " · bundle: <strong>\(HTML.escape($0.bundle))</strong>" } ?? "") + "</p>")
      if !report.didPublish {
        let kept =
          bundle.map {
            "The map and the calendar show the bundle that stays current, <code>\(HTML.escape($0.manifest.version))</code>."
          } ?? "No bundle has been published in this output yet."
        parts.append(
          "<p class=\"banner bad\" role=\"alert\">This run published nothing (\(HTML.escape(report.outcome))). \(kept)</p>"
        )
      }
    } else {
      parts.append(
        "<p class=\"banner warn\">This output has no <code>report.json</code>: the brand table shows the bundle's manifest.</p>"
      )
    }
    var facts: [(String, String)] = []
    if let asOf { facts.append(("As of", DisplayText.long(asOf))) }
    if let window = bundle?.manifest.window ?? report?.window {
      facts.append(("Window", DisplayText.range(window, long: true)))
    }
    if let bundle { facts.append(("Bundle", "<code>\(HTML.escape(bundle.manifest.version))</code>")) }
    if let version = previous?.manifest.version ?? report?.change?.previousVersion {
      facts.append(("Previous bundle", "<code>\(HTML.escape(version))</code>"))
    }
    if let started = report?.startedAt { facts.append(("Started", HTML.escape(started))) }
    if let finished = report?.finishedAt { facts.append(("Finished", HTML.escape(finished))) }
    let withCoordinates = branches.filter { $0.coordinate != nil }.count
    facts.append(("Branches", "\(branches.count) (\(withCoordinates) on the map)"))
    if let report {
      facts.append(("Warnings", "\(report.warnings.count)"))
      facts.append(("Errors", "\(report.errors.count)"))
    }
    parts.append(
      "<dl class=\"facts\">"
        + facts.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined() + "</dl>")
    return parts.joined(separator: "\n")
  }

  /// The brand filter; shown by the script, since without it a choice would do nothing.
  func brandFilter() -> String {
    let options = brandNames.keys.sorted().map {
      "<option value=\"\(HTML.escape($0.rawValue))\">\(HTML.escape(name($0))) (\(HTML.escape($0.rawValue)))</option>"
    }
    return """
      <p class="filter" id="brand-filter-box" hidden><label for="brand-filter">Show brand</label>
      <select id="brand-filter"><option value="">every brand</option>\(options.joined())</select></p>
      """
  }
}
