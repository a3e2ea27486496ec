import Foundation
import MartCore

extension BundleDiff {
  /// The machine-readable form, stable (canonical JSON, everything sorted):
  /// `{"added": [id, …], "removed": [id, …], "changed": [{"id", "changes": [{"field", "old", "new"}]}],
  /// "summary": {"added", "removed", "changed", "kinds": {kind: branches}, "brands": {slug: {"added", "removed", "changed"}}}}`.
  public func json() throws -> Data {
    struct Changed: Encodable {
      var id: BranchID
      var changes: [FieldChange]
    }
    struct Summary: Encodable {
      var added: Int
      var removed: Int
      var changed: Int
      var kinds: [String: Int]
      var brands: [String: BrandCounts]
    }
    struct Output: Encodable {
      var added: [BranchID]
      var removed: [BranchID]
      var changed: [Changed]
      var summary: Summary
    }
    let output = Output(
      added: added.map(\.id), removed: removed.map(\.id),
      changed: changed.map { Changed(id: $0.branch.id, changes: $0.changes) },
      summary: Summary(
        added: added.count, removed: removed.count, changed: changed.count,
        kinds: Dictionary(uniqueKeysWithValues: countsByKind.map { ($0.key.rawValue, $0.value) }),
        brands: Dictionary(uniqueKeysWithValues: countsByBrand.map { ($0.key.rawValue, $0.value) })))
    return try BundleJSON.encode(output)
  }

  /// A readable report for a terminal.
  public func text() -> String {
    var lines = ["\(old.version) → \(new.version)"]
    if isEmpty {
      lines.append("no changes")
      return lines.joined(separator: "\n")
    }
    for branch in removed { lines.append("removed  \(branch.id)  \(title(branch))") }
    for branch in added { lines.append("added    \(branch.id)  \(title(branch))") }
    for change in changed {
      lines.append("changed  \(change.branch.id)  \(title(change.branch))")
      for field in change.changes {
        lines.append(
          "  \(field.field.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)) \(Self.describe(field))")
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

  /// A pull-request comment or CI job summary (GitHub-flavoured Markdown).
  public func markdown() -> String {
    var lines = ["### Closing-day dataset: changes", "", "`\(old.version)` → `\(new.version)`", ""]
    if isEmpty {
      lines.append("No changes.")
      return lines.joined(separator: "\n") + "\n"
    }
    lines.append("**\(Self.counts(added: added.count, removed: removed.count, changed: changed.count))**")
    lines += ["", "| brand | added | removed | changed |", "|---|---:|---:|---:|"]
    for (brand, counts) in countsByBrand.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "| \(brandNames[brand] ?? brand.rawValue) (`\(brand.rawValue)`) | \(counts.added) | \(counts.removed) | \(counts.changed) |"
      )
    }
    if !removed.isEmpty {
      lines += ["", "#### Removed", ""]
      for branch in removed { lines.append("- `\(branch.id)` \(Self.cell(title(branch)))") }
    }
    if !added.isEmpty {
      lines += ["", "#### Added", ""]
      for branch in added { lines.append("- `\(branch.id)` \(Self.cell(title(branch)))") }
    }
    if !changed.isEmpty {
      lines += ["", "#### Changed", "", "| branch | change | old | new |", "|---|---|---|---|"]
      for change in changed {
        for field in change.changes {
          let (old, new) = Self.sides(field)
          lines.append(
            "| `\(change.branch.id)` \(Self.cell(title(change.branch))) | \(field.field.rawValue) | \(Self.cell(old)) | \(Self.cell(new)) |"
          )
        }
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `<brand name> [<banner>] <branch name>`, e.g. `홈플러스 스페셜 광주하남점`.
  func title(_ branch: Branch) -> String {
    [branch.banner ?? brandNames[branch.brand] ?? branch.brand.rawValue, branch.name].joined(separator: " ")
  }

  static func counts(added: Int, removed: Int, changed: Int) -> String {
    "\(added) added, \(removed) removed, \(changed) changed"
  }

  /// One side of a change as text.
  static func render(_ value: DiffValue) -> String {
    switch value {
    case .null: "(none)"
    case .text(let text): text
    case .dates(let dates): dates.isEmpty ? "(none)" : dates.map(\.iso).joined(separator: ", ")
    case .point(let latitude, let longitude): "\(latitude), \(longitude)"
    }
  }

  /// Old and new as shown in a table; closing dates as the days no longer / newly closed.
  static func sides(_ change: FieldChange) -> (String, String) {
    switch change.field {
    case .closingDates:
      ("no longer closed: \(render(change.old))", "newly closed: \(render(change.new))")
    case .coordinates:
      (render(change.old), render(change.new) + (distance(change).map { " (moved \($0))" } ?? ""))
    default: (render(change.old), render(change.new))
    }
  }

  static func describe(_ change: FieldChange) -> String {
    switch change.field {
    case .closingDates:
      var parts: [String] = []
      if case .dates(let gone) = change.old, !gone.isEmpty { parts.append("no longer closed \(render(change.old))") }
      if case .dates(let new) = change.new, !new.isEmpty { parts.append("newly closed \(render(change.new))") }
      return parts.joined(separator: "; ")
    default:
      let (old, new) = sides(change)
      return "\(old) → \(new)"
    }
  }

  /// "1.2 km" or "350 m" between the two points of a coordinate change.
  static func distance(_ change: FieldChange) -> String? {
    guard case .point(let a, let b) = change.old, case .point(let c, let d) = change.new else { return nil }
    let meters = GeoPoint(latitude: a, longitude: b).distance(to: GeoPoint(latitude: c, longitude: d))
    return meters >= 1000 ? String(format: "%.1f km", meters / 1000) : "\(Int(meters.rounded())) m"
  }

  /// Text safe inside a Markdown table cell.
  static func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "|", with: "\\|")
      .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "`", with: "\\`")
  }
}
