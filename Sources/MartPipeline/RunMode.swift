import Foundation
import MartCore
import MartFetch
import MartFiles
import MartGeocoding

/// Whether a run talks to the sites (or mirrors of them) or to recordings served on 127.0.0.1,
/// and everything that follows from that, decided in one place: politeness, retries, the
/// validator store, the raw archive, the geocoding cache and keys, and the fetch stack itself.
/// `run --replay` and the bench both get their fetch stack here.
public enum RunMode: Sendable, Hashable {
  /// The real sites or mirrors of them: polite, retried, revalidated, archived, cached.
  case live
  /// Recordings served by our own replay server: it answers what was recorded, so no delays,
  /// no robots.txt, no retries (a recorded failure answers the same every time), no
  /// validators, no archive, no geocoding cache (replayed answers must not fill the cache live
  /// runs rely on), and the keys the recordings were made with.
  case replay

  /// Per-host limits, delays and robots.txt: on a replay only the per-host limit stays.
  public func politeness(_ configured: PolitenessPolicy) -> PolitenessPolicy {
    guard self == .replay else { return configured }
    var politeness = configured
    politeness.minimumDelay = .zero
    politeness.jitter = .zero
    politeness.obeysRobotsTxt = false
    return politeness
  }

  /// Retries of brand requests: one attempt on a replay.
  public func retry(_ configured: FetchRetryPolicy) -> FetchRetryPolicy {
    guard self == .replay else { return configured }
    var retry = configured
    retry.maxAttempts = 1
    return retry
  }

  /// The SQLite file of validators: the configured one, else `<state>/cache/http-validators.sqlite`
  /// on a live run and none on a replay.
  public func validatorStore(configured: URL?, state: URL) -> URL? {
    configured ?? (self == .live ? StateLayout(state).validatorStore : nil)
  }

  /// The geocoding cache, and whether it is only read: on a live run the configured one, else
  /// `<state>/cache/geocoding.sqlite`, read and written; on a replay only a configured one that
  /// exists, read and never written (replayed answers must not fill the cache live runs rely
  /// on, and a replay creates no cache file).
  public func geocodingCache(configured: URL?, state: URL) -> (file: URL, readOnly: Bool)? {
    guard self == .replay else { return (configured ?? StateLayout(state).geocodingCache, false) }
    guard let configured, Files.exists(configured.path) else { return nil }
    return (configured, true)
  }

  /// The geocoding keys: the configured environment live, the recordings' keys on a replay.
  public func geocodingEnvironment(configured: [String: String]) -> [String: String] {
    self == .live ? configured : GeocodingChain.replayEnvironment
  }

  /// Where the run keeps its responses: the configured archive folder as given, a recording
  /// folder; otherwise, on a live run, a WARC file written as
  /// `<state>/raw/.partial-<as-of>-<HHmmss>.warc.gz`, so a killed run's archive is a leftover,
  /// never one of the kept archives, and renamed when the run ends to
  /// `<as-of>-<HHmmss>.warc.gz`, or `<as-of>-<HHmmss>.incomplete.warc.gz` when it cannot replay
  /// the run; none on a replay. `<HHmmss>` is the time in Korea at `now`.
  public func archive(configured: URL?, state: URL, asOf: CalendarDate, now: Date) -> ArchivePlan? {
    if let configured { return ArchivePlan(writing: configured, finished: nil, incomplete: nil, isWARC: false) }
    guard self == .live else { return nil }
    let archive = StateLayout(state).archive(named: "\(asOf.iso)-\(KoreanCalendar.timeOfDay(now: now))")
    return ArchivePlan(writing: archive.writing, finished: archive.finished, incomplete: archive.incomplete, isWARC: true)
  }

  /// The fetch stack of this mode over `client`, sending origins where `overrides` says.
  public func fetchStack(
    client: HTTPClientConfiguration, overrides: [String: String], politeness: PolitenessPolicy,
    retry: FetchRetryPolicy, validators: HTTPValidatorStore?, clock: any FetchClock = SystemFetchClock(),
    archive: (any ResponseKeeping)? = nil
  ) -> FetchStack {
    FetchStack(
      client: client, overrides: overrides, politeness: self.politeness(politeness), retry: self.retry(retry),
      validators: validators, clock: clock, archive: archive)
  }
}

/// Where a run keeps the responses it receives (``RunMode/archive(configured:state:asOf:now:)``).
public struct ArchivePlan: Sendable, Hashable {
  /// Where the archive is written while the run goes on.
  public var writing: URL
  /// Where it goes when the run has finished (`nil`: it stays where it is written).
  public var finished: URL?
  /// Where it goes when it cannot replay the run: the run was cancelled, or responses could not
  /// be written (`nil`: it stays where it is written).
  public var incomplete: URL?
  /// A WARC file; otherwise a recording folder.
  public var isWARC: Bool
}
