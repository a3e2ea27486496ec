import MartCore

/// The former ids a brand's fresh branches carry: an id changes when a source stops carrying
/// what it was made from (Lotte Mart's 2026 rows have no `brnchCd`, so its branches are named
/// ids), and the bundle then lists the old id beside the new one, so that an app's favourite
/// follows the store.
enum FormerIDs {
  /// How close two branches' coordinates must be for them to be one store when their addresses
  /// do not both name a 시·군·구 (sources round, geocoders jitter; two stores of a chain are
  /// rarely this close).
  static let samePlaceMeters = 300.0

  /// `branches` (one brand's, fresh) with their former ids, against `previous` (the same
  /// brand's branches in the last bundle): a branch whose id the last bundle had keeps that
  /// branch's former ids; a new id takes the id of the one branch of the same name at the same
  /// place (``samePlace(_:_:)``) that the last bundle had and this run no longer lists, with its
  /// former ids, when exactly one new and one gone branch have that name and place. A name alone
  /// is not enough: a new store in Seoul never takes the id of a closed one of the same name in
  /// Busan. A former id that is a branch's id now is dropped.
  static func following(_ branches: [Branch], previous: [Branch]) -> [Branch] {
    guard !previous.isEmpty else { return branches }
    let listed = Set(branches.map(\.id))
    var previousByID: [BranchID: Branch] = [:]
    var goneByName: [String: [Branch]] = [:]
    for branch in previous {
      previousByID[branch.id] = branch
      if !listed.contains(branch.id) { goneByName[branch.name, default: []].append(branch) }
    }
    let newByName = Dictionary(grouping: branches.filter { previousByID[$0.id] == nil }, by: \.name)
    return branches.map { branch in
      var branch = branch
      let formerIDs: [BranchID]
      if let same = previousByID[branch.id] {
        formerIDs = same.formerIDs
      } else if let gone = goneByName[branch.name]?.filter({ samePlace($0, branch) }), gone.count == 1,
        newByName[branch.name]?.filter({ samePlace($0, gone[0]) }).count == 1
      {
        formerIDs = [gone[0].id] + gone[0].formerIDs
      } else {
        formerIDs = []
      }
      branch.formerIDs = formerIDs.filter { !listed.contains($0) }
      return branch
    }
  }

  /// Whether two branches are at one place: both addresses name the same 시·도 and 시·군·구, or
  /// their coordinates are within ``samePlaceMeters``. Without either, they are not known to be
  /// one store.
  static func samePlace(_ one: Branch, _ other: Branch) -> Bool {
    if let sigungu = one.address.sigungu, let sido = one.address.sido,
      sigungu == other.address.sigungu, sido == other.address.sido
    {
      return true
    }
    guard let here = one.coordinate, let there = other.coordinate else { return false }
    return here.point.distance(to: there.point) <= samePlaceMeters
  }
}
