import Foundation
import MartBrands
import MartCore
import MartFetch
import MartFiles
import MartProjection
import MartRegister

/// The national register of large stores as one more source of a run (LOCALDATA 대규모점포,
/// brand-sources.md §11.1): fetched through the run's fetch stack like the brands' pages (so
/// mirrors, replays, the archive and conditional requests apply), read, checked against the last
/// good register kept in the state directory, and kept there when it passes.
///
/// It lives here rather than among the brand sources: the register names stores by the brands'
/// own data (``StoreNameCatalog``), so it reads after them.
public struct RegisterStage: Sendable {
  /// What stands for the register in `--source register=URL`.
  public static let slug: BrandSlug = "register"
  /// The register's real origin, which mirrors and the replay server stand in for.
  public static var origin: String {
    guard let url = URL(string: RegisterDownload.url), let scheme = url.scheme, let host = url.host else {
      return RegisterDownload.url
    }
    return "\(scheme)://\(host)"
  }
  /// The register's site, for the run's origin routes.
  public static var site: OriginRoutes.Site { OriginRoutes.Site(brands: [slug], origin: origin) }

  /// The register's one request: the download, naming the page it is linked from as the
  /// server requires.
  public static let request = HTTPRequest.get(
    RegisterDownload.url, headers: [HTTPHeader("Referer", RegisterDownload.referer)])

  public let fetcher: any HTTPFetching
  /// Where the last good register is kept (`<state>/register/register.csv`); `nil` keeps none.
  public let lastGoodFile: URL?

  public init(fetcher: any HTTPFetching, lastGoodFile: URL?) {
    self.fetcher = fetcher
    self.lastGoodFile = lastGoodFile
  }

  /// A register as a run reads it: every row (closed ones too, for the cross-checks) and the
  /// stores the law binds.
  public struct Reading: Sendable {
    public var rows: [RegisterRow]
    public var listing: RegisterListing
    /// Whether the register was fetched in this run (`fetched`) or is the last good one (`kept`).
    public var origin: RegisterSummary.Origin
    /// Why this run's register was refused, when the last good one is read instead.
    public var refusal: String? = nil
  }

  /// The register of this run: the fetched one when it reads and passes ``RegisterSanity``,
  /// else the last good one with a warning, else none (with a warning). Never throws: the
  /// register adds to a run and never stops one.
  public func read(problems: inout RunProblems) async -> Reading? {
    let converter: RegisterCoordinateConverter
    do { converter = try RegisterCoordinateConverter() } catch {
      problems.warn(.register, "the register cannot be placed: \(error)")
      return nil
    }
    let selector = RegisterSelector(converter: converter)
    let lastGood = lastGoodFile.flatMap { try? Data(contentsOf: $0) }
    let lastGoodReading = lastGood.flatMap { data -> Reading? in
      guard let rows = try? RegisterReader.rows(data) else { return nil }
      return Reading(rows: rows, listing: selector.select(rows), origin: .kept)
    }
    func keptInstead(_ why: String) -> Reading? {
      let kept = lastGoodReading == nil ? "no register read" : "kept the last good register"
      problems.warn(.register, "\(RegisterDownload.url): \(why): \(kept)")
      var reading = lastGoodReading
      reading?.refusal = why
      return reading
    }

    let response: HTTPResponse
    do {
      response = try await fetcher.fetch(Self.request).requireSuccess()
    } catch {
      return keptInstead("\(error)")
    }
    let rows: [RegisterRow]
    do throws(RegisterError) { rows = try RegisterReader.rows(response.body) } catch {
      return keptInstead("\(error)")
    }
    let listing = selector.select(rows)
    let lastGoodOpen = lastGoodReading.map { $0.listing.stores.filter { $0.status == .open }.count }
    do throws(RegisterSanity.Refusal) { try RegisterSanity.check(listing, lastGoodOpenStores: lastGoodOpen) } catch {
      return keptInstead(error.description)
    }
    if let lastGoodFile, lastGood != response.body {
      do throws(FileError) {
        try Files.createDirectory(lastGoodFile.deletingLastPathComponent().path)
        try Files.replace(lastGoodFile.path, with: response.body, syncDirectory: true)
      } catch {
        problems.warn(.register, "the register could not be kept as the last good one: \(error)")
      }
    }
    return Reading(rows: rows, listing: listing, origin: .fetched)
  }

  /// The register's one request, as `probe` makes it: the download's status and how many open
  /// stores the law binds it lists (at least one, or it is no register).
  public func probe() async -> ProbePage {
    let response: HTTPResponse
    do {
      response = try await fetcher.fetch(Self.request)
    } catch {
      return ProbePage(url: RegisterDownload.url, status: nil, problem: "\(error)")
    }
    guard response.isSuccess else {
      return ProbePage(url: RegisterDownload.url, status: response.status, problem: "answered HTTP \(response.status)")
    }
    let rows: [RegisterRow]
    do throws(RegisterError) { rows = try RegisterReader.rows(response.body) } catch {
      return ProbePage(url: RegisterDownload.url, status: response.status, problem: "\(error)")
    }
    guard let converter = try? RegisterCoordinateConverter() else {
      return ProbePage(url: RegisterDownload.url, status: response.status, problem: "PROJ cannot place the register")
    }
    let open = RegisterSelector(converter: converter).select(rows).stores.filter { $0.status == .open }.count
    return ProbePage(
      url: RegisterDownload.url, status: response.status, counts: [ProbeCount("open stores the law binds", found: open)]
    )
  }

  /// Checks the published `branches` against `reading` on `asOf`
  /// (``RegisterCrossCheck/check(branches:rows:listing:selector:asOf:)``).
  public static func crossCheck(_ reading: Reading, branches: [Branch], asOf: CalendarDate) -> RegisterCrossCheck? {
    guard let converter = try? RegisterCoordinateConverter() else { return nil }
    // A register store's branch is the register's own: only the brands' sources are checked.
    let published = branches.filter { $0.source != .register }.map { branch in
      PublishedBranch(
        id: branch.id,
        point: branch.coordinate.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) },
        address: branch.address.road ?? branch.address.published, isTrading: branch.storeStatus.isTrading)
    }
    return RegisterCrossCheck.check(
      branches: published, rows: reading.rows, listing: reading.listing,
      selector: RegisterSelector(converter: converter), asOf: asOf)
  }
}
