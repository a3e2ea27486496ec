/// Reading or writing a file failed: which file or folder, and why. The one error shape of
/// the on-disk formats (bundles, reports, recordings).
public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file or folder concerned.
  public var path: String
  public var message: String

  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { "\(path): \(message)" }
}
