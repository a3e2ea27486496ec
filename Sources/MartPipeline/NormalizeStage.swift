import MartCore
import MartGeocoding

/// Stage 3, normalize and locate: turns a brand's admitted raw branches into exported
/// branches, each with the coordinate its source published (validated) or the geocoding
/// chain found.
public struct NormalizeStage: Sendable {
  public let normalizer: BranchNormalizer
  /// Locates branches: the source's coordinates when valid, then the cache and providers.
  public let geocoding: GeocodingChain

  public init(normalizer: BranchNormalizer, geocoding: GeocodingChain) {
    self.normalizer = normalizer
    self.geocoding = geocoding
  }

  /// The branches in the given order; a branch no one can locate is kept without coordinates.
  /// A cancelled task stops between branches (the caller then publishes nothing).
  public func normalize(_ raw: [RawBranch]) async -> ([Branch], RunProblems) {
    var problems = RunProblems()
    var branches: [Branch] = []
    for rawBranch in raw {
      if Task.isCancelled { break }
      var (branch, address) = normalizer.normalize(rawBranch, problems: &problems)
      let outcome = await geocoding.locate(siteCoordinate: rawBranch.coordinate, address: address)
      for warning in outcome.warnings { problems.warn(.location, warning, branch: rawBranch.id) }
      branch.coordinate = outcome.coordinate
      branches.append(branch)
    }
    return (branches, problems)
  }
}
