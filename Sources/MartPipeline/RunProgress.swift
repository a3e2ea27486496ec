import MartFetch
import Synchronization

/// How far each source of a running pipeline has got, for progress lines: safe to read from
/// any task while the run goes on.
public final class RunProgress: Sendable {
  /// One source's numbers so far.
  public struct Counts: Sendable, Hashable {
    /// The brands the source is fetching, e.g. `homeplus` and `homeplus-express`.
    public var brands: [String]
    /// The brands joined for a column of progress lines: `homeplus+homeplus-express`.
    public var label: String { brands.joined(separator: "+") }
    /// Requests the source has made (each may be retried below; a retry is not a new request).
    public var started = 0
    /// Requests that have ended, with an answer or an error.
    public var finished = 0
    /// Requests that ended in an error or an HTTP status of 400 or more.
    public var failed = 0
    /// Body bytes received.
    public var bytes = 0
    /// Whether the source has finished (succeeded or failed).
    public var done = false

    public init(brands: [String]) {
      self.brands = brands
    }
  }

  private let sources = Mutex<[Counts]>([])

  public init() {}

  /// Every source's numbers, in the order the sources started.
  public var snapshot: [Counts] { sources.withLock { $0 } }

  /// Registers a source and returns its index.
  func register(brands: [String]) -> Int {
    sources.withLock { sources in
      sources.append(Counts(brands: brands))
      return sources.count - 1
    }
  }

  func update(_ index: Int, _ change: (inout Counts) -> Void) {
    sources.withLock { change(&$0[index]) }
  }
}

/// Counts one source's requests into a `RunProgress`.
struct ProgressCountingFetcher: HTTPFetching {
  let upstream: any HTTPFetching
  let progress: RunProgress
  let index: Int

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    progress.update(index) { $0.started += 1 }
    do {
      let response = try await upstream.fetch(request)
      progress.update(index) {
        $0.finished += 1
        $0.bytes += response.body.count
        if response.status >= 400 { $0.failed += 1 }
      }
      return response
    } catch {
      progress.update(index) {
        $0.finished += 1
        $0.failed += 1
      }
      throw error
    }
  }
}
