import COpenSSLCrypto
import Foundation
import MartCore

/// The certificate authorities an HTTPS server's certificate is checked against.
///
/// A run trusts libcurl's system bundle unless the operator names other authorities, for a
/// mirror with a private CA or a company proxy that inspects TLS. `resolve(option:environment:)`
/// follows the order curl and OpenSSL tools use: the command line's option, then
/// `CURL_CA_BUNDLE`, then `SSL_CERT_FILE` (a PEM file each), then `SSL_CERT_DIR` (a directory
/// prepared with `openssl rehash`), then the system bundle. A named file replaces the system
/// bundle; it does not add to it.
///
/// Whatever the source, the authorities are loaded once per client and shared by every
/// connection (see `CurlHTTPClient`).
public enum TrustedCertificates: Sendable, Hashable, CustomStringConvertible {
  /// libcurl's built-in bundle (`/etc/ssl/certs/ca-certificates.crt` on Debian).
  case system
  /// A PEM file of one or more certificates; `namedBy` is the option or variable that named it.
  case bundle(path: String, namedBy: String)
  /// A directory of hashed PEM certificates; `namedBy` is the variable that named it.
  case directory(path: String, namedBy: String)

  /// The environment variables read, in order, when no option names a bundle.
  public static let environmentVariables = ["CURL_CA_BUNDLE", "SSL_CERT_FILE", "SSL_CERT_DIR"]

  /// The authorities `option` (the value of the command line's option, named `optionName` in
  /// errors and logs) or else `environment` names, checked so that a wrong name fails here,
  /// before any request, rather than as a TLS error per host. An empty variable counts as unset.
  public static func resolve(
    option: String?, optionName: String, environment: [String: String]
  ) throws(TrustedCertificatesError) -> TrustedCertificates {
    if let option {
      return try checkedBundle(path: option, namedBy: optionName)
    }
    for name in environmentVariables {
      guard let value = environment[name], !value.isEmpty else { continue }
      if name == "SSL_CERT_DIR" { return try checkedDirectory(path: value, namedBy: name) }
      return try checkedBundle(path: value, namedBy: name)
    }
    return .system
  }

  /// The PEM file the authorities are read from: the named bundle, or libcurl's system bundle
  /// (nil when libcurl names none); nil for a directory.
  var file: String? {
    switch self {
    case .system: systemCertificateBundle
    case .bundle(let path, _): path
    case .directory: nil
    }
  }

  /// Where the authorities came from, for logs and errors: the system's, or `<option> /path`.
  public var description: String {
    switch self {
    case .system: "the system's certificate authorities"
    case .bundle(let path, let name), .directory(let path, let name): "\(name) \(path)"
    }
  }

  private static func checkedBundle(
    path: String, namedBy name: String
  ) throws(TrustedCertificatesError) -> TrustedCertificates {
    guard !path.isEmpty else { throw TrustedCertificatesError(setting: name, path: path, problem: "is empty") }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw TrustedCertificatesError(setting: name, path: path, problem: "does not exist")
    }
    guard !isDirectory.boolValue else {
      throw TrustedCertificatesError(
        setting: name, path: path, problem: "is a directory, not a PEM file of certificates")
    }
    // A FIFO or a device is not opened: reading one could wait for ever.
    var status = stat()
    if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
      let kind =
        switch status.st_mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        default: "not a file"
        }
      throw TrustedCertificatesError(
        setting: name, path: path, problem: "is not a regular file (\(kind)), not a PEM file of certificates")
    }
    let contents: Data
    do {
      contents = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw TrustedCertificatesError(
        setting: name, path: path, problem: "cannot be read (\(Self.reason(of: error)))")
    }
    guard contents.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
      throw TrustedCertificatesError(
        setting: name, path: path, problem: "holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
    }
    // Each certificate parsed as the TLS library will parse it: one damaged body would fail
    // every request.
    let checked = contents.withUnsafeBytes { mart_pem_certificates_check($0.baseAddress, $0.count) }
    if checked <= 0 {
      throw TrustedCertificatesError(
        setting: name, path: path,
        problem: checked == 0
          ? "holds no PEM certificate that can be read"
          : "holds a certificate that cannot be read (certificate \(-checked) of the file is damaged)")
    }
    return .bundle(path: path, namedBy: name)
  }

  private static func checkedDirectory(
    path: String, namedBy name: String
  ) throws(TrustedCertificatesError) -> TrustedCertificates {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw TrustedCertificatesError(setting: name, path: path, problem: "does not exist")
    }
    guard isDirectory.boolValue else {
      throw TrustedCertificatesError(setting: name, path: path, problem: "is not a directory")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw TrustedCertificatesError(setting: name, path: path, problem: "cannot be read")
    }
    return .directory(path: path, namedBy: name)
  }

  private static func reason(of error: any Error) -> String {
    if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code))
    {
      return String(cString: strerror(code.rawValue))
    }
    return error.localizedDescription
  }
}

/// The certificate authorities named by an option or an environment variable cannot be used: a
/// ``LocatedError`` at the file or folder named (``path``), by the option or variable that
/// named it (``setting``).
public struct TrustedCertificatesError: LocatedError, Sendable, Hashable {
  /// The option or the environment variable that named the path.
  public var setting: String
  /// The file or folder of certificates named.
  public var path: String
  /// What is wrong with it: "does not exist", "cannot be read (Permission denied)", …
  public var problem: String

  /// The file or folder of certificates named.
  public var location: String { path }

  /// What is wrong with it and what follows: `does not exist: no HTTPS request can be checked
  /// against it`.
  public var message: String { "\(problem): no HTTPS request can be checked against it" }

  /// `<setting> <path> <problem>: no HTTPS request can be checked against it`.
  public var description: String { "\(setting) \(location) \(message)" }
}
