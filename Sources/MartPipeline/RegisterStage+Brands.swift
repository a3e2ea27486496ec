import MartBrands
import MartCore
import MartExport
import MartRegister

extension RegisterStage {
  /// The register brands (``RegisterBrands``) of a run that asks for every brand, each with its
  /// outcome and branches (``RegisterBranches``): fresh from a register fetched in this run;
  /// otherwise (the register could not be fetched, read or trusted) stale, their branches kept
  /// from `previous`, or, for a brand `previous` does not hold, made from the last good register
  /// when there is one. The stores stay whatever the register does today: a register brand with
  /// nothing to keep is left out, never missing.
  ///
  /// Their branches publish no closing days (status `unknown`); the district inference gives
  /// them their expected days afterwards, like every branch of a designated brand without days.
  static func brands(
    from reading: Reading?, previous: PreviousBundle, asOf: CalendarDate, normalizer: BranchNormalizer
  ) -> [(summary: BrandSummary, branches: [Branch])] {
    let fromRegister = reading.map { RegisterBranches.branches(of: $0.listing, normalizer: normalizer) } ?? [:]
    let why =
      reading.map { "the register of this run was refused (\($0.refusal ?? "not fetched")): the last good one stands" }
      ?? "the register could not be read: its stores are kept from the last bundle"
    return RegisterBrands.entries.compactMap { entry in
      func summary(_ count: Int, fresh: Bool, lastFetched: CalendarDate?) -> BrandSummary {
        BrandSummary(
          slug: entry.slug, name: entry.brand.koreanName, branchCount: count, freshness: fresh ? .fresh : .stale,
          lastFetchedAsOf: lastFetched, designated: entry.designated,
          storeClass: entry.designated ? .hypermarket : nil, status: fresh ? .fresh : .stale,
          error: fresh ? nil : why)
      }
      if reading?.origin == .fetched, let branches = fromRegister[entry.slug] {
        return (summary(branches.count, fresh: true, lastFetched: asOf), branches)
      }
      if let kept = previous.summaries[entry.slug] {
        let branches = (previous.branches[entry.slug] ?? []).map(normalizer.refresh)
        return (summary(branches.count, fresh: false, lastFetched: kept.lastFetchedAsOf), branches)
      }
      guard let branches = fromRegister[entry.slug] else { return nil }
      return (summary(branches.count, fresh: false, lastFetched: nil), branches)
    }
  }
}
