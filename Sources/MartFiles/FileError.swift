import MartCore
import SystemPackage

/// Reading or writing a file failed: what was being done (``code``), which file or folder
/// (``path``), what went wrong (``message``) and why (``cause``: the system's error number when
/// a system call failed, or the error underneath). The one error of the disk: bundles,
/// `current/`, reports, recordings and archives all fail with it.
public struct FileError: LocatedError, Sendable {
  /// What was being done, or what was found, when reading or writing failed; compare with the
  /// static members (`error.code == .foreign`).
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    private enum Value: String, Sendable, Hashable {
      case open, read, create, write, close, flush, link, rename, encode, malformed, mismatch, foreign, noSpace, invalid
    }

    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// Opening a file or folder to read or flush it.
    public static let open = Code(.open)
    /// Reading a file's bytes: missing, unreadable, or too large.
    public static let read = Code(.read)
    /// Creating a file or folder.
    public static let create = Code(.create)
    /// Writing bytes to a file, or cutting it back.
    public static let write = Code(.write)
    /// Closing a file written.
    public static let close = Code(.close)
    /// Flushing a file, a folder or a filesystem to disk (`fsync`, `syncfs`).
    public static let flush = Code(.flush)
    /// Giving a file a second name (a hard link).
    public static let link = Code(.link)
    /// Renaming or moving a file into place.
    public static let rename = Code(.rename)
    /// Turning a value into bytes to write.
    public static let encode = Code(.encode)
    /// Bytes read that are not what they should be: malformed JSON, not a WARC file, not the
    /// kind of document expected.
    public static let malformed = Code(.malformed)
    /// Bytes that do not match what vouches for them: a size or SHA-256 of a manifest or a
    /// pointer, a second pass that made other bytes.
    public static let mismatch = Code(.mismatch)
    /// Something the pipeline did not write where it reads or writes: a symbolic link, a
    /// device, a pipe, a folder or file in the way, a path that leads outside, a file no
    /// manifest lists.
    public static let foreign = Code(.foreign)
    /// Not enough free disk space for what is to be written.
    public static let noSpace = Code(.noSpace)
    /// What was asked cannot be written: a name that cannot name a file, an empty dataset, a
    /// writer already finished.
    public static let invalid = Code(.invalid)

    /// The code's name: `read`, `foreign`, `noSpace`, …
    public var description: String { value.rawValue }
  }

  /// What was being done, or what was found.
  public var code: Code
  /// The file or folder concerned.
  public var path: FilePath
  /// What went wrong, in words, without the cause: the text after the path in ``description``.
  public var message: String
  /// Why: the system's error number (an `Errno`: `ENOSPC` for a full disk, `EACCES` for a
  /// permission problem) when a system call failed, the error underneath (a decoding error,
  /// another `FileError`), or `nil` when the content itself was at fault.
  public var cause: (any Error)?

  /// An error of kind `code` about `path`, for the reason `cause`.
  public init(_ code: Code, path: FilePath, message: String, cause: (any Error)? = nil) {
    self.code = code
    self.path = path
    self.message = message
    self.cause = cause
  }

  /// An error of kind `code` about the file or folder at `path`.
  public init(_ code: Code, path: String, message: String, cause: (any Error)? = nil) {
    self.init(code, path: FilePath(path), message: message, cause: cause)
  }

  /// The file or folder concerned, as text.
  public var location: String { path.string }

  /// The system's error number, the nearest found down the chain of causes; `nil` when no
  /// system call failed.
  public var errno: Errno? {
    causes.lazy.compactMap { $0 as? Errno }.first
  }

  /// Why, in the fewest words: the system's words for its error number (`Permission denied`)
  /// when a system call failed, else ``message``.
  public var reason: String { errno?.description ?? message }

  /// `<path>: <message>`, then `: <cause>` when there is one (`output/report.json: not written:
  /// write failed: No space left on device`).
  public var description: String { "\(location): \(messageWithCause)" }
}

extension FileError: Hashable {
  /// Two errors are one when they say the same of the same file, for the same system error.
  public static func == (lhs: FileError, rhs: FileError) -> Bool {
    lhs.code == rhs.code && lhs.path == rhs.path && lhs.messageWithCause == rhs.messageWithCause
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(path)
    hasher.combine(messageWithCause)
  }
}
