import Foundation
import MartCore
import MartGeocoding
import Synchronization

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
  ///
  /// The text work (names, addresses, phones, hours, closing days) is pure and is spread over
  /// the processors in slices; locating, which may ask geocoding providers, then goes branch by
  /// branch in order, so the requests and the problems come in the same order on every run.
  public func normalize(_ raw: [RawBranch]) async -> ([Branch], RunProblems) {
    var problems = RunProblems()
    guard !Task.isCancelled else { return ([], problems) }
    var prepared = prepare(raw)
    // By index: each raw branch read in place, not copied out of `raw` with all its texts.
    for index in raw.indices {
      if Task.isCancelled {
        prepared.branches.removeSubrange(index...)
        break
      }
      problems.append(prepared.problems[index])
      let address = prepared.addresses[index]
      let outcome = await geocoding.locate(siteCoordinate: raw[index].coordinate, address: address)
      for warning in outcome.warnings { problems.warn(.location, warning, branch: raw[index].id) }
      if outcome.coordinate == nil {
        problems.warn(
          .location, "exported without coordinates: \(whyUnlocated(raw[index], address: address, outcome: outcome))",
          branch: raw[index].id)
      }
      // In place: no other value shares the branch's box, so nothing of it is copied.
      prepared.branches[index].coordinate = outcome.coordinate
    }
    return (prepared.branches, problems)
  }

  /// What ``prepare(_:)`` makes of the raw branches, by their index: each branch without its
  /// coordinates, its parsed address and its problems.
  struct Prepared {
    var branches: [Branch] = []
    var addresses: [KoreanAddress?] = []
    var problems: [RunProblems] = []
  }

  /// Each branch normalized without its coordinates, with its parsed address and its problems,
  /// in the order of `raw`; slices of it on as many threads as there are processors.
  func prepare(_ raw: [RawBranch]) -> Prepared {
    let sliceSize = 256
    let slices = (raw.count + sliceSize - 1) / sliceSize
    let normalizer = self.normalizer
    let results = Mutex<[Prepared?]>(Array(repeating: nil, count: slices))
    DispatchQueue.concurrentPerform(iterations: slices) { slice in
      var done = Prepared()
      done.branches.reserveCapacity(sliceSize)
      done.addresses.reserveCapacity(sliceSize)
      done.problems.reserveCapacity(sliceSize)
      // The slice's branches share their closing-day, hours and status texts: each read once.
      var readings = BranchReadings()
      for index in (slice * sliceSize)..<min(raw.count, (slice + 1) * sliceSize) {
        var problems = RunProblems()
        let (branch, address) = normalizer.normalize(raw[index], problems: &problems, reusing: &readings)
        done.branches.append(branch)
        done.addresses.append(address)
        done.problems.append(problems)
      }
      results.withLock { $0[slice] = done }
    }
    return results.withLock { finished in
      var all = Prepared()
      all.branches.reserveCapacity(raw.count)
      all.addresses.reserveCapacity(raw.count)
      all.problems.reserveCapacity(raw.count)
      for index in finished.indices {
        // Taken out of the slice, so that the one array left holds each branch's box.
        guard let slice = finished[index].take() else { continue }
        all.branches += slice.branches
        all.addresses += slice.addresses
        all.problems += slice.problems
      }
      return all
    }
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

extension BranchNormalizer {
  /// Normalizes one branch (``BranchNormalizer/normalize(_:)``), its problems added to
  /// `problems` as warnings naming the branch; returns the branch and its parsed address.
  public func normalize(_ raw: RawBranch, problems: inout RunProblems) -> (Branch, KoreanAddress?) {
    var readings = BranchReadings()
    return normalize(raw, problems: &problems, reusing: &readings)
  }

  /// Normalizes one branch (``BranchNormalizer/normalize(_:reusing:)``), its problems added to
  /// `problems` as warnings naming the branch; returns the branch and its parsed address.
  public func normalize(
    _ raw: RawBranch, problems: inout RunProblems, reusing readings: inout BranchReadings
  ) -> (Branch, KoreanAddress?) {
    let normalized = normalize(raw, reusing: &readings)
    for problem in normalized.problems {
      problems.warn(RunProblem.Kind(problem.kind), problem.message, branch: problem.branch)
    }
    return (normalized.branch, normalized.address)
  }
}

extension RunProblem.Kind {
  /// The run-report kind of a normalizer's problem.
  init(_ kind: NormalizationProblem.Kind) {
    switch kind {
    case .address: self = .address
    case .phone: self = .phone
    case .closingDays: self = .closingDays
    case .storeStatus: self = .storeStatus
    }
  }
}
