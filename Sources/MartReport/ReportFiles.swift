import Foundation
import MartCore
import MartExport
import MartFiles

/// Reads what a published output holds and writes its `report.html`: used by every run (after
/// `report.json`) and by `mart-holiday report`.
public enum ReportFiles {
  /// Renders the page of an output directory: its `report.json`, the bundle its `latest.json`
  /// names and, to compare with, `previous` (an output or bundle directory) or else the bundle
  /// the report names as the previous one when it is still under `bundles/`. `sources` is each
  /// brand's source of closing days, for the designations of a bundle without `districts.json`
  /// (``BundleDiff/init(old:new:sources:)``).
  ///
  /// Throws when the output has neither `report.json` nor a bundle, when `report.json` cannot be
  /// read, when the bundle is damaged and there is no report to show instead, and when
  /// `previous` holds no valid bundle.
  public static func render(
    outputDirectory: URL, previous: URL? = nil, sources: [BrandSlug: String] = [:]
  ) throws(FileError) -> String {
    let layout = OutputLayout(outputDirectory)
    let report = Files.exists(layout.report.path) ? try RunReportFile.read(layout.report) : nil
    return try render(outputDirectory: outputDirectory, report: report, previous: previous, sources: sources)
  }

  /// Renders the page of an output directory with `report` as its run's report (see
  /// ``render(outputDirectory:previous:sources:)``).
  static func render(
    outputDirectory: URL, report: RunReportFile?, previous: URL? = nil, sources: [BrandSlug: String] = [:]
  ) throws(FileError) -> String {
    let layout = OutputLayout(outputDirectory)
    let bundle: PublishedBundle?
    do {
      bundle = try BundleStore(outputDirectory: outputDirectory).latest()
    } catch {
      // A run over a damaged bundle still has its report to show.
      guard report != nil else { throw error }
      bundle = nil
    }
    guard report != nil || bundle != nil else {
      let kind = Files.kind(at: outputDirectory.path, followingLinks: true)
      throw FileError(
        .read,
        path: outputDirectory.path,
        message: kind == nil
          ? "no such directory"
          : kind != .directory
            ? "is a file, not a directory"
            : "not an output directory: neither report.json nor latest.json")
    }
    let earlier: PublishedBundle?
    if let previous {
      earlier = try BundleStore.readBundle(at: previous)
    } else if let version = report?.change?.previousVersion, version != bundle?.manifest.version,
      !version.contains("/")
    {
      earlier = try? BundleStore.readBundle(at: layout.bundle(version: version))
    } else {
      earlier = nil
    }
    let diff = bundle.flatMap { new in earlier.map { BundleDiff(old: $0, new: new, sources: sources) } }
    return ReportPage.render(report: report, bundle: bundle, previous: earlier, diff: diff)
  }

  /// `report.json`'s bytes as the page reads them.
  public static func decodeReport(_ data: Data) throws(FileError) -> RunReportFile {
    try RunReportFile.decode(data, path: OutputLayout.reportName)
  }

  /// Renders the page of the run whose report is `report` in `outputDirectory`, from the bundles
  /// it holds in memory: `latest`, the bundle `latest.json` names, and `previous`, the one it
  /// named before the run (compared with when it differs, `sources` as in
  /// ``render(outputDirectory:previous:sources:)``). Writes it atomically to `report.html` there.
  /// - Returns: the file written.
  @discardableResult
  public static func write(
    outputDirectory: URL, report: RunReportFile, latest: PublishedBundle, previous: PublishedBundle?,
    sources: [BrandSlug: String] = [:]
  ) throws(FileError) -> URL {
    let earlier = previous.flatMap { $0.manifest.version == latest.manifest.version ? nil : $0 }
    let diff = earlier.map { BundleDiff(old: $0, new: latest, sources: sources) }
    let page = ReportPage(report: report, bundle: latest, previous: earlier, diff: diff).document()
    let target = OutputLayout(outputDirectory).reportPage
    try Files.replace(target.path, with: Data(page.bytes))
    return target
  }

  /// Renders the page of the run whose report is `report` in `outputDirectory`, reading the
  /// bundles from disk (see ``render(outputDirectory:previous:sources:)``), and writes it
  /// atomically to `report.html` there.
  /// - Returns: the file written.
  @discardableResult
  public static func write(
    outputDirectory: URL, report: RunReportFile, sources: [BrandSlug: String] = [:]
  ) throws(FileError) -> URL {
    let target = OutputLayout(outputDirectory).reportPage
    let html = try render(outputDirectory: outputDirectory, report: report, sources: sources)
    try Files.replace(target.path, with: Data(html.utf8))
    return target
  }

  /// Renders the page of `outputDirectory` (see ``render(outputDirectory:previous:sources:)``) and
  /// writes it atomically to `file`, by default `report.html` in the output directory.
  ///
  /// The page is written beside its target and renamed over it, which would replace a device, a
  /// directory or a symbolic link with a regular file (`--output /dev/full`): anything there that
  /// is not a regular file is refused before anything is read.
  /// - Returns: the file written.
  @discardableResult
  public static func write(
    outputDirectory: URL, previous: URL? = nil, to file: URL? = nil, sources: [BrandSlug: String] = [:]
  ) throws(FileError) -> URL {
    let target = file ?? OutputLayout(outputDirectory).reportPage
    if let kind = Files.kind(at: target.path), kind != .regularFile {
      throw FileError(
        .foreign,
        path: target.path,
        message: "is \(kind), not a regular file; the page is written only over a regular file or a new one")
    }
    let html = try render(outputDirectory: outputDirectory, previous: previous, sources: sources)
    try Files.replace(target.path, with: Data(html.utf8))
    return target
  }
}
