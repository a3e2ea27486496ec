import Foundation
import MartCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An exclusive lock held by one process at a time: an `flock` on a lock file that holds the
/// holder's process id, and optionally on a directory it guards as well, so that holders of
/// other lock files cannot take the directory either. The kernel drops an `flock` when its
/// process dies, so a lock file whose lock is free was left by a process that is gone, and is
/// taken over (``tookOverFromProcess``).
public final class FileLock {
  /// The lock file.
  public let path: String
  /// The process id the previous holder left in the lock file, when it was taken over.
  public let tookOverFromProcess: Int32?
  private var descriptor: Int32
  private var directoryDescriptor: Int32

  /// Takes the lock of `path` (created when missing, never through a symbolic link, so the
  /// process id is never written into a file elsewhere) and of `directory` when given, or
  /// throws saying which could not be opened or who holds it.
  public init(file path: String, guarding directory: String? = nil) throws(FileLockError) {
    self.path = path
    var directoryFD: Int32 = -1
    if let directory {
      directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      guard directoryFD >= 0 else { throw .cannotOpenDirectory(Files.failure(.open, directory, "cannot open")) }
    }
    while true {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
      guard fd >= 0 else {
        let failure = Files.failure(.create, path, "cannot create the lock file")
        if directoryFD >= 0 { close(directoryFD) }
        throw .cannotOpenFile(failure)
      }
      if flock(fd, LOCK_EX | LOCK_NB) != 0 {
        let holder = Self.readProcessID(fd)
        close(fd)
        if directoryFD >= 0 { close(directoryFD) }
        throw .held(file: path, byProcess: holder)
      }
      // The holder may have removed the file between our open and flock: lock the file that is there now.
      var opened = stat()
      var current = stat()
      guard fstat(fd, &opened) == 0, stat(path, &current) == 0, opened.st_ino == current.st_ino,
        opened.st_dev == current.st_dev
      else {
        close(fd)
        continue
      }
      if directoryFD >= 0, flock(directoryFD, LOCK_EX | LOCK_NB) != 0 {
        close(fd)
        close(directoryFD)
        throw .directoryHeld(directory ?? "")
      }
      tookOverFromProcess = Self.readProcessID(fd)
      let text = "\(getpid())\n"
      _ = ftruncate(fd, 0)
      _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
      descriptor = fd
      directoryDescriptor = directoryFD
      return
    }
  }

  /// Removes the lock file and releases the locks.
  public func release() {
    guard descriptor >= 0 else { return }
    unlink(path)
    close(descriptor)
    if directoryDescriptor >= 0 { close(directoryDescriptor) }
    descriptor = -1
    directoryDescriptor = -1
  }

  deinit { release() }

  private static func readProcessID(_ fd: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = pread(fd, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}

/// A ``FileLock`` could not be taken.
public enum FileLockError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The guarded directory could not be opened.
  case cannotOpenDirectory(FileError)
  /// The lock file could not be opened or created.
  case cannotOpenFile(FileError)
  /// Another process holds the lock file; its process id when it wrote one.
  case held(file: String, byProcess: Int32?)
  /// The guarded directory is held by a process with another lock file.
  case directoryHeld(String)

  public var description: String {
    switch self {
    case .cannotOpenDirectory(let error), .cannotOpenFile(let error): error.description
    case .held(let file, let process): "\(file) is held by process \(process.map(String.init) ?? "unknown")"
    case .directoryHeld(let directory): "\(directory) is held by a process with another lock file"
    }
  }
}

extension FileLockError: LocatedError {
  /// The lock file or the guarded directory.
  public var location: String {
    switch self {
    case .cannotOpenDirectory(let error), .cannotOpenFile(let error): error.location
    case .held(let file, _): file
    case .directoryHeld(let directory): directory
    }
  }

  /// What failed: the lock could not be opened, or another process holds it.
  public var message: String {
    switch self {
    case .cannotOpenDirectory, .cannotOpenFile: "the lock cannot be taken"
    case .held(_, let process): "is held by process \(process.map(String.init) ?? "unknown")"
    case .directoryHeld: "is held by a process with another lock file"
    }
  }

  /// The failure to open, when the lock could not be opened.
  public var cause: (any Error)? {
    switch self {
    case .cannotOpenDirectory(let error), .cannotOpenFile(let error): error
    case .held, .directoryHeld: nil
    }
  }
}
