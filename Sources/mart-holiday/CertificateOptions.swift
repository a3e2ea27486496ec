import ArgumentParser
import Foundation
import MartFetch

/// `--ca-bundle FILE` and `--allow-insecure-redirects`, shared by every command that fetches.
struct CertificateOptions: ParsableArguments {
  /// The option's name, which errors of untrusted servers mention.
  static let optionName = "--ca-bundle"

  @Option(
    name: .customLong("ca-bundle"),
    help: ArgumentHelp(
      "Check HTTPS servers against the certificates in this PEM file instead of the system's (also: CURL_CA_BUNDLE, SSL_CERT_FILE, SSL_CERT_DIR, in that order).",
      valueName: "file"))
  var caBundle: String?

  /// The name of the option that lets an HTTPS source redirect to plain HTTP, which the error
  /// of a refused redirect mentions.
  static let insecureRedirectOptionName = "--allow-insecure-redirects"

  @Flag(
    name: .customLong("allow-insecure-redirects"),
    help: ArgumentHelp(
      "Follow a redirect from an HTTPS URL to a plain-HTTP one. Without it such a redirect fails the request (an error naming both URLs; the brand stays stale), so an HTTPS source is never read over plain HTTP unasked."))
  var allowInsecureRedirects = false

  /// The authorities the option or the environment names; a path that cannot be used is a
  /// validation error, reported before any request.
  func trustedCertificates(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> TrustedCertificates {
    do {
      return try TrustedCertificates.resolve(option: caBundle, optionName: Self.optionName, environment: environment)
    } catch {
      throw ValidationError(error.description)
    }
  }
}
