import CFileSync
import Foundation
import MartCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file open for writing: bytes are written whole (after short writes and `EINTR`), and
/// every failure names the file and carries the system's error number. Closed by ``close()``,
/// or when released.
public final class WritableFile {
  /// The file's path.
  public let path: String
  private(set) var descriptor: Int32

  /// Creates the file at `path`, or empties the one that is there. A symbolic link at `path`
  /// is not followed: the file is never written elsewhere through it.
  public init(creating path: String) throws(FileError) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else {
      if errno == ELOOP {
        throw FileError(.foreign, path: path, message: "cannot create: is a symbolic link, not followed")
      }
      throw Files.failure(.create, path, "cannot create")
    }
    self.path = path
    self.descriptor = fd
  }

  /// Creates a new file at `path`; fails with `EEXIST` when something is there already, so an
  /// existing file (which may have other names: a hard link) is never written in place.
  public convenience init(creatingNew path: String) throws(FileError) {
    try self.init(creatingNew: (AT_FDCWD, path), path: path)
  }

  /// ``init(creatingNew:)`` of `target.name` relative to the folder open as `target.folder` (or
  /// `AT_FDCWD`), called `path` in errors.
  init(creatingNew target: (folder: Int32, name: String), path: String) throws(FileError) {
    let fd = openat(target.folder, target.name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else { throw Files.failure(.create, path, "cannot create") }
    self.path = path
    self.descriptor = fd
  }

  /// Takes over `descriptor`, a file open for writing, known as `path` in errors.
  init(descriptor: Int32, path: String) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit {
    #if canImport(Glibc)
      if descriptor >= 0 { Glibc.close(descriptor) }
    #else
      if descriptor >= 0 { Darwin.close(descriptor) }
    #endif
  }

  /// Appends `bytes`.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) {
    guard bytes.count > 0 else { return }
    guard descriptor >= 0 else {
      throw FileError(.invalid, path: path, message: "write failed: already closed")
    }
    guard mart_write_all(descriptor, bytes.baseAddress, bytes.count) == 0 else {
      throw Files.failure(.write, path, "write failed")
    }
  }

  /// Appends `data`.
  public func write(_ data: some ContiguousBytes) throws(FileError) {
    var failure: FileError?
    data.withUnsafeBytes { buffer in
      do throws(FileError) { try write(buffer) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Cuts the file back to its first `length` bytes and writes on from there: what a write
  /// that failed half-way left after them is gone.
  public func cut(to length: Int) throws(FileError) {
    guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else {
      throw Files.failure(.write, path, "cannot cut back to \(length) bytes")
    }
  }

  /// Flushes what was written to disk (`fsync`).
  public func flush() throws(FileError) {
    guard fsync(descriptor) == 0 else { throw Files.failure(.flush, path, "fsync failed") }
  }

  /// Closes the file; a failure (a write the kernel could not complete) is thrown.
  public func close() throws(FileError) {
    guard descriptor >= 0 else { return }
    let fd = descriptor
    descriptor = -1
    #if canImport(Glibc)
      let closed = Glibc.close(fd)
    #else
      let closed = Darwin.close(fd)
    #endif
    guard closed == 0 else { throw Files.failure(.close, path, "close failed") }
  }
}
