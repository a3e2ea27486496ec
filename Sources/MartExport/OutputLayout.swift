import Foundation
import MartCore
import MartFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one place that knows the names in an output directory: what is served (`latest.json`,
/// `bundles/<version>/`, `current/`, `report.json`, `report.html`), the temporary names a run
/// writes under before renaming (`bundles/.staging-…`, `bundles/.damaged-…`, and the hidden
/// `.<name>.<pid>` files of ``Files/replace(_:with:syncDirectory:)`` beside `latest.json`, the
/// reports and every file of `current/`), what an output of the old layout kept there, and how
/// the leftovers of killed runs and old bundles are removed.
///
/// ```
/// output/latest.json            the pointer: which bundle is current (LatestPointer)
/// output/bundles/<version>/     one bundle per version (see BundleContents)
/// output/current/               fixed paths that follow latest.json (see CurrentDirectory)
/// output/report.json            the last run's report
/// output/report.html            its page
/// ```
public struct OutputLayout: Sendable, Hashable {
  /// The output directory.
  public let root: URL

  public init(_ root: URL) { self.root = root }

  /// `latest.json`'s name.
  public static let latestName = "latest.json"
  /// The folder of bundles.
  public static let bundlesName = "bundles"
  /// The folder of fixed-path files.
  public static let currentName = "current"
  /// The run report's name.
  public static let reportName = "report.json"
  /// The run report's page's name.
  public static let reportPageName = "report.html"
  /// The name of a bundle's manifest, in the bundle's directory.
  public static let manifestName = ManifestFileKind.name

  /// `latest.json`.
  public var latest: URL { root.appendingPathComponent(Self.latestName) }
  /// `bundles/`.
  public var bundles: URL { root.appendingPathComponent(Self.bundlesName) }
  /// `current/`.
  public var current: URL { root.appendingPathComponent(Self.currentName) }
  /// `report.json`.
  public var report: URL { root.appendingPathComponent(Self.reportName) }
  /// `report.html`.
  public var reportPage: URL { root.appendingPathComponent(Self.reportPageName) }

  /// Where `latest.json` names a bundle of `version`: `bundles/<version>`.
  public static func bundlePath(version: String) -> String { "\(bundlesName)/\(version)" }

  /// The directory of the bundle of `version`.
  public func bundle(version: String) -> URL { root.appendingPathComponent(Self.bundlePath(version: version)) }

  /// The folders of the output a run creates or writes in, relative to it.
  public static let folders = [bundlesName, currentName]
  /// The files of the output a run replaces, relative to it.
  public static let files = [latestName, reportName, reportPageName]

  /// What stands where a run writes but is not a real folder or a regular file: a symbolic
  /// link, a device, a pipe or a socket as `bundles/`, `current/` or anything in it,
  /// `latest.json` or a report; each as its path relative to the output directory and what it
  /// is. A run would write through it (a link to a folder elsewhere) or replace it, so it
  /// refuses to start over any of them. (A bundle directory that is a link is a damaged
  /// bundle instead: it is never written through, only set aside.)
  public func foreignEntries() -> [(path: String, kind: FileKind)] {
    var found: [(path: String, kind: FileKind)] = []
    for name in Self.folders + Self.files {
      if let kind = Files.foreignKind(at: root.appendingPathComponent(name).path) { found.append((name, kind)) }
    }
    if !found.contains(where: { $0.path == Self.currentName }) {
      found += PlainFiles.foreignEntries(under: current.path).map { ("\(Self.currentName)/\($0.path)", $0.kind) }
    }
    return found
  }

  // MARK: latest.json

  /// The pointer `latest.json` holds: `nil` when there is none yet; an error naming the file
  /// when it cannot be read or is not a pointer. The one reader of `latest.json`.
  public func readLatest() throws(FileError) -> LatestPointer? {
    guard let data = latestBytes() else {
      guard !Files.exists(latest.path) else {
        throw FileError(.read, path: latest.path, message: "cannot read")
      }
      return nil
    }
    do { return try BundleJSON.decode(LatestPointer.self, from: data) } catch {
      throw FileError(.malformed, path: latest.path, message: "not a valid LatestPointer", cause: error)
    }
  }

  /// The bytes of `latest.json`, or `nil` when there is none or it cannot be read.
  func latestBytes() -> Data? { PlainFiles.contents(of: latest.path) }

  // MARK: Temporary names

  /// A new staging directory for a bundle of `asOf` whose version is not known yet:
  /// `bundles/.staging-<as-of>-<random>-<pid>`.
  func newStagingDirectory(asOf: CalendarDate) -> URL {
    bundles.appendingPathComponent(
      "\(Self.stagingPrefix)\(asOf.iso)-\(UInt32.random(in: 0...UInt32.max))-\(getpid())")
  }

  /// Where a damaged copy of the bundle `version` is set aside before it is removed.
  func damagedAside(version: String) -> URL {
    bundles.appendingPathComponent("\(Self.damagedPrefix)\(version)-\(getpid())")
  }

  static let stagingPrefix = ".staging-"
  static let damagedPrefix = ".damaged-"

  // MARK: Old layout

  /// Folders an output directory of the old layout held that now belong to the state directory.
  public static let formerPrivateFolders = ["cache", "raw"]
  /// Files an output directory of the old layout held that now belong to the state directory
  /// (the scheduled run's diff).
  public static let formerPrivateFiles = ["diff.txt", "diff.json", "diff.md"]
  /// Lock files an output directory of the old layout held; the lock now lives in the state
  /// directory.
  public static let formerLockFiles = [".mart-holiday.lock", ".scheduled-run.lock"]

  // MARK: Leftovers and pruning

  /// The hidden names runs leave behind when killed, relative to the output directory, sorted:
  /// in the output directory, a temporary of `latest.json` or a report (`.latest.json.<pid>`);
  /// in `bundles/` and at any depth in `current/`, every hidden name (staging and damaged
  /// bundles, temporary files, and anything else hidden: a run keeps nothing hidden there, and
  /// clients are served only what a bundle calls for). A hidden folder is one leftover. The one
  /// rule both `validate` (which reports them) and ``removeLeftovers(onlyOfEndedProcesses:includingCurrent:)``
  /// (which removes them) follow.
  public func leftovers(includingCurrent: Bool = true) -> [String] {
    var found: [String] = []
    for name in PlainFiles.names(in: root.path) where name.hasPrefix(".") {
      if Self.files.contains(where: { name.hasPrefix(".\($0).") }) { found.append(name) }
    }
    for name in PlainFiles.names(in: bundles.path) where name.hasPrefix(".") {
      found.append("\(Self.bundlesName)/\(name)")
    }
    if includingCurrent, Files.kind(at: current.path) == .directory {
      PlainFiles.walk(current.path) { relative, _ in
        // A hidden folder is one leftover: what it holds is not listed on its own.
        guard relative.split(separator: "/").last?.hasPrefix(".") == true else { return true }
        found.append("\(Self.currentName)/\(relative)")
        return false
      }
    }
    return found.sorted()
  }

  /// The process that wrote the leftover at `path` (the number its name ends with:
  /// `.staging-…-<pid>`, `.latest.json.<pid>`), when that process is still running. A name
  /// without one belongs to no process.
  public static func runningProcess(of path: String) -> Int32? {
    guard let process = path.split(whereSeparator: { "-./".contains($0) }).last.flatMap({ Int32($0) }), process > 0
    else { return nil }
    return kill(process, 0) == 0 || errno == EPERM ? process : nil
  }

  /// Removes the ``leftovers(includingCurrent:)`` of killed runs. None was ever published, so
  /// nothing refers to them.
  ///
  /// With `onlyOfEndedProcesses`, a leftover whose process is still running is kept (for a
  /// caller not holding the run lock); otherwise every one is removed (the caller holds the
  /// lock, so nothing else is writing them). `includingCurrent: false` leaves `current/` alone
  /// (a walk of its thousands of files).
  /// - Returns: the paths removed, relative to the output directory, sorted.
  @discardableResult
  public func removeLeftovers(onlyOfEndedProcesses: Bool = false, includingCurrent: Bool = true) -> [String] {
    leftovers(includingCurrent: includingCurrent).filter { relative in
      if onlyOfEndedProcesses, Self.runningProcess(of: relative) != nil { return false }
      return Files.remove(root.appendingPathComponent(relative).path)
    }
  }

  /// The names of the bundles under `bundles/` (real folders, not hidden), newest first: by
  /// modification time, equal times by name, as ``pruneBundles(keep:)`` orders them.
  public func keptBundles() -> [String] {
    Self.newestFirst(in: bundles).filter { Files.kind(at: bundles.appendingPathComponent($0).path) == .directory }
  }

  /// Keeps the newest `keep` bundles (by modification time), and the one `latest.json` names
  /// whatever its age; removes the rest.
  /// - Returns: the paths removed, relative to the output directory.
  @discardableResult
  public func pruneBundles(keep: Int) -> [String] {
    let current = (try? readLatest())?.map { ($0.bundle as NSString).lastPathComponent }
    return Self.prune(in: bundles, keep: keep, protecting: current).map { "\(Self.bundlesName)/\($0)" }
  }

  /// Keeps the newest `keep` folders directly in `parent` (by modification time; equal times by
  /// name, newest name first), and `protected`; removes the other folders, not hidden ones.
  /// - Returns: the names removed.
  public static func prune(in parent: URL, keep: Int, protecting protected: String?) -> [String] {
    let ordered = newestFirst(in: parent)
    var kept = Set(ordered.prefix(max(0, keep)))
    if let protected { kept.insert(protected) }
    var removed: [String] = []
    for name in ordered where !kept.contains(name) {
      if Files.remove(parent.appendingPathComponent(name).path) { removed.append(name) }
    }
    return removed
  }

  /// The folders directly in `parent` (reached through links too), not hidden ones, newest
  /// first: by modification time, equal times by name, newest name first.
  static func newestFirst(in parent: URL) -> [String] {
    PlainFiles.newestFirst(in: parent.path).filter { $0.kind == .directory }.map(\.name)
  }
}
