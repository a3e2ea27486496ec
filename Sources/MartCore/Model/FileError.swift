/// Reading or writing a file failed: what was being done (``code``), which file or folder, why,
/// and the system's error number when a system call failed (``cause``). The one error of the
/// disk: bundles, `current/`, reports, recordings and archives all fail with it.
public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was being done, or what was found, when reading or writing failed.
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// Opening a file or folder to read or flush it.
    case open
    /// Reading a file's bytes: missing, unreadable, or too large.
    case read
    /// Creating a file or folder.
    case create
    /// Writing bytes to a file, or cutting it back.
    case write
    /// Closing a file written.
    case close
    /// Flushing a file, a folder or a filesystem to disk (`fsync`, `syncfs`).
    case flush
    /// Giving a file a second name (a hard link).
    case link
    /// Renaming or moving a file into place.
    case rename
    /// Turning a value into bytes to write.
    case encode
    /// Bytes read that are not what they should be: malformed JSON, not a WARC file, not the
    /// kind of document expected.
    case malformed
    /// Bytes that do not match what vouches for them: a size or SHA-256 of a manifest or a
    /// pointer, a second pass that made other bytes.
    case mismatch
    /// Something the pipeline did not write where it reads or writes: a symbolic link, a
    /// device, a pipe, a folder or file in the way, a path that leads outside, a file no
    /// manifest lists.
    case foreign
    /// Not enough free disk space for what is to be written.
    case noSpace
    /// What was asked cannot be written: a name that cannot name a file, an empty dataset, a
    /// writer already finished.
    case invalid
  }

  /// What was being done, or what was found.
  public var code: Code
  /// The file or folder concerned.
  public var path: String
  /// What went wrong, in words: the text after the path in ``description``.
  public var message: String
  /// The system's error number (`errno`) when a system call failed, e.g. `ENOSPC` for a full
  /// disk or `EACCES` for a permission problem; `nil` when the content was at fault.
  public var cause: Int32?

  public init(_ code: Code, path: String, message: String, cause: Int32? = nil) {
    self.code = code
    self.path = path
    self.message = message
    self.cause = cause
  }

  /// `<path>: <message>`.
  public var description: String { "\(path): \(message)" }
}
