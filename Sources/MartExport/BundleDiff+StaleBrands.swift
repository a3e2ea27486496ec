import Foundation
import MartCore

extension BundleDiff {
  /// A brand stale in the new bundle, whether or not it was stale in the old one: a stale brand
  /// is told on every diff, so that it never goes quiet.
  public struct StaleBrand: Hashable, Sendable, Encodable {
    public var brand: BrandSlug
    /// The Korean name, as the manifests give it.
    public var name: String
    /// The as-of date of its last good fetch (its `lastFetchedAsOf`); `nil` when never fetched.
    public var staleSince: CalendarDate?
    /// The days from ``staleSince`` to the new bundle's as-of date.
    public var daysStale: Int?
    /// Why the run that made the new bundle could not fetch it (that run's `report.json`), when
    /// known: ``BundleDiff/withStaleBrandErrors(_:)``.
    public var lastError: String?

    private enum CodingKeys: String, CodingKey { case brand, name, staleSince, daysStale, lastError }

    /// Every key, `null` when unknown.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(brand, forKey: .brand)
      try container.encode(name, forKey: .name)
      try container.encode(staleSince, forKey: .staleSince)
      try container.encode(daysStale, forKey: .daysStale)
      try container.encode(lastError, forKey: .lastError)
    }
  }

  /// This diff with each stale brand's ``StaleBrand/lastError`` from `errors` (brand → the
  /// error the run that made the new bundle gave it).
  public func withStaleBrandErrors(_ errors: [BrandSlug: String]) -> BundleDiff {
    var copy = self
    for index in copy.staleBrands.indices {
      copy.staleBrands[index].lastError = errors[copy.staleBrands[index].brand]
    }
    return copy
  }

  /// `stale since 2026-11-20 (3 days): <why>`, for the text and Markdown forms.
  static func staleText(_ stale: StaleBrand) -> String {
    let since = stale.staleSince.map { "stale since \($0.iso)" } ?? "stale, never fetched"
    let days = stale.daysStale.map { " (\(DisplayText.count($0, "day")))" } ?? ""
    return since + days + (stale.lastError.map { ": \($0)" } ?? "")
  }

  /// Each brand's `error` in the `report.json` of the output directory `directory`, when that
  /// report is of the run that published bundle `version` (its `published.version`); empty when
  /// `directory` is a bundle directory, holds no such report, or the report is of another run.
  /// What a stale brand last failed with, for ``withStaleBrandErrors(_:)``.
  public static func brandErrors(inOutput directory: URL, version: String) -> [BrandSlug: String] {
    struct Report: Decodable {
      struct Published: Decodable { var version: String }
      struct Brand: Decodable {
        var slug: String
        var error: String?
      }
      var published: Published?
      var brands: [Brand]
    }
    let file = directory.appendingPathComponent("report.json")
    guard let data = FileManager.default.contents(atPath: file.path),
      let report = try? JSONDecoder().decode(Report.self, from: data), report.published?.version == version
    else { return [:] }
    var errors: [BrandSlug: String] = [:]
    for brand in report.brands {
      if let error = brand.error, let slug = BrandSlug(rawValue: brand.slug) { errors[slug] = error }
    }
    return errors
  }
}
