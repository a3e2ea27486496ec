import Foundation
import MartCore

/// Settings shared by every request a `CurlHTTPClient` makes.
public struct HTTPClientConfiguration: Sendable {
  /// Sent as `User-Agent` unless a request sets its own.
  public var userAgent: String
  /// Longest time to wait for the connection to be established.
  public var connectTimeout: Duration
  /// Longest time for the whole transfer, redirects included.
  public var totalTimeout: Duration
  /// A transfer slower than `lowSpeedLimit` bytes per second for `lowSpeedTime` fails with
  /// `FetchError.Code.timeout`: a server that drips bytes cannot hold a run for the whole
  /// `totalTimeout`. 0 turns the check off.
  public var lowSpeedLimit: Int
  /// How long a transfer may stay below `lowSpeedLimit` (whole seconds; rounded up).
  public var lowSpeedTime: Duration
  /// Largest body accepted, counted both as declared on the wire (`Content-Length`) and after
  /// gzip or deflate decoding, so a small compressed body cannot expand without bound. A larger
  /// one fails with `FetchError.Code.bodyTooLarge` as soon as the limit is passed.
  public var maxBodyBytes: Int
  /// Most redirects followed before failing with `FetchError.Code.redirect`.
  public var maxRedirects: Int
  /// Headers added to every request, before the request's own headers.
  public var defaultHeaders: [HTTPHeader]
  /// The certificate authorities trusted and whether a redirect to plain HTTP is followed.
  public var https: HTTPSPolicy

  public init(
    userAgent: String = MartVersion.userAgent,
    connectTimeout: Duration = .seconds(10),
    totalTimeout: Duration = .seconds(30),
    lowSpeedLimit: Int = 512,
    lowSpeedTime: Duration = .seconds(15),
    maxBodyBytes: Int = 20 * 1024 * 1024,
    maxRedirects: Int = 5,
    defaultHeaders: [HTTPHeader] = [],
    https: HTTPSPolicy = HTTPSPolicy()
  ) {
    self.https = https
    self.userAgent = userAgent
    self.connectTimeout = connectTimeout
    self.totalTimeout = totalTimeout
    self.lowSpeedLimit = lowSpeedLimit
    self.lowSpeedTime = lowSpeedTime
    self.maxBodyBytes = maxBodyBytes
    self.maxRedirects = maxRedirects
    self.defaultHeaders = defaultHeaders
  }
}
