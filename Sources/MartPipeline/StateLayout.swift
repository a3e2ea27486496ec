import Foundation
import MartCore
import MartExport
import MartFiles

/// The names in a state directory (what a run keeps that must not be served), and its chores:
/// moving what an output of the old layout kept there, removing unfinished archives, pruning
/// old ones.
///
/// ```
/// state/run.lock                      the run lock (a FileLock, taken by RunPlan.prepare())
/// state/cache/http-validators.sqlite  ETag / Last-Modified of each URL
/// state/cache/geocoding.sqlite        geocoders' answers
/// state/designations.sqlite           what the runs learned of the closing-day designations
/// state/cache/register.csv            the last good national register of large stores
/// state/raw/<as-of>-<HHmmss>.warc.gz  a run's raw archive (WARC); `.partial-…` while being
///                                     written, `….incomplete.warc.gz` when it cannot replay its run
/// state/raw/<as-of>-<HHmmss>/         an archive of an older version (a recording folder)
/// ```
struct StateLayout {
  /// The state directory.
  let root: URL

  init(_ root: URL) { self.root = root }

  /// The folders a run creates in it.
  static let folders = ["cache", "raw"]

  /// The run lock's file.
  var runLock: URL { root.appendingPathComponent(Self.runLockName) }
  /// The default validator store.
  var validatorStore: URL { root.appendingPathComponent(Self.validatorStoreName) }
  /// The default geocoding cache.
  var geocodingCache: URL { root.appendingPathComponent(Self.geocodingCacheName) }

  /// What the runs learned of the designations (`DesignationStore`): knowledge, not a cache.
  var designationStore: URL { root.appendingPathComponent(Self.designationStoreName) }

  /// The last good national register of large stores (``RegisterStage``).
  var lastGoodRegister: URL { root.appendingPathComponent(Self.lastGoodRegisterName) }

  static let runLockName = "run.lock"
  static let designationStoreName = "designations.sqlite"
  static let lastGoodRegisterName = "cache/register.csv"
  static let validatorStoreName = "cache/http-validators.sqlite"
  static let geocodingCacheName = "cache/geocoding.sqlite"
  /// The folder of raw archives.
  var archives: URL { root.appendingPathComponent("raw") }

  /// What stands where a run writes in the state directory but is not a real folder or a
  /// regular file (a symbolic link, a device, a pipe or a socket as `cache/`, `raw/`, the run
  /// lock or a cache file), each with its path relative to the state directory and what it is:
  /// a run would write the lock, the caches or the archive through it, so it refuses to start.
  func foreignEntries() -> [(path: String, kind: FileKind)] {
    let names =
      Self.folders + [Self.runLockName, Self.validatorStoreName, Self.geocodingCacheName, Self.designationStoreName]
    var found: [(path: String, kind: FileKind)] = []
    for name in names where !found.contains(where: { name.hasPrefix($0.path + "/") }) {
      if let kind = Files.foreignKind(at: root.appendingPathComponent(name).path) { found.append((name, kind)) }
    }
    return found
  }

  /// The name prefix of a raw archive still being written.
  static let partialArchivePrefix = ".partial-"

  /// The name ending of a raw archive (a WARC file of gzip members).
  static let archiveExtension = ".warc.gz"
  /// What ends the name of an archive that cannot replay its run (cancelled, or with responses
  /// that could not be written), before ``archiveExtension``.
  static let incompleteArchiveSuffix = ".incomplete"

  /// The raw archive of a run named `name` (`<as-of>-<HHmmss>`): where it is written, where it
  /// goes when finished, and where when it cannot replay its run.
  func archive(named name: String) -> (writing: URL, finished: URL, incomplete: URL) {
    (
      archives.appendingPathComponent(Self.partialArchivePrefix + name + Self.archiveExtension),
      archives.appendingPathComponent(name + Self.archiveExtension),
      archives.appendingPathComponent(name + Self.incompleteArchiveSuffix + Self.archiveExtension)
    )
  }

  /// Moves what an output directory of the old layout kept among the served files to the
  /// state directory: `cache/` and `raw/` entries the state directory does not have yet, and
  /// the scheduled run's `diff.*` files; removes the old lock files (the lock now lives in the
  /// state directory). Only called while holding the run lock. Returns what was moved or
  /// removed, relative to the output directory.
  func moveFromOldLayout(of output: URL) -> [String] {
    var moved: [String] = []
    for folder in OutputLayout.formerPrivateFolders {
      let old = output.appendingPathComponent(folder)
      guard Files.kind(at: old.path, followingLinks: true) == .directory else { continue }
      let new = root.appendingPathComponent(folder)
      try? Files.createDirectory(new.path)
      for name in PlainFiles.names(in: old.path)
      where !Files.exists(new.appendingPathComponent(name).path) {
        try? Files.move(old.appendingPathComponent(name).path, to: new.appendingPathComponent(name).path)
      }
      // What could not be moved (a name the state directory already had) is kept aside there.
      for name in PlainFiles.names(in: old.path) {
        let aside = new.appendingPathComponent("\(name).from-output")
        if !Files.exists(aside.path) {
          try? Files.move(old.appendingPathComponent(name).path, to: aside.path)
        }
      }
      if PlainFiles.names(in: old.path).isEmpty, Files.remove(old.path) { moved.append("\(folder)/") }
    }
    for name in OutputLayout.formerPrivateFiles where Files.exists(output.appendingPathComponent(name).path) {
      Files.remove(root.appendingPathComponent(name).path)
      if (try? Files.move(output.appendingPathComponent(name).path, to: root.appendingPathComponent(name).path)) != nil {
        moved.append(name)
      }
    }
    for name in OutputLayout.formerLockFiles where Files.exists(output.appendingPathComponent(name).path) {
      if Files.remove(output.appendingPathComponent(name).path) { moved.append(name) }
    }
    return moved
  }

  /// Removes raw archives that were never finished (their run was killed). Only called while
  /// holding the run lock. Returns the paths removed, relative to the state directory.
  func removeUnfinishedArchives() -> [String] {
    PlainFiles.names(in: archives.path).filter { $0.hasPrefix(Self.partialArchivePrefix) }.compactMap { name in
      Files.remove(archives.appendingPathComponent(name).path) ? "raw/\(name)" : nil
    }
  }

  /// Keeps the newest `keep` raw archives (by modification time, equal times by name, newest
  /// name first): WARC files, complete or not, and the folders of older versions; removes the
  /// rest. Hidden names are not archives (see ``removeUnfinishedArchives()``). Returns the paths
  /// removed, relative to the state directory.
  func pruneArchives(keep: Int) -> [String] {
    let archivesFirstNewest = PlainFiles.newestFirst(in: archives.path).filter {
      $0.kind == .directory || $0.name.hasSuffix(Self.archiveExtension)
    }
    return archivesFirstNewest.dropFirst(max(0, keep)).compactMap { name, _ in
      Files.remove(archives.appendingPathComponent(name).path) ? "raw/\(name)" : nil
    }
  }
}
