#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a path names, a symbolic link not followed (`lstat`): the one answer to "what is
/// there?" for every reader and writer of the disk. Its ``description`` is the phrase error
/// messages use (`… is a symbolic link, not a regular file`).
public enum FileKind: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case regularFile
  case directory
  case symbolicLink
  /// A character or block device.
  case device
  /// A named pipe (FIFO) or a socket.
  case pipeOrSocket

  /// The kind of a file type, `st_mode & S_IFMT`.
  init(mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .regularFile
    case S_IFDIR: self = .directory
    case S_IFLNK: self = .symbolicLink
    case S_IFCHR, S_IFBLK: self = .device
    default: self = .pipeOrSocket
    }
  }

  /// Whether a run may write in or over a thing of this kind: a regular file or a real folder.
  /// Anything else (a link, a device, a pipe, a socket) inside a tree the pipeline writes was not
  /// written by it, and nothing is written through it or over it.
  public var isForeign: Bool { self != .regularFile && self != .directory }

  /// The words for this kind in a message: `"a regular file"`, `"a directory"`, `"a symbolic
  /// link"`, `"a device"` or `"a pipe or a socket"`.
  public var description: String {
    switch self {
    case .regularFile: "a regular file"
    case .directory: "a directory"
    case .symbolicLink: "a symbolic link"
    case .device: "a device"
    case .pipeOrSocket: "a pipe or a socket"
    }
  }
}
