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
      if outcome.coordinate == nil {
        problems.warn(
          .location, "exported without coordinates: \(whyUnlocated(rawBranch, address: address, outcome: outcome))",
          branch: rawBranch.id)
      }
      branch.coordinate = outcome.coordinate
      branches.append(branch)
    }
    return (branches, problems)
  }

  /// Why a branch has no coordinates, in words an operator can act on.
  func whyUnlocated(_ raw: RawBranch, address: KoreanAddress?, outcome: GeocodingOutcome) -> String {
    let site = raw.coordinate == nil ? "the source publishes no coordinates" : "the source's coordinates are invalid"
    guard address != nil else { return "\(site) and no address" }
    if geocoding.geocoders.isEmpty {
      return "\(site) and no geocoding provider is set up (KAKAO_REST_API_KEY, NAVER_CLIENT_ID + NAVER_CLIENT_SECRET"
        + " or VWORLD_API_KEY)"
    }
    if outcome.queriesTried.isEmpty { return "\(site) and its address gives no geocoding query" }
    return "\(site) and no provider found the address (tried: \(outcome.queriesTried.joined(separator: "; ")))"
  }
}
