import Foundation
import MartCore

/// The head of the Markdown diff: what must be seen first, before any branch's detail —
/// removals, stale brands, brand freshness, districts that moved their closing days, the
/// window — and how each part gives way when the limit is tight.
extension BundleDiff {
  /// How much of the head the Markdown report shows. ``steps`` are tried in order, each giving
  /// up a little more, the most important parts (removals) last.
  struct MarkdownHead {
    /// The table of brands with their freshness and counts.
    var table = true
    /// The sentence about branches with unknown days in the month new in the window.
    var addedDaysNote = true
    /// District names listed per pattern change; the rest are counted.
    var districtNames = Int.max
    /// Characters of a stale brand's error shown; `0` shows none.
    var reasonCharacters = Int.max
    /// Whether a removed branch is named (`` `id` name``) or only its id is listed.
    var removalNames = true
    /// Removed branches listed; the rest are counted.
    var removals = Int.max
    /// Whether the districts that changed closing days get a line per change (else the summary
    /// counts them).
    var districtLines = true
    /// Whether the brands whose freshness changed (to other than stale) get a line each.
    var freshnessLines = true
    /// Whether the removed branches get a line per brand (else one line counts them), and the
    /// register's findings a line each for the first five of each kind (else a count per kind).
    var removalLines = true
    /// Whether the window's move is said in a line of its own.
    var windowLine = true
    /// Whether a stale brand's line is only its slug, since when and for how many days.
    var compactStale = false

    /// The heads to try once the branches' detail no longer fits, each shorter than the last.
    static func steps(districts: Int, removals: Int) -> [MarkdownHead] {
      var steps: [MarkdownHead] = []
      var head = MarkdownHead()
      func add(_ change: (inout MarkdownHead) -> Void) {
        change(&head)
        steps.append(head)
      }
      add { $0.table = false }
      add { $0.addedDaysNote = false }
      add { $0.reasonCharacters = 120 }
      for names in [12, 6, 3, 0] where names < districts { add { $0.districtNames = names } }
      add { $0.reasonCharacters = 0 }
      add { $0.removalNames = false }
      for count in [100, 50, 20, 10, 5, 0] where count < removals { add { $0.removals = count } }
      // Then the lists give way, down to the counts and the stale brands.
      add { $0.districtLines = false }
      add { $0.freshnessLines = false }
      add { $0.removalLines = false }
      add { $0.windowLine = false }
      add { $0.compactStale = true }
      return steps
    }

    /// What this head leaves out, for the closing note.
    func leftOut(_ diff: BundleDiff) -> [String] {
      var parts: [String] = []
      if !table, !(diff.countsByBrand.isEmpty && diff.brands.isEmpty) { parts.append("the table of brands") }
      if !addedDaysNote, diff.windowChanged, !diff.unknownOnAddedDays.isEmpty {
        parts.append("the branches unknown on the days new in the window")
      }
      let districtsLeft = diff.districtGroups.map { max(0, $0.districts.count - districtNames) }.reduce(0, +)
      if districtsLeft > 0 { parts.append("the names of \(districtsLeft) districts") }
      if reasonCharacters == 0, diff.staleBrands.contains(where: { $0.lastError != nil }) {
        parts.append("why the stale brands failed")
      } else if diff.staleBrands.contains(where: { ($0.lastError?.count ?? 0) > reasonCharacters }) {
        parts.append("the end of why the stale brands failed")
      }
      if !removalNames, !diff.removed.isEmpty { parts.append("the names of the removed branches") }
      if !removalLines, !diff.removed.isEmpty {
        parts.append("the list of removed branches")
      } else if diff.removed.count > removals {
        parts.append("the ids of \(diff.removed.count - removals) removed branches")
      }
      if !removalLines, !diff.registerFindings.isEmpty { parts.append("the list of the register's findings") }
      if !districtLines, !diff.districts.isEmpty { parts.append("the districts that changed closing days") }
      if !freshnessLines, diff.brands.contains(where: { $0.new?.freshness != .stale }) {
        parts.append("the brands whose freshness changed")
      }
      if !windowLine, diff.windowChanged { parts.append("the window") }
      if compactStale, !diff.staleBrands.isEmpty { parts.append("the stale brands' names") }
      return parts
    }
  }

  /// Districts whose pattern changed the same way, together: the change (`2nd sunday, 4th
  /// sunday → none`) and the districts, in the order of ``districts``.
  public var districtGroups: [(change: String, districts: [String])] {
    var order: [String] = []
    var members: [String: [String]] = [:]
    for district in districts {
      let change = Self.pattern(district)
      if members[change] == nil { order.append(change) }
      members[change, default: []].append(district.title)
    }
    return order.map { ($0, members[$0]!) }
  }

  /// The head of the report as `head` allows: title, versions and counts, then removals, stale
  /// brands, freshness changes, districts, the window and the table of brands.
  func markdownHeader(_ head: MarkdownHead = MarkdownHead()) -> String {
    var lines = [
      "### Closing-day dataset: changes", "",
      "`\(old.version)` → `\(new.version)` (as of \(DisplayText.long(old.asOf)) → \(DisplayText.long(new.asOf)))", "",
    ]
    let stale = staleBrandLines(head)
    if isEmpty {
      lines.append("No changes.")
      if !stale.isEmpty { lines += [""] + stale }
      return lines.joined(separator: "\n") + "\n"
    }
    var summary = "**\(DisplayText.counts(added: added.count, removed: removed.count, changed: changed.count))**"
    if !brands.isEmpty {
      summary += " · freshness changed for \(brands.count) brand\(brands.count == 1 ? "" : "s")"
    }
    if windowChanged { summary += " · the window moved" }
    if !registerFindings.isEmpty {
      summary += " · \(registerFindings.count) new finding\(registerFindings.count == 1 ? "" : "s") of the register"
    }
    if !districts.isEmpty {
      summary += " · \(districts.count) district\(districts.count == 1 ? "" : "s") changed closing days"
    }
    lines += [summary, ""]
    var first = removalLines(head) + stale
    for change in brands where head.freshnessLines && change.new?.freshness != .stale {
      first.append(
        "- **brand-freshness** \(Self.cell(change.name)) (`\(change.brand.rawValue)`): \(Self.freshness(change))")
    }
    for group in districtGroups where head.districtLines {
      let names = group.districts.prefix(head.districtNames).map(Self.cell)
      let rest = group.districts.count - names.count
      let list =
        names.isEmpty
        ? "\(group.districts.count) districts"
        : names.joined(separator: ", ") + (rest > 0 ? ", … and \(rest) more" : "")
      first.append("- **district-pattern** \(Self.cell(group.change)): \(list)")
    }
    first += registerLines(markdown: true, limit: head.removalLines ? 5 : 0)
    if !first.isEmpty { lines += first + [""] }
    if windowChanged, head.windowLine {
      let compared =
        comparedDays.map { "closing dates and unknown days compared on \(DisplayText.range($0, long: true))" }
        ?? "the windows share no day"
      lines += [
        "Window: \(DisplayText.range(old.window, long: true)) → \(DisplayText.range(new.window, long: true)); \(compared).", "",
      ]
      if head.addedDaysNote, let unknown = unknownOnAddedDaysText(slugs: false) {
        lines += [unknown.prefix(1).uppercased() + unknown.dropFirst(), ""]
      }
    }
    let changedBrands = Set(countsByBrand.keys).union(brands.map(\.brand)).sorted()
    if head.table, !changedBrands.isEmpty {
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

  /// One line per brand with removed branches, naming each (or only its id) up to
  /// `head.removals` in all.
  func removalLines(_ head: MarkdownHead) -> [String] {
    if !head.removalLines, !removed.isEmpty {
      let brands = Set(removed.map(\.brand)).count
      return [
        "- **removed**: \(DisplayText.branches(removed.count)) of \(DisplayText.count(brands, "brand")) (see the JSON diff)"
      ]
    }
    var lines: [String] = []
    var budget = head.removals
    for (brand, branches) in Dictionary(grouping: removed, by: \.brand).sorted(by: { $0.key < $1.key }) {
      let shown = branches.prefix(max(0, budget))
      budget -= shown.count
      let names = shown.map { "`\($0.id)`" + (head.removalNames ? " \(Self.cell($0.name))" : "") }
      let rest = branches.count - shown.count
      let more =
        rest == 0 ? "" : names.isEmpty ? "\(rest) branches (see the JSON diff)" : ", … and \(rest) more (see the JSON diff)"
      let list = names.joined(separator: ", ") + more
      lines.append("- **removed** from \(Self.cell(brandName(brand))) (`\(brand.rawValue)`), \(branches.count): \(list)")
    }
    return lines
  }

  /// One line per stale brand: since when, for how many days, newly or still, and why.
  func staleBrandLines(_ head: MarkdownHead) -> [String] {
    let newlyStale = Set(brands.filter { $0.new?.freshness == .stale }.map(\.brand))
    return staleBrands.map { stale in
      var entry = stale
      if let error = entry.lastError, error.count > head.reasonCharacters {
        entry.lastError = head.reasonCharacters == 0 ? nil : error.prefix(head.reasonCharacters) + "…"
      }
      let word = newlyStale.contains(stale.brand) ? "newly stale" : "still stale"
      if head.compactStale {
        let since = stale.staleSince.map { " since \($0.iso)" } ?? ", never fetched"
        return "- **\(word)** `\(stale.brand.rawValue)`\(since)\(stale.daysStale.map { " (\(DisplayText.count($0, "day")))" } ?? "")"
      }
      return "- **\(word)** \(Self.cell(stale.name)) (`\(stale.brand.rawValue)`): \(Self.cell(Self.staleText(entry)))"
    }
  }
}
