import Foundation
import MartCore
import MartExport
import MartFetch

extension RunReport {
  /// The human-readable end-of-run summary: the window, one line per brand, the fetch totals and
  /// what was published, with paths under `outputDirectory` as the user wrote it.
  public func summary(outputDirectory: String) -> String {
    var lines = ["as of \(asOf), closing dates \(window.from) … \(window.through)"]
    for brand in brands {
      let status = brand.status?.rawValue ?? brand.freshness.rawValue
      var line =
        "  \(brand.slug.rawValue.padding(toLength: 17, withPad: " ", startingAt: 0)) \(status.padding(toLength: 7, withPad: " ", startingAt: 0)) \(brand.branchCount) branches"
      if let error = brand.error { line += " — \(error)" }
      lines.append(line)
    }
    let total = fetch.total
    lines.append(
      "\(total.requests) requests (\(total.retries) retries, \(total.notModifiedReuses) not modified, \(total.failures) failed), \(ByteCount.text(total.bytes))"
    )
    if let published {
      lines.append("published \(outputDirectory)/\(published.bundle) (\(outputDirectory)/latest.json)")
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
