import MartCore

/// The former ids a brand's fresh branches carry: an id changes when a source stops carrying
/// what it was made from (Lotte Mart's 2026 rows have no `brnchCd`, so its branches are named
/// ids), and the bundle then lists the old id beside the new one, so that an app's favourite
/// follows the store.
enum FormerIDs {
  /// `branches` (one brand's, fresh) with their former ids, against `previous` (the same
  /// brand's branches in the last bundle): a branch whose id the last bundle had keeps that
  /// branch's former ids; a new id takes the id of the one branch of the same name that the
  /// last bundle had and this run no longer lists, with its former ids, when exactly one new
  /// and one gone branch have that name. A former id that is a branch's id now is dropped.
  static func following(_ branches: [Branch], previous: [Branch]) -> [Branch] {
    guard !previous.isEmpty else { return branches }
    let listed = Set(branches.map(\.id))
    var previousByID: [BranchID: Branch] = [:]
    var goneByName: [String: [Branch]] = [:]
    for branch in previous {
      previousByID[branch.id] = branch
      if !listed.contains(branch.id) { goneByName[branch.name, default: []].append(branch) }
    }
    var newByName: [String: Int] = [:]
    for branch in branches where previousByID[branch.id] == nil { newByName[branch.name, default: 0] += 1 }
    return branches.map { branch in
      var branch = branch
      let formerIDs: [BranchID]
      if let same = previousByID[branch.id] {
        formerIDs = same.formerIDs
      } else if let gone = goneByName[branch.name], gone.count == 1, newByName[branch.name] == 1 {
        formerIDs = [gone[0].id] + gone[0].formerIDs
      } else {
        formerIDs = []
      }
      branch.formerIDs = formerIDs.filter { !listed.contains($0) }
      return branch
    }
  }
}
