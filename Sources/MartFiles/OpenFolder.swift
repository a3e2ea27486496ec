import CFileSync
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A folder held open by a descriptor, for many files made, named and linked in it by their
/// names alone: the system then looks up one name per call instead of walking the folder's
/// whole path again (for the ten thousand files of a `current/` folder, about a tenth of their
/// system time). Closed when released.
public final class OpenFolder {
  /// The folder's path, as opened: what errors name.
  public let path: String
  let descriptor: Int32

  /// Opens the folder at `path` (links on the way followed, as opening a path follows them);
  /// `nil`, with `errno` set, when it is not a folder that can be opened.
  public init?(_ path: String) {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    self.path = path
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// The path of `name` in the folder, for messages.
  func path(of name: String) -> String { path + "/" + name }

  /// A new file with no name in the folder, open for writing and called `path` in errors:
  /// named by ``name(_:as:)``, gone when released without a name. `nil`, with `errno` set,
  /// where the folder cannot hold such a file.
  func unnamedFile(for path: String) -> WritableFile? {
    let file = mart_open_unnamed(descriptor)
    guard file >= 0 else { return nil }
    return WritableFile(descriptor: file, path: path)
  }

  /// Gives `file` (from ``unnamedFile(for:)``) the name `name` in the folder, which must be free;
  /// `false`, with `errno` set, when it cannot.
  func name(_ file: WritableFile, as name: String) -> Bool {
    name.withCString { mart_link_unnamed(file.descriptor, descriptor, $0) } == 0
  }

  /// Makes `name` in the folder a second name of the regular file `sourceName` in `source` (a
  /// hard link: no bytes read or written): ``Files/hardLink(_:to:)`` with both ends relative to
  /// their folders.
  public func hardLink(_ sourceName: String, in source: OpenFolder, as name: String) throws(FileError) -> Bool {
    try Files.hardLink(
      from: (source.descriptor, sourceName), source.path(of: sourceName), to: (descriptor, name), path(of: name))
  }
}
