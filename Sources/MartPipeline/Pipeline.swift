import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding

/// Options of one ingestion run.
public struct RunOptions: Sendable {
  /// The day the run treats as today.
  public var asOf: CalendarDate
  /// Brands to fetch; empty means every brand the sources offer.
  public var brands: Set<BrandSlug>
  /// Where bundles, `latest.json` and `report.json` go.
  public var outputDirectory: URL

  public init(asOf: CalendarDate, brands: Set<BrandSlug> = [], outputDirectory: URL) {
    self.asOf = asOf
    self.brands = brands
    self.outputDirectory = outputDirectory
  }
}

/// Fetch → parse → normalize → export, for every requested brand.
///
/// Sources always address the real sites; to use a mirror or the replay server, give the
/// pipeline a fetcher that redirects origins (`OriginRedirectingFetcher`).
///
/// A brand that fails (network, HTTP error, redesigned page, a suspicious drop in branch
/// count) never empties the dataset: its branches are carried over from the last good
/// bundle and marked stale. When a requested brand fails with nothing to carry over, nothing
/// is published and the previous bundle stays current.
public struct Pipeline: Sendable {
  public let sources: [any BrandSource]
  public let fetcher: any HTTPFetching
  /// Locates branches: the source's coordinates when valid, then the cache and providers.
  public let geocoding: GeocodingChain
  /// A brand whose branch count falls below this fraction of the last bundle's count is
  /// treated as failed (a page that lost most of its rows is more likely broken than real).
  public var minimumRetainedFraction = 0.5

  /// - Parameter geocoding: the chain to locate branches with; by default only the sources'
  ///   own coordinates are used (validated), with no provider and no cache.
  public init(
    sources: [any BrandSource], fetcher: any HTTPFetching,
    geocoding: GeocodingChain = GeocodingChain(geocoders: [], cache: nil)
  ) {
    self.sources = sources
    self.fetcher = fetcher
    self.geocoding = geocoding
  }

  /// Runs once and returns the report (also written to `output/report.json`).
  public func run(_ options: RunOptions) async -> RunReport {
    let window = DateWindow.threeMonths(startingAt: options.asOf)
    let store = BundleStore(outputDirectory: options.outputDirectory)
    let normalizer = BranchNormalizer(asOf: options.asOf, window: window)
    var warnings: [String] = []
    var errors: [String] = []

    let offered = Set(sources.flatMap(\.brands))
    let requested = options.brands.isEmpty ? offered : options.brands.intersection(offered)
    for missing in options.brands.subtracting(offered).sorted() {
      errors.append("\(missing.rawValue): no source for this brand yet")
    }

    var previous: PublishedBundle?
    do { previous = try store.latest() } catch {
      warnings.append("last bundle unreadable, nothing to carry over: \(error)")
    }
    let previousByBrand = Dictionary(grouping: previous?.branches.branches ?? [], by: \.brand)
    let previousSummaries = Dictionary(
      (previous?.manifest.brands ?? []).map { ($0.slug, $0) }, uniquingKeysWith: { a, _ in a })

    // Fetch and parse.
    let collected = await collect(requested: requested, asOf: options.asOf)
    var fetched: [BrandSlug: [RawBranch]] = [:]
    var failures: [BrandSlug: String] = [:]
    for result in collected {
      warnings += result.warnings
      switch result.outcome {
      case .success(let branches):
        for brand in result.brands { fetched[brand] = [] }
        for branch in branches where result.brands.contains(branch.id.brand) {
          fetched[branch.id.brand, default: []].append(branch)
        }
      case .failure(let error):
        for brand in result.brands { failures[brand] = error.description }
      }
    }

    var branches: [Branch] = []
    var summaries: [BrandSummary] = []
    var results: [RunReport.BrandResult] = []
    for brand in requested.sorted() {
      var failure = failures[brand]
      var raw = fetched[brand] ?? []
      if failure == nil {
        raw = deduplicated(raw, warnings: &warnings)
        let previousCount = previousByBrand[brand]?.count ?? 0
        if raw.isEmpty {
          failure = "the source returned no branches"
        } else if Double(raw.count) < Double(previousCount) * minimumRetainedFraction {
          failure = "only \(raw.count) branches, down from \(previousCount) in the last bundle"
        }
      }
      if let failure {
        if let carried = previousByBrand[brand], !carried.isEmpty,
          let summary = previousSummaries[brand]
        {
          branches += carried.map(normalizer.refresh)
          summaries.append(
            BrandSummary(
              slug: brand, branchCount: carried.count, freshness: .stale,
              lastFetchedAsOf: summary.lastFetchedAsOf))
          results.append(.init(brand: brand, status: .stale, branchCount: carried.count, error: failure))
          warnings.append(
            "\(brand.rawValue): \(failure); kept \(carried.count) branches from \(summary.lastFetchedAsOf)")
        } else {
          results.append(.init(brand: brand, status: .failed, branchCount: 0, error: failure))
          errors.append("\(brand.rawValue): \(failure)")
        }
        continue
      }
      var normalized: [Branch] = []
      for rawBranch in raw {
        var (branch, address) = normalizer.normalize(rawBranch, warnings: &warnings)
        branch.coordinate = await locate(rawBranch, address: address, warnings: &warnings)
        normalized.append(branch)
      }
      branches += normalized
      summaries.append(
        BrandSummary(slug: brand, branchCount: normalized.count, freshness: .fresh, lastFetchedAsOf: options.asOf))
      results.append(.init(brand: brand, status: .fresh, branchCount: normalized.count, error: nil))
    }

    // Brands not requested this time stay as they were.
    for (brand, carried) in previousByBrand.sorted(by: { $0.key < $1.key }) where !requested.contains(brand) {
      guard let summary = previousSummaries[brand] else { continue }
      branches += carried.map(normalizer.refresh)
      summaries.append(summary)
      results.append(.init(brand: brand, status: .kept, branchCount: carried.count, error: nil))
    }

    var report = RunReport(
      asOf: options.asOf, window: window, outcome: .failed, published: nil, brands: results,
      branchesWithoutCoordinates: branches.filter { $0.coordinate == nil }.map(\.id).sorted(),
      branchesWithUnknownClosingDays: branches.filter { $0.closing.status == .unknown }.map(\.id).sorted(),
      branchesNotTrading: branches.filter { !$0.storeStatus.isTrading }.sorted { $0.id < $1.id }.map {
        RunReport.NotTradingBranch(id: $0.id, state: $0.storeStatus.state, until: $0.storeStatus.until)
      },
      warnings: warnings, errors: errors)

    if errors.isEmpty {
      do {
        report.published = try store.publish(
          branches: branches, brands: summaries, asOf: options.asOf, window: window)
        report.outcome = results.contains { $0.status == .stale } ? .publishedWithStaleBrands : .published
      } catch {
        report.errors.append("publishing failed: \(error)")
      }
    } else {
      report.errors.append("nothing published; the previous bundle stays current")
    }
    do { try store.writeFile(try BundleJSON.encode(report), named: "report.json") } catch {
      report.errors.append("writing report.json failed: \(error)")
    }
    return report
  }

  private struct SourceResult: Sendable {
    /// The source's position in `sources`.
    var order: Int
    var brands: [BrandSlug]
    var outcome: Result<[RawBranch], SourceError>
    var warnings: [String]
  }

  /// Runs the sources concurrently (each talks to its own host); results come back in the
  /// sources' order, so reports do not depend on which finished first.
  private func collect(requested: Set<BrandSlug>, asOf: CalendarDate) async -> [SourceResult] {
    await withTaskGroup(of: SourceResult.self) { group in
      for (order, source) in sources.enumerated() {
        let brands = source.brands.filter(requested.contains)
        guard !brands.isEmpty else { continue }
        let session = SourceSession(
          baseURL: source.defaultBaseURL, fetcher: fetcher, asOf: asOf,
          brands: Set(brands), sourceName: source.name)
        group.addTask {
          do throws(SourceError) {
            let branches = try await source.collect(session)
            return SourceResult(
              order: order, brands: brands, outcome: .success(branches), warnings: session.warnings)
          } catch {
            return SourceResult(order: order, brands: brands, outcome: .failure(error), warnings: session.warnings)
          }
        }
      }
      var results: [SourceResult] = []
      for await result in group { results.append(result) }
      return results.sorted { $0.order < $1.order }
    }
  }

  /// The branch's coordinate from its source or the geocoding chain; `nil` (with a warning)
  /// when neither gives a valid point inside Korea.
  private func locate(_ raw: RawBranch, address: KoreanAddress?, warnings: inout [String]) async -> Coordinate? {
    guard let address else {
      guard let point = raw.coordinate else {
        warnings.append("\(raw.id): no address and no coordinates")
        return nil
      }
      let (coordinate, warning) = CoordinateValidation.validate(point, source: .site)
      if let warning { warnings.append("\(raw.id): \(warning)") }
      return coordinate
    }
    let outcome = await geocoding.locate(siteCoordinate: raw.coordinate, address: address)
    for warning in outcome.warnings { warnings.append("\(raw.id): \(warning)") }
    return outcome.coordinate
  }

  private func deduplicated(_ branches: [RawBranch], warnings: inout [String]) -> [RawBranch] {
    var seen = Set<BranchID>()
    return branches.filter { branch in
      if seen.insert(branch.id).inserted { return true }
      warnings.append("\(branch.id): listed more than once by the source; kept the first")
      return false
    }
  }
}
