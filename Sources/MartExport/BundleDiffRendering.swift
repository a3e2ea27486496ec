import Foundation
import MartCore

extension BundleDiff {
  /// The markdown size limit `diff` uses unless told otherwise: under GitHub's 65,536 characters
  /// for a pull-request comment, with room to spare.
  public static let defaultMarkdownMaxBytes = 60_000

  /// The machine-readable form, stable (canonical JSON, everything sorted):
  /// `{"old", "new", "window", "brands", "added", "removed", "addedBranches", "removedBranches",
  /// "changed": [{"id", "name", "brand", "brandName", "banner", "changes": [{"field", "old", "new", "sourceText"}]}],
  /// "groups", "summary": {"added", "removed", "changed", "groups", "kinds": {kind: count},
  /// "brands": {slug: {"added", "removed", "changed"}}}}` (see `docs/bundle-format.md`).
  public func json() throws -> Data {
    struct SideInfo: Encodable {
      var version: String
      var asOf: CalendarDate
      var window: DateWindow
    }
    struct WindowInfo: Encodable {
      var changed: Bool
      var compared: DateWindow?
      var addedDays: [DateWindow]
      var unknownOnAddedDays: [String: [BranchID]]
    }
    struct BranchInfo: Encodable {
      var id: BranchID
      var name: String
      var brand: BrandSlug
      var brandName: String
    }
    struct BrandEntry: Encodable {
      var brand: BrandSlug
      var brandName: String
      var old: BrandState?
      var new: BrandState?
    }
    struct Changed: Encodable {
      var id: BranchID
      var name: String
      var brand: BrandSlug
      var brandName: String
      var banner: String?
      var changes: [FieldChange]
    }
    struct SourceTextEntry: Encodable {
      var old: String?
      var new: String?
      var ids: [BranchID]
    }
    struct GroupEntry: Encodable {
      var brand: BrandSlug
      var brandName: String
      var field: ChangeKind
      var old: DiffValue
      var new: DiffValue
      var count: Int
      var ids: [BranchID]
      var sourceTexts: [SourceTextEntry]
    }
    struct Summary: Encodable {
      var added: Int
      var removed: Int
      var changed: Int
      var groups: Int
      var kinds: [String: Int]
      var brands: [String: BrandCounts]
    }
    struct Output: Encodable {
      var old: SideInfo
      var new: SideInfo
      var window: WindowInfo
      var brands: [BrandEntry]
      var added: [BranchID]
      var removed: [BranchID]
      var addedBranches: [BranchInfo]
      var removedBranches: [BranchInfo]
      var changed: [Changed]
      var groups: [GroupEntry]
      var summary: Summary
    }
    func info(_ branch: Branch) -> BranchInfo {
      BranchInfo(id: branch.id, name: branch.name, brand: branch.brand, brandName: brandName(branch.brand))
    }
    let groups = groups
    let output = Output(
      old: SideInfo(version: old.version, asOf: old.asOf, window: old.window),
      new: SideInfo(version: new.version, asOf: new.asOf, window: new.window),
      window: WindowInfo(
        changed: windowChanged, compared: comparedDays, addedDays: addedDays,
        unknownOnAddedDays: Dictionary(uniqueKeysWithValues: unknownOnAddedDays.map { ($0.key.rawValue, $0.value) })),
      brands: brands.map { BrandEntry(brand: $0.brand, brandName: $0.name, old: $0.old, new: $0.new) },
      added: added.map(\.id), removed: removed.map(\.id),
      addedBranches: added.map(info), removedBranches: removed.map(info),
      changed: changed.map {
        Changed(
          id: $0.branch.id, name: $0.branch.name, brand: $0.branch.brand, brandName: brandName($0.branch.brand),
          banner: $0.branch.banner, changes: $0.changes)
      },
      groups: groups.map { group in
        GroupEntry(
          brand: group.brand, brandName: brandName(group.brand), field: group.kind, old: group.old, new: group.new,
          count: group.branches.count, ids: group.branches.map(\.id),
          sourceTexts: group.sourceTexts.map { SourceTextEntry(old: $0.change.old, new: $0.change.new, ids: $0.ids) })
      },
      summary: Summary(
        added: added.count, removed: removed.count, changed: changed.count, groups: groups.count,
        kinds: Dictionary(uniqueKeysWithValues: countsByKind.map { ($0.key.rawValue, $0.value) }),
        brands: Dictionary(uniqueKeysWithValues: countsByBrand.map { ($0.key.rawValue, $0.value) })))
    return try BundleJSON.encode(output)
  }

  /// A readable report for a terminal: the window and brand freshness when they changed, then per
  /// brand the groups of identical changes.
  public func text() -> String {
    var lines = ["\(old.version) → \(new.version) (as of \(Self.long(old.asOf)) → \(Self.long(new.asOf)))"]
    if isEmpty {
      lines.append("no changes")
      return lines.joined(separator: "\n")
    }
    if windowChanged {
      lines.append("window  \(Self.range(old.window, long: true)) → \(Self.range(new.window, long: true))")
      if let unknown = unknownOnAddedDaysText(slugs: true) { lines.append("  " + unknown) }
    }
    for brand in brands {
      lines.append("brand-freshness  \(brand.name) (\(brand.brand.rawValue))  \(Self.freshness(brand))")
    }
    let groups = groups
    for brand in Self.orderedBrands(groups) {
      let counts = countsByBrand[brand] ?? .init()
      lines.append("")
      lines.append(
        "\(brandName(brand)) (\(brand.rawValue)): \(Self.counts(added: counts.added, removed: counts.removed, changed: counts.changed))"
      )
      for group in groups where group.brand == brand {
        let kind = group.kind.rawValue
        if group.kind == .added || group.kind == .removed {
          for branch in group.branches {
            lines.append("  \(kind.padding(toLength: 8, withPad: " ", startingAt: 0)) \(branch.id)  \(title(branch))")
          }
          continue
        }
        if group.branches.count == 1 {
          let branch = group.branches[0]
          lines.append(
            "  \(kind)  \(branch.id) \(Self.label(branch)): \(Self.describe(group.kind, group.old, group.new))")
        } else {
          lines.append(
            "  \(kind)  \(group.branches.count) branches: \(Self.describe(group.kind, group.old, group.new))")
        }
        for texts in group.sourceTexts {
          let count = group.branches.count == 1 ? "" : " (\(Self.branches(texts.ids.count)))"
          lines.append("    source text: \(Self.quoted(texts.change.old)) → \(Self.quoted(texts.change.new))\(count)")
        }
        if group.branches.count > 1 {
          lines += Self.wrap(group.branches.map { "\($0.id) \(Self.label($0))" }, width: 100, indent: "    ")
        }
      }
    }
    lines.append("")
    lines.append("summary: \(Self.counts(added: added.count, removed: removed.count, changed: changed.count))")
    for (brand, counts) in countsByBrand.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "  \(brand.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)) \(Self.counts(added: counts.added, removed: counts.removed, changed: counts.changed))"
      )
    }
    let kinds = countsByKind.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
    lines.append("  kinds: \(kinds.joined(separator: ", "))")
    return lines.joined(separator: "\n")
  }

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
      "`\(old.version)` → `\(new.version)` (as of \(Self.long(old.asOf)) → \(Self.long(new.asOf)))", "",
    ]
    if isEmpty { return lines.joined(separator: "\n") + "\n" }
    var summary = "**\(Self.counts(added: added.count, removed: removed.count, changed: changed.count))**"
    if !brands.isEmpty {
      summary += " · freshness changed for \(brands.count) brand\(brands.count == 1 ? "" : "s")"
    }
    if windowChanged { summary += " · the window moved" }
    lines += [summary, ""]
    if windowChanged {
      let compared =
        comparedDays.map { "closing dates and unknown days compared on \(Self.range($0, long: true))" }
        ?? "the windows share no day"
      lines += [
        "Window: \(Self.range(old.window, long: true)) → \(Self.range(new.window, long: true)); \(compared).", "",
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
        counts: Self.counts(added: counts.added, removed: counts.removed, changed: counts.changed),
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
            "- … and \(rest.count) more \(Self.groupsOfChanges(rest.count)) (\(Self.branches(distinct(rest))))"
              + " (see the JSON diff)"
          )
          break
        }
        body.append(head)
        let single = group.branches.count == 1
        // At most three different changes of the source text; they are short and say why.
        let textLimit = single ? group.sourceTexts.count : 3
        for texts in group.sourceTexts.prefix(textLimit) {
          let count = single ? "" : " (\(Self.branches(texts.ids.count)))"
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
          body.append("  - \(Self.branches(rest)), not listed here (see the JSON diff)")
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
        + "(\(groups.count) \(Self.groupsOfChanges(groups.count)), \(Self.branches(distinct(groups)))) (see the JSON diff).\n\n"
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

  /// `unknown on the days new in the window (02-01(월)~02-28(일)): 63 branches (이마트 16, …)`,
  /// or `nil` when no branch has unknown days there.
  public func unknownOnAddedDaysText(slugs: Bool) -> String? {
    guard !unknownOnAddedDays.isEmpty else { return nil }
    let total = unknownOnAddedDays.values.map(\.count).reduce(0, +)
    let perBrand = unknownOnAddedDays.sorted { $0.key < $1.key }.map {
      "\(slugs ? $0.key.rawValue : brandName($0.key)) \($0.value.count)"
    }
    let days = addedDays.map { Self.range($0) }.joined(separator: ", ")
    return
      "unknown on the days new in the window (\(days)): \(Self.branches(total)) (\(perBrand.joined(separator: ", ")))"
  }

  /// The brands with branch changes, in the order of their groups.
  public static func orderedBrands(_ groups: [Group]) -> [BrandSlug] {
    var seen: Set<BrandSlug> = []
    return groups.map(\.brand).filter { seen.insert($0).inserted }
  }

  /// The brand's Korean name, else its slug.
  public func brandName(_ brand: BrandSlug) -> String { brandNames[brand] ?? brand.rawValue }

  /// `<brand name> [<banner>] <branch name>`, e.g. `홈플러스 스페셜 광주하남점`.
  func title(_ branch: Branch) -> String {
    [branch.banner ?? brandName(branch.brand), branch.name].joined(separator: " ")
  }

  /// `<brand name> <branch name>` for a branch of a group.
  func title(_ branch: BranchRef) -> String { "\(branch.banner ?? brandName(branch.id.brand)) \(branch.name)" }

  /// The branch's name, with its banner when it trades under one: `광주하남점 (홈플러스 스페셜)`.
  public static func label(_ branch: BranchRef) -> String { branch.name + (branch.banner.map { " (\($0))" } ?? "") }

  /// `3 added, 1 removed, 12 changed`.
  public static func counts(added: Int, removed: Int, changed: Int) -> String {
    "\(added) added, \(removed) removed, \(changed) changed"
  }

  /// `1 branch`, `12 branches`.
  public static func branches(_ count: Int) -> String { count == 1 ? "1 branch" : "\(count) branches" }

  static func groupsOfChanges(_ count: Int) -> String { count == 1 ? "group of changes" : "groups of changes" }

  /// `fresh → stale (last fetched 2026-11-20(금))`; `(absent)` for a brand not in a manifest.
  public static func freshness(_ change: BrandChange) -> String {
    let old = change.old?.freshness.rawValue ?? "(absent)"
    let new = change.new?.freshness.rawValue ?? "(absent)"
    let fetched = change.new?.freshness == .fresh ? nil : change.new?.lastFetchedAsOf ?? change.old?.lastFetchedAsOf
    return "\(old) → \(new)" + (fetched.map { " (last fetched \(long($0)))" } ?? "")
  }

  /// `11-22(일)`: month, day and the Korean weekday.
  public static func short(_ date: CalendarDate) -> String {
    String(date.iso.dropFirst(5)) + "(\(date.weekday.koreanShortName))"
  }

  /// `2026-11-22(일)`.
  public static func long(_ date: CalendarDate) -> String { date.iso + "(\(date.weekday.koreanShortName))" }

  /// `02-01(일)~02-28(토)`, or one day.
  public static func range(_ range: DateWindow, long useYear: Bool = false) -> String {
    let format = useYear ? long : short
    return range.from == range.through ? format(range.from) : "\(format(range.from))~\(format(range.through))"
  }

  /// One side of a change as text; dates with their weekdays.
  static func render(_ value: DiffValue) -> String {
    switch value {
    case .null: "(none)"
    case .text(let text): text
    case .dates(let dates): dates.isEmpty ? "(none)" : dates.map(short).joined(separator: ", ")
    case .ranges(let ranges): ranges.isEmpty ? "(none)" : ranges.map { range($0) }.joined(separator: ", ")
    case .point(let latitude, let longitude): "\(latitude), \(longitude)"
    }
  }

  /// A change's old and new values on one line: `11-22(일) → 11-25(수)` for closing dates (no
  /// longer closed → newly closed), `newly unknown 02-01(일)~02-28(토)` for unknown days.
  public static func describe(_ kind: ChangeKind, _ old: DiffValue, _ new: DiffValue) -> String {
    switch kind {
    case .unknownDays:
      var parts: [String] = []
      if case .ranges(let known) = old, !known.isEmpty { parts.append("no longer unknown \(render(old))") }
      if case .ranges(let unknown) = new, !unknown.isEmpty { parts.append("newly unknown \(render(new))") }
      return parts.joined(separator: "; ")
    case .coordinates:
      return "\(render(old)) → \(render(new))" + (distance(old, new).map { " (moved \($0))" } ?? "")
    default:
      return "\(render(old)) → \(render(new))"
    }
  }

  /// "1.2 km" or "350 m" between the two points of a coordinate change.
  static func distance(_ old: DiffValue, _ new: DiffValue) -> String? {
    guard case .point(let a, let b) = old, case .point(let c, let d) = new else { return nil }
    let meters = GeoPoint(latitude: a, longitude: b).distance(to: GeoPoint(latitude: c, longitude: d))
    return meters >= 1000 ? String(format: "%.1f km", meters / 1000) : "\(Int(meters.rounded())) m"
  }

  /// A published text on one line, at most 160 characters.
  public static func oneLine(_ text: String) -> String {
    let flat = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    return flat.count > 160 ? String(flat.prefix(159)) + "…" : flat
  }

  /// A published text in quotes for the terminal, `(none)` when absent.
  static func quoted(_ text: String?) -> String { text.map { "\"\(oneLine($0))\"" } ?? "(none)" }

  /// A published text as inline code for Markdown, `(none)` when absent.
  static func code(_ text: String?) -> String {
    guard let text else { return "(none)" }
    let flat = oneLine(text).replacingOccurrences(of: "`", with: "'")
    return flat.isEmpty ? "(empty)" : "`\(flat)`"
  }

  /// `items` joined by ", " on lines of at most about `width` characters.
  static func wrap(_ items: [String], width: Int, indent: String) -> [String] {
    var lines: [String] = []
    var line = ""
    for item in items {
      if !line.isEmpty, line.count + item.count + 2 > width {
        lines.append(indent + line + ",")
        line = ""
      }
      line += line.isEmpty ? item : ", " + item
    }
    if !line.isEmpty { lines.append(indent + line) }
    return lines
  }

  /// Text safe inside a Markdown table cell or list item.
  static func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
      .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "`", with: "\\`")
  }
}
