import MartCore
import MartExport

/// The branches a fresh brand's source no longer lists: kept with their last data, marked
/// missing (``Branch/missingFromSource``), for ``MissingFromSource/graceRuns`` runs in a row,
/// so that an answer that lost some stores for a day — a cache, a half-loaded list, a primary
/// listing fewer stores — loses none of them. A store that really went is removed by the third
/// run that does not find it.
///
/// A branch goes at once when its last data said it closed for good (the source said so), or
/// when the run knows the answer lists every store: the operator said so
/// (``RunSetting/acceptShrink``), or the answer states how many stores it holds and the run read
/// that many (``SourceSession/listedEveryStore(of:stated:)``: Costco's `totalResults`, GS THE
/// FRESH's `totalNumberOfResults`), so a branch missing from it is not in it and goes into
/// `removed` with a warning.
enum MissingBranches {
  /// The previous branches of one brand that `fresh` does not list (by id or former id), each
  /// either kept (refreshed by `refresh`, marked missing) or left out; the problems name them.
  static func kept(
    _ brand: BrandSlug, fresh: [Branch], previous: [Branch], asOf: CalendarDate, removeAtOnce: Bool,
    completeAnswer: String? = nil, refresh: (Branch) -> Branch, problems: inout RunProblems
  ) -> [Branch] {
    let listed = Set(fresh.flatMap { [$0.id] + $0.formerIDs })
    var kept: [Branch] = []
    var expired: [Branch] = []
    var notInACompleteAnswer: [Branch] = []
    for branch in previous.sorted(by: { $0.id < $1.id }) where !listed.contains(branch.id) {
      // A store the source said closed for good is expected to leave its list.
      guard branch.storeStatus.state != .closed, !removeAtOnce else { continue }
      guard completeAnswer == nil else {
        notInACompleteAnswer.append(branch)
        continue
      }
      let runs = (branch.missingFromSource?.runs ?? 0) + 1
      guard runs <= MissingFromSource.graceRuns else {
        expired.append(branch)
        continue
      }
      var missing = refresh(branch)
      missing.missingFromSource = MissingFromSource(since: branch.missingFromSource?.since ?? asOf, runs: runs)
      kept.append(missing)
    }
    if !kept.isEmpty {
      let since = Set(kept.compactMap(\.missingFromSource?.since)).sorted().map(\.iso).joined(separator: ", ")
      problems.warn(
        .missingFromSource,
        "\(DisplayText.branches(kept.count)) missing from the source's answer, kept with their last data (missing"
          + " since \(since); removed when still missing after \(MissingFromSource.graceRuns) runs): "
          + kept.map(\.id.description).joined(separator: ", "),
        brand: brand)
    }
    if let completeAnswer, !notInACompleteAnswer.isEmpty {
      problems.warn(
        .missingFromSource,
        "\(DisplayText.branches(notInACompleteAnswer.count)) removed at once, not in an answer that lists every"
          + " store (\(completeAnswer)): " + notInACompleteAnswer.map(\.id.description).joined(separator: ", "),
        brand: brand)
    }
    if !expired.isEmpty {
      problems.warn(
        .missingFromSource,
        "\(DisplayText.branches(expired.count)) removed, missing from the source's answer for"
          + " \(MissingFromSource.graceRuns + 1) runs in a row: "
          + expired.map { "\($0.id) (since \($0.missingFromSource?.since.iso ?? asOf.iso))" }.joined(separator: ", "),
        brand: brand)
    }
    return kept
  }
}
