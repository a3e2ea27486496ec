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

/// The one JSON encoding used for every bundle file: sorted keys, pretty, no escaped slashes,
/// so equal content gives equal bytes and diffs stay readable.
public enum BundleJSON {
  public static func encode(_ value: some Encodable) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    var data = try encoder.encode(value)
    data.append(0x0A)
    return data
  }

  public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    try JSONDecoder().decode(T.self, from: data)
  }
}
