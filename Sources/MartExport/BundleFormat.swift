import Foundation
import MartCore

/// The bundle format version. Clients check it before reading; it changes only when a
/// field is removed or changes meaning (new optional fields do not bump it).
public let bundleSchemaVersion = 1

/// `output/latest.json`: the pointer clients and jobs read first.
public struct LatestPointer: Codable, Hashable, Sendable {
  public var schemaVersion: Int
  /// The bundle's version, e.g. `2026-11-20-3f2a9c1d0b7e`.
  public var version: String
  /// The bundle's directory relative to the output directory, e.g. `bundles/2026-11-20-3f2a9c1d0b7e`.
  public var bundle: String
  public var asOf: CalendarDate
  /// SHA-256 of the bundle's `manifest.json`.
  public var manifestSHA256: String
}

/// `manifest.json` in each bundle: what the bundle holds and how to verify it.
public struct BundleManifest: Codable, Hashable, Sendable {
  public struct File: Codable, Hashable, Sendable {
    /// Path relative to the bundle directory.
    public var path: String
    public var sha256: String
    public var bytes: Int
  }

  public var schemaVersion: Int
  public var version: String
  public var asOf: CalendarDate
  /// The window of the concrete closing dates.
  public var window: DateWindow
  public var brands: [BrandSummary]
  public var files: [File]
}

/// One brand's state in a bundle.
public struct BrandSummary: Codable, Hashable, Sendable {
  public enum Freshness: String, Codable, Sendable {
    /// Fetched and parsed in this run.
    case fresh
    /// This run failed for the brand; its branches are carried over from the last good bundle.
    case stale
    /// No branches of the brand could be established, neither now nor in an earlier bundle.
    case missing
  }

  public var slug: BrandSlug
  public var name: String
  public var branchCount: Int
  public var freshness: Freshness
  /// The as-of date of the run that last fetched this brand successfully.
  public var lastFetchedAsOf: CalendarDate

  public init(slug: BrandSlug, branchCount: Int, freshness: Freshness, lastFetchedAsOf: CalendarDate) {
    self.slug = slug
    self.name = slug.koreanName
    self.branchCount = branchCount
    self.freshness = freshness
    self.lastFetchedAsOf = lastFetchedAsOf
  }
}

/// `branches.json`: every branch of every brand in the bundle, sorted by id.
public struct BranchesFile: Codable, Hashable, Sendable {
  public var schemaVersion: Int
  public var asOf: CalendarDate
  public var window: DateWindow
  public var branches: [Branch]
}

/// `brands/<slug>.json` has the same shape as `branches.json`, holding one brand's branches.
public typealias BrandFile = BranchesFile

/// `index.json`: one compact row per branch, for search and maps.
public struct IndexFile: Codable, Hashable, Sendable {
  public struct Row: Codable, Hashable, Sendable {
    public var id: BranchID
    public var brand: BrandSlug
    public var name: String
    public var sido: String?
    public var sigungu: String?
    public var latitude: Double?
    public var longitude: Double?

    public init(_ branch: Branch) {
      self.id = branch.id
      self.brand = branch.brand
      self.name = branch.name
      self.sido = branch.address.sido
      self.sigungu = branch.address.sigungu
      self.latitude = branch.coordinate?.latitude
      self.longitude = branch.coordinate?.longitude
    }
  }

  public var schemaVersion: Int
  /// Sorted by id.
  public var branches: [Row]

  public init(branches: [Branch]) {
    self.schemaVersion = bundleSchemaVersion
    self.branches = branches.sorted { $0.id < $1.id }.map(Row.init)
  }
}

/// `closures.json`: which branches close on which day, for push servers and "closed today"
/// views. Only days with at least one closure are listed; ids are sorted.
public struct ClosuresFile: Codable, Hashable, Sendable {
  public var schemaVersion: Int
  public var window: DateWindow
  /// `YYYY-MM-DD` → ids of the branches closed that day.
  public var dates: [String: [BranchID]]

  public init(branches: [Branch], window: DateWindow) {
    var dates: [String: [BranchID]] = [:]
    for branch in branches {
      for date in branch.closing.dates where date >= window.from && date <= window.through {
        dates[date.iso, default: []].append(branch.id)
      }
    }
    self.schemaVersion = bundleSchemaVersion
    self.window = window
    self.dates = dates.mapValues { $0.sorted() }
  }
}

/// The one JSON encoding used for every bundle file: canonical JSON (compact, sorted keys,
/// unescaped UTF-8 and slashes, `null` for absent optionals) and a final newline, so equal
/// content gives equal bytes.
public enum BundleJSON {
  public static func encode(_ value: some Encodable) throws -> Data {
    var data = try CanonicalJSON.encode(value)
    data.append(0x0A)
    return data
  }

  public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try JSONDecoder().decode(T.self, from: data)
  }
}
