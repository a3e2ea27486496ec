import MartBrands
import MartCore

/// What a register store outside the brands is expected to close on.
public enum RegisterExpectedDays {
  /// The expected closing days of `store`: its district's days in `districtDays` (a run's
  /// `DistrictInference.expectedDates`: each district's pattern over the window), or
  /// `nil` (unknown) where the district has none, or where its brand's days are decided store by
  /// store (``RegisterBrands/ClosingDays/unknown``: 농협 하나로마트), or it does not trade yet.
  ///
  /// The one place these days come from. Today a district has one pattern, read from the
  /// brands' hypermarkets and SSMs alike; `store.kind` is where a pattern by store class
  /// (대규모점포 and 준대규모점포 may close on different days, brand-sources.md §11.2) plugs in.
  public static func expectedClosing(
    for store: RegisterStore, districtDays: [District: [CalendarDate]]
  ) -> ExpectedClosing? {
    guard store.status == .open else { return nil }
    if case .registerBrand(let slug)? = store.owner, RegisterBrands.entry(slug)?.closingDays == .unknown { return nil }
    let address = BranchAddress(published: store.roadAddress, sido: store.sido, sigungu: store.sigungu)
    guard let district = District(address), let dates = districtDays[district] else { return nil }
    return ExpectedClosing(dates: dates, district: district.description)
  }
}
