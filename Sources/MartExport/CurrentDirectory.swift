import CFileSync
import Foundation
import MartCore
import MartDigest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `current/`: files at fixed paths for the bundle `latest.json` names, for calendar
/// subscriptions and apps that follow one store, whose addresses must outlive any one bundle:
///
/// ```
/// output/current/branches/<id>.json            one branch (CurrentBranchFile)
/// output/current/calendars/branches/<id>.ics   the branch's calendar, as in the bundle
/// output/current/calendars/brands/<slug>.ics   the brand's calendar, as in the bundle
/// ```
///
/// A file is rewritten (write, then rename over the old one) only when its bytes change, so
/// its modification time and HTTP validators say when it really changed. A branch that is no
/// longer listed keeps a final calendar and JSON saying so for as long as a kept bundle has it;
/// files of branches no kept bundle has are removed.
public struct CurrentDirectory: Sendable {
  public let outputDirectory: URL

  public init(outputDirectory: URL) {
    self.outputDirectory = outputDirectory
  }

  var currentURL: URL { outputDirectory.appendingPathComponent("current") }

  /// What `current/` should hold for the published bundles: relative path → bytes. `nil` when
  /// nothing is published yet.
  public func expectedFiles() throws(ExportError) -> [String: Data]? {
    let store = BundleStore(outputDirectory: outputDirectory)
    guard let latest = try store.latest() else { return nil }
    var files: [String: Data] = [:]
    let listed = Set(latest.branches.branches.map(\.id))
    for branch in latest.branches.branches {
      files["branches/\(branch.id).json"] = try encode(
        CurrentBranchFile(
          bundle: latest.manifest.version, asOf: latest.manifest.asOf, window: latest.manifest.window, listed: true,
          branch: branch))
      files["calendars/branches/\(branch.id).ics"] = try read(
        latest.directory.appendingPathComponent("calendars/branches/\(branch.id).ics"))
    }
    for brand in Set(latest.branches.branches.map(\.brand)) {
      files["calendars/brands/\(brand.rawValue).ics"] = try read(
        latest.directory.appendingPathComponent("calendars/brands/\(brand.rawValue).ics"))
    }
    // Branches the kept bundles had that the current one does not: each one's last record.
    var lastSeen: [BranchID: (branch: Branch, manifest: BundleManifest, brandName: String)] = [:]
    for bundle in keptBundles(excluding: latest.directory.lastPathComponent) {
      let names = Dictionary(bundle.manifest.brands.map { ($0.slug, $0.name) }, uniquingKeysWith: { first, _ in first })
      for branch in bundle.branches.branches where !listed.contains(branch.id) {
        if let known = lastSeen[branch.id], known.manifest.asOf >= bundle.manifest.asOf { continue }
        lastSeen[branch.id] = (branch, bundle.manifest, names[branch.brand] ?? branch.brand.rawValue)
      }
    }
    for (id, last) in lastSeen {
      files["branches/\(id).json"] = try encode(
        CurrentBranchFile(
          bundle: latest.manifest.version, asOf: latest.manifest.asOf, window: latest.manifest.window, listed: false,
          lastListedIn: last.manifest.version, branch: last.branch))
      files["calendars/branches/\(id).ics"] = ICalendar.unlistedBranchCalendar(
        last.branch, brandName: last.brandName, lastListedAsOf: last.manifest.asOf, asOf: latest.manifest.asOf)
    }
    return files
  }

  /// Brings `current/` in line with `latest.json`: writes the files whose bytes differ, each
  /// atomically, and removes the ones no longer expected. Does nothing before the first bundle.
  /// - Returns: the relative paths written and removed.
  @discardableResult
  public func synchronize() throws(ExportError) -> (written: [String], removed: [String]) {
    guard let expected = try expectedFiles() else { return ([], []) }
    var written: [String] = []
    // Every changed file is written beside its place first, all are made durable with one
    // barrier, and only then renamed into place: never a file per flush.
    var pending: [(url: URL, temporary: URL)] = []
    do throws(ExportError) {
      for (path, data) in expected.sorted(by: { $0.key < $1.key }) {
        let url = currentURL.appendingPathComponent(path)
        if let existing = try? Data(contentsOf: url), existing == data { continue }
        pending.append((url, try writeBeside(url, data)))
        written.append(path)
      }
      if !pending.isEmpty { try makeDurable(pending.map(\.temporary)) }
      for (index, file) in pending.enumerated() {
        guard rename(file.temporary.path, file.url.path) == 0 else {
          let reason = String(cString: strerror(errno))
          for left in pending[index...] { try? FileManager.default.removeItem(at: left.temporary) }
          throw ExportError(path: file.url.path, message: "rename failed: \(reason)")
        }
      }
    } catch {
      for file in pending { try? FileManager.default.removeItem(at: file.temporary) }
      throw error
    }
    var removed: [String] = []
    for path in existingFiles() where expected[path] == nil {
      if (try? FileManager.default.removeItem(at: currentURL.appendingPathComponent(path))) != nil {
        removed.append(path)
      }
    }
    return (written, removed)
  }

  /// How `current/` differs from what `latest.json` calls for: one line per file missing,
  /// different or unexpected. Empty when it follows.
  public func mismatches() throws(ExportError) -> [String] {
    guard let expected = try expectedFiles() else { return [] }
    var problems: [String] = []
    for (path, data) in expected.sorted(by: { $0.key < $1.key }) {
      guard let existing = try? Data(contentsOf: currentURL.appendingPathComponent(path)) else {
        problems.append("current/\(path): missing")
        continue
      }
      if existing != data { problems.append("current/\(path): does not match the bundle latest.json names") }
    }
    for path in existingFiles() where expected[path] == nil {
      problems.append("current/\(path): no kept bundle has this branch or brand")
    }
    return problems
  }

  /// The manifests and branches of the bundles under `bundles/` but `excluded`, where they can be read.
  ///
  /// Only each bundle's manifest and its `branches.json` are read, the latter checked against
  /// the manifest's size and SHA-256: with `--keep 30` at national scale, verifying every file
  /// of every kept bundle on each run would cost more than the run.
  private func keptBundles(excluding excluded: String) -> [(manifest: BundleManifest, branches: BranchesFile)] {
    let bundles = outputDirectory.appendingPathComponent("bundles")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: bundles.path)) ?? []
    return names.filter { !$0.hasPrefix(".") && $0 != excluded }.sorted().compactMap { name in
      let directory = bundles.appendingPathComponent(name)
      guard let manifestData = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")),
        let manifest = try? BundleJSON.decode(BundleManifest.self, from: manifestData),
        let entry = manifest.files.first(where: { $0.path == "branches.json" }),
        let data = try? Data(contentsOf: directory.appendingPathComponent("branches.json")),
        data.count == entry.bytes, SHA256.hex(data) == entry.sha256,
        let branches = try? BundleJSON.decode(BranchesFile.self, from: data)
      else { return nil }
      return (manifest, branches)
    }
  }

  /// Every regular file under `current/`, relative to it, leaving out temporary files.
  private func existingFiles() -> [String] {
    guard let enumerator = FileManager.default.enumerator(atPath: currentURL.path) else { return [] }
    var paths: [String] = []
    while let path = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      guard
        FileManager.default.fileExists(atPath: currentURL.appendingPathComponent(path).path, isDirectory: &isDirectory),
        !isDirectory.boolValue, !(path as NSString).lastPathComponent.hasPrefix(".")
      else { continue }
      paths.append(path)
    }
    return paths
  }

  private func encode(_ value: CurrentBranchFile) throws(ExportError) -> Data {
    var writer = CanonicalJSONWriter(capacity: 4096)
    do { try writer.currentBranch(value) } catch {
      throw ExportError(path: currentURL.path, message: "encoding failed: \(error)")
    }
    writer.bytes.append(0x0A)
    return Data(writer.bytes)
  }

  private func read(_ url: URL) throws(ExportError) -> Data {
    do { return try Data(contentsOf: url) } catch {
      throw ExportError(path: url.path, message: "cannot read: \(error.localizedDescription)")
    }
  }

  /// Writes `data` to a hidden temporary file beside `url`, without flushing it; returns it.
  private func writeBeside(_ url: URL, _ data: Data) throws(ExportError) -> URL {
    let folder = url.deletingLastPathComponent()
    do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
      throw ExportError(path: folder.path, message: "cannot create directory: \(error.localizedDescription)")
    }
    let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid())")
    let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw ExportError(path: temporary.path, message: "cannot write: \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    guard data.withUnsafeBytes({ mart_write_all(fd, $0.baseAddress, $0.count) }) == 0 else {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw ExportError(path: temporary.path, message: "cannot write: \(reason)")
    }
    return temporary
  }

  /// Flushes `files` to disk: one `syncfs` where there is one, else each file.
  private func makeDurable(_ files: [URL]) throws(ExportError) {
    let targets = BundleStore.hasFilesystemBarrier ? [currentURL] : files
    for url in targets {
      let fd = open(url.path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        throw ExportError(path: url.path, message: "cannot open: \(String(cString: strerror(errno)))")
      }
      defer { close(fd) }
      let status = BundleStore.hasFilesystemBarrier ? mart_syncfs(fd) : fsync(fd)
      guard status == 0 else {
        throw ExportError(path: url.path, message: "cannot flush: \(String(cString: strerror(errno)))")
      }
    }
  }

}

/// `current/branches/<id>.json`: one branch as the bundle `latest.json` names has it, or, for a
/// branch that bundle no longer lists, its last record with `listed` false.
public struct CurrentBranchFile: Codable, Hashable, Sendable {
  public var schemaVersion: Int = bundleSchemaVersion
  /// The bundle `latest.json` names.
  public var bundle: String
  public var asOf: CalendarDate
  public var window: DateWindow
  /// Whether that bundle lists the branch. `false`: the store is gone from its source (closed,
  /// renamed or dropped); `branch` is its last record, from `lastListedIn`.
  public var listed: Bool
  /// The newest kept bundle that listed the branch, when `listed` is false; `null` otherwise.
  public var lastListedIn: String?
  public var branch: Branch

  public init(
    bundle: String, asOf: CalendarDate, window: DateWindow, listed: Bool, lastListedIn: String? = nil, branch: Branch
  ) {
    self.bundle = bundle
    self.asOf = asOf
    self.window = window
    self.listed = listed
    self.lastListedIn = lastListedIn
    self.branch = branch
  }

  private enum CodingKeys: String, CodingKey { case schemaVersion, bundle, asOf, window, listed, lastListedIn, branch }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(bundle, forKey: .bundle)
    try container.encode(asOf, forKey: .asOf)
    try container.encode(window, forKey: .window)
    try container.encode(listed, forKey: .listed)
    try container.encode(lastListedIn, forKey: .lastListedIn)
    try container.encode(branch, forKey: .branch)
  }
}
