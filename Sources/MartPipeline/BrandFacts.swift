import MartBrands
import MartCore
import MartExport

/// What a run says of each brand it publishes, whatever happened to it: the facts of the brand
/// (its Korean name, whether it is subject to the designation, its stores' class) from the
/// registry beside the sources (``KnownBrands``), else as the last bundle's manifest said, and the
/// four outcomes a brand's summary can have. ``Pipeline/runOnce(asOf:brands:outputDirectory:)``
/// makes every summary here.
struct BrandFacts {
  /// The bundle `latest.json` named before the run.
  let previous: PreviousBundle

  /// A brand's Korean name: the registry's, else the last bundle's, else the slug.
  func name(_ brand: BrandSlug) -> String {
    KnownBrands.brand(brand)?.koreanName ?? previous.summaries[brand]?.name ?? brand.rawValue
  }

  /// Whether a brand is subject to the designation: as the registry says, else as the last
  /// bundle's manifest said, else it is.
  func designated(_ brand: BrandSlug) -> Bool {
    KnownBrands.isDesignated(brand) ?? previous.summaries[brand]?.designated ?? true
  }

  /// The class of a designated brand's stores: as the registry says, else as the last bundle's
  /// manifest said, else a hypermarket; `nil` for a brand not designated.
  func storeClass(_ brand: BrandSlug) -> StoreClass? {
    guard designated(brand) else { return nil }
    return KnownBrands.storeClass(brand) ?? previous.summaries[brand]?.storeClass ?? .hypermarket
  }

  /// A brand fetched and admitted in this run, as of `asOf`, its data from `dataSource`.
  func fresh(_ brand: BrandSlug, branchCount: Int, asOf: CalendarDate, dataSource: String?) -> BrandSummary {
    BrandSummary(
      slug: brand, name: name(brand), branchCount: branchCount, freshness: .fresh, lastFetchedAsOf: asOf,
      designated: designated(brand), storeClass: storeClass(brand), status: .fresh, dataSource: dataSource)
  }

  /// A brand whose fetch failed or was refused (`reason`), its branches carried over from the
  /// last good fetch of `lastFetchedAsOf`.
  func stale(_ brand: BrandSlug, branchCount: Int, lastFetchedAsOf: CalendarDate?, reason: String) -> BrandSummary {
    BrandSummary(
      slug: brand, name: name(brand), branchCount: branchCount, freshness: .stale, lastFetchedAsOf: lastFetchedAsOf,
      designated: designated(brand), storeClass: storeClass(brand), status: .stale, error: reason)
  }

  /// A brand with nothing to publish (`reason`: no source, or a failure with nothing to keep).
  func missing(_ brand: BrandSlug, reason: String) -> BrandSummary {
    BrandSummary(
      slug: brand, name: name(brand), branchCount: 0, freshness: .missing, lastFetchedAsOf: nil,
      designated: designated(brand), storeClass: storeClass(brand), status: .missing, error: reason)
  }

  /// A brand this run did not ask for, kept as the last bundle had it.
  func kept(_ summary: BrandSummary) -> BrandSummary {
    var kept = summary
    kept.status = .kept
    kept.designated = designated(summary.slug)
    kept.storeClass = storeClass(summary.slug)
    return kept
  }
}
