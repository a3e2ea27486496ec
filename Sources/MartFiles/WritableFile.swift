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
  public var path: String { folder.map { $0.path(of: name) } ?? name }
  /// The folder the file was made in by its name, `name`; `nil`: `name` is its path. The path is
  /// made only when asked for (an error).
  private let folder: OpenFolder?
  private let name: String
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
    self.folder = nil
    self.name = path
    self.descriptor = fd
  }

  /// Creates a new file at `path`; fails with `EEXIST` when something is there already, so an
  /// existing file (which may have other names: a hard link) is never written in place.
  public convenience init(creatingNew path: String) throws(FileError) {
    try self.init(creatingNew: path, in: nil)
  }

  /// ``init(creatingNew:)`` of `name` in `folder` (`nil`: `name` is the path), the name lent to
  /// the system in place.
  init(creatingNew name: String, in folder: OpenFolder?) throws(FileError) {
    let fd = name.withCString {
      openat(folder?.descriptor ?? AT_FDCWD, $0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    }
    guard fd >= 0 else { throw Files.failure(.create, folder?.path(of: name) ?? name, "cannot create") }
    self.folder = folder
    self.name = name
    self.descriptor = fd
  }

  /// Takes over `descriptor`, a file open for writing, known as `path` in errors.
  init(descriptor: Int32, path: String) {
    self.folder = nil
    self.name = path
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
