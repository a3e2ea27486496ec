import Foundation
import Synchronization

/// How a `RetryingFetcher` retries: attempts, exponential backoff with jitter, `Retry-After`,
/// and a budget of retries shared by all requests.
public struct FetchRetryPolicy: Sendable, Hashable {
  /// Attempts per request, the first included.
  public var maxAttempts: Int
  /// The wait before the first retry; doubled for each further one, up to `maxDelay`.
  public var initialDelay: Duration
  /// The longest computed backoff.
  public var maxDelay: Duration
  /// The fraction of each backoff that is random (0: none, 1: anywhere from zero to the backoff),
  /// so that clients that failed together do not come back together.
  public var jitter: Double
  /// The longest `Retry-After` honoured; a server asking for a longer wait fails the request at
  /// once rather than stall the run.
  public var maxRetryAfter: Duration
  /// Retries allowed across all requests of this fetcher (`nil`: unlimited); once used up, a
  /// retryable failure fails at once.
  public var retryBudget: Int?

  public init(
    maxAttempts: Int = 4, initialDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(30),
    jitter: Double = 0.5, maxRetryAfter: Duration = .seconds(120), retryBudget: Int? = 100
  ) {
    self.maxAttempts = max(1, maxAttempts)
    self.initialDelay = initialDelay
    self.maxDelay = maxDelay
    self.jitter = min(1, max(0, jitter))
    self.maxRetryAfter = maxRetryAfter
    self.retryBudget = retryBudget
  }

  /// No waiting between attempts, and no `Retry-After` honoured (tests of what is retried).
  public static let immediate = FetchRetryPolicy(
    maxAttempts: 3, initialDelay: .zero, maxDelay: .zero, jitter: 0, maxRetryAfter: .zero, retryBudget: nil)

  /// The geocoding APIs' retries: three attempts, 0.5 s then 1 s apart (no jitter: one lookup
  /// at a time), a `Retry-After` of up to 10 s waited out, no shared budget.
  public static let geocoding = FetchRetryPolicy(
    maxAttempts: 3, initialDelay: .milliseconds(500), maxDelay: .seconds(10), jitter: 0,
    maxRetryAfter: .seconds(10), retryBudget: nil)

  /// The backoff before retry number `retry` (1 for the first retry), with `jitterFraction`
  /// (in `0..<1`, ``FetchClock/jitterFraction()``) of the jitter taken off.
  public func backoff(beforeRetry retry: Int, jitterFraction: Double) -> Duration {
    let exponent = min(max(0, retry - 1), 30)
    let base = min(initialDelay * (1 << exponent), maxDelay)
    return base * (1 - jitter * jitterFraction)
  }

  /// Whether an answer with this status is worth asking for again: 408, 429 and 5xx.
  public static func isRetryable(status: Int) -> Bool {
    status == 408 || status == 429 || (500...599).contains(status)
  }

  /// Whether a failure is worth retrying: connection errors, timeouts, bodies cut short, and
  /// retryable statuses thrown by a lower layer (e.g. robots.txt answering 503).
  public static func isRetryable(_ error: FetchError) -> Bool {
    switch error.code {
    case .connection, .timeout, .bodyCutShort: true
    case .httpStatus(let status): isRetryable(status: status)
    case .bodyTooLarge, .redirect, .invalidURL, .disallowedByRobots, .cancelled, .transport: false
    }
  }
}

/// `Retry-After` values: delay-seconds or an HTTP date.
public enum RetryAfter {
  /// The wait a `Retry-After` value asks for, measured from `now`; nil when unreadable. A date
  /// in the past is zero.
  public static func delay(_ value: String, now: Date) -> Duration? {
    let trimmed = value.trimmingCharacters(in: .whitespaces)
    if let seconds = Int(trimmed) { return seconds >= 0 ? .seconds(seconds) : nil }
    for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = format
      if let date = formatter.date(from: trimmed) {
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
      }
    }
    return nil
  }
}

/// Retries failed requests: connection errors, timeouts, bodies cut short, 408, 429 and 5xx,
/// with exponential backoff and jitter, waiting at least as long as a `Retry-After` asks.
/// Other statuses (2xx–4xx) are returned at once.
///
/// When the attempts or the shared retry budget are used up, it throws a `FetchError` naming the
/// URL, the last cause and the number of attempts (for a status: `.httpStatus`), or gives back
/// the last answer when asked to (``fetch(_:retryingAnswers:returningTheLastAnswer:)``). Records
/// requests, retries, bytes and failures in `statistics`. Waits on `clock`.
public struct RetryingFetcher: HTTPFetching {
  public let upstream: any HTTPFetching
  public let policy: FetchRetryPolicy
  public let statistics: FetchStatistics
  /// What backoffs and `Retry-After` waits are waited on.
  public let clock: any FetchClock
  private let budget: RetryBudget

  public init(
    wrapping upstream: any HTTPFetching, policy: FetchRetryPolicy = FetchRetryPolicy(),
    statistics: FetchStatistics = FetchStatistics(), clock: any FetchClock = SystemFetchClock()
  ) {
    self.upstream = upstream
    self.policy = policy
    self.statistics = statistics
    self.clock = clock
    self.budget = RetryBudget(policy.retryBudget)
  }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    try await fetch(
      request, retryingAnswers: { FetchRetryPolicy.isRetryable(status: $0.status) }, returningTheLastAnswer: false)
  }

  /// Fetches `request`, asking again after the retryable failures and after the answers
  /// `isRetryable` says are worth asking again for (an API's throttle, told from its used-up
  /// quota by its body). When no retry is left for such an answer, it is returned if
  /// `returningTheLastAnswer` (for a caller that reads the answer's own error), else thrown.
  public func fetch(
    _ request: HTTPRequest, retryingAnswers isRetryable: (HTTPResponse) -> Bool, returningTheLastAnswer: Bool
  ) async throws(FetchError) -> HTTPResponse {
    let host = URLParts(request.url).hostAndPort
    var attempt = 1
    while true {
      let cause: FetchError
      var retryAfter: Duration?
      var answer: HTTPResponse?
      statistics.record(host: host) { $0.requests += 1 }
      do {
        let response = try await upstream.fetch(request)
        statistics.record(host: host) { $0.bytes += response.body.count }
        guard isRetryable(response) else {
          if response.status >= 400 { statistics.record(host: host) { $0.failures += 1 } }
          return response
        }
        answer = response
        retryAfter = response.headers.value(named: "Retry-After").flatMap { RetryAfter.delay($0, now: clock.date) }
        cause = FetchError(
          .httpStatus(response.status), url: request.url,
          message: response.statusLine.map { "answered \($0)" } ?? "answered HTTP \(response.status)")
      } catch {
        guard FetchRetryPolicy.isRetryable(error) else {
          statistics.record(host: host) { $0.failures += 1 }
          throw error
        }
        cause = error
      }

      let refusal: String? =
        if attempt >= policy.maxAttempts {
          "gave up after \(attempt) attempt\(attempt == 1 ? "" : "s")"
        } else if let retryAfter, retryAfter > policy.maxRetryAfter {
          "the server asks to wait \(retryAfter.wholeSeconds) s (Retry-After), more than the \(policy.maxRetryAfter.wholeSeconds) s allowed"
        } else if !budget.take() {
          "the retry budget of \(policy.retryBudget ?? 0) retries is used up"
        } else {
          nil
        }
      if let refusal {
        statistics.record(host: host) { $0.failures += 1 }
        if returningTheLastAnswer, let answer { return answer }
        throw FetchError(cause.code, url: request.url, message: "\(cause.message); \(refusal)")
      }
      let wait = max(policy.backoff(beforeRetry: attempt, jitterFraction: clock.jitterFraction()), retryAfter ?? .zero)
      attempt += 1
      statistics.record(host: host) { $0.retries += 1 }
      do {
        try await clock.sleep(for: wait)
      } catch {
        throw FetchError(
          .cancelled, url: request.url, message: "cancelled while waiting to retry after: \(cause.message)")
      }
    }
  }
}

/// The retries left for one `RetryingFetcher`.
private final class RetryBudget: Sendable {
  private let remaining: Mutex<Int?>

  init(_ total: Int?) { remaining = Mutex(total) }

  /// Takes one retry; false when none is left.
  func take() -> Bool {
    remaining.withLock { remaining in
      guard let left = remaining else { return true }
      guard left > 0 else { return false }
      remaining = left - 1
      return true
    }
  }
}

extension Duration {
  /// Whole seconds, rounded up.
  var wholeSeconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds + (attoseconds > 0 ? 1 : 0)
  }
}
