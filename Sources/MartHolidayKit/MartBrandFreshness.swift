/// How current a brand's data in a bundle is, as the bundle's manifest says (`freshness` and
/// `lastFetchedAsOf`, docs/bundle-format.md).
///
/// It speaks of the run that made the bundle; how old the bundle itself is, is
/// ``MartBundle/asOf``.
public enum MartBrandFreshness: Hashable, Sendable {
  /// The run that made the bundle read the brand's source: its branches are as of the
  /// bundle's ``MartBundle/asOf``.
  case fresh
  /// The run could not read the brand's source and kept its branches from an earlier bundle.
  /// `lastGood` is the as-of day of the last run that did read it (`nil` when the bundle does
  /// not say). Closing days may have changed since: say so before announcing them.
  case stale(lastGood: MartDay?)
  /// The bundle holds no data for the brand: its source failed with nothing to keep, or the
  /// bundle does not know the brand at all.
  case missing

  /// The freshness a manifest's brand entry gives. A value the kit does not know, or none, is
  /// never taken for fresh: it reads as stale.
  init(manifestValue: String?, lastFetchedAsOf: MartDay?) {
    switch manifestValue {
    case "fresh": self = .fresh
    case "missing": self = .missing
    default: self = .stale(lastGood: lastFetchedAsOf)
    }
  }
}
