import Foundation
import MartCore
import Synchronization

/// How a `PoliteFetcher` treats each host.
public struct PolitenessPolicy: Sendable, Hashable {
  /// Requests to one host (`host[:port]`) running at the same time.
  public var maxConcurrentRequestsPerHost: Int
  /// Requests to one host start at least this long apart, measured from start to start as
  /// robots.txt's `Crawl-delay` (which can raise it) and Scrapy's `DOWNLOAD_DELAY` mean it: the
  /// time a request takes overlaps the delay before the next one rather than adding to it.
  public var minimumDelay: Duration
  /// Up to this much more, chosen at random for each request.
  public var jitter: Duration
  /// Whether robots.txt is fetched (once per origin) and obeyed. Turn off only for mirrors you own.
  public var obeysRobotsTxt: Bool
  /// The product token looked up in robots.txt `User-agent` lines (the `*` group applies otherwise).
  public var robotsUserAgent: String
  /// The longest pause a `Crawl-delay` or a `Retry-After` imposes on a host.
  public var maxHostPause: Duration

  public init(
    maxConcurrentRequestsPerHost: Int = 1, minimumDelay: Duration = .seconds(1), jitter: Duration = .milliseconds(500),
    obeysRobotsTxt: Bool = true, robotsUserAgent: String = MartVersion.productToken,
    maxHostPause: Duration = .seconds(60)
  ) {
    self.maxConcurrentRequestsPerHost = max(1, maxConcurrentRequestsPerHost)
    self.minimumDelay = minimumDelay
    self.jitter = jitter
    self.obeysRobotsTxt = obeysRobotsTxt
    self.robotsUserAgent = robotsUserAgent
    self.maxHostPause = maxHostPause
  }
}

/// Keeps a crawler welcome: requests to different hosts run in parallel, but each host gets at
/// most `maxConcurrentRequestsPerHost` at a time, their starts spaced by `minimumDelay` plus
/// jitter (raised by robots.txt's `Crawl-delay`); a `Retry-After` on 429 or 503 keeps the host
/// waiting that long after the answer. robots.txt is fetched once per origin and obeyed: a
/// disallowed URL fails with `FetchError.Code.disallowedByRobots` and is never requested. A
/// robots.txt answering 4xx allows everything; one that cannot be fetched (5xx, network) fails
/// the request with a retryable error and is asked for again next time.
///
/// The delay runs from start to start, measured here at the client, as robots.txt's
/// `Crawl-delay` and Scrapy's `DOWNLOAD_DELAY` mean it: a request may start once the delay since
/// the previous start to its host has passed and, at one request per host, once the previous
/// request has finished. The time a request takes overlaps the delay before the next one rather
/// than adding to it. A start is the instant this fetcher lets the request through to
/// `upstream`; the next start is counted from that instant, not from when it was planned, so a
/// late wake-up on a loaded machine never shortens a gap. A server sees the gap between two
/// arrivals shrink by whatever the first request spent before reaching it (opening the
/// connection the next one reuses) and grow by what the second spent.
public final class PoliteFetcher: HTTPFetching {
  /// One request's turn at its host, as the fetcher measured it.
  public struct Turn: Sendable {
    /// The URL requested.
    public var url: String
    /// `host[:port]`, the key limits and delays are kept by.
    public var host: String
    /// When the request was let through to `upstream`: the instant the next delay counts from.
    public var started: ContinuousClock.Instant
    /// When `upstream` answered or failed, before the slot went to the next request.
    public var finished: ContinuousClock.Instant
  }

  public let upstream: any HTTPFetching
  public let policy: PolitenessPolicy
  /// What turns are counted on and waited for.
  public let clock: any FetchClock
  private let observeTurn: (@Sendable (Turn) -> Void)?
  private let hosts = Mutex<[String: HostState]>([:])
  private let robots = Mutex<[String: Task<Result<RobotsRules, FetchError>, Never>]>([:])
  private let waiterIDs = Atomic(0)

  /// - Parameters:
  ///   - upstream: what sends the requests once they are let through.
  ///   - policy: limits and delays per host, and whether robots.txt is obeyed.
  ///   - clock: what turns are counted on and waited for (`FetchStack` hands out the run's one).
  ///   - observeTurn: called once a request let through has finished, with its turn (not for
  ///     robots.txt, refused or cancelled requests); for measuring the politeness a run keeps.
  public init(
    wrapping upstream: any HTTPFetching, policy: PolitenessPolicy = PolitenessPolicy(),
    clock: any FetchClock = SystemFetchClock(), observeTurn: (@Sendable (Turn) -> Void)? = nil
  ) {
    self.upstream = upstream
    self.policy = policy
    self.clock = clock
    self.observeTurn = observeTurn
  }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let parts = URLParts(request.url)
    // Anything but http(s) is refused by the client below; there is no robots.txt to ask.
    guard parts.origin.hasPrefix("http://") || parts.origin.hasPrefix("https://") else {
      return try await upstream.fetch(request)
    }
    var spacing = policy.minimumDelay
    if policy.obeysRobotsTxt {
      let rules = try await robotsRules(origin: parts.origin, for: request.url)
      if let rule = rules.decidingRule(for: parts.pathAndQuery), !rule.allows {
        throw FetchError(
          .disallowedByRobots, url: request.url,
          message:
            "\(parts.origin)/robots.txt disallows \(parts.pathAndQuery) for \(policy.robotsUserAgent) (Disallow: \(rule.pattern))"
        )
      }
      if let crawlDelay = rules.crawlDelay { spacing = max(spacing, min(crawlDelay, policy.maxHostPause)) }
    }
    let host = parts.hostAndPort
    let started = try await enter(host, spacing: spacing, url: request.url)
    let response: HTTPResponse
    do {
      response = try await upstream.fetch(request)
    } catch {
      observeTurn?(Turn(url: request.url, host: host, started: started, finished: clock.now))
      leave(host, pause: nil)
      throw error
    }
    observeTurn?(Turn(url: request.url, host: host, started: started, finished: clock.now))
    var pause: Duration?
    if response.status == 429 || response.status == 503 {
      pause = response.headers.value(named: "Retry-After").flatMap { RetryAfter.delay($0, now: clock.date) }
        .map { min($0, policy.maxHostPause) }
    }
    leave(host, pause: pause)
    return response
  }

  // MARK: robots.txt

  /// The rules for `origin`, fetched on first use; concurrent requests share one fetch.
  private func robotsRules(origin: String, for url: String) async throws(FetchError) -> RobotsRules {
    let upstream = self.upstream
    let agent = policy.robotsUserAgent
    let task = robots.withLock { tasks in
      if let existing = tasks[origin] { return existing }
      let task = Task { await Self.loadRobots(origin: origin, userAgent: agent, upstream: upstream) }
      tasks[origin] = task
      return task
    }
    switch await task.value {
    case .success(let rules):
      return rules
    case .failure(let error):
      robots.withLock { tasks in
        if tasks[origin] == task { tasks[origin] = nil }
      }
      switch error.code {
      case .connection, .timeout, .transport:
        // The site did not answer at all: say so of the site (`fetching https://host failed:
        // <the connection error>`), not of its robots.txt, which merely is the first request.
        throw FetchError(error.code, url: origin, message: error.message)
      default:
        throw FetchError(error.code, url: url, message: "\(origin)/robots.txt could not be read: \(error.message)")
      }
    }
  }

  private static func loadRobots(
    origin: String, userAgent: String, upstream: any HTTPFetching
  ) async -> Result<RobotsRules, FetchError> {
    let url = origin + "/robots.txt"
    do {
      let response = try await upstream.fetch(.get(url))
      switch response.status {
      case 200..<300:
        return .success(RobotsRules(parsing: String(decoding: response.body, as: UTF8.self), userAgent: userAgent))
      case 500...599:
        return .failure(FetchError(.httpStatus(response.status), url: url, message: "HTTP \(response.status)"))
      default:
        return .success(.allowAll)
      }
    } catch {
      return .failure(error)
    }
  }

  // MARK: Per-host turns

  private struct HostState {
    var active = 0
    var nextStart: ContinuousClock.Instant?
    var waiters = WaitingLine()

    /// Takes a slot at once when one is free and no one waits (`true`), or puts the request
    /// `id` in the line (`false`).
    mutating func enter(_ id: Int, _ continuation: WaitingLine.Continuation, limit: Int) -> Bool {
      guard active < limit && waiters.isEmpty else {
        waiters.append(id, continuation)
        return false
      }
      active += 1
      return true
    }

    /// Claims the next start when it has come (`nil`, the one after set `spacing` and `jitter`
    /// from `now`), or says when to look again.
    mutating func claimStart(
      now: ContinuousClock.Instant, spacing: Duration, jitter: Duration
    ) -> ContinuousClock.Instant? {
      if let next = nextStart, next > now { return next }
      nextStart = now + spacing + jitter
      return nil
    }

    /// Gives the slot to the first waiter, returned to be resumed, or frees it; a `pause`
    /// keeps the next start at least that long after `now()`.
    mutating func leave(pause: Duration?, now: () -> ContinuousClock.Instant) -> WaitingLine.Continuation? {
      if let pause {
        let now = now()
        nextStart = max(nextStart ?? now, now + pause)
      }
      if let next = waiters.removeFirst() { return next }
      active -= 1
      return nil
    }
  }

  /// The requests waiting for a slot at one host, first come, first served. Taking the first
  /// moves an index instead of shifting the array: a run can queue thousands of requests at one
  /// host at once, and each leaves the line once.
  private struct WaitingLine {
    typealias Continuation = UnsafeContinuation<Void, any Error>
    private var entries: [(id: Int, continuation: Continuation)] = []
    private var head = 0

    var isEmpty: Bool { head == entries.count }

    mutating func append(_ id: Int, _ continuation: Continuation) { entries.append((id, continuation)) }

    /// Takes the first waiter out of the line.
    mutating func removeFirst() -> Continuation? {
      guard !isEmpty else { return nil }
      let first = entries[head].continuation
      head += 1
      if head == entries.count {
        entries.removeAll(keepingCapacity: true)
        head = 0
      } else if head > 1024 && head * 2 > entries.count {
        entries.removeFirst(head)
        head = 0
      }
      return first
    }

    /// Takes the waiter `id` out of the line (it was cancelled), if it is still in it.
    mutating func remove(id: Int) -> Continuation? {
      guard let index = entries[head...].firstIndex(where: { $0.id == id }) else { return nil }
      return entries.remove(at: index).continuation
    }
  }

  /// Waits for a free slot at `host` (first come, first served), then for the host's next start
  /// time, and claims it: the one after is `spacing` plus jitter from the instant returned, the
  /// instant the request is let through.
  private func enter(
    _ host: String, spacing: Duration, url: String
  ) async throws(FetchError) -> ContinuousClock.Instant {
    let id = waiterIDs.wrappingAdd(1, ordering: .relaxed).newValue
    let limit = policy.maxConcurrentRequestsPerHost
    do {
      try await withTaskCancellationHandler {
        try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
          // Changed in place, one lookup (a copy of the state would copy its waiting line);
          // the continuation is resumed once the lock is let go. `nil`: cancelled.
          let admitted: Bool? = self.hosts.withLock { hosts in
            if Task.isCancelled { return nil }
            return hosts[host, default: HostState()].enter(id, continuation, limit: limit)
          }
          switch admitted {
          case nil: continuation.resume(throwing: CancellationError())
          case true?: continuation.resume()
          case false?: break
          }
        }
      } onCancel: {
        self.hosts.withLock { hosts in hosts[host]?.waiters.remove(id: id) }?.resume(throwing: CancellationError())
      }
    } catch {
      throw FetchError(.cancelled, url: url, message: "cancelled while waiting for its turn at \(host)")
    }
    // Sleeping until the next start is not enough to claim it: another slot's request may have
    // claimed it meanwhile, or a Retry-After moved it, so the start is checked again on waking.
    let jitter = randomJitter()
    while true {
      // (now, nil) when the start is claimed now; otherwise when to look again.
      let (now, next) = hosts.withLock { hosts -> (ContinuousClock.Instant, ContinuousClock.Instant?) in
        let now = clock.now
        return (now, hosts[host]?.claimStart(now: now, spacing: spacing, jitter: jitter))
      }
      guard let next else { return now }
      do {
        try await clock.sleep(until: next)
      } catch {
        leave(host, pause: nil)
        throw FetchError(.cancelled, url: url, message: "cancelled while waiting for its turn at \(host)")
      }
    }
  }

  /// Gives the slot to the next waiter (or frees it); a `pause` (Retry-After) keeps the next
  /// start at least that long after now.
  private func leave(_ host: String, pause: Duration?) {
    // The next waiter is resumed once the lock is let go.
    let next = hosts.withLock { hosts in hosts[host]?.leave(pause: pause, now: { clock.now }) }
    next?.resume()
  }

  private func randomJitter() -> Duration {
    policy.jitter > .zero ? policy.jitter * clock.jitterFraction() : .zero
  }
}
