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
  public static let files = [latestName, reportName]

  // MARK: latest.json

  /// The pointer `latest.json` holds: `nil` when there is none yet; an error naming the file
  /// when it cannot be read or is not a pointer. The one reader of `latest.json`.
  public func readLatest() throws(ExportError) -> LatestPointer? {
    guard let data = latestBytes() else {
      guard !FileManager.default.fileExists(atPath: latest.path) else {
        throw ExportError(path: latest.path, message: "cannot read")
      }
      return nil
    }
    do { return try BundleJSON.decode(LatestPointer.self, from: data) } catch {
      throw ExportError(path: latest.path, message: "not a valid LatestPointer: \(error)")
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

  /// Removes what runs that were killed left behind: bundle staging directories and damaged
  /// copies set aside under `bundles/`, and the hidden temporary files of `latest.json`, the
  /// reports and `current/`. None was ever published, so nothing refers to them.
  ///
  /// With `onlyOfEndedProcesses`, a leftover is removed only when the process that wrote it no
  /// longer exists (for a caller not holding the run lock); otherwise every one is (the caller
  /// holds the lock, so nothing else is writing them). `includingCurrent: false` leaves
  /// `current/` alone (a walk of its thousands of files).
  /// - Returns: the paths removed, relative to the output directory, sorted.
  @discardableResult
  public func removeLeftovers(onlyOfEndedProcesses: Bool = false, includingCurrent: Bool = true) -> [String] {
    func ended(_ process: Int32?) -> Bool {
      guard onlyOfEndedProcesses else { return true }
      guard let process, process != getpid() else { return false }
      return kill(process, 0) != 0 && errno == ESRCH
    }
    var removed: [String] = []
    func remove(_ relative: String) {
      if Files.remove(root.appendingPathComponent(relative).path) { removed.append(relative) }
    }
    for name in Self.contents(of: bundles)
    where name.hasPrefix(Self.stagingPrefix) || name.hasPrefix(Self.damagedPrefix) {
      if ended(name.split(separator: "-").last.flatMap { Int32($0) }) { remove("\(Self.bundlesName)/\(name)") }
    }
    for name in Self.contents(of: root) {
      guard let temporary = Files.temporaryProcess(name), Self.files.contains(temporary.file)
        || temporary.file == Self.reportPageName
      else { continue }
      if ended(temporary.process) { remove(name) }
    }
    // current/: a hidden temporary beside any of its files, at any depth.
    if includingCurrent {
      for relative in PlainFiles.regularFiles(under: current.path, hidden: true) {
        let name = String(relative[(relative.lastIndex(of: "/").map { relative.index(after: $0) } ?? relative.startIndex)...])
        if let temporary = Files.temporaryProcess(name), ended(temporary.process) {
          remove("\(Self.currentName)/\(relative)")
        }
      }
    }
    return removed.sorted()
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
    let entries = contents(of: parent).filter { !$0.hasPrefix(".") }.compactMap { name -> (String, Date)? in
      let url = parent.appendingPathComponent(name)
      guard let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .contentModificationDateKey]),
        values.isDirectory == true
      else { return nil }
      return (name, values.contentModificationDate ?? .distantPast)
    }
    let ordered = entries.sorted { ($0.1, $0.0) > ($1.1, $1.0) }.map(\.0)
    var kept = Set(ordered.prefix(max(0, keep)))
    if let protected { kept.insert(protected) }
    var removed: [String] = []
    for name in ordered where !kept.contains(name) {
      if Files.remove(parent.appendingPathComponent(name).path) { removed.append(name) }
    }
    return removed
  }

  static func contents(of directory: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
  }
}
