import Foundation
import MartCore
import MartExport
import MartFetch

extension RunReport {
  /// The human-readable end-of-run summary: the window, one line per brand with its branch
  /// count (and its change against the previous bundle), the fetch totals, whether the run made
  /// a new bundle (and how many of its files it wrote and how many it hard-linked to the previous
  /// bundle's) or found the same one already published, how many closing days changed, the
  /// warnings by kind, and what follows `latest.json` that could not be written, with paths
  /// under `outputDirectory` as the user wrote it.
  ///
  /// `changes` are the branches added, removed and changed against the previous bundle as
  /// `mart-holiday diff` counts them (``RunResult/changes``); without them the line names no count.
  public func summary(outputDirectory: String, changes: BundleDiff.BrandCounts? = nil) -> String {
    var lines = ["as of \(asOf), closing dates \(window.from) … \(window.through)"]
    for brand in brands {
      let status = brand.status?.rawValue ?? brand.freshness.rawValue
      var line =
        "  \(brand.slug.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)) \(status.padding(toLength: 7, withPad: " ", startingAt: 0)) \(DisplayText.branches(brand.branchCount))"
      if let count = change?.branchCounts[brand.slug.rawValue] {
        let delta = count.now - count.previous
        line += count.previous == 0 ? " (new)" : " (\(delta > 0 ? "+" : "")\(delta))"
      }
      if let error = brand.error { line += " — \(error)" }
      lines.append(line)
    }
    let total = fetch.total
    lines.append(
      "\(DisplayText.count(total.requests, "request")) (\(DisplayText.count(total.retries, "retry", plural: "retries")), \(total.notModifiedReuses) not modified, \(total.failures) failed), \(ByteCount.text(total.bytes))"
    )
    if !warnings.isEmpty {
      let byKind = Dictionary(grouping: warnings, by: \.kind.rawValue).mapValues(\.count)
      lines.append(
        "warnings: "
          + byKind.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { "\($0.value) \($0.key)" }
          .joined(separator: ", "))
    }
    if let published {
      let bundle = "\(outputDirectory)/\(published.bundle)"
      switch change?.bundle {
      case .unchanged:
        lines.append("unchanged: \(bundle) is already current (same content as before)")
      default:
        var line = "published new bundle \(bundle) (\(outputDirectory)/latest.json)"
        if let files = change?.files, files.written + files.linked > 0 {
          line +=
            ": \(DisplayText.count(files.written, "file")) written, \(files.linked) linked to the previous bundle's"
        }
        if let change, let previous = change.previousVersion, let changes {
          line +=
            changes == BundleDiff.BrandCounts()
            ? "; against \(previous): no branch changed"
            : "; against \(previous): branches "
              + DisplayText.counts(added: changes.added, removed: changes.removed, changed: changes.changed)
              + " (mart-holiday diff says which)"
        }
        lines.append(line)
      }
    }
    let unfinished = errors.filter(\.kind.isUnfinishedOutput)
    if !unfinished.isEmpty {
      lines.append(
        "unfinished: \(Set(unfinished.map { $0.kind == .current ? "current/" : "the report" }).sorted().joined(separator: " and ")) not written (see the errors);"
          + (unfinished.allSatisfy { $0.message.contains("removed by hand") }
            ? " what stands in the way must be removed by hand" : " the next run finishes the job"))
    }
    return lines.joined(separator: "\n")
  }
}

/// Byte counts for people: `512 B`, `12.3 KB`, `4.5 MB`.
public enum ByteCount {
  public static func text(_ bytes: Int) -> String {
    switch bytes {
    case ..<1024: "\(bytes) B"
    case ..<(1024 * 1024): String(format: "%.1f KB", Double(bytes) / 1024)
    default: String(format: "%.1f MB", Double(bytes) / 1024 / 1024)
    }
  }
}
