/// The version of mart-holiday, in one place: the `--version` output and the default
/// User-Agent both read it from here.
public enum MartVersion {
  /// The release version, `MAJOR.MINOR.PATCH`.
  public static let current = "0.9.0"

  /// The product token crawlers are known by, matched against robots.txt `User-agent` lines.
  public static let productToken = "mart-holiday"

  /// The default User-Agent: the product, its version and what it does.
  public static var userAgent: String {
    "\(productToken)/\(current) (+Korean mart closing-day dataset)"
  }
}
