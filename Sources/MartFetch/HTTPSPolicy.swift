/// How a client treats HTTPS: the certificate authorities a server is checked against, whether
/// a redirect from HTTPS to plain HTTP is followed, and how the settings that change them are
/// named in the errors they explain. One value, resolved once where the settings are read (the
/// command line) and handed down unchanged to every transfer.
public struct HTTPSPolicy: Sendable, Hashable {
  /// The certificate authorities HTTPS servers are checked against.
  public var trustedCertificates: TrustedCertificates
  /// Whether a redirect from an `https` URL to an `http` one is followed. When it is not (the
  /// default), such a redirect fails the request with `FetchError.Code.redirect` naming both
  /// URLs: an HTTPS source is not read over plain HTTP unless the operator says so. A response
  /// read after such a redirect says so (``HTTPResponse/cameOverPlainHTTP``).
  public var allowsInsecureRedirects: Bool
  /// The setting that names other certificate authorities (`--ca-bundle`), which the error of a
  /// server they do not trust mentions; `nil` mentions none.
  public var certificateSetting: String?
  /// The setting that allows redirects to plain HTTP, which the error of a refused one mentions;
  /// `nil` mentions none.
  public var insecureRedirectSetting: String?

  public init(
    trustedCertificates: TrustedCertificates = .system, allowsInsecureRedirects: Bool = false,
    certificateSetting: String? = nil, insecureRedirectSetting: String? = nil
  ) {
    self.trustedCertificates = trustedCertificates
    self.allowsInsecureRedirects = allowsInsecureRedirects
    self.certificateSetting = certificateSetting
    self.insecureRedirectSetting = insecureRedirectSetting
  }
}
