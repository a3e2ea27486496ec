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
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
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
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
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
      throw FileError(path: path, message: "cannot read: missing, not a file, or unreadable")
    }
    return data
  }

  /// Every regular file below `root`, as paths relative to it (`calendars/brands/emart.ics`),
  /// leaving out hidden names (temporary files); with `hidden`, the hidden regular files alone
  /// (in folders that are not hidden). Empty when `root` does not exist.
  public static func regularFiles(under root: String, hidden: Bool = false) -> [String] {
    var found: [String] = []
    var folders = [""]
    while let relative = folders.popLast() {
      guard let directory = opendir(relative.isEmpty ? root : root + "/" + relative) else { continue }
      defer { closedir(directory) }
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        guard name != ".", name != ".." else { continue }
        let isHidden = name.hasPrefix(".")
        let path = relative.isEmpty ? name : relative + "/" + name
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_DIR): if !isHidden { folders.append(path) }
        case Int32(DT_REG): if isHidden == hidden { found.append(path) }
        default:
          // The filesystem did not say (DT_UNKNOWN), or a link: a link to a file counts as
          // the file, a link to a folder is not followed.
          var status = stat()
          guard lstat(root + "/" + path, &status) == 0 else { continue }
          switch status.st_mode & S_IFMT {
          case S_IFDIR: if !isHidden { folders.append(path) }
          case S_IFREG: if isHidden == hidden { found.append(path) }
          case S_IFLNK:
            if isHidden == hidden, stat(root + "/" + path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
              found.append(path)
            }
          default: break
          }
        }
      }
    }
    return found
  }

  /// Every entry at any depth below `root` but folders, hidden names and the contents of
  /// hidden folders included, as its path relative to `root` and what it is
  /// (``Files/kind(at:)``: a regular file, a symbolic link — not followed —, a device, a pipe or
  /// a socket), sorted by path. Empty when `root` does not exist.
  public static func entries(under root: String) -> [(path: String, kind: String)] {
    var found: [(path: String, kind: String)] = []
    var folders = [""]
    while let relative = folders.popLast() {
      guard let directory = opendir(relative.isEmpty ? root : root + "/" + relative) else { continue }
      defer { closedir(directory) }
      while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        guard name != ".", name != ".." else { continue }
        let path = relative.isEmpty ? name : relative + "/" + name
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_DIR): folders.append(path)
        case Int32(DT_REG): found.append((path, Files.regularFileKind))
        default:
          // A link, something else, or a filesystem that did not say (DT_UNKNOWN).
          guard let kind = Files.kind(at: root + "/" + path) else { continue }
          if kind == Files.directoryKind { folders.append(path) } else { found.append((path, kind)) }
        }
      }
    }
    return found.sorted { $0.path < $1.path }
  }

  /// The entries of ``entries(under:)`` that are not regular files: symbolic links, devices,
  /// pipes and sockets.
  public static func foreignEntries(under root: String) -> [(path: String, kind: String)] {
    entries(under: root).filter { $0.kind != Files.regularFileKind }
  }
}
