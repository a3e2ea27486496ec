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
      "a limit of \(maxBytes) bytes cannot hold the header of the diff (\(minimum) bytes at least)"
    }
  }

  /// A pull-request comment or CI job summary (GitHub-flavoured Markdown) of at most `maxBytes`
  /// bytes of UTF-8. First the head, what must be seen before any branch's detail: versions
  /// and counts, every removed branch (id and name), every stale brand (since when, for how
  /// many days, why), other freshness changes, the districts that moved their closing days
  /// (grouped by change), the window and a table of the brands; then per brand the groups of
  /// identical changes. When everything does not fit, the branches' detail gives way first (the
  /// largest sections collapsed into `<details>`, then shorter lists, fewer groups, fewer
  /// brands), then the head (the table, the note on the days new in the window, the length of
  /// the stale brands' errors, district names, the removed branches' names and their ids), then
  /// its lists (the districts, the freshness changes, the removals as one count, the window),
  /// down to the counts and one short line per stale brand; a closing note says exactly what
  /// was left out; the JSON diff has everything.
  /// Throws ``MarkdownLimitTooSmall`` when `maxBytes` cannot hold even the shortest head and
  /// that note (a limit from 1,000 bytes up holds it, but for dozens of brands with removals or
  /// stale at once). `jsonOption`, when given, is how the note tells to ask for the JSON diff
  /// (the command line's option).
  public func markdown(maxBytes: Int = defaultMarkdownMaxBytes, jsonOption: String? = nil) throws -> String {
    let heads = [MarkdownHead()] + MarkdownHead.steps(districts: districts.count, removals: removed.count)
    if isEmpty {
      for head in heads {
        let text = markdownHeader(head)
        if text.utf8.count <= maxBytes { return text }
      }
      throw MarkdownLimitTooSmall(maxBytes: maxBytes, minimum: markdownHeader(heads.last!).utf8.count)
    }
    let sections = markdownSections()
    var least = Int.max
    // Branch detail gives way first, then the head, its removals last.
    for head in heads {
      let header = markdownHeader(head)
      let notes = head.leftOut(self)
      if let text = Self.shortened(
        header: header, sections: sections, notes: notes, maxBytes: maxBytes, jsonOption: jsonOption)
      {
        return text
      }
      let bare = MarkdownLimits(ids: 0, groups: 0, sections: 0, collapse: true)
      least = min(
        least,
        Self.renderMarkdown(
          header: header, sections: sections, limits: bare, maxBytes: maxBytes, notes: notes, jsonOption: jsonOption
        ).utf8.count)
    }
    throw MarkdownLimitTooSmall(maxBytes: maxBytes, minimum: least)
  }

  /// The report of `header` and `sections` within `maxBytes`, the sections shortened as little
  /// as it takes: the largest collapsed, then fewer branches listed per group, fewer groups per
  /// brand, fewer brands; `nil` when even the header and the closing note do not fit.
  static func shortened(
    header: String, sections: [MarkdownSection], notes: [String], maxBytes: Int, jsonOption: String?
  ) -> String? {
    func render(_ limits: MarkdownLimits) -> String {
      renderMarkdown(
        header: header, sections: sections, limits: limits, maxBytes: maxBytes, notes: notes, jsonOption: jsonOption)
    }
    func fits(_ limits: MarkdownLimits) -> Bool { render(limits).utf8.count <= maxBytes }
    var limits = MarkdownLimits()
    if fits(limits) { return render(limits) }
    limits.collapse = true
    if fits(limits) { return render(limits) }
    let mostBranches = sections.flatMap(\.groups).map(\.group.branches.count).max() ?? 0
    if let ids = largest(in: 0...mostBranches, where: { fits(limits.with(ids: $0)) }) {
      return render(limits.with(ids: ids))
    }
    limits = limits.with(ids: 0)
    let mostGroups = sections.map(\.groups.count).max() ?? 0
    if let groups = largest(in: 0...mostGroups, where: { fits(limits.with(groups: $0)) }) {
      return render(limits.with(groups: groups))
    }
    limits.groups = 0
    if let count = largest(in: 0...sections.count, where: { fits(limits.with(sections: $0)) }) {
      return render(limits.with(sections: count))
    }
    return nil
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

  func markdownSections() -> [MarkdownSection] {
    let groups = groups
    return Self.orderedBrands(groups).map { brand in
      let counts = countsByBrand[brand] ?? .init()
      // Removed branches are named in the head, before any section.
      let mine = groups.filter { $0.brand == brand && $0.kind != .removed }
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
    }.filter { !$0.groups.isEmpty }
  }

  /// The report with `sections` shortened to `limits`.
  static func renderMarkdown(
    header: String, sections: [MarkdownSection], limits: MarkdownLimits, maxBytes: Int, notes: [String] = [],
    jsonOption: String? = nil
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
    if leftOutEntries > 0 || leftOutGroups > 0 || !notes.isEmpty {
      var parts: [String] = []
      if leftOutGroups > 0 { parts.append("\(leftOutGroups) of \(totalGroups) groups of changes not shown") }
      if leftOutEntries > 0 {
        parts.append("\(leftOutEntries) branch\(leftOutEntries == 1 ? "" : "es") of the groups shown not listed")
      }
      var said = parts.joined(separator: ", ")
      if !notes.isEmpty { said += (said.isEmpty ? "" : "; ") + "left out: " + notes.joined(separator: ", ") }
      out +=
        "_Shortened to stay within \(maxBytes) bytes: \(said). "
        + "The JSON diff\(jsonOption.map { " (`\($0)`)" } ?? "") has every change._\n"
    }
    while out.hasSuffix("\n\n") { out.removeLast() }
    return out
  }
}
