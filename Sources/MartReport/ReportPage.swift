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
  /// Each branch's ``unknownDays(_:in:)`` extent, by its place in `branches`: worked out once for the
  /// map's marks, its caption and the brand table.
  let unknownExtents: [UnknownClosingDays.Extent]
  /// Per brand, the branches with at least one unknown day in the window (`some`) and, of
  /// them, those with every day of the window unknown (`every`: nothing about their closing
  /// days could be read), as `report.json`'s `branchesWithUnknownDays` and
  /// `branchesWithEveryDayUnknown` list them.
  let branchesWithUnknownDaysByBrand: [BrandSlug: (some: Int, every: Int)]
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
    ReportPage(report: report, bundle: bundle, previous: previous, diff: diff).document().text
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
    // Backwards, so that of two branches with one id the first is the one kept.
    var positions = [String: Int](minimumCapacity: branches.count)
    for position in branches.indices.reversed() { positions[branches[position].id.description] = position }
    positionByID = positions
    closures = bundle.map {
      $0.closures ?? ClosuresFile(branches: $0.branches.branches, day: $0.manifest.day)
    }
    let extents = branches.map { Self.unknownDays($0, in: bundle)?.extent ?? .none }
    unknownExtents = extents
    var counts: [BrandSlug: (some: Int, every: Int)] = [:]
    for (branch, extent) in zip(branches, extents) where extent != .none {
      counts[branch.brand, default: (0, 0)].some += 1
      if extent == .everyDay { counts[branch.brand, default: (0, 0)].every += 1 }
    }
    branchesWithUnknownDaysByBrand = counts
  }

  /// The branch of the bundle with this id, if it has one.
  func branch(withID id: BranchID) -> Branch? { positionByID[id.description].map { branches[$0] } }

  /// The brand's Korean name, else its slug.
  func name(_ brand: BrandSlug) -> String { brandNames[brand] ?? brand.rawValue }

  /// Appends to `page` the branch's title, escaped: `이마트 창원점`, or `홈플러스 스페셜 광주하남점`
  /// for a branch trading under a banner.
  func appendTitle(_ branch: Branch, to page: inout HTMLBytes) {
    page.appendEscaped(branch.banner ?? name(branch.brand))
    page.append(" ")
    page.appendEscaped(branch.name)
  }

  /// The branch's title, escaped (``appendTitle(_:to:)``), as a string.
  func escapedTitle(_ branch: Branch) -> String {
    var title = HTMLBytes()
    appendTitle(branch, to: &title)
    return title.text
  }

  /// The as-of date the page speaks of: the report's, else the bundle's.
  var asOf: CalendarDate? { report?.asOf ?? bundle?.manifest.asOf }

  /// The days of the bundle's window on which the branch's closing status is unknown
  /// (``UnknownClosingDays``, never a day the store is shut): the one meaning of "unknown" on the
  /// page, as in `closures.json` and `report.json`. The calendar's `?` counts, the hollow marks,
  /// the map's caption and the brand table all count these days (``unknownExtents``).
  static func unknownDays(_ branch: Branch, in bundle: PublishedBundle?) -> UnknownClosingDays? {
    bundle.map { branch.unknownClosingDays(in: $0.manifest.window) }
  }

  /// ``branchesWithUnknownDaysByBrand`` summed over the brands.
  var branchesWithUnknownDays: (some: Int, every: Int) {
    branchesWithUnknownDaysByBrand.values.reduce((0, 0)) { ($0.0 + $1.some, $0.1 + $1.every) }
  }

  /// The whole HTML document, as the bytes of the file.
  func document() -> HTMLBytes {
    // Room for the page at once: about 480 bytes a branch at 10,000 branches.
    var page = HTMLBytes(capacity: 65_536 + 512 * branches.count)
    page.append(
      """
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
      <svg class="defs" width="0" height="0" aria-hidden="true"><defs><path id="korea-land" d="\(KoreaMap.outline)"/></defs>\(BrandPalette.definitions)</svg>
      <a class="skip" href="#main">Skip to the report</a>
      <header>
      <h1>\(HTML.escape(pageTitle))</h1>
      \(headerBody())
      </header>
      <nav aria-label="Sections"><ul>
      <li><a href="#map">Map</a></li><li><a href="#brands">Brands</a></li><li><a href="#calendar">Calendar</a></li>
      <li><a href="#changes">Changes</a></li>\(report?.register == nil && !branches.contains { $0.source == .register } ? "" : "<li><a href=\"#register\">Register</a></li>")<li><a href="#problems">Warnings and errors</a></li>
      </ul>
      \(brandFilter())
      </nav>
      <main id="main">

      """)
    appendMapSection(to: &page)
    page.append(brandSection())
    appendCalendarSection(to: &page)
    page.append(changesSection())
    page.append(registerSection())
    page.append(problemsSection())
    page.append(
      """
      </main>
      <footer><p>Made by mart-holiday\(report?.toolVersion.map { " " + HTML.escape($0) } ?? "").
      Map outline: Natural Earth \(KoreaMap.sourceVersion), 1:10m Admin 0 (public domain), simplified.</p></footer>
      <script>\(Self.script)</script>
      </body>
      </html>

      """)
    return page
  }

  var pageTitle: String {
    "Closing-day dataset: run of " + (asOf?.iso ?? "an unknown day")
  }

  /// The outcome, versions, times and counts under the title, then what needs attention.
  func headerBody() -> String {
    var parts: [String] = []
    if let report {
      let unfinished = report.unfinishedSteps
      let outcomeClass =
        report.didPublish && unfinished.isEmpty ? (report.outcome == "published" ? "good" : "warn") : "bad"
      let outcome = report.didPublish && !unfinished.isEmpty ? "\(report.outcome), unfinished" : report.outcome
      parts.append(
        "<p class=\"outcome \(outcomeClass)\" id=\"outcome\">Outcome: <strong>\(HTML.escape(outcome))</strong>"
          + (report.change.map { " · bundle: <strong>\(HTML.escape($0.bundle))</strong>" } ?? "") + "</p>")
      if !report.didPublish {
        parts.append(nothingPublished(report))
      } else if !unfinished.isEmpty {
        parts.append(unfinishedRun(report, unfinished))
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
    if let change = report?.change, change.bundle == "new", let files = change.files {
      facts.append(("Bundle files", "\(files.written) written, \(files.linked) linked to the previous bundle's"))
    }
    if let started = report?.startedAt { facts.append(("Started", HTML.escape(KoreanTime.text(started)))) }
    if let finished = report?.finishedAt { facts.append(("Finished", HTML.escape(KoreanTime.text(finished)))) }
    let withCoordinates = branches.count { $0.coordinate != nil }
    facts.append(("Branches", "\(branches.count) (\(withCoordinates) on the map)"))
    if let report {
      facts.append(("Warnings", "\(report.warnings.count)"))
      facts.append(("Errors", "\(report.errors.count)"))
    }
    parts.append(
      "<dl class=\"facts\">"
        + facts.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined() + "</dl>")
    parts.append(attention())
    return parts.joined(separator: "\n")
  }

  /// What an operator can do about a brand not fetched, said once under the list.
  static let brandAdvice =
    "Run again: a site that was down or slow usually answers the next time, and the brand is fetched as usual. "
    + "A brand that fails run after run keeps its last good branches, stale for longer each day (its calendars "
    + "say so): if the reason names a page the site answered instead of its data, or a failure again and again, "
    + "the site has likely changed, so pass the reason to whoever maintains the brand readers."

  /// What a maintainer does about a site that changed, said once under the operator's advice.
  static let maintainerAdvice =
    "For the maintainer: fetch the page the reason names (<code>mart-holiday fetch URL</code>), compare it with "
    + "its recording under <code>fixtures/web/</code> (<code>docs/recordings.md</code>) and fix the brand's reader "
    + "(<code>docs/architecture.md</code>, <q>Adding a brand</q>)."

  /// The banner of a run that made nothing current: the outcome, why, and what stays current.
  func nothingPublished(_ report: RunReportFile) -> String {
    let kept =
      bundle.map {
        "The map and the calendar show the bundle that stays current, <code>\(HTML.escape($0.manifest.version))</code>; clients still get it."
      } ?? "No bundle has been published in this output yet."
    let reasons = report.errors.filter { $0.brand == nil }.map { "<li>\(HTML.escape($0.message))</li>" }
    let failed = brands.filter { $0.status == .stale || $0.status == .missing }.count
    let advice =
      report.outcome == "cancelled"
      ? "The run was stopped before it published: run again."
      : failed > 0
        ? "No brand could be fetched (\(failed) tried, each listed below with its reason): run again once the cause is fixed."
        : "Run again once the cause is fixed."
    return
      "<div class=\"banner bad\" role=\"alert\"><p>This run published nothing (\(HTML.escape(report.outcome))). \(kept)</p>"
      + (reasons.isEmpty ? "" : "<p>Why:</p><ul>\(reasons.joined())</ul>") + "<p>What to do: \(advice)</p></div>"
  }

  /// The banner of a run that published a bundle but did not write all that follows it
  /// (`current/`, the reports): which step failed and why, and that the run exits 1.
  func unfinishedRun(_ report: RunReportFile, _ steps: [RunReportFile.Problem]) -> String {
    let version = report.published.map { " <code>\(HTML.escape($0.version))</code>" } ?? ""
    let items = steps.map {
      "<li><strong>\(HTML.escape(RunReportFile.step(of: $0)))</strong>: \(HTML.escape($0.message))</li>"
    }
    return
      "<div class=\"banner bad\" role=\"alert\" id=\"unfinished\"><p>This run published\(version) but did not finish"
      + " (exit status 1): not written:</p><ul>\(items.joined())</ul>"
      + "<p>What to do: fix the cause the error names (a full disk needs space freed first) and run again; the next run finishes it.</p></div>"
  }

  /// The brands that are stale or missing, each with its reason and what to do.
  func attention() -> String {
    let troubled = brands.filter { summary in
      switch summary.status {
      case .stale, .missing: true
      case .fresh, .kept: false
      case nil: summary.freshness != .fresh
      }
    }
    guard !troubled.isEmpty else { return "" }
    var html = """
      <section class="attention banner warn" aria-labelledby="attention-heading">
      <h2 id="attention-heading">Needs attention: \(troubled.count) brand\(troubled.count == 1 ? "" : "s") not fetched</h2>
      <ul>

      """
    for summary in troubled.sorted(by: { $0.slug < $1.slug }) {
      let missing = summary.status == .missing || (summary.status == nil && summary.freshness == .missing)
      let last = summary.lastFetchedAsOf.map { "the run as of \(DisplayText.long($0))" } ?? "no run yet"
      let state =
        missing
        ? "<strong>missing</strong>: no branch of it is published, as no earlier run left any to keep"
        : report?.didPublish == false
          ? "<strong>stale</strong>: not fetched now; its \(summary.branchCount) branches in the bundle that stays current are from \(last)"
          : "<strong>stale</strong>: its \(summary.branchCount) branches are carried over from \(last), the last that fetched it"
      let why = summary.error.map { " Why: <q class=\"reason\">\(HTML.escape($0))</q>." } ?? ""
      html +=
        "<li data-brand=\"\(HTML.escape(summary.slug.rawValue))\">\(palette.swatch(summary.slug)) "
        + "<strong>\(HTML.escape(summary.name))</strong> <code>\(HTML.escape(summary.slug.rawValue))</code> is \(state)"
        + "\(Self.staleness(summary).map { " (<strong>\($0)</strong>)" } ?? "").\(why)</li>\n"
    }
    return html + "</ul>\n<p class=\"advice\">What to do: \(Self.brandAdvice)</p>\n"
      + "<p class=\"advice developer\"><small>\(Self.maintainerAdvice)</small></p>\n</section>"
  }

  /// `stale since 2026-11-20, 3 days` for a stale brand whose report entry says since when.
  static func staleness(_ summary: BrandSummary) -> String? {
    guard let since = summary.staleSince else { return nil }
    return "stale since \(since.iso)" + (summary.daysStale.map { ", \(DisplayText.count($0, "day"))" } ?? "")
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
