import Foundation
import MartCore
import MartFiles

/// Checks a published bundle the way a careful client would, and more: the pointer and the
/// manifest's digests and sizes, that every listed file is there and parses and nothing else
/// is, that ids are unique and well-formed, dates real and inside the window, coordinates
/// inside Korea, and that every derived file (`brands/`, `index.json`, `closures.json`, the
/// `.gz` copies and the calendars) agrees with `branches.json`.
///
/// The checks of the files are those of ``BundleFileKinds/all``, composed in order the way
/// ``BundleBuilder`` composes their exporters; this type finds the bundle, reads its manifest
/// and every listed file (``ManifestFileKind``), and checks what an output directory holds
/// beside it (leftovers of interrupted runs, `current/`).
public struct BundleValidator {
  /// An output directory (with `latest.json`) or a bundle directory (with `manifest.json`).
  public let directory: URL
  /// The independent source each brand's closing days come from (``DistrictDesignations``), as
  /// the run that made the bundle had it: `districts.json` is checked against the designations
  /// inferred again with it. A brand it does not name is a source of its own.
  public let sources: [BrandSlug: String]

  public init(directory: URL, sources: [BrandSlug: String] = [:]) {
    self.directory = directory
    self.sources = sources
  }

  /// What was checked, for a one-line summary.
  public struct Summary: Sendable {
    public var version: String
    public var branchCount: Int
    public var fileCount: Int
  }

  /// Every finding, in a stable order; empty when the bundle is valid.
  public func validate() -> (problems: [BundleFinding], summary: Summary?) {
    var inspection = BundleInspection(root: directory, sources: sources)
    let summary = Self.run(&inspection)
    return (inspection.findings, summary)
  }

  private static func run(_ inspection: inout BundleInspection) -> Summary? {
    let root = inspection.root
    // Where is the bundle?
    var bundlePrefix = ""
    var pointer: LatestPointer?
    switch BundleDirectory(root) {
    case .unusable(let reason):
      inspection.report(".", reason)
      return nil
    case .bundle:
      // A bundle named directly (`validate output/bundles/<v>`, with or without a trailing `/`
      // or `/.`) is a link when its own name is: a bundle holds only its own directory.
      if let name = ownName(of: root.path), Files.kind(at: name) == .symbolicLink {
        inspection.report(".", "is a symbolic link; a bundle holds only regular files and directories")
        return nil
      }
    case .output:
      guard let decoded = readPointer(&inspection) else { return nil }
      pointer = decoded
      bundlePrefix = decoded.bundle + "/"
    }

    guard let bundle = ManifestFileKind.read(prefix: bundlePrefix, pointer: pointer, &inspection) else { return nil }
    if pointer != nil { checkLeftovers(&inspection) }
    for required in BundleFileKinds.requiredPaths where !bundle.listed.contains(required) {
      inspection.report(bundle.manifestPath, "does not list \(required)")
    }
    guard let reference = BranchesFileKind.reference(bundle, &inspection) else { return nil }
    for kind in BundleFileKinds.all { kind.check(reference, &inspection) }

    // An output directory's current/ follows the bundle latest.json names.
    if pointer != nil, inspection.exists(OutputLayout.currentName) {
      do {
        for mismatch in try CurrentDirectory(outputDirectory: root).mismatches() {
          let (path, message) = mismatch.split(separator: ":", maxSplits: 1).map(String.init).splitPair
          inspection.report(path, message.trimmingCharacters(in: .whitespaces))
        }
      } catch {
        inspection.report(OutputLayout.currentName, "cannot be checked: \(error)")
      }
    }
    return Summary(
      version: bundle.manifest.version, branchCount: reference.branches.count, fileCount: bundle.listed.count + 1)
  }

  /// `latest.json`, checked: its schema version, and that it names a bundle inside the output
  /// directory, by its version. `nil` when there is no bundle to check.
  private static func readPointer(_ inspection: inout BundleInspection) -> LatestPointer? {
    let latest = OutputLayout.latestName
    guard let data = inspection.read(latest),
      let pointer = inspection.decode(LatestPointer.self, data, latest, as: latest)
    else { return nil }
    if pointer.schemaVersion != bundleSchemaVersion {
      inspection.report(latest, "schemaVersion \(pointer.schemaVersion) is not \(bundleSchemaVersion)")
    }
    guard BundleInspection.isSafe(pointer.bundle) else {
      inspection.report(latest, "bundle \"\(pointer.bundle)\" is not a path inside the output directory")
      return nil
    }
    if pointer.bundle != OutputLayout.bundlePath(version: pointer.version) {
      inspection.report(latest, "bundle \(pointer.bundle) does not match version \(pointer.version)")
    }
    return pointer
  }

  /// `path` without trailing `/` and `/.`, so that the last component is the directory's own
  /// name (which `lstat` then does not follow); nil when nothing is left of it.
  static func ownName(of path: String) -> String? {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") || path.hasSuffix("/.") {
      path = path.hasSuffix("/") ? path.dropLast() : path.dropLast(2)
    }
    return path.isEmpty || path == "." ? nil : String(path)
  }

  /// Hidden names an interrupted run left in the output directory, `bundles/` or `current/`
  /// (`OutputLayout.leftovers()`: a staging bundle, a half-written pointer or current file),
  /// and symbolic links in `current/`. A name whose process is still running belongs to a run
  /// in progress.
  private static func checkLeftovers(_ inspection: inout BundleInspection) {
    let root = inspection.root
    for path in OutputLayout(root).leftovers() where OutputLayout.runningProcess(of: path) == nil {
      inspection.report(path, "left by an interrupted run (a hidden temporary name); the next run removes it")
    }
    let current = OutputLayout.currentName
    if Files.kind(at: root.appendingPathComponent(current).path) == .directory {
      for entry in PlainFiles.foreignEntries(under: root.appendingPathComponent(current).path)
      where !entry.path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
        _ = inspection.followsNoLink("\(current)/\(entry.path)")
      }
    } else {
      _ = inspection.followsNoLink(current)
    }
  }
}

extension Array where Element == String {
  /// The first two elements, the second empty when missing.
  fileprivate var splitPair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
