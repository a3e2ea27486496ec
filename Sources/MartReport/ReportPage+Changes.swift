import MartCore
import MartExport

extension ReportPage {
  /// The diff against the previous bundle, grouped per brand as `mart-holiday diff` groups it.
  func changesSection() -> String {
    var html = """
      <section id="changes" aria-labelledby="changes-heading">
      <h2 id="changes-heading">Changes</h2>

      """
    guard let diff else {
      let reason =
        if bundle == nil {
          "No bundle is published."
        } else if let version = report?.change?.previousVersion, version != bundle?.manifest.version {
          "The previous bundle, <code>\(HTML.escape(version))</code>, is no longer on disk."
        } else if report?.change?.bundle == "unchanged" {
          "The run found the same content already published: nothing changed."
        } else {
          "There is no previous bundle to compare with."
        }
      return html + "<p>\(reason)</p>\n</section>\n"
    }
    html +=
      "<p><code>\(HTML.escape(diff.old.version))</code> → <code>\(HTML.escape(diff.new.version))</code> "
      + "(as of \(DisplayText.long(diff.old.asOf)) → \(DisplayText.long(diff.new.asOf)))</p>\n"
    if diff.isEmpty { return html + "<p>No changes.</p>\n</section>\n" }
    html +=
      "<p><strong>\(DisplayText.counts(added: diff.added.count, removed: diff.removed.count, changed: diff.changed.count))</strong>"
      + (diff.brands.isEmpty
        ? "" : " · freshness changed for \(diff.brands.count) brand\(diff.brands.count == 1 ? "" : "s")")
      + (diff.windowChanged ? " · the window moved" : "")
      + (diff.districts.isEmpty
        ? ""
        : " · \(diff.districts.count) district\(diff.districts.count == 1 ? "" : "s") changed closing days")
      + "</p>\n"
    if !diff.districts.isEmpty {
      // A district moving its closing days is news before any one branch's change.
      html += "<ul class=\"district-changes\">\n"
      for group in diff.districtGroups {
        html +=
          "<li><strong>district-pattern</strong> \(HTML.escape(group.change)): "
          + "\(HTML.escape(group.districts.joined(separator: ", ")))</li>\n"
      }
      html += "</ul>\n"
    }
    if diff.windowChanged {
      html +=
        "<p>Window: \(DisplayText.range(diff.old.window, long: true)) → \(DisplayText.range(diff.new.window, long: true))"
        + (diff.unknownOnAddedDaysText(slugs: false).map { "; \(HTML.escape($0))" } ?? "") + ".</p>\n"
    }
    if !diff.brands.isEmpty {
      html += "<ul class=\"freshness-changes\">\n"
      for change in diff.brands {
        html +=
          "<li data-brand=\"\(HTML.escape(change.brand.rawValue))\"><strong>brand-freshness</strong> "
          + "\(HTML.escape(change.name)) <code>\(HTML.escape(change.brand.rawValue))</code>: \(HTML.escape(BundleDiff.freshness(change)))</li>\n"
      }
      html += "</ul>\n"
    }
    let groups = diff.groups
    let counts = diff.countsByBrand
    for brand in BundleDiff.orderedBrands(groups) {
      let brandCounts = counts[brand] ?? .init()
      html += """
        <section class="diff-brand" data-brand="\(HTML.escape(brand.rawValue))">
        <h3>\(HTML.escape(diff.brandName(brand))) <code>\(HTML.escape(brand.rawValue))</code></h3>
        <p>\(DisplayText.counts(added: brandCounts.added, removed: brandCounts.removed, changed: brandCounts.changed))</p>
        <ul>

        """
      for group in groups where group.brand == brand {
        html += "<li>" + groupHTML(group) + "</li>\n"
      }
      html += "</ul>\n</section>\n"
    }
    return html + "</section>\n"
  }

  /// One group: its kind, its branches (or the one branch), the values and the changed source texts.
  func groupHTML(_ group: BundleDiff.Group) -> String {
    let kind = "<strong>\(HTML.escape(group.kind.rawValue))</strong>"
    let values =
      group.kind == .added || group.kind == .removed
      ? "" : ": " + HTML.escape(BundleDiff.describe(group.kind, group.old, group.new))
    var html: String
    if group.branches.count == 1 {
      let branch = group.branches[0]
      html =
        "\(kind) <code>\(HTML.escape(branch.id.description))</code> \(HTML.escape(BundleDiff.label(branch)))\(values)"
    } else {
      html = "\(kind), \(group.branches.count) branches\(values)"
    }
    if !group.sourceTexts.isEmpty {
      html += "<ul class=\"source-texts\">"
      for texts in group.sourceTexts {
        let count = group.branches.count == 1 ? "" : " (\(DisplayText.branches(texts.ids.count)))"
        html +=
          "<li>source text: \(quoted(texts.change.old)) → \(quoted(texts.change.new))\(count)</li>"
      }
      html += "</ul>"
    }
    if group.branches.count > 1 {
      let list = group.branches.map {
        "<code>\(HTML.escape($0.id.description))</code> \(HTML.escape(BundleDiff.label($0)))"
      }
      html +=
        "<details><summary>\(DisplayText.branches(group.branches.count))</summary><p>\(list.joined(separator: ", "))</p></details>"
    }
    return html
  }

  func quoted(_ text: String?) -> String {
    text.map { "<q>\(HTML.escape(DisplayText.oneLine($0)))</q>" } ?? "(none)"
  }

  /// The run's warnings and errors, one row each, errors first.
  func problemsSection() -> String {
    var html = """
      <section id="problems" aria-labelledby="problems-heading">
      <h2 id="problems-heading">Warnings and errors</h2>

      """
    guard let report else { return html + "<p>This output has no <code>report.json</code>.</p>\n</section>\n" }
    if report.errors.isEmpty && report.warnings.isEmpty {
      return html + "<p>The run had no warnings and no errors.</p>\n</section>\n"
    }
    var kinds: [String: Int] = [:]
    for warning in report.warnings { kinds[warning.kind, default: 0] += 1 }
    html +=
      "<p>\(report.errors.count) errors, \(report.warnings.count) warnings"
      + (kinds.isEmpty
        ? "" : " (" + kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")")
      + ".</p>\n"
    html += """
      <div class="scroll" tabindex="0" role="region" aria-label="Warnings and errors">
      <table class="problems">
      <thead><tr><th scope="col">Severity</th><th scope="col">Kind</th><th scope="col">Brand</th><th scope="col">Branch</th><th scope="col">Message</th></tr></thead>
      <tbody>

      """
    var shownPerKind: [String: Int] = [:]
    var leftOut: [String: Int] = [:]
    for (severity, problems) in [("error", report.errors), ("warning", report.warnings)] {
      for problem in problems {
        if severity == "warning" {
          shownPerKind[problem.kind, default: 0] += 1
          guard shownPerKind[problem.kind]! <= Self.warningsPerKindLimit else {
            leftOut[problem.kind, default: 0] += 1
            continue
          }
        }
        let brand = problem.brand.map { "\(HTML.escape(name($0))) <code>\(HTML.escape($0.rawValue))</code>" } ?? "—"
        html +=
          "<tr class=\"\(severity)\"\(problem.brand.map { " data-brand=\"\(HTML.escape($0.rawValue))\"" } ?? "")>"
          + "<td>\(severity)</td><td>\(HTML.escape(problem.kind))</td><td>\(brand)</td>"
          + "<td>\(problem.branch.map { "<code>\(HTML.escape($0))</code>" } ?? "—")</td>"
          + "<td class=\"message\">\(HTML.escape(problem.message))</td></tr>\n"
      }
    }
    for (kind, count) in leftOut.sorted(by: { $0.key < $1.key }) {
      html +=
        "<tr class=\"warning more\"><td>warning</td><td>\(HTML.escape(kind))</td><td>—</td><td>—</td>"
        + "<td class=\"message\">and \(count) more \(HTML.escape(kind)) warnings (<code>report.json</code> lists every one)</td></tr>\n"
    }
    return html + "</tbody>\n</table>\n</div>\n</section>\n"
  }

  /// The most warnings of one kind the table shows; the rest are counted. Errors are all shown.
  static let warningsPerKindLimit = 200
}
