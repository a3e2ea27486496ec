/// What a bundle says about a branch id, e.g. a saved favourite: listed, removed from its
/// source, or unknown.
public enum MartBranchLookup: Hashable, Sendable {
  /// The bundle lists the branch.
  case listed(MartBranch)
  /// The branch's source stopped listing it (the store left the brand's site, usually because
  /// it closed). `lastListed` is the as-of day of the last bundle that listed it, `nil` when
  /// the bundle does not say. Tell the user the store is gone, not that the id is wrong.
  case removed(lastListed: MartDay?)
  /// The bundle neither lists the id nor knows it as removed: a mistyped id, or a branch
  /// removed before the bundle started keeping removed ids (see
  /// ``MartBundle/knowsRemovedBranches``).
  case unknown
}
