import Foundation
import MartCore

/// What the diff's formats share, and the report's list of changes uses: names, labels, one
/// side of a change, the change on one line.
extension BundleDiff {
  /// `unknown on the days new in the window (02-01(월)~02-28(일)): 63 branches (이마트 16, …)`,
  /// or `nil` when no branch has unknown days there.
  public func unknownOnAddedDaysText(slugs: Bool) -> String? {
    guard !unknownOnAddedDays.isEmpty else { return nil }
    let total = unknownOnAddedDays.values.map(\.count).reduce(0, +)
    let perBrand = unknownOnAddedDays.sorted { $0.key < $1.key }.map {
      "\(slugs ? $0.key.rawValue : brandName($0.key)) \($0.value.count)"
    }
    let days = addedDays.map { DisplayText.range($0) }.joined(separator: ", ")
    return
      "unknown on the days new in the window (\(days)): \(DisplayText.branches(total)) (\(perBrand.joined(separator: ", ")))"
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

  static func groupsOfChanges(_ count: Int) -> String { count == 1 ? "group of changes" : "groups of changes" }

  /// `fresh → stale (last fetched 2026-11-20(금))`; `(absent)` for a brand not in a manifest.
  public static func freshness(_ change: BrandChange) -> String {
    let old = change.old?.freshness.rawValue ?? "(absent)"
    let new = change.new?.freshness.rawValue ?? "(absent)"
    let fetched = change.new?.freshness == .fresh ? nil : change.new?.lastFetchedAsOf ?? change.old?.lastFetchedAsOf
    return "\(old) → \(new)" + (fetched.map { " (last fetched \(DisplayText.long($0)))" } ?? "")
  }

  /// One side of a change as text; dates with their weekdays.
  static func render(_ value: DiffValue) -> String {
    switch value {
    case .null: "(none)"
    case .text(let text): text
    case .dates(let dates): dates.isEmpty ? "(none)" : dates.map(DisplayText.short).joined(separator: ", ")
    case .ranges(let ranges): ranges.isEmpty ? "(none)" : ranges.map { DisplayText.range($0) }.joined(separator: ", ")
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
    case .missingFromSource:
      // Missing from the source's answer, or listed by it again.
      if case .text(let since) = new { return "not in the source's answer \(since); kept with its last data" }
      if case .text(let since) = old { return "listed by the source again (missing \(since))" }
      return "\(render(old)) → \(render(new))"
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

  /// A published text in quotes for the terminal, `(none)` when absent.
  static func quoted(_ text: String?) -> String { text.map { "\"\(DisplayText.oneLine($0))\"" } ?? "(none)" }

  /// A published text as inline code for Markdown, `(none)` when absent.
  static func code(_ text: String?) -> String {
    guard let text else { return "(none)" }
    let flat = DisplayText.oneLine(text).replacingOccurrences(of: "`", with: "'")
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
