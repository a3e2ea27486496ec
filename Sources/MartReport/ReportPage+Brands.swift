import MartCore
import MartExport

extension ReportPage {
  /// Counts a list of report ids per brand.
  func perBrand(_ ids: [String]) -> [BrandSlug: Int] {
    let slugs = brands.map(\.slug)
    var counts: [BrandSlug: Int] = [:]
    for id in ids {
      if let brand = RunReportFile.brand(of: id, among: slugs) { counts[brand, default: 0] += 1 }
    }
    return counts
  }

  func brandSection() -> String {
    let withoutCoordinates: [BrandSlug: Int]
    let notTrading: [BrandSlug: Int]
    if let report {
      withoutCoordinates = perBrand(report.branchesWithoutCoordinates)
      notTrading = perBrand(report.branchesNotTrading.map(\.id))
    } else {
      withoutCoordinates = Dictionary(grouping: branches.filter { $0.coordinate == nil }, by: \.brand).mapValues(
        \.count)
      notTrading = Dictionary(grouping: branches.filter { !$0.storeStatus.isTrading }, by: \.brand).mapValues(\.count)
    }
    let unknownDays = branchesWithUnknownDaysByBrand
    var warningKinds: [BrandSlug: [String: Int]] = [:]
    for warning in report?.warnings ?? [] {
      guard let brand = warning.brand else { continue }
      warningKinds[brand, default: [:]][warning.kind, default: 0] += 1
    }
    let source =
      report == nil
      ? "the bundle's manifest (this output has no report.json)"
      : "<code>report.json</code>: what this run did with each brand"
    var html = """
      <section id="brands" aria-labelledby="brands-heading">
      <h2 id="brands-heading">Brands</h2>
      <p>From \(source). Change: the branch count against the previous bundle. Unknown days: the branches with \
      at least one day of the window whose closing status is unknown (the calendar's <q>?</q>, the map's hollow \
      marks), and of them those with every day unknown (nothing about their closing days could be read).</p>
      <div class="scroll" tabindex="0" role="region" aria-label="Brand table">
      <table class="brands">
      <thead><tr><th scope="col">Brand</th><th scope="col">Status</th><th scope="col">Freshness</th>
      <th scope="col" class="num">Branches</th><th scope="col" class="num">Change</th>
      <th scope="col" class="num">With coordinates</th><th scope="col" class="num">Without</th>
      <th scope="col" class="num">Some days unknown</th><th scope="col" class="num">Every day unknown</th>
      <th scope="col" class="num">Shut</th>
      <th scope="col">Warnings by kind</th><th scope="col">Error</th></tr></thead>
      <tbody>

      """
    var totals = (branches: 0, with: 0, without: 0, unknown: 0, everyDay: 0, shut: 0)
    for summary in brands.sorted(by: { $0.slug < $1.slug }) {
      let slug = summary.slug
      let without = withoutCoordinates[slug] ?? 0
      let status = summary.status?.rawValue ?? "—"
      let statusClass =
        switch summary.status {
        case .fresh, .kept: "good"
        case .stale: "warn"
        case .missing: "bad"
        case nil: summary.freshness == .fresh ? "good" : summary.freshness == .stale ? "warn" : "bad"
        }
      let kinds = (warningKinds[slug] ?? [:]).sorted { $0.key < $1.key }.map {
        "<span class=\"kind\">\(HTML.escape($0.key)) \($0.value)</span>"
      }
      totals.branches += summary.branchCount
      totals.with += summary.branchCount - without
      totals.without += without
      totals.unknown += unknownDays[slug]?.some ?? 0
      totals.everyDay += unknownDays[slug]?.every ?? 0
      totals.shut += notTrading[slug] ?? 0
      html += """
        <tr data-brand="\(HTML.escape(slug.rawValue))">\
        <th scope="row">\(palette.swatch(slug, size: 12)) \
        \(HTML.escape(summary.name)) <code>\(HTML.escape(slug.rawValue))</code>\
        \(summary.dataSource.map { "<small class=\"data-source\">data from \(HTML.escape($0))</small>" } ?? "")</th>\
        <td class="status \(statusClass)">\(HTML.escape(status))</td>\
        <td class="freshness"><span>\(HTML.escape(summary.freshness.rawValue))\
        \(summary.freshness != .fresh ? (Self.staleness(summary) ?? summary.lastFetchedAsOf.map { "last fetched \($0.iso)" }).map { "<br><small>\($0)</small>" } ?? "" : "")</span></td>\
        <td class="num branches">\(summary.branchCount)</td>\
        <td class="num change">\(change(for: slug, count: summary.branchCount))</td>\
        <td class="num with-coordinates">\(summary.branchCount - without)</td>\
        <td class="num without-coordinates">\(without)</td>\
        <td class="num unknown-days">\(unknownDays[slug]?.some ?? 0)</td>\
        <td class="num unknown-every-day">\(unknownDays[slug]?.every ?? 0)</td>\
        <td class="num shut">\(notTrading[slug] ?? 0)</td>\
        <td class="warnings">\(kinds.isEmpty ? "—" : kinds.joined(separator: " "))</td>\
        <td class="error">\(summary.error.map(HTML.escape) ?? "")</td></tr>

        """
    }
    html += """
      </tbody>
      <tfoot><tr><th scope="row">All brands</th><td></td><td></td><td class="num">\(totals.branches)</td><td></td>\
      <td class="num">\(totals.with)</td><td class="num">\(totals.without)</td><td class="num unknown-days">\(totals.unknown)</td>\
      <td class="num unknown-every-day">\(totals.everyDay)</td>\
      <td class="num">\(totals.shut)</td><td>\(report.map { "\($0.warnings.count) warnings" } ?? "")</td><td></td></tr></tfoot>
      </table>
      </div>
      </section>

      """
    return html
  }

  /// `+3 (16 → 19)`, `±0`, `new`, or `—` when the run made no bundle to compare.
  func change(for brand: BrandSlug, count: Int) -> String {
    if let report, report.change?.previousVersion == nil {
      return "—"
    }
    if let counted = report?.change?.branchCounts[brand.rawValue] {
      let delta = counted.now - counted.previous
      if counted.previous == 0 { return "new (\(counted.now))" }
      return (delta > 0 ? "+\(delta)" : "−\(-delta)") + " <small>(\(counted.previous) → \(counted.now))</small>"
    }
    if let report {
      return report.change?.bundle == "none" || report.change == nil ? "—" : "±0"
    }
    guard let previous else { return "—" }
    let before = previous.manifest.brands.first { $0.slug == brand }?.branchCount
    guard let before else { return "new (\(count))" }
    let delta = count - before
    return delta == 0 ? "±0" : (delta > 0 ? "+\(delta)" : "−\(-delta)") + " <small>(\(before) → \(count))</small>"
  }
}
