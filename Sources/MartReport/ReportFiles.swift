import Foundation
import MartCore
import MartExport

/// Reads what a published output holds and writes its `report.html`: used by every run (after
/// `report.json`) and by `mart-holiday report`.
public enum ReportFiles {
  /// The page's file name beside `report.json`.
  public static let fileName = "report.html"

  /// Renders the page of an output directory: its `report.json`, the bundle its `latest.json`
  /// names and, to compare with, `previous` (an output or bundle directory) or else the bundle
  /// the report names as the previous one when it is still under `bundles/`.
  ///
  /// Throws when the output has neither `report.json` nor a bundle, when `report.json` cannot be
  /// read, when the bundle is damaged and there is no report to show instead, and when
  /// `previous` holds no valid bundle.
  public static func render(outputDirectory: URL, previous: URL? = nil) throws(FileError) -> String {
    let reportURL = outputDirectory.appendingPathComponent("report.json")
    let report =
      FileManager.default.fileExists(atPath: reportURL.path) ? try RunReportFile.read(reportURL) : nil
    let bundle: PublishedBundle?
    do {
      bundle = try BundleStore(outputDirectory: outputDirectory).latest()
    } catch {
      // A run over a damaged bundle still has its report to show.
      guard report != nil else { throw error }
      bundle = nil
    }
    guard report != nil || bundle != nil else {
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: outputDirectory.path, isDirectory: &isDirectory)
      throw FileError(
        path: outputDirectory.path,
        message: !exists
          ? "no such directory"
          : !isDirectory.boolValue
            ? "is a file, not a directory"
            : "not an output directory: neither report.json nor latest.json")
    }
    let earlier: PublishedBundle?
    if let previous {
      earlier = try BundleStore.readBundle(at: previous)
    } else if let version = report?.change?.previousVersion, version != bundle?.manifest.version,
      !version.contains("/")
    {
      earlier = try? BundleStore.readBundle(at: outputDirectory.appendingPathComponent("bundles/\(version)"))
    } else {
      earlier = nil
    }
    let diff = bundle.flatMap { new in earlier.map { BundleDiff(old: $0, new: new) } }
    return ReportPage.render(report: report, bundle: bundle, previous: earlier, diff: diff)
  }

  /// Renders the page of a run that has just written `report.json` in `outputDirectory`, from
  /// the bundles it holds in memory: `latest`, the bundle `latest.json` names, and `previous`,
  /// the one it named before the run (compared with when it differs). Writes it atomically to
  /// `report.html` there.
  /// - Returns: the file written.
  @discardableResult
  public static func write(
    outputDirectory: URL, latest: PublishedBundle, previous: PublishedBundle?
  ) throws(FileError) -> URL {
    let reportURL = outputDirectory.appendingPathComponent("report.json")
    let report =
      FileManager.default.fileExists(atPath: reportURL.path) ? try RunReportFile.read(reportURL) : nil
    let earlier = previous.flatMap { $0.manifest.version == latest.manifest.version ? nil : $0 }
    let diff = earlier.map { BundleDiff(old: $0, new: latest) }
    let html = ReportPage.render(report: report, bundle: latest, previous: earlier, diff: diff)
    let target = outputDirectory.appendingPathComponent(fileName)
    try BundleStore(outputDirectory: outputDirectory).writeFile(Data(html.utf8), named: fileName)
    return target
  }

  /// Renders the page of `outputDirectory` (see ``render(outputDirectory:previous:)``) and writes
  /// it atomically to `file`, by default `report.html` in the output directory.
  /// - Returns: the file written.
  @discardableResult
  public static func write(outputDirectory: URL, previous: URL? = nil, to file: URL? = nil) throws(FileError) -> URL {
    let target = file ?? outputDirectory.appendingPathComponent(fileName)
    let html = try render(outputDirectory: outputDirectory, previous: previous)
    try BundleStore(outputDirectory: target.deletingLastPathComponent())
      .writeFile(Data(html.utf8), named: target.lastPathComponent)
    return target
  }
}
