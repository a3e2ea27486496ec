import CFileSync
import Foundation
import MartCore
import SystemPackage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one owner of writing to disk: every file written, renamed, removed or flushed by the
/// pipeline (bundles, `current/`, reports, `latest.json`, recordings and archives) goes through
/// here, and every failure is a ``FileError`` naming the path and carrying the system's error
/// number (an `Errno`) as its cause, so that a full disk (`ENOSPC`) reads differently from a
/// permission problem (`EACCES`).
///
/// Durability is made in two steps: files are written without a flush each, and one barrier
/// (``makeDurable(root:files:directories:)``) then flushes them all — `syncfs` of the filesystem
/// where there is one (Linux), else an `fsync` of each file and then each directory, deepest
/// first — before anything is renamed into a place a reader looks.
public enum Files {
  /// Whether one `syncfs` flushes a whole folder of fresh files here (Linux).
  public static let hasFilesystemBarrier = mart_has_syncfs() != 0

  // MARK: Writing

  /// Writes `data` to a new file at `path` (replacing one that is there), flushed to disk when
  /// `flush`.
  public static func write(_ data: Data, to path: String, flush: Bool = false) throws(FileError) {
    let file = try WritableFile(creating: path)
    try file.write(data)
    if flush { try file.flush() }
    try file.close()
  }

  /// Creates a new file at `path` holding `data`, or, when `original` is a regular file holding
  /// exactly these bytes, a hard link to it: a second name of the same file, with no bytes
  /// written and no new inode. Where the link cannot be made (`original` on another filesystem,
  /// `EXDEV`; a filesystem or a file that refuses links, `EPERM`, `ENOTSUP`; too many links,
  /// `EMLINK`; anything else) the bytes are written instead, so only a failure to write is an
  /// error.
  ///
  /// `path` must not exist yet (`EEXIST` otherwise): a file that may be linked is never opened
  /// for writing again, since writing it in place would change every name it has. Files the
  /// pipeline replaces are replaced by a rename (``replace(_:with:syncDirectory:)``), which
  /// gives the name a new file and leaves the old one as it was.
  /// - Returns: whether `path` is a link to `original`.
  @discardableResult
  public static func create(_ path: String, with data: Data, linkingTo original: String?) throws(FileError) -> Bool {
    try create(path, in: nil, with: data, linkingTo: original)
  }

  /// ``create(_:with:linkingTo:)`` of the file `name` in `folder` (`nil`: `name` is its path).
  /// The file's path is made only for an error.
  @discardableResult
  public static func create(
    _ name: String, in folder: OpenFolder?, with data: Data, linkingTo original: String?
  ) throws(FileError) -> Bool {
    let target = folder?.descriptor ?? AT_FDCWD
    if let original, let identity = PlainFiles.identity(ofFileHolding: data, at: original) {
      if linkat(AT_FDCWD, original, target, name, 0) == 0 {
        // Linked by name: the file under that name must still be the one whose bytes were read.
        var status = stat()
        if fstatat(target, name, &status, AT_SYMLINK_NOFOLLOW) == 0, status.st_dev == identity.device,
          status.st_ino == identity.inode
        {
          return true
        }
        unlinkat(target, name, 0)
      } else if errno == EEXIST {
        throw failure(.create, folder?.path(of: name) ?? name, "cannot create")
      }
    }
    let file = try WritableFile(creatingNew: name, in: folder)
    try file.write(data)
    try file.close()
    return false
  }

  /// Gives the regular file at `source` a second name, `path` (a hard link: no bytes read or
  /// written, no new inode). Returns `false`, with nothing made, where no link can be made here
  /// (another filesystem, a filesystem or file that refuses links, too many links). Throws when
  /// `path` exists or `source` is not a regular file: a symbolic link is neither linked nor
  /// followed.
  public static func hardLink(_ source: String, to path: String) throws(FileError) -> Bool {
    try hardLink(from: (AT_FDCWD, source), source, to: (AT_FDCWD, path), path)
  }

  /// ``hardLink(_:to:)`` of `source.name` relative to the folder open as `source.folder` (or
  /// `AT_FDCWD`) to `destination.name` relative to `destination.folder`; `sourcePath` and
  /// `path` are what errors name.
  static func hardLink(
    from source: (folder: Int32, name: String), _ sourcePath: @autoclosure () -> String,
    to destination: (folder: Int32, name: String), _ path: @autoclosure () -> String
  ) throws(FileError) -> Bool {
    // The names lent as C strings in place (an implicit conversion copies each one).
    let linked = source.name.withCString { sourceName in
      destination.name.withCString { linkat(source.folder, sourceName, destination.folder, $0, 0) }
    }
    guard linked == 0 else {
      switch errno {
      case EXDEV, EPERM, ENOTSUP, EOPNOTSUPP, EMLINK: return false
      case let code:
        // The paths are made only now, for the message, and errno is read before.
        throw FileError(.link, path: path(), message: "cannot link to \(sourcePath())", cause: Errno(rawValue: code))
      }
    }
    var status = stat()
    if destination.name.withCString({ fstatat(destination.folder, $0, &status, AT_SYMLINK_NOFOLLOW) }) == 0,
      FileKind(mode: status.st_mode) == .regularFile
    {
      return true
    }
    unlinkat(destination.folder, destination.name, 0)
    throw FileError(.foreign, path: sourcePath(), message: "cannot link: not a regular file")
  }

  /// ``hardLink(_:to:)``, or, where no link can be made, a new file at `path` with a copy of
  /// `source`'s bytes.
  public static func linkOrCopy(_ source: String, to path: String) throws(FileError) {
    if try hardLink(source, to: path) { return }
    guard kind(at: source) == .regularFile, let data = PlainFiles.contents(of: source) else {
      throw FileError(.read, path: source, message: "cannot read: missing, not a regular file, or unreadable")
    }
    let file = try WritableFile(creatingNew: path)
    try file.write(data)
    try file.close()
  }

  /// Replaces the file at `path` with `data` atomically: written and flushed beside it under a
  /// hidden temporary name (``temporaryPath(beside:)``), then renamed over it; with
  /// `syncDirectory`, the folder's entry is flushed too, so the new file survives a crash.
  /// Creates the folder when missing.
  public static func replace(_ path: String, with data: Data, syncDirectory: Bool = false) throws(FileError) {
    let folder = parent(of: path)
    try createDirectory(folder)
    let temporary = temporaryPath(beside: path)
    do throws(FileError) {
      try write(data, to: temporary, flush: true)
      try rename(temporary, to: path)
    } catch {
      unlink(temporary)
      throw error.naming(path, insteadOf: temporary)
    }
    if syncDirectory { try self.syncDirectory(folder) }
  }

  /// The hidden name a file is written under beside `path` before it is renamed into place:
  /// `.<name>.<process id>` in the same folder. A kill leaves it behind; see ``isTemporaryName(_:of:)``.
  public static func temporaryPath(beside path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return ".\(path).\(getpid())" }
    return "\(path[...slash]).\(path[path.index(after: slash)...]).\(getpid())"
  }

  /// Whether `name` is a temporary name ``temporaryPath(beside:)`` gives (`.<name>.<pid>`), and
  /// of which file: the process id, or `nil`.
  public static func temporaryProcess(_ name: String) -> (file: String, process: Int32)? {
    guard name.hasPrefix("."), let dot = name.lastIndex(of: "."), dot != name.startIndex,
      let process = Int32(name[name.index(after: dot)...]), process > 0
    else { return nil }
    let file = name[name.index(after: name.startIndex)..<dot]
    guard !file.isEmpty else { return nil }
    return (String(file), process)
  }

  /// Creates the folder at `path` and any missing parents; an existing folder is fine.
  public static func createDirectory(_ path: String) throws(FileError) {
    if mkdir(path, 0o777) == 0 { return }
    let error = errno
    switch error {
    case EEXIST:
      if kind(at: path, followingLinks: true) == .directory { return }
      throw FileError(
        .foreign, path: path, message: "cannot create directory: a file is in the way", cause: Errno.notDirectory)
    case ENOENT where path.contains("/") && parent(of: path) != path:
      try createDirectory(parent(of: path))
      guard mkdir(path, 0o777) == 0 || errno == EEXIST else { throw failure(.create, path, "cannot create directory") }
    default:
      throw FileError(.create, path: path, message: "cannot create directory", cause: Errno(rawValue: error))
    }
  }

  /// Renames `source` to `destination` (one `rename(2)`: atomic on one filesystem). Only a
  /// regular file is ever renamed over: a symbolic link, a folder, a device, a pipe or a socket
  /// at `destination` is refused (``foreignKind(at:)``), so a file the pipeline writes never
  /// replaces something it did not write.
  public static func rename(_ source: String, to destination: String) throws(FileError) {
    if let kind = kind(at: destination), kind != .regularFile {
      throw FileError(
        .foreign, path: destination, message: "is \(kind), not a regular file: nothing is renamed over it")
    }
    #if canImport(Glibc)
      let renamed = Glibc.rename(source, destination)
    #else
      let renamed = Darwin.rename(source, destination)
    #endif
    guard renamed == 0 else { throw failure(.rename, destination, "rename from \(source) failed") }
  }

  /// Moves `source` to `destination`: a rename, or a copy and removal across filesystems.
  public static func move(_ source: String, to destination: String) throws(FileError) {
    do throws(FileError) { try rename(source, to: destination) } catch  where error.errno == .improperLink {
      do { try FileManager.default.moveItem(atPath: source, toPath: destination) } catch {
        throw FileError(
          .rename, path: destination, message: "move from \(source) failed: \(error.localizedDescription)")
      }
    }
  }

  /// Removes the file or folder (with all it holds) at `path`; `false` when nothing was removed.
  @discardableResult
  public static func remove(_ path: String) -> Bool {
    if unlink(path) == 0 { return true }
    guard errno == EISDIR || errno == EPERM else { return false }
    return (try? FileManager.default.removeItem(atPath: path)) != nil
  }

  // MARK: Flushing

  /// Makes files written under `root` durable with one barrier: `syncfs` of the filesystem
  /// holding `root` where there is one, else an `fsync` of each of `files` and then of each of
  /// `directories`, deepest first (so each folder's entry in its parent is flushed after its
  /// contents).
  public static func makeDurable(root: String, files: [String], directories: [String]) throws(FileError) {
    if hasFilesystemBarrier {
      try syncFilesystem(of: root)
      return
    }
    for file in files { try syncFile(file) }
    for directory in directories.sorted(by: { $0.count > $1.count }) { try syncDirectory(directory) }
  }

  /// Makes everything under `root` durable: ``makeDurable(root:files:directories:)`` of every
  /// file and folder below it (listed only where there is no filesystem barrier).
  public static func makeTreeDurable(_ root: String) throws(FileError) {
    if hasFilesystemBarrier {
      try syncFilesystem(of: root)
      return
    }
    var files: [String] = []
    var folders = [root]
    PlainFiles.walk(root) { relative, kind in
      switch kind {
      case .directory: folders.append(root + "/" + relative)
      case .regularFile: files.append(root + "/" + relative)
      case .symbolicLink, .device, .pipeOrSocket: break
      }
      return true
    }
    try makeDurable(root: root, files: files, directories: folders)
  }

  /// Flushes the file at `path` to disk (`fsync`).
  public static func syncFile(_ path: String) throws(FileError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw failure(.open, path, "cannot open") }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw failure(.flush, path, "fsync failed") }
  }

  /// Flushes the folder at `path` — its entries, such as a file just renamed into it (`fsync`).
  public static func syncDirectory(_ path: String) throws(FileError) {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw failure(.open, path, "cannot open directory") }
    defer { close(fd) }
    guard fsync(fd) == 0 else { throw failure(.flush, path, "fsync failed") }
  }

  /// Flushes every dirty file and folder of the filesystem holding `path` (`syncfs`).
  public static func syncFilesystem(of path: String) throws(FileError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw failure(.open, path, "cannot open") }
    defer { close(fd) }
    guard mart_syncfs(fd) == 0 else { throw failure(.flush, path, "syncfs failed") }
  }

  // MARK: What is there

  /// What is at `path` when it is neither missing, nor a regular file, nor a folder: a symbolic
  /// link, a device, a pipe or a socket (`lstat`: a link is never followed). Such a thing inside
  /// a tree the pipeline writes was not written by it, and nothing is written through it or
  /// over it.
  public static func foreignKind(at path: String) -> FileKind? {
    guard let kind = kind(at: path), kind.isForeign else { return nil }
    return kind
  }

  /// The bytes an unprivileged process may still write on the filesystem holding `path`
  /// (`statvfs`'s available blocks), or `nil` when it cannot be asked.
  public static func availableBytes(at path: String) -> Int64? {
    var stats = statvfs()
    guard statvfs(path, &stats) == 0 else { return nil }
    return Int64(stats.f_bavail) * Int64(stats.f_frsize)
  }

  /// What is at `path` (`lstat`: a symbolic link is said as one, never followed), or with
  /// `followingLinks` what it leads to (`stat`: where the operator may have put a link, such as
  /// a folder named by an option); `nil` when nothing is there, or a link leads nowhere. The one
  /// answer to "what is at this path" for every module.
  public static func kind(at path: String, followingLinks: Bool = false) -> FileKind? {
    var status = stat()
    guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
    return FileKind(mode: status.st_mode)
  }

  /// Whether anything is at `path`, a link followed (a link that leads nowhere is nothing).
  public static func exists(_ path: String) -> Bool { kind(at: path, followingLinks: true) != nil }

  /// What is at `path` (a link not followed) and its size in bytes, or an error naming it when
  /// nothing can be found there.
  public static func status(at path: String) throws(FileError) -> (kind: FileKind, size: Int) {
    var status = stat()
    guard lstat(path, &status) == 0 else { throw failure(.read, path, "cannot read") }
    return (FileKind(mode: status.st_mode), Int(status.st_size))
  }

  /// Throws when a component of `path` below `root` (`path` itself included) is not a real
  /// folder or file: a symbolic link, a device, a pipe or a socket. `root` itself may be reached
  /// through links (where the operator put it); below it, nothing is written through a link, so
  /// a link inside a tree the pipeline writes never sends a file outside it. Components that do
  /// not exist yet are fine.
  public static func checkNothingForeign(below root: String, to path: String) throws(FileError) {
    let prefix = root.hasSuffix("/") ? root : root + "/"
    guard path.hasPrefix(prefix) else { return }
    var current = String(prefix.dropLast())
    for component in path.dropFirst(prefix.count).split(separator: "/") {
      current += "/" + component
      guard let kind = kind(at: current) else { return }
      if kind.isForeign {
        throw FileError(
          .foreign,
          path: current, message: "is \(kind): nothing is written through it inside \(root)")
      }
    }
  }

  /// `path` with every symbolic link resolved, as an absolute path: the part that exists is
  /// resolved by `realpath(3)`, the rest (not created yet) appended with `.` and `..` applied.
  /// Two settings that name the same place through different links resolve to the same path.
  public static func realPath(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var existing = absolute
    var rest: [Substring] = []
    while true {
      if let resolved = realpath(existing, nil) {
        defer { free(resolved) }
        var components = String(cString: resolved).split(separator: "/")
        for component in rest.reversed() {
          switch component {
          case ".": continue
          case "..": _ = components.popLast()
          default: components.append(component)
          }
        }
        return "/" + components.joined(separator: "/")
      }
      guard let slash = existing.lastIndex(of: "/"), existing != "/" else { return absolute }
      rest.append(existing[existing.index(after: slash)...])
      existing = slash == existing.startIndex ? "/" : String(existing[..<slash])
    }
  }

  /// Whether `path` is `folder` or lies inside it, both given as ``realPath(_:)`` gives them.
  public static func isInside(_ path: String, _ folder: String) -> Bool {
    path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
  }

  /// A folder, its links resolved once, asked of many paths whether they lie inside it (a
  /// recording's exchanges, a bundle's files): what a foreign manifest or recording names must
  /// not lead outside the tree it came in.
  public struct ResolvedFolder: Sendable {
    /// The folder as given.
    public let path: String
    /// The folder with every link resolved (``Files/realPath(_:)``).
    public let resolved: String

    public init(_ path: String) {
      self.path = path
      resolved = Files.realPath(path)
    }

    /// Whether `path`, every link resolved, is the folder or lies inside it.
    public func contains(_ path: String) -> Bool {
      Files.isInside(Files.realPath(path), resolved)
    }
  }

  // MARK: Helpers

  /// The folder holding `path` (`.` for a bare name).
  public static func parent(of path: String) -> String {
    // By bytes: a slash is one byte, and the separator whatever follows it.
    path.withContiguousUTF8 { bytes in
      guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
      return slash == 0 ? "/" : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self)
    }
  }

  /// The last component of `path`, what follows its last slash (all of it for a bare name).
  public static func name(of path: String) -> String {
    path.withContiguousUTF8 { bytes in
      guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return path }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self)
    }
  }

  /// The error of a system call on `path` that just failed: `what`, caused by `errno`
  /// (`"<path>: <what>: <strerror(errno)>"`).
  public static func failure(_ code: FileError.Code, _ path: String, _ what: String) -> FileError {
    FileError(code, path: path, message: what, cause: Errno(rawValue: errno))
  }
}

extension FileError {
  /// Whether the disk (or the user's quota on it) was full: `ENOSPC` or `EDQUOT`.
  public var isOutOfSpace: Bool { errno == .noSpace || errno == .diskQuotaExceeded }

  /// This error told of `destination`, when it names the temporary file or folder `temporary`
  /// that `destination` was being written as and that is removed on failure: an error names
  /// only a path that is still there (`output/report.json: not written: write failed: No space
  /// left on device`), and what lay inside the temporary is said in the message.
  public func naming(_ destination: String, insteadOf temporary: String, saying what: String = "not written")
    -> FileError
  {
    let written = location
    guard written == temporary || written.hasPrefix(temporary + "/") else { return self }
    let inside = written == temporary ? "" : " (at \(written.dropFirst(temporary.count + 1)))"
    return FileError(code, path: destination, message: "\(what)\(inside): \(message)", cause: cause)
  }
}
