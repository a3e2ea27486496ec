import MartBrands
import MartCore
import MartExport
import MartFetch
import Synchronization

/// The brands a run asks for, split by whether a source offers them. The one place where
/// requested brands are matched to sources.
public struct BrandSelection: Sendable, Hashable {
  /// Requested brands some source offers, sorted.
  public let requested: [BrandSlug]
  /// Requested brands no source offers yet, sorted.
  public let unsourced: [BrandSlug]
  /// Whether every brand the sources offer is requested, so nothing has to be kept from the last bundle.
  public let coversEveryBrand: Bool

  /// - Parameter asked: the brands asked for; empty means every brand the sources offer.
  public init(asked: Set<BrandSlug>, sources: [any BrandSource]) {
    let offered = Set(sources.flatMap(\.brands))
    requested = (asked.isEmpty ? offered : asked.intersection(offered)).sorted()
    unsourced = asked.subtracting(offered).sorted()
    coversEveryBrand = offered.isSubset(of: requested)
  }

  /// Whether the run asked for `brand` (with or without a source).
  public func contains(_ brand: BrandSlug) -> Bool {
    requested.contains(brand) || unsourced.contains(brand)
  }

  /// The brands of `source` this run asks it for, in the source's order.
  public func brands(of source: any BrandSource) -> [BrandSlug] {
    source.brands.filter(requested.contains)
  }
}

/// Stage 1, collect: runs the sources for the selected brands and sorts what they return by
/// brand.
public struct CollectStage: Sendable {
  /// One brand's raw result: its branches in source order, or why the source failed.
  public typealias BrandResult = Result<[RawBranch], SourceError>

  public let sources: [any BrandSource]
  public let fetcher: any HTTPFetching
  /// Where each source's requests are counted as they go, when someone is watching.
  public let progress: RunProgress?

  public init(sources: [any BrandSource], fetcher: any HTTPFetching, progress: RunProgress? = nil) {
    self.sources = sources
    self.fetcher = fetcher
    self.progress = progress
  }

  /// Runs the sources concurrently (each talks to its own host). Every selected brand gets a
  /// result; branches of brands that were not asked for are dropped here. Source warnings come
  /// back in the sources' order, so reports do not depend on which finished first.
  public func collect(
    _ selection: BrandSelection, asOf: CalendarDate
  ) async -> (
    results: [BrandSlug: BrandResult], problems: RunProblems, dataSources: [BrandSlug: String],
    completeAnswers: [BrandSlug: String]
  ) {
    let finished = await withTaskGroup(
      of: (Int, [BrandSlug], BrandResult, [SourceWarning], String, [BrandSlug: String]).self
    ) { group in
      for (order, source) in sources.enumerated() {
        let brands = selection.brands(of: source)
        guard !brands.isEmpty else { continue }
        let index = progress?.register(brands: brands.map(\.rawValue))
        let sourceFetcher: any HTTPFetching =
          if let progress, let index {
            ProgressCountingFetcher(upstream: fetcher, progress: progress, index: index)
          } else {
            fetcher
          }
        let watch = PlainHTTPWatch(upstream: sourceFetcher)
        let session = SourceSession(for: type(of: source), fetcher: watch, asOf: asOf, brands: Set(brands))
        let progress = progress
        group.addTask {
          defer { if let progress, let index { progress.update(index) { $0.done = true } } }
          do throws(SourceError) {
            // Every branch carries what its source's closing dates speak of, set in place: no
            // branch is copied with all its texts.
            var branches = try await source.collect(session)
            for index in branches.indices {
              branches[index].closingCoverage = source.closingDateCoverage
              branches[index].closingTextCoverage = source.closingTextCoverage
            }
            return (
              order, brands, .success(branches), session.warnings,
              watch.described(session.fallbackUsed ?? source.primaryData), session.completeAnswers
            )
          } catch {
            return (order, brands, .failure(session.described(error)), session.warnings, source.primaryData, [:])
          }
        }
      }
      var finished: [(Int, [BrandSlug], BrandResult, [SourceWarning], String, [BrandSlug: String])] = []
      for await result in group { finished.append(result) }
      return finished.sorted { $0.0 < $1.0 }
    }

    var results: [BrandSlug: BrandResult] = [:]
    var dataSources: [BrandSlug: String] = [:]
    var completeAnswers: [BrandSlug: String] = [:]
    var problems = RunProblems()
    for (_, brands, result, warnings, dataSource, complete) in finished {
      completeAnswers.merge(complete.filter { brands.contains($0.key) }) { first, _ in first }
      for warning in warnings { problems.warn(.source, warning.message, branch: warning.branch) }
      for brand in brands {
        // A source of one brand (or whose branches are all this brand's) gives its list as it is,
        // not a copy of every branch.
        results[brand] = result.map { branches in
          branches.allSatisfy { $0.id.brand == brand } ? branches : branches.filter { $0.id.brand == brand }
        }
        dataSources[brand] = dataSource
      }
    }
    return (results, problems, dataSources, completeAnswers)
  }
}

/// Notes whether a source read any answer over plain HTTP after a redirect from HTTPS (allowed
/// only when the operator says so), so that the brand's `dataSource` says it and never names
/// the HTTPS API alone for such an answer.
final class PlainHTTPWatch: HTTPFetching {
  let upstream: any HTTPFetching
  private let plainURLs = Mutex<[String]>([])

  init(upstream: any HTTPFetching) { self.upstream = upstream }

  func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let response = try await upstream.fetch(request)
    if response.cameOverPlainHTTP { plainURLs.withLock { $0.append(request.url) } }
    return response
  }

  /// `dataSource` as the source named it, with what was read over plain HTTP.
  func described(_ dataSource: String) -> String {
    let count = plainURLs.withLock { $0.count }
    guard count > 0 else { return dataSource }
    return "\(dataSource) (read over plain HTTP after a redirect: \(DisplayText.count(count, "answer")))"
  }
}
