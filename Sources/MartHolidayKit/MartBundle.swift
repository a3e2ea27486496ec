import Foundation

/// A verified bundle of branches and their closing days, with the queries apps ask.
///
/// ```swift
/// let bundle = try MartBundle(contentsOf: outputDirectoryURL)
/// let branch = bundle.branch(id: "emart-1059")
/// let status = branch?.status(on: MartDay(year: 2026, month: 11, day: 22))  // .closed
/// ```
public struct MartBundle: Sendable {
  /// The bundle's version, e.g. `2026-11-20-3f2a9c1d0b7e`.
  public let version: String
  /// The day the bundle was made as of: a shut store is shut from this day.
  public let asOf: MartDay
  /// The days whose closing days the bundle lists outright (the as-of month and the next two).
  public let window: ClosedRange<MartDay>
  /// The bundle's brands, as its manifest lists them.
  public let brands: [MartBrand]
  /// Every branch, sorted by id.
  public let branches: [MartBranch]
  /// Whether the bundle lists the ids its sources stopped listing (`branches.json`'s `removed`).
  /// Bundles written before that field existed do not: ``lookup(id:)`` then answers
  /// ``MartBranchLookup/unknown`` for every id the bundle does not list.
  public let knowsRemovedBranches: Bool
  private let positionByID: [String: Int]
  private let freshnessBySlug: [String: MartBrandFreshness]
  /// The last listed day of each removed id (`nil` when the bundle does not say).
  private let lastListedByRemovedID: [String: MartDay?]

  init(
    version: String, asOf: MartDay, window: ClosedRange<MartDay>, brands: [MartBrand],
    freshness: [String: MartBrandFreshness], branches: [MartBranch], removed: [(id: String, lastListed: MartDay?)]?
  ) {
    self.version = version
    self.asOf = asOf
    self.window = window
    self.brands = brands
    self.freshnessBySlug = freshness
    self.branches = branches.sorted { $0.id < $1.id }
    var positions: [String: Int] = [:]
    for (position, branch) in self.branches.enumerated() {
      for former in branch.formerIDs where positions[former] == nil { positions[former] = position }
    }
    // A branch's own id wins over another's former id.
    for (position, branch) in self.branches.enumerated() { positions[branch.id] = position }
    self.positionByID = positions
    self.knowsRemovedBranches = removed != nil
    var lastListed: [String: MartDay?] = [:]
    for entry in removed ?? [] where lastListed[entry.id] == nil { lastListed[entry.id] = .some(entry.lastListed) }
    self.lastListedByRemovedID = lastListed
  }

  /// Loads the bundle an output directory's `latest.json` names, verifying `manifest.json`
  /// against `latest.json` and every file the manifest lists against its SHA-256 and size.
  ///
  /// - Parameter outputDirectory: the folder holding `latest.json` and `bundles/`.
  /// - Throws: ``MartBundleError`` naming the file that is missing, malformed or fails its check.
  public init(contentsOf outputDirectory: URL) throws(MartBundleError) {
    let latestURL = outputDirectory.appendingPathComponent("latest.json")
    let pointer = try BundleReader.pointer(from: Self.read(latestURL), location: latestURL.path)
    let directory = outputDirectory.appendingPathComponent(pointer.bundle)
    let manifestURL = directory.appendingPathComponent("manifest.json")
    let manifest = try BundleReader.manifest(from: Self.read(manifestURL), pointer: pointer, location: manifestURL.path)
    var branchesData: Data?
    for file in manifest.files {
      let url = directory.appendingPathComponent(file.path)
      let data = try Self.read(url)
      try BundleReader.verify(data, against: file, location: url.path)
      if file.path == BundleReader.branchesPath { branchesData = data }
    }
    guard let branchesData else {
      throw MartBundleError(
        .missingFile, location: manifestURL.path, message: "manifest.json does not list \(BundleReader.branchesPath)")
    }
    self = try BundleReader.bundle(
      pointer: pointer, manifest: manifest, branchesData: branchesData,
      location: directory.appendingPathComponent(BundleReader.branchesPath).path)
  }

  private static func read(_ url: URL) throws(MartBundleError) -> Data {
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw MartBundleError(.missingFile, location: url.path, message: "no such file")
    }
    do {
      return try Data(contentsOf: url)
    } catch {
      throw MartBundleError(.unreadable, location: url.path, message: "cannot read: \(error.localizedDescription)")
    }
  }

  /// The branch with this id (`emart-1059`) or former id (``MartBranch/formerIDs``: a favourite
  /// saved as `lottemart-0100001` finds `lottemart-잠실점`), or `nil`. To tell a branch whose
  /// source stopped listing it from an id that never existed, use ``lookup(id:)``.
  public func branch(id: String) -> MartBranch? {
    positionByID[id].map { branches[$0] }
  }

  /// What the bundle says about `id`, e.g. a saved favourite: the branch when the bundle lists
  /// it; ``MartBranchLookup/removed(lastListed:)`` when its source stopped listing it (the
  /// bundle's `removed` ids); ``MartBranchLookup/unknown`` otherwise, and for every id not listed
  /// when the bundle predates the `removed` field (``knowsRemovedBranches`` is `false`).
  public func lookup(id: String) -> MartBranchLookup {
    if let branch = branch(id: id) { return .listed(branch) }
    if let lastListed = lastListedByRemovedID[id] { return .removed(lastListed: lastListed) }
    return .unknown
  }

  /// How current the data of the brand with this slug (`emart`) is, as the manifest says:
  /// ``MartBrandFreshness/missing`` for a slug the bundle does not know. A branch's own is
  /// ``MartBranch/freshness``.
  public func freshness(ofBrand slug: String) -> MartBrandFreshness {
    freshnessBySlug[slug] ?? .missing
  }

  /// The branches of one brand (`emart`), sorted by id.
  public func branches(ofBrand slug: String) -> [MartBranch] {
    branches.filter { $0.brand.slug == slug }
  }

  /// The branches within `meters` of `point`, nearest first (equal distances by id). Branches
  /// without a coordinate are left out; shut stores are included (check their store status).
  public func branches(near point: MartCoordinate, withinMeters meters: Double) -> [MartBranch] {
    var found: [(branch: MartBranch, distance: Double)] = []
    for branch in branches {
      guard let coordinate = branch.coordinate else { continue }
      let distance = coordinate.distance(to: point)
      if distance <= meters { found.append((branch, distance)) }
    }
    found.sort { left, right in
      left.distance != right.distance ? left.distance < right.distance : left.branch.id < right.branch.id
    }
    return found.map(\.branch)
  }

  /// The `count` branches nearest to `point`, nearest first (equal distances by id); fewer when
  /// fewer have a coordinate, none when `count` is zero or less. Branches without a coordinate
  /// are left out; shut stores are included (check their store status).
  public func nearest(to point: MartCoordinate, count: Int) -> [MartBranch] {
    guard count > 0 else { return [] }
    return Array(branches(near: point, withinMeters: .infinity).prefix(count))
  }

  /// The branches matching every word of `query` in their name, brand (Korean name or slug),
  /// banner or address (province, district, road or lot-number address), ignoring case and
  /// spaces: `잠실`, `이마트 창원`, `송파구`. Branches whose name holds the query come first, then
  /// by id. An empty query matches nothing.
  public func search(_ query: String) -> [MartBranch] {
    let terms = query.split(whereSeparator: \.isWhitespace).map { Self.folded(String($0)) }.filter { !$0.isEmpty }
    guard !terms.isEmpty else { return [] }
    let whole = terms.joined()
    var found: [(branch: MartBranch, rank: Int)] = []
    for branch in branches {
      let fields: [String?] = [
        branch.name, branch.brand.name, branch.brand.slug, branch.banner, branch.address.sido,
        branch.address.sigungu, branch.address.road, branch.address.jibun, branch.address.published,
      ]
      let haystack = Self.folded(fields.compactMap { $0 }.joined(separator: "\u{1F}"))
      guard terms.allSatisfy({ haystack.contains($0) }) else { continue }
      found.append((branch, Self.folded(branch.name).contains(whole) ? 0 : 1))
    }
    // `branches` is sorted by id, and a stable sort keeps that order within a rank.
    return found.enumerated().sorted { left, right in
      left.element.rank != right.element.rank ? left.element.rank < right.element.rank : left.offset < right.offset
    }.map(\.element.branch)
  }

  /// Text as search compares it: composed Hangul, lower case, without spaces.
  private static func folded(_ text: String) -> String {
    text.precomposedStringWithCanonicalMapping.lowercased().filter { !$0.isWhitespace }
  }

  /// The branches closed on `day` (status ``MartDayStatus/closed``), sorted by id: what a push
  /// server announces the evening before. Shut stores are not among them (see
  /// ``branchesShut(on:)``), nor branches whose day is unknown.
  public func branchesClosed(on day: MartDay) -> [MartBranch] {
    branches.filter { $0.status(on: day) == .closed }
  }

  /// The branches that do not trade on `day` (status ``MartDayStatus/shut``), sorted by id.
  public func branchesShut(on day: MartDay) -> [MartBranch] {
    branches.filter { $0.status(on: day) == .shut }
  }
}
