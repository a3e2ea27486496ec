import ArgumentParser
import Foundation
import MartFetch

/// `--ca-bundle FILE` and `--allow-insecure-redirects`, shared by every command that fetches.
/// Parsed into one ``HTTPSPolicy``, resolved once when the options are validated (a path that
/// cannot be used is a validation error, reported before any request) and handed down as it is.
struct CertificateOptions: ParsableArguments {
  /// The long names of the two options, spelled here only.
  private static let bundleName = "ca-bundle"
  private static let insecureRedirectName = "allow-insecure-redirects"

  @Option(
    name: .customLong(bundleName),
    help: ArgumentHelp(
      "Check HTTPS servers against the certificates in this PEM file instead of the system's (also: CURL_CA_BUNDLE, SSL_CERT_FILE, SSL_CERT_DIR, in that order).",
      valueName: "file"))
  var caBundle: String?

  @Flag(
    name: .customLong(insecureRedirectName),
    help: ArgumentHelp(
      "Follow a redirect from an HTTPS URL to a plain-HTTP one. Without it such a redirect fails the request (an error naming both URLs; the brand stays stale), so an HTTPS source is never read over plain HTTP unasked."))
  var allowInsecureRedirects = false

  /// The policy the options and the environment give; set by ``validate()``.
  private(set) var https = HTTPSPolicy()

  /// The parsed options only: ``https`` is worked out from them.
  private enum CodingKeys: String, CodingKey {
    case caBundle, allowInsecureRedirects
  }

  mutating func validate() throws {
    https = try Self.policy(
      caBundle: caBundle, allowsInsecureRedirects: allowInsecureRedirects,
      environment: ProcessInfo.processInfo.environment)
  }

  /// The authorities `caBundle` or else `environment` names (see
  /// ``TrustedCertificates/resolve(option:optionName:environment:)``), and the redirect rule,
  /// with the options' names for the errors that mention them.
  static func policy(
    caBundle: String?, allowsInsecureRedirects: Bool, environment: [String: String]
  ) throws -> HTTPSPolicy {
    let certificateSetting = "--\(bundleName)"
    do {
      return HTTPSPolicy(
        trustedCertificates: try TrustedCertificates.resolve(
          option: caBundle, optionName: certificateSetting, environment: environment),
        allowsInsecureRedirects: allowsInsecureRedirects, certificateSetting: certificateSetting,
        insecureRedirectSetting: "--\(insecureRedirectName)")
    } catch {
      throw ValidationError(error.description)
    }
  }
}
