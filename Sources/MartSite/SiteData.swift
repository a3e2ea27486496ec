import MartCore
import MartExport

/// Everything the pages are rendered from: one published bundle, read and checked, arranged by
/// brand and district. Pure data; nothing here reads or writes a file.
public struct SiteData: Sendable {
  /// The bundle's version, as-of day and window.
  let version: String
  let asOf: CalendarDate
  let window: DateWindow
  /// The manifest's brands, in its order.
  let brands: [BrandSummary]
  /// Every published branch, sorted by id, with its days.
  let branches: [BranchDays]
  /// Each district's pattern (`districts.json`), by district.
  let patterns: [District: DistrictsFile.Entry]
  /// The calendars to publish beside the pages: site path → bytes of the bundle's `.ics`.
  let calendars: [String: [UInt8]]
  /// The absolute URL the site is served under, ending in `/`, or `nil`.
  let baseURL: String?
  /// The positions in ``branches`` of the branches with a coordinate, by latitude: the nearby
  /// branches of one are found among a band of latitudes, not among all.
  private let byLatitude: [(latitude: Double, position: Int)]

  /// - Parameters:
  ///   - calendars: each branch's and brand's `.ics` by bundle path (`calendars/branches/<id>.ics`).
  ///   - baseURL: where the site is served (canonical links and `sitemap.xml`); a `/` is added
  ///     when missing.
  public init(
    bundle: PublishedBundle, districts: DistrictsFile?, calendars: [String: [UInt8]], baseURL: String?
  ) {
    version = bundle.manifest.version
    asOf = bundle.manifest.asOf
    window = bundle.manifest.window
    brands = bundle.manifest.brands
    branches = bundle.branches.branches.sorted { $0.id < $1.id }.map {
      BranchDays($0, day: bundle.manifest.day)
    }
    var patterns: [District: DistrictsFile.Entry] = [:]
    for entry in districts?.districts ?? [] {
      patterns[District(sido: entry.sido, sigungu: entry.sigungu)] = entry
    }
    self.patterns = patterns
    byLatitude = branches.enumerated().compactMap { position, days in
      days.branch.coordinate.map { ($0.latitude, position) }
    }.sorted { ($0.latitude, $0.position) < ($1.latitude, $1.position) }
    self.calendars = calendars
    self.baseURL = baseURL.map { base in
      // Non-ASCII characters percent-encoded, as a sitemap's URLs must be (sitemaps.org, "Entity escaping").
      let encoded = base.unicodeScalars.map { $0.isASCII ? String($0) : SitePaths.encode(String($0)) }.joined()
      return encoded.hasSuffix("/") ? encoded : encoded + "/"
    }
  }

  var tomorrow: CalendarDate { asOf.adding(days: 1) }

  func brandName(_ slug: BrandSlug) -> String {
    brands.first { $0.slug == slug }?.name ?? slug.rawValue
  }

  func summary(of slug: BrandSlug) -> BrandSummary? { brands.first { $0.slug == slug } }

  func branches(of slug: BrandSlug) -> [BranchDays] { branches.filter { $0.branch.brand == slug } }

  /// The branches of each district, districts sorted by 시도 then 시·군·구.
  var districts: [(district: District, branches: [BranchDays])] {
    var grouped: [District: [BranchDays]] = [:]
    for days in branches {
      if let district = District(days.branch.address) { grouped[district, default: []].append(days) }
    }
    return grouped.keys.sorted().map { ($0, grouped[$0]!) }
  }

  /// The name a person knows a branch by: `이마트 창원점`, `홈플러스 스페셜 광주하남점`.
  func displayName(_ branch: Branch) -> String {
    "\(branch.banner ?? brandName(branch.brand)) \(branch.name)"
  }

  /// Up to `count` trading branches within `radius` metres of `days`' branch that are open on
  /// `day`, nearest first (ties by id).
  func nearbyOpen(to days: BranchDays, on day: CalendarDate, count: Int = 5, radius: Double = 10_000)
    -> [(branch: BranchDays, metres: Double)]
  {
    guard let origin = days.branch.coordinate?.point else { return [] }
    // A degree of latitude is about 111 km everywhere; the band is a little wider than the radius.
    let band = radius / 110_000
    var low = 0
    var high = byLatitude.count
    while low < high {
      let middle = (low + high) / 2
      if byLatitude[middle].latitude < origin.latitude - band { low = middle + 1 } else { high = middle }
    }
    var found: [(branch: BranchDays, metres: Double)] = []
    for entry in byLatitude[low...] {
      guard entry.latitude <= origin.latitude + band else { break }
      let other = branches[entry.position]
      guard other.branch.id != days.branch.id, let point = other.branch.coordinate?.point else { continue }
      let metres = origin.distance(to: point)
      if metres <= radius, other.status(on: day) == .open { found.append((other, metres)) }
    }
    return Array(
      found.sorted { ($0.metres, $0.branch.branch.id) < ($1.metres, $1.branch.branch.id) }.prefix(count))
  }
}
