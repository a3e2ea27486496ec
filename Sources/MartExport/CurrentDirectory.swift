import Foundation
import MartCore
import MartDigest
import MartFiles

/// `current/`: files at fixed paths for the bundle `latest.json` names, for calendar
/// subscriptions and apps that follow one store, whose addresses must outlive any one bundle:
///
/// ```
/// output/current/branches/<id>.json            one branch (CurrentBranchFile)
/// output/current/calendars/branches/<id>.ics   the branch's calendar, as in the bundle
/// output/current/calendars/brands/<slug>.ics   the brand's calendar, as in the bundle
/// ```
///
/// A file is rewritten (appearing whole, ``DurableFileBatch``) only when its bytes change, so
/// its modification time and HTTP validators say when it really changed. A branch that is no
/// longer listed keeps a final calendar and JSON saying so for as long as a kept bundle has it;
/// files of branches no kept bundle has are removed.
public struct CurrentDirectory: Sendable {
  public let outputDirectory: URL

  public init(outputDirectory: URL) {
    self.outputDirectory = outputDirectory
  }

  var currentURL: URL { OutputLayout(outputDirectory).current }

  /// What one file of `current/` should hold.
  public enum ExpectedFile: Sendable {
    /// These bytes.
    case bytes(Data)
    /// The bytes of this file of the bundle `latest.json` names (a calendar): `current/` takes
    /// it as a hard link where it can, so the file is neither read nor written again.
    case sameAs(bundleFile: String)

    /// The bytes themselves, read from the bundle when the file is one of its own.
    func contents() throws(FileError) -> Data {
      switch self {
      case .bytes(let data): data
      case .sameAs(let bundleFile): try PlainFiles.contentsOrError(of: bundleFile)
      }
    }
  }

  /// Says what each file `current/` should hold for the published bundles, one at a time, to
  /// `body` with its path relative to `current/` (each path once); returns `false` (and calls
  /// nothing) when nothing is published yet. One file at a time, so that memory does not grow
  /// with the branch count.
  /// - Parameter named: the bundle `latest.json` names, when the caller has it in memory
  ///   (just published); otherwise it is read from disk and verified.
  public func forEachExpectedFile(
    latest named: PublishedBundle? = nil, _ body: (String, ExpectedFile) throws(FileError) -> Void
  ) throws(FileError) -> Bool {
    let fromDisk: PublishedBundle? =
      if named == nil { try BundleStore(outputDirectory: outputDirectory).latest() } else { nil }
    guard let latest = named ?? fromDisk else { return false }
    func add(_ path: String, _ data: Data) throws(FileError) { try body(path, .bytes(data)) }
    func add(_ path: String, _ file: ExpectedFile) throws(FileError) { try body(path, file) }
    let bundlePrefix = latest.directory.path + "/"
    // The ids the bundle lists, made only when a kept bundle is read against them.
    var listedIDs: Set<BranchID>?
    func listedSet() -> Set<BranchID> {
      if let listedIDs { return listedIDs }
      let ids = Set(latest.branches.branches.map(\.id))
      listedIDs = ids
      return ids
    }
    // The branches' JSON as the publish wrote it, when it is in memory: framed, not encoded again.
    let encoded = latest.encodedBranches.flatMap { $0.count == latest.branches.branches.count ? $0 : nil }
    for (index, branch) in latest.branches.branches.enumerated() {
      try add(
        branch.id.path(prefix: "branches/", suffix: ".json"),
        try encode(
          CurrentBranchFile(window: latest.manifest.window, listed: true, branch: branch), branchJSON: encoded?[index]))
      let calendar = CalendarFilesKind.path(of: branch.id)
      try add(calendar, .sameAs(bundleFile: bundlePrefix + calendar))
    }
    for brand in Set(latest.branches.branches.map(\.brand)).sorted() {
      let calendar = CalendarFilesKind.path(of: brand)
      try add(calendar, .sameAs(bundleFile: bundlePrefix + calendar))
    }
    // Branches the kept bundles had that the current one does not: each one's last record.
    var lastSeen: [BranchID: (branch: Branch, manifest: BundleManifest, brandName: String)] = [:]
    for bundle in keptBundles(excluding: latest.directory.lastPathComponent, notListed: listedSet) {
      let names = Dictionary(bundle.manifest.brands.map { ($0.slug, $0.name) }, uniquingKeysWith: { first, _ in first })
      let listed = listedSet()
      for branch in bundle.branches() where !listed.contains(branch.id) {
        if let known = lastSeen[branch.id], known.manifest.asOf >= bundle.manifest.asOf { continue }
        lastSeen[branch.id] = (branch, bundle.manifest, names[branch.brand] ?? branch.brand.rawValue)
      }
    }
    for (id, last) in lastSeen.sorted(by: { $0.key < $1.key }) {
      try add(
        id.path(prefix: "branches/", suffix: ".json"),
        try encode(
          CurrentBranchFile(
            window: latest.manifest.window, listed: false, lastListedIn: last.manifest.version, branch: last.branch)))
      try add(
        CalendarFilesKind.path(of: id),
        ICalendar.unlistedBranchCalendar(
          last.branch, brandName: last.brandName, lastListedAsOf: last.manifest.asOf, asOf: latest.manifest.asOf))
    }
    return true
  }

  /// Brings `current/` in line with `latest.json`: writes the files whose bytes differ, each
  /// atomically, and removes the ones no longer expected. Does nothing before the first bundle.
  ///
  /// What stands in the way inside `current/` is removed first, so that one stray entry never
  /// holds the rest back: a folder (or a pipe, a device, a link) where a file of `current/`
  /// belongs, and anything but a folder where a folder of `current/` belongs. Only paths inside
  /// `current/` that it owns are removed, and each is listed in `repaired`. What cannot be
  /// removed (a mount point, a folder holding an immutable file) is listed in `blocked`, and
  /// the files it stands for are skipped: every other file is written all the same.
  /// - Parameter latest: the bundle `latest.json` names, when the caller has it in memory.
  /// - Returns: the relative paths written and removed, what was in the way and removed (a path
  ///   and what it was), and what is in the way and could not be removed (a sentence each,
  ///   naming the path and saying that it must be removed by hand).
  @discardableResult
  public func synchronize(latest: PublishedBundle? = nil) throws(FileError) -> (
    written: [String], removed: [String], repaired: [String], blocked: [String]
  ) {
    var written: [String] = []
    var repaired: [String] = []
    var blocked: [String] = []
    var blockedPaths = Set<String>()
    let root = currentURL.path
    let rootPrefix = root + "/"
    /// Removes what is at `relative` (inside `current/`) unless it is of `kind`; whether the
    /// path is free for it now.
    func clear(_ relative: String, unless kind: FileKind) -> Bool {
      let path = rootPrefix + relative
      guard let found = Files.kind(at: path), found != kind else { return true }
      if Files.remove(path) {
        repaired.append("\(OutputLayout.currentName)/\(relative): \(found) where \(kind) belongs, removed")
        return true
      }
      let reason = String(cString: strerror(errno))
      if blockedPaths.insert(relative).inserted {
        blocked.append(
          "\(OutputLayout.currentName)/\(relative): \(found) where \(kind) belongs, and it cannot be removed"
            + " (\(reason)); the files it stands for are not written until it is removed by hand")
      }
      return false
    }
    // Every changed file appears whole at its place once all are durable: never a file per
    // flush, never a name on bytes not flushed.
    let batch = DurableFileBatch(root: root)
    // One listing says which files are there: a file that is not needs no look before it is
    // written (on a first run, none does), and what is there but not expected goes.
    // What is there and not expected: the files there, each taken out once it is expected.
    var unexpected = Set(PlainFiles.regularFiles(under: root))
    // The folders of the files so far, and whether this pass made them (nothing then stands
    // in the way of a file in them, so no look is needed). A list: `current/` has three.
    var folders: [(path: String, made: Bool)] = []
    // The folders calendars are linked from and into, each opened once (the bundle's and
    // `current/`'s calendar folders: a list too).
    var openFolders: [(path: String, folder: OpenFolder?)] = []
    func openFolder(_ path: String) -> OpenFolder? {
      if let open = openFolders.first(where: { $0.path == path }) { return open.folder }
      let folder = OpenFolder(path)
      openFolders.append((path, folder))
      return folder
    }
    guard
      try forEachExpectedFile(
        latest: latest,
        { (relative, file) throws(FileError) in
          let path = rootPrefix + relative
          // (An empty set hashes nothing to say so; `remove` would hash the path first.)
          let isThere = !unexpected.isEmpty && unexpected.remove(relative) != nil
          if isThere, try Self.holds(path, file) { return }
          let folder = Files.parent(of: path)
          var madeFolder = false
          if let known = folders.first(where: { $0.path == folder }) {
            madeFolder = known.made
          } else {
            var parent = ""
            for component in relative.split(separator: "/").dropLast() {
              parent += parent.isEmpty ? String(component) : "/" + component
              guard clear(parent, unless: .directory) else { break }
            }
            if !blockedFolders(of: relative, blockedPaths) {
              // A link on the way (current/ or a folder in it) would send the files elsewhere.
              try Files.checkNothingForeign(below: outputDirectory.path, to: folder)
              madeFolder = Files.kind(at: folder) == nil
              try Files.createDirectory(folder)
            }
            folders.append((folder, madeFolder))
          }
          if blockedFolders(of: relative, blockedPaths) { return }
          if !isThere, !madeFolder, !clear(relative, unless: .regularFile) { return }
          written.append(relative)
          switch file {
          case .bytes(let data):
            try batch.add(path, with: data)
          case .sameAs(let bundleFile):
            // A calendar new to current/ is linked into place at once: a link appears whole,
            // and the bundle's file it names is already on disk.
            if !isThere, let source = openFolder(Files.parent(of: bundleFile)), let target = openFolder(folder),
              try target.hardLink(Files.name(of: bundleFile), in: source, as: Files.name(of: path))
            {
              return
            }
            try batch.add(path, sameAs: bundleFile)
          }
        })
    else { return ([], [], [], []) }
    try batch.finish()
    var removed: [String] = []
    for relative in unexpected.sorted() {
      // A file that stood where a folder now is was removed above; the folder stays.
      let path = root + "/" + relative
      if Files.kind(at: path) == .regularFile, Files.remove(path) { removed.append(relative) }
    }
    return (written, removed, repaired, blocked)
  }

  /// Whether a folder on the way to `relative` is among `blocked` (something that is not a
  /// folder and could not be removed).
  private func blockedFolders(of relative: String, _ blocked: Set<String>) -> Bool {
    guard !blocked.isEmpty else { return false }
    var parent = ""
    for component in relative.split(separator: "/").dropLast() {
      parent += parent.isEmpty ? String(component) : "/" + component
      if blocked.contains(parent) { return true }
    }
    return false
  }

  /// Whether the file at `path` already holds what `file` says: the bundle's own file (the same
  /// inode, nothing read), or the same bytes.
  private static func holds(_ path: String, _ file: ExpectedFile) throws(FileError) -> Bool {
    switch file {
    case .bytes(let data):
      return PlainFiles.contents(of: path) == data
    case .sameAs(let bundleFile):
      if PlainFiles.isSameFile(path, bundleFile) { return true }
      guard let existing = PlainFiles.contents(of: path) else { return false }
      return existing == (try file.contents())
    }
  }

  /// How `current/` differs from what `latest.json` calls for: one line per file missing,
  /// different or unexpected, sorted by path. Empty when it follows.
  public func mismatches() throws(FileError) -> [String] {
    let root = currentURL.path
    var problems: [(path: String, problem: String)] = []
    var expected = Set<String>()
    let published = try forEachExpectedFile { (path, file) throws(FileError) in
      expected.insert(path)
      guard let existing = PlainFiles.contents(of: root + "/" + path) else {
        problems.append((path, "missing"))
        return
      }
      if existing != (try file.contents()) { problems.append((path, "does not match the bundle latest.json names")) }
    }
    guard published else { return [] }
    for path in PlainFiles.regularFiles(under: root) where !expected.contains(path) {
      problems.append((path, "no kept bundle has this branch or brand"))
    }
    return problems.sorted { $0.path < $1.path }.map { "\(OutputLayout.currentName)/\($0.path): \($0.problem)" }
  }

  /// The bundles under `bundles/` but `excluded` that hold a branch `listed` does not, where they
  /// can be read, each with its manifest and a way to read its branches. `listed` is asked for
  /// only when there is such a bundle to read.
  ///
  /// A bundle's ids are read from its `index.json` (a sixth of `branches.json`); only a bundle
  /// that has a branch no longer listed has its `branches.json` read, so a run where no branch
  /// went away decodes no kept bundle's branches. Each file read is checked against the
  /// manifest's size and SHA-256 (verifying every file of every kept bundle on each run, with
  /// `--keep 30` at national scale, would cost more than the run).
  private func keptBundles(
    excluding excluded: String, notListed listed: () -> Set<BranchID>
  ) -> [(manifest: BundleManifest, branches: () -> [Branch])] {
    let bundles = OutputLayout(outputDirectory).bundles
    let names = PlainFiles.names(in: bundles.path)
    return names.filter { !$0.hasPrefix(".") && $0 != excluded }.sorted().compactMap { name in
      let directory = bundles.appendingPathComponent(name)
      guard
        let manifestData = PlainFiles.contents(of: directory.appendingPathComponent(OutputLayout.manifestName).path),
        let manifest = try? BundleJSON.decode(BundleManifest.self, from: manifestData)
      else { return nil }
      func verified(_ path: String) -> Data? {
        guard let entry = manifest.files.first(where: { $0.path == path }),
          let data = PlainFiles.contents(of: directory.appendingPathComponent(path).path),
          data.count == entry.bytes, SHA256.hex(data) == entry.sha256
        else { return nil }
        return data
      }
      func branches() -> [Branch] {
        verified(BranchesFileKind.name).flatMap { try? BundleJSON.decode(BranchesFile.self, from: $0) }?.branches ?? []
      }
      if let index = verified(IndexFileKind.name).flatMap({ try? BundleJSON.decode(IndexFile.self, from: $0) }) {
        let ids = listed()
        guard index.branches.contains(where: { !ids.contains($0.id) }) else { return nil }
        return (manifest, branches)
      }
      // No readable index: the branches say which ids the bundle has.
      let all = branches()
      guard !all.isEmpty else { return nil }
      return (manifest, { all })
    }
  }

  /// The file's bytes; `branchJSON`, when given, is its branch's JSON as the bundle holds it.
  private func encode(_ value: CurrentBranchFile, branchJSON: ArraySlice<UInt8>? = nil) throws(FileError) -> Data {
    var writer = CanonicalJSONWriter(capacity: 4096)
    do { try writer.currentBranch(value, branchJSON: branchJSON) } catch {
      throw FileError(.encode, path: currentURL.path, message: "encoding failed", cause: error)
    }
    writer.bytes.append(0x0A)
    return Data(writer.bytes)
  }

}

/// `current/branches/<id>.json`: one branch as the bundle `latest.json` names has it, or, for a
/// branch that bundle no longer lists, its last record with `listed` false. It carries no as-of
/// date (`latest.json` does), so that it changes only when what it says about the store does.
public struct CurrentBranchFile: Codable, Hashable, Sendable {
  public var schemaVersion: Int = bundleSchemaVersion
  public var window: DateWindow
  /// Whether that bundle lists the branch. `false`: the store is gone from its source (closed,
  /// renamed or dropped); `branch` is its last record, from `lastListedIn`.
  public var listed: Bool
  /// The newest kept bundle that listed the branch, when `listed` is false; `null` otherwise.
  public var lastListedIn: String?
  public var branch: Branch

  public init(window: DateWindow, listed: Bool, lastListedIn: String? = nil, branch: Branch) {
    self.window = window
    self.listed = listed
    self.lastListedIn = lastListedIn
    self.branch = branch
  }

  private enum CodingKeys: String, CodingKey { case schemaVersion, window, listed, lastListedIn, branch }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(schemaVersion, forKey: .schemaVersion)
    try container.encode(window, forKey: .window)
    try container.encode(listed, forKey: .listed)
    try container.encode(lastListedIn, forKey: .lastListedIn)
    try container.encode(branch, forKey: .branch)
  }
}
