import CFileSync
import Foundation
import MartCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and listing plain files, the reading side of ``Files``: one system call where
/// Foundation makes several, for folders of thousands of small files (`current/`, a bundle's
/// calendars), where Foundation's per-file `stat`s and URL handling cost more than the bytes.
public enum PlainFiles {
  /// The bytes of the regular file at `path`; `nil` when there is none or it cannot be read.
  public static func contents(of path: String) -> Data? {
    // O_NONBLOCK: a pipe put where a file belongs answers at once instead of holding the open.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, FileKind(mode: status.st_mode) == .regularFile else { return nil }
    var data = Data(count: Int(status.st_size))
    var total = 0
    let complete = data.withUnsafeMutableBytes { buffer -> Bool in
      while total < buffer.count {
        let count = read(fd, buffer.baseAddress! + total, buffer.count - total)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return false }
        total += count
      }
      return true
    }
    // A file that shrank while being read is not the file that was there.
    return complete ? data : nil
  }

  /// Which file `path` names (its device and inode), when it is a regular file — not reached
  /// through a symbolic link — whose bytes are exactly `data`; `nil` otherwise.
  public static func identity(ofFileHolding data: Data, at path: String) -> (device: UInt64, inode: UInt64)? {
    var offset = 0
    let file = readPieces(of: path, pieceSize: min(data.count, 1 << 16) + 1) { piece in
      // More bytes than `data` has (the file grew) or other bytes: not the same file.
      guard offset + piece.count <= data.count else { return false }
      let same = data.withUnsafeBytes { memcmp($0.baseAddress! + offset, piece.baseAddress!, piece.count) == 0 }
      offset += piece.count
      return same
    }
    guard let file, offset == data.count else { return nil }
    return (file.device, file.inode)
  }

  /// Reads the regular file at `path` — not reached through a symbolic link — in pieces of at
  /// most `pieceSize` bytes, handing each to `body` in order until it answers `false`. The file's
  /// device, inode and the bytes read; `nil` when it is not a regular file, cannot be read, or
  /// `body` stopped.
  public static func readPieces(
    of path: String, pieceSize: Int, _ body: (UnsafeRawBufferPointer) -> Bool
  ) -> (device: UInt64, inode: UInt64, bytes: Int)? {
    // O_NONBLOCK: a pipe put where a file belongs answers at once instead of holding the open.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0, FileKind(mode: status.st_mode) == .regularFile else { return nil }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, pieceSize), alignment: 1)
    defer { buffer.deallocate() }
    var total = 0
    while true {
      let count = read(fd, buffer.baseAddress!, buffer.count)
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { break }
      guard body(UnsafeRawBufferPointer(rebasing: buffer[..<count])) else { return nil }
      total += count
    }
    return (UInt64(status.st_dev), UInt64(status.st_ino), total)
  }

  /// Whether `first` and `second` are names of one file (the same device and inode), neither
  /// reached through a symbolic link at its last component.
  public static func isSameFile(_ first: String, _ second: String) -> Bool {
    var one = stat()
    var other = stat()
    guard lstat(first, &one) == 0, lstat(second, &other) == 0 else { return false }
    return one.st_dev == other.st_dev && one.st_ino == other.st_ino
  }

  /// The bytes of the regular file at `path`, or an error naming it.
  public static func contentsOrError(of path: String) throws(FileError) -> Data {
    guard let data = contents(of: path) else {
      throw FileError(.read, path: path, message: "cannot read: missing, not a file, or unreadable")
    }
    return data
  }

  // MARK: Listing and walking

  /// The names in the folder at `directory` (hidden ones included, `.` and `..` left out), in
  /// the order the filesystem gives them; empty when it is missing or cannot be read. The one
  /// listing of a folder.
  public static func names(in directory: String) -> [String] {
    var names: [String] = []
    forEachEntry(in: directory) { name, _ in names.append(name) }
    return names
  }

  /// Visits every entry at any depth below `root` once — folders before what they hold — with
  /// its path relative to `root` (`calendars/brands/emart.ics`) and what it is (a symbolic link
  /// is reported as one, never followed). `visit` answers, for a folder, whether to go into it;
  /// for anything else its answer is not asked for. Nothing is visited when `root` is missing or
  /// cannot be read; a folder below it that cannot be read is passed over. The one walk of a tree.
  public static func walk(_ root: String, _ visit: (_ path: String, _ kind: FileKind) -> Bool) {
    var folders = [""]
    while let relative = folders.popLast() {
      forEachEntry(in: relative.isEmpty ? root : root + "/" + relative) { name, kind in
        let path = relative.isEmpty ? name : relative + "/" + name
        // The filesystem did not say what the entry is (`DT_UNKNOWN`): ask, a link not followed.
        guard let kind = kind ?? Files.kind(at: root + "/" + path) else { return }
        if visit(path, kind), kind == .directory { folders.append(path) }
      }
    }
  }

  /// Calls `body` with the name of each entry of the folder at `directory` (`.` and `..` left
  /// out) and what the directory entry says it is (`nil` where the filesystem does not say).
  private static func forEachEntry(in directory: String, _ body: (String, FileKind?) -> Void) {
    guard let stream = opendir(directory) else { return }
    defer { closedir(stream) }
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard name != ".", name != ".." else { continue }
      body(name, kind(ofEntryType: Int32(entry.pointee.d_type)))
    }
  }

  /// What a directory entry's type (`d_type`) says, or `nil` for `DT_UNKNOWN`.
  private static func kind(ofEntryType type: Int32) -> FileKind? {
    switch type {
    case Int32(DT_REG): .regularFile
    case Int32(DT_DIR): .directory
    case Int32(DT_LNK): .symbolicLink
    case Int32(DT_CHR), Int32(DT_BLK): .device
    case Int32(DT_FIFO), Int32(DT_SOCK): .pipeOrSocket
    default: nil
    }
  }

  /// Every regular file below `root`, as paths relative to it (`calendars/brands/emart.ics`),
  /// leaving out hidden names (temporary files); with `hidden`, the hidden regular files alone
  /// (in folders that are not hidden). A symbolic link to a regular file counts as the file; a
  /// link to a folder is not followed. Empty when `root` does not exist.
  public static func regularFiles(under root: String, hidden: Bool = false) -> [String] {
    var found: [String] = []
    walk(root) { path, kind in
      let isHidden = (path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...]).hasPrefix(".")
      switch kind {
      case .directory: return !isHidden
      case .regularFile: if isHidden == hidden { found.append(path) }
      case .symbolicLink:
        var status = stat()
        if isHidden == hidden, stat(root + "/" + path, &status) == 0, FileKind(mode: status.st_mode) == .regularFile {
          found.append(path)
        }
      case .device, .pipeOrSocket: break
      }
      return false
    }
    return found
  }

  /// The names directly in `folder`, hidden ones left out, with what each leads to (a symbolic
  /// link followed; a name that leads nowhere is left out), newest first: by modification time,
  /// equal times by name, newest name first. The one "newest first" of a folder's entries.
  public static func newestFirst(in folder: String) -> [(name: String, kind: FileKind)] {
    var entries: [(name: String, kind: FileKind, seconds: Int, nanoseconds: Int)] = []
    for name in names(in: folder) where !name.hasPrefix(".") {
      var status = stat()
      guard stat(folder + "/" + name, &status) == 0 else { continue }
      #if canImport(Darwin)
        let modified = status.st_mtimespec
      #else
        let modified = status.st_mtim
      #endif
      entries.append((name, FileKind(mode: status.st_mode), Int(modified.tv_sec), Int(modified.tv_nsec)))
    }
    return entries.sorted { ($0.seconds, $0.nanoseconds, $0.name) > ($1.seconds, $1.nanoseconds, $1.name) }
      .map { ($0.name, $0.kind) }
  }

  /// Every entry at any depth below `root` but folders, hidden names and the contents of
  /// hidden folders included, as its path relative to `root` and what it is (a regular file, a
  /// symbolic link — not followed —, a device, a pipe or a socket), sorted by path. Empty when
  /// `root` does not exist.
  public static func entries(under root: String) -> [(path: String, kind: FileKind)] {
    var found: [(path: String, kind: FileKind)] = []
    walk(root) { path, kind in
      if kind != .directory { found.append((path, kind)) }
      return true
    }
    return found.sorted { $0.path < $1.path }
  }

  /// The entries of ``entries(under:)`` that are not regular files: symbolic links, devices,
  /// pipes and sockets.
  public static func foreignEntries(under root: String) -> [(path: String, kind: FileKind)] {
    entries(under: root).filter { $0.kind != .regularFile }
  }
}
