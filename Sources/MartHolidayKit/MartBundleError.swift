/// Loading a bundle failed: what went wrong, and which file or URL it concerns.
public struct MartBundleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind of failure; compare with the static members (`error.code == .digestMismatch`).
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: String, Hashable, Sendable {
      case missingFile = "missing file"
      case unreadable = "unreadable"
      case malformed = "malformed"
      case unsupportedSchema = "unsupported schema"
      case digestMismatch = "digest mismatch"
      case sizeMismatch = "size mismatch"
      case unsafePath = "unsafe path"
      case httpStatus = "HTTP status"
      case network = "network"
    }

    private let value: Value
    private init(_ value: Value) { self.value = value }

    /// The file is not there (or the server answered 404).
    public static let missingFile = Code(.missingFile)
    /// The file exists but could not be read.
    public static let unreadable = Code(.unreadable)
    /// The file is not the JSON the bundle format describes.
    public static let malformed = Code(.malformed)
    /// `latest.json` names a schema version the kit does not understand.
    public static let unsupportedSchema = Code(.unsupportedSchema)
    /// The file's SHA-256 differs from the one `latest.json` or `manifest.json` gives.
    public static let digestMismatch = Code(.digestMismatch)
    /// The file's size differs from the one `manifest.json` gives.
    public static let sizeMismatch = Code(.sizeMismatch)
    /// A path in `latest.json` or `manifest.json` would leave the bundle (`..`, absolute).
    public static let unsafePath = Code(.unsafePath)
    /// The server answered with a status other than 200 (or 304 where one was asked for).
    public static let httpStatus = Code(.httpStatus)
    /// The request failed before an answer came (no connection, timeout).
    public static let network = Code(.network)

    /// A short name of the kind, e.g. `digest mismatch`.
    public var description: String { value.rawValue }
  }

  /// The kind of failure.
  public var code: Code
  /// The file path or URL concerned.
  public var location: String
  /// What went wrong, in words.
  public var message: String

  /// An error of kind `code` about `location`.
  public init(_ code: Code, location: String, message: String) {
    self.code = code
    self.location = location
    self.message = message
  }

  /// `<location>: <message>`.
  public var description: String { "\(location): \(message)" }
}
