import Foundation
import Synchronization

/// What the fetcher layers did for one host (or for all of them): the numbers a run report shows.
public struct HostFetchCounts: Sendable, Hashable, Codable {
  /// Requests sent to the network, retries included, robots.txt not.
  public var requests = 0
  /// Requests sent again after a retryable failure.
  public var retries = 0
  /// `304 Not Modified` answers served from the stored body.
  public var notModifiedReuses = 0
  /// Body bytes received (after content decoding).
  public var bytes = 0
  /// Requests that ended in an error or an HTTP status of 400 or more, after any retries.
  public var failures = 0

  public init(requests: Int = 0, retries: Int = 0, notModifiedReuses: Int = 0, bytes: Int = 0, failures: Int = 0) {
    self.requests = requests
    self.retries = retries
    self.notModifiedReuses = notModifiedReuses
    self.bytes = bytes
    self.failures = failures
  }

  /// The field-by-field sum.
  public static func + (left: HostFetchCounts, right: HostFetchCounts) -> HostFetchCounts {
    HostFetchCounts(
      requests: left.requests + right.requests, retries: left.retries + right.retries,
      notModifiedReuses: left.notModifiedReuses + right.notModifiedReuses, bytes: left.bytes + right.bytes,
      failures: left.failures + right.failures)
  }
}

/// Counters shared by the fetcher layers of one run, per host. Safe to update from any task.
public final class FetchStatistics: Sendable {
  private let counts = Mutex<[String: HostFetchCounts]>([:])

  public init() {}

  /// Applies `update` to the counts of `host`: the `hostAndPort` of the request's `URLParts`
  /// (found once per request by the caller, however many counts it changes).
  public func record(host: String, _ update: (inout HostFetchCounts) -> Void) {
    counts.withLock { update(&$0[host, default: HostFetchCounts()]) }
  }

  /// The counts per host (`host` or `host:port`, lower-cased), as seen by the layers above any
  /// origin redirection: the real sites' hosts.
  public var byHost: [String: HostFetchCounts] { counts.withLock { $0 } }

  /// The counts of all hosts together.
  public var total: HostFetchCounts { byHost.values.reduce(HostFetchCounts(), +) }
}
