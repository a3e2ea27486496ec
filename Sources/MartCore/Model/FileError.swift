/// Reading or writing a file failed: which file or folder, and why. The one error shape of
/// the on-disk formats (bundles, reports, recordings).
public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file or folder concerned.
  public var path: String
  public var message: String
  /// The system's error number (`errno`) when a system call failed, e.g. `ENOSPC` for a full
  /// disk or `EACCES` for a permission problem; `nil` when the content was at fault.
  public var errorNumber: Int32?

  public init(path: String, message: String, errorNumber: Int32? = nil) {
    self.path = path
    self.message = message
    self.errorNumber = errorNumber
  }

  public var description: String { "\(path): \(message)" }
}
