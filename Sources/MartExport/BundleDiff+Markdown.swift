import Foundation
import MartCore

/// The diff as GitHub-flavoured Markdown, for pull requests and CI summaries.
extension BundleDiff {
  /// The markdown size limit `diff` uses unless told otherwise: under GitHub's 65,536 characters
  /// for a pull-request comment, with room to spare.
  public static let defaultMarkdownMaxBytes = 60_000

  /// `maxBytes` cannot hold even the header of the Markdown report.
  public struct MarkdownLimitTooSmall: Error, CustomStringConvertible {
    /// The limit asked for.
    public var maxBytes: Int
    /// The least the report needs: its header and a note of what is left out.
    public var minimum: Int

    public var description: String {
      "--max-bytes \(maxBytes) cannot hold the header of the diff (\(minimum) bytes at least)"
    }
  }

  /// A pull-request comment or CI job summary (GitHub-flavoured Markdown) of at most `maxBytes`
  /// bytes of UTF-8: a header (versions, window, a table of the brands with their freshness and
  /// counts), then per brand the groups of identical changes. When everything does not fit, the
  /// largest brand sections are collapsed into `<details>` and lists are shortened, each saying
  /// how much was left out, with a closing note; the JSON diff has everything.
  /// Throws ``MarkdownLimitTooSmall`` when `maxBytes` cannot hold the header and that note.
  public func markdown(maxBytes: Int = defaultMarkdownMaxBytes) throws -> String {
    let header = markdownHeader()
    if isEmpty {
      let text = header + "No changes.\n"
      guard text.utf8.count <= maxBytes else {
        throw MarkdownLimitTooSmall(maxBytes: maxBytes, minimum: text.utf8.count)
      }
      return text
    }
    let sections = markdownSections()
    func render(_ limits: MarkdownLimits) -> String {
      Self.renderMarkdown(header: header, sections: sections, limits: limits, maxBytes: maxBytes)
    }
    func fits(_ limits: MarkdownLimits) -> Bool { render(limits).utf8.count <= maxBytes }

    var limits = MarkdownLimits()
    if fits(limits) { return render(limits) }
    // Too long: collapse the largest sections, then list fewer branches per group, then fewer
    // groups per brand, then fewer brands.
    limits.collapse = true
    if fits(limits) { return render(limits) }
    let mostBranches = sections.flatMap(\.groups).map(\.group.branches.count).max() ?? 0
    if let ids = Self.largest(in: 0...mostBranches, where: { fits(limits.with(ids: $0)) }) {
      return render(limits.with(ids: ids))
    }
    limits = limits.with(ids: 0)
    let mostGroups = sections.map(\.groups.count).max() ?? 0
    if let groups = Self.largest(in: 0...mostGroups, where: { fits(limits.with(groups: $0)) }) {
      return render(limits.with(groups: groups))
    }
    limits.groups = 0
    if let count = Self.largest(in: 0...sections.count, where: { fits(limits.with(sections: $0)) }) {
      return render(limits.with(sections: count))
    }
    throw MarkdownLimitTooSmall(maxBytes: maxBytes, minimum: render(limits.with(sections: 0)).utf8.count)
  }

  /// How much of each section the Markdown report shows.
  struct MarkdownLimits {
    /// Branches listed per group.
    var ids = Int.max
    /// Groups shown per brand.
    var groups = Int.max
    /// Brand sections shown.
    var sections = Int.max
    /// Whether large sections are folded into `<details>`.
    var collapse = false

    func with(ids: Int) -> MarkdownLimits {
      var copy = self
      copy.ids = ids
      return copy
    }
    func with(groups: Int) -> MarkdownLimits {
      var copy = self
      copy.groups = groups
      return copy
    }
    func with(sections: Int) -> MarkdownLimits {
      var copy = self
      copy.sections = sections
      return copy
    }
  }

  /// One brand's part of the Markdown report.
  struct MarkdownSection {
    var brand: BrandSlug
    var heading: String
    var counts: String
    var groups: [(group: Group, head: String)]
  }

  /// The largest value in `range` for which `fits` holds, assuming it holds for all smaller ones.
  static func largest(in range: ClosedRange<Int>, where fits: (Int) -> Bool) -> Int? {
    var (low, high) = (range.lowerBound, range.upperBound)
    var best: Int?
    while low <= high {
      let middle = low + (high - low) / 2
      if fits(middle) {
        best = middle
        low = middle + 1
      } else {
        high = middle - 1
      }
    }
    return best
  }

  func markdownHeader() -> String {
    var lines = [
      "### Closing-day dataset: changes", "",
      "`\(old.version)` → `\(new.version)` (as of \(DisplayText.long(old.asOf)) → \(DisplayText.long(new.asOf)))", "",
    ]
    if isEmpty { return lines.joined(separator: "\n") + "\n" }
    var summary = "**\(DisplayText.counts(added: added.count, removed: removed.count, changed: changed.count))**"
    if !brands.isEmpty {
      summary += " · freshness changed for \(brands.count) brand\(brands.count == 1 ? "" : "s")"
    }
    if windowChanged { summary += " · the window moved" }
    if !districts.isEmpty {
      summary += " · \(districts.count) district\(districts.count == 1 ? "" : "s") changed closing days"
    }
    lines += [summary, ""]
    if !districts.isEmpty {
      for district in districts {
        lines.append("- **district-pattern** \(Self.cell(district.district)): \(Self.cell(Self.pattern(district)))")
      }
      lines.append("")
    }
    if windowChanged {
      let compared =
        comparedDays.map { "closing dates and unknown days compared on \(DisplayText.range($0, long: true))" }
        ?? "the windows share no day"
      lines += [
        "Window: \(DisplayText.range(old.window, long: true)) → \(DisplayText.range(new.window, long: true)); \(compared).", "",
      ]
      if let unknown = unknownOnAddedDaysText(slugs: false) {
        lines += [unknown.prefix(1).uppercased() + unknown.dropFirst(), ""]
      }
    }
    let changedBrands = Set(countsByBrand.keys).union(brands.map(\.brand)).sorted()
    if !changedBrands.isEmpty {
      let freshnessChanges = Dictionary(uniqueKeysWithValues: brands.map { ($0.brand, $0) })
      let current = Dictionary(new.brands.map { ($0.slug, $0.freshness) }, uniquingKeysWith: { first, _ in first })
      lines += ["| brand | freshness | added | removed | changed |", "|---|---|---:|---:|---:|"]
      for brand in changedBrands {
        let counts = countsByBrand[brand] ?? .init()
        let freshness = freshnessChanges[brand].map(Self.freshness) ?? current[brand]?.rawValue ?? ""
        lines.append(
          "| \(Self.cell(brandName(brand))) (`\(brand.rawValue)`) | \(freshness) | \(counts.added) | \(counts.removed) | \(counts.changed) |"
        )
      }
      lines.append("")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  func markdownSections() -> [MarkdownSection] {
    let groups = groups
    return Self.orderedBrands(groups).map { brand in
      let counts = countsByBrand[brand] ?? .init()
      let mine = groups.filter { $0.brand == brand }
      return MarkdownSection(
        brand: brand, heading: "#### \(Self.cell(brandName(brand))) (`\(brand.rawValue)`)",
        counts: DisplayText.counts(added: counts.added, removed: counts.removed, changed: counts.changed),
        groups: mine.map { group in
          let kind = "**\(group.kind.rawValue)**"
          let values =
            group.kind == .added || group.kind == .removed
            ? "" : ": " + Self.cell(Self.describe(group.kind, group.old, group.new))
          if group.branches.count == 1 {
            let branch = group.branches[0]
            return (group, "- \(kind) `\(branch.id)` \(Self.cell(Self.label(branch)))\(values)")
          }
          return (group, "- \(kind), \(group.branches.count) branches\(values)")
        })
    }
  }

  /// The report with `sections` shortened to `limits`.
  static func renderMarkdown(
    header: String, sections: [MarkdownSection], limits: MarkdownLimits, maxBytes: Int
  ) -> String {
    var out = header
    var leftOutEntries = 0
    var leftOutGroups = 0
    let totalGroups = sections.map(\.groups.count).reduce(0, +)
    func distinct(_ groups: some Sequence<Group>) -> Int { Set(groups.flatMap { $0.branches.map(\.id) }).count }
    let shown = sections.prefix(limits.sections)
    for section in shown {
      var body: [String] = []
      for (index, (group, head)) in section.groups.enumerated() {
        guard index < limits.groups else {
          let rest = section.groups.dropFirst(index).map(\.group)
          leftOutGroups += rest.count
          body.append(
            "- … and \(rest.count) more \(Self.groupsOfChanges(rest.count)) (\(DisplayText.branches(distinct(rest))))"
              + " (see the JSON diff)"
          )
          break
        }
        body.append(head)
        let single = group.branches.count == 1
        // At most three different changes of the source text; they are short and say why.
        let textLimit = single ? group.sourceTexts.count : 3
        for texts in group.sourceTexts.prefix(textLimit) {
          let count = single ? "" : " (\(DisplayText.branches(texts.ids.count)))"
          body.append("  - source text: \(Self.code(texts.change.old)) → \(Self.code(texts.change.new))\(count)")
        }
        if group.sourceTexts.count > textLimit {
          let rest = group.sourceTexts.count - textLimit
          body.append("  - … and \(rest) more change\(rest == 1 ? "" : "s") of the source text (see the JSON diff)")
        }
        guard !single else { continue }
        let listed = group.branches.prefix(limits.ids).map { "`\($0.id)` \(Self.cell(Self.label($0)))" }
        let rest = group.branches.count - listed.count
        leftOutEntries += rest
        if listed.isEmpty {
          body.append("  - \(DisplayText.branches(rest)), not listed here (see the JSON diff)")
        } else {
          body.append(
            "  - " + listed.joined(separator: ", ")
              + (rest > 0 ? ", … and \(rest) more branch\(rest == 1 ? "" : "es") (see the JSON diff)" : ""))
        }
      }
      let text = body.joined(separator: "\n")
      // A section longer than a twentieth of the limit is folded, the rest stay open.
      if limits.collapse, text.utf8.count > maxBytes / 20 {
        let summary =
          "\(section.counts): \(section.groups.count) \(Self.groupsOfChanges(section.groups.count))"
        out += "\(section.heading)\n\n<details><summary>\(summary)</summary>\n\n\(text)\n\n</details>\n\n"
      } else {
        out += "\(section.heading)\n\n\(text)\n\n"
      }
    }
    let hidden = sections.dropFirst(shown.count)
    if !hidden.isEmpty {
      let groups = hidden.flatMap(\.groups).map(\.group)
      leftOutGroups += groups.count
      out +=
        "… and the changes of \(hidden.count) more brand\(hidden.count == 1 ? "" : "s") "
        + "(\(groups.count) \(Self.groupsOfChanges(groups.count)), \(DisplayText.branches(distinct(groups)))) (see the JSON diff).\n\n"
    }
    if leftOutEntries > 0 || leftOutGroups > 0 {
      var parts: [String] = []
      if leftOutGroups > 0 { parts.append("\(leftOutGroups) of \(totalGroups) groups of changes not shown") }
      if leftOutEntries > 0 {
        parts.append("\(leftOutEntries) branch\(leftOutEntries == 1 ? "" : "es") of the groups shown not listed")
      }
      out +=
        "_Shortened to stay within \(maxBytes) bytes: \(parts.joined(separator: ", ")). "
        + "The JSON diff (`--format json`) has every change._\n"
    }
    while out.hasSuffix("\n\n") { out.removeLast() }
    return out
  }
}
