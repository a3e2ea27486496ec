import Foundation
import MartCore

/// The diff as text, for a terminal.
extension BundleDiff {
  /// A readable report for a terminal: the window and brand freshness when they changed, then per
  /// brand the groups of identical changes.
  public func text() -> String {
    var lines = ["\(old.version) → \(new.version) (as of \(DisplayText.long(old.asOf)) → \(DisplayText.long(new.asOf)))"]
    let stale = staleBrands.map { "stale  \($0.name) (\($0.brand.rawValue))  \(Self.staleText($0))" }
    if isEmpty {
      lines.append("no changes")
      return (lines + stale).joined(separator: "\n")
    }
    lines += stale
    if windowChanged {
      lines.append("window  \(DisplayText.range(old.window, long: true)) → \(DisplayText.range(new.window, long: true))")
      if let unknown = unknownOnAddedDaysText(slugs: true) { lines.append("  " + unknown) }
    }
    for brand in brands {
      lines.append("brand-freshness  \(brand.name) (\(brand.brand.rawValue))  \(Self.freshness(brand))")
    }
    for district in districts {
      lines.append("district-pattern  \(district.title)  \(Self.pattern(district))")
    }
    lines += registerLines(markdown: false)
    let groups = groups
    for brand in Self.orderedBrands(groups) {
      let counts = countsByBrand[brand] ?? .init()
      lines.append("")
      lines.append(
        "\(brandName(brand)) (\(brand.rawValue)): \(DisplayText.counts(added: counts.added, removed: counts.removed, changed: counts.changed))"
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
          let count = group.branches.count == 1 ? "" : " (\(DisplayText.branches(texts.ids.count)))"
          lines.append("    source text: \(Self.quoted(texts.change.old)) → \(Self.quoted(texts.change.new))\(count)")
        }
        if group.branches.count > 1 {
          lines += Self.wrap(group.branches.map { "\($0.id) \(Self.label($0))" }, width: 100, indent: "    ")
        }
      }
    }
    lines.append("")
    lines.append("summary: \(DisplayText.counts(added: added.count, removed: removed.count, changed: changed.count))")
    for (brand, counts) in countsByBrand.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "  \(brand.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)) \(DisplayText.counts(added: counts.added, removed: counts.removed, changed: counts.changed))"
      )
    }
    let kinds = countsByKind.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
    lines.append("  kinds: \(kinds.joined(separator: ", "))")
    return lines.joined(separator: "\n")
  }
}

extension BundleDiff {
  /// `2nd sunday, 4th sunday → 2nd wednesday, 4th wednesday`, `none` for a side without one.
  static func pattern(_ change: DistrictChange) -> String {
    "\(change.old ?? "none") → \(change.new ?? "none")"
  }
}
