import CFileSync
import Foundation
import MartCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files that appear whole under their names, and only once they are durable: the same promise
/// as writing each under a temporary name, flushing them all with one barrier and renaming them
/// into place, for less.
///
/// A new file is written to an unnamed file in its folder (`O_TMPFILE`); ``finish()`` makes the
/// batch durable with one barrier (``Files/makeDurable(root:files:directories:)``) and then
/// gives each its name (`linkat`): one directory entry made per file, where a temporary name and
/// a rename make two and remove one. Each folder is opened once (``OpenFolder``), and its files
/// are made and named relative to it. Every ``batchSize`` files the same is done early, so that
/// few files are open at once.
///
/// Where a name is taken (the file replaces one) the unnamed file is named at a hidden
/// temporary name beside it (``Files/temporaryPath(beside:)``) and renamed over it, which refuses
/// anything but a regular file there (``Files/rename(_:to:)``). Where a folder cannot hold
/// unnamed files (another system, a filesystem without `O_TMPFILE`) each file is written at its
/// temporary name from the start.
///
/// A reader never sees part of a file, and a crash never leaves a name on bytes that were not
/// flushed. Files not yet named when the batch ends early (an error, or the batch released
/// without ``finish()``) are discarded: unnamed ones vanish with their descriptors, temporaries
/// are removed.
public final class DurableFileBatch {
  /// A file written but not yet under its name.
  private struct Pending {
    /// Where the file belongs.
    var path: String
    /// The unnamed file, open, and the folder it is to be named in; `nil` when the bytes are at
    /// `temporary`.
    var unnamed: (file: WritableFile, folder: OpenFolder)?
    /// The hidden name the bytes are under, when not unnamed.
    var temporary: String?
  }

  /// The folder whose filesystem the barrier flushes: every file must be on it.
  public let root: String
  /// Files written before a barrier names them; each unnamed one holds a descriptor until then.
  public let batchSize: Int
  private var pending: [Pending] = []
  /// Folders that refused an unnamed file: written at a temporary name from then on.
  private var foldersWithoutUnnamedFiles: Set<String> = []
  /// The folders opened for unnamed files, by path.
  private var openFolders: [String: OpenFolder] = [:]
  /// The folder of the last unnamed file: files come folder by folder, and comparing a path is
  /// cheaper than hashing it.
  private var lastFolder: OpenFolder?

  /// Whether new files are written unnamed where the folder allows it; without, every file is
  /// written at its temporary name (what a system without `O_TMPFILE` does).
  let writesUnnamedFiles: Bool

  /// A batch of files below `root`.
  public convenience init(root: String, batchSize: Int = 256) {
    self.init(root: root, batchSize: batchSize, writesUnnamedFiles: true)
  }

  init(root: String, batchSize: Int, writesUnnamedFiles: Bool) {
    self.root = root
    self.batchSize = max(1, batchSize)
    self.writesUnnamedFiles = writesUnnamedFiles
  }

  deinit {
    for file in pending {
      if let temporary = file.temporary { unlink(temporary) }
    }
  }

  /// Writes `data` to appear at `path` (replacing the regular file there, if any) once the
  /// batch is durable. The folder must exist.
  public func add(_ path: String, with data: Data) throws(FileError) {
    let folderPath = Files.parent(of: path)
    // (An empty set hashes nothing to say so; `contains` would hash the path first.)
    if writesUnnamedFiles, foldersWithoutUnnamedFiles.isEmpty || !foldersWithoutUnnamedFiles.contains(folderPath) {
      let folder: OpenFolder
      if let lastFolder, lastFolder.path == folderPath {
        folder = lastFolder
      } else if let open = openFolders[folderPath] {
        folder = open
      } else {
        guard let open = OpenFolder(folderPath) else { throw Files.failure(.create, path, "cannot create") }
        openFolders[folderPath] = open
        folder = open
      }
      lastFolder = folder
      if let file = folder.unnamedFile(for: path) {
        do throws(FileError) { try file.write(data) } catch {
          // Only what is named is there: the unnamed file goes with its descriptor.
          throw FileError(error.code, path: path, message: "not written: \(error.message)", cause: error.cause)
        }
        try queue(Pending(path: path, unnamed: (file, folder)))
        return
      }
      guard [EOPNOTSUPP, ENOTSUP, EISDIR, EINVAL].contains(errno) else {
        throw Files.failure(.create, path, "cannot create")
      }
      foldersWithoutUnnamedFiles.insert(folderPath)
    }
    let temporary = Files.temporaryPath(beside: path)
    do throws(FileError) { try Files.write(data, to: temporary) } catch {
      unlink(temporary)
      throw error.naming(path, insteadOf: temporary)
    }
    try queue(Pending(path: path, temporary: temporary))
  }

  /// Makes `path` a name of the regular file `original` (a hard link: nothing read or
  /// written), or where no link can be made a copy of its bytes, once the batch is durable.
  public func add(_ path: String, sameAs original: String) throws(FileError) {
    let temporary = Files.temporaryPath(beside: path)
    do throws(FileError) { try Files.linkOrCopy(original, to: temporary) } catch {
      unlink(temporary)
      throw error.naming(path, insteadOf: temporary)
    }
    try queue(Pending(path: path, temporary: temporary))
  }

  /// Makes every file added so far durable and gives each its name.
  public func finish() throws(FileError) {
    guard !pending.isEmpty else { return }
    if Files.hasFilesystemBarrier {
      try Files.syncFilesystem(of: root)
    } else {
      for file in pending {
        if let unnamed = file.unnamed { try unnamed.file.flush() }
        if let temporary = file.temporary { try Files.syncFile(temporary) }
      }
    }
    // What was named leaves the batch, also when a later file fails.
    var named = 0
    defer { pending.removeFirst(named) }
    for file in pending {
      try name(file)
      named += 1
    }
  }

  private func queue(_ file: Pending) throws(FileError) {
    pending.append(file)
    if pending.count >= batchSize { try finish() }
  }

  private func name(_ file: Pending) throws(FileError) {
    if let (unnamed, folder) = file.unnamed {
      defer { try? unnamed.close() }
      if folder.name(unnamed, as: Files.name(of: file.path)) { return }
      guard errno == EEXIST else { throw Files.failure(.create, file.path, "cannot create") }
      // The name is taken: a temporary name first, then a rename over it.
      let temporary = Files.temporaryPath(beside: file.path)
      guard mart_link_unnamed(unnamed.descriptor, AT_FDCWD, temporary) == 0 else {
        throw Files.failure(.create, file.path, "cannot create \(temporary)")
      }
      try rename(temporary, to: file.path)
    } else if let temporary = file.temporary {
      try rename(temporary, to: file.path)
    }
  }

  private func rename(_ temporary: String, to path: String) throws(FileError) {
    do throws(FileError) { try Files.rename(temporary, to: path) } catch {
      unlink(temporary)
      throw error
    }
  }
}
