import Foundation
import MartCore
import MartExport
import MartFiles

/// `report.json` as the report page reads it: the run's outcome, brands, problems and change.
///
/// The pipeline writes the file (`RunReport`); this is a reading of its documented fields that
/// does not depend on the pipeline, so any published output can be rendered. Fields an older
/// report lacks are read as absent.
public struct RunReportFile: Decodable, Sendable {
  /// A warning or an error of the run.
  public struct Problem: Decodable, Sendable, Hashable {
    public var brand: BrandSlug?
    /// The branch id as written (`emart-1059`).
    public var branch: String?
    /// `brand-failed`, `address`, `closing-days`, …
    public var kind: String
    public var message: String
  }

  /// The run's bundle against the one `latest.json` named before it.
  public struct Change: Decodable, Sendable, Hashable {
    /// Each brand's branch count before and now.
    public struct BranchCount: Decodable, Sendable, Hashable {
      public var previous: Int
      public var now: Int
    }
    /// `new`, `unchanged` or `none`.
    public var bundle: String
    public var previousVersion: String?
    /// Slug → counts, for the brands whose count changed.
    public var branchCounts: [String: BranchCount]
    public var closingDaysChanged: Int
    /// The bundle files the run wrote and those it hard-linked to the previous bundle's; absent
    /// in reports written before the field existed.
    public var files: BundleFileCounts?
  }

  /// A branch that does not trade.
  public struct NotTrading: Decodable, Sendable, Hashable {
    public var id: String
    public var state: String
    public var until: CalendarDate?
  }

  public var toolVersion: String?
  public var startedAt: String?
  public var finishedAt: String?
  public var asOf: CalendarDate
  public var window: DateWindow
  /// `published`, `published-with-stale-brands`, `published-with-missing-brands`, `failed`, `cancelled`.
  public var outcome: String
  public var published: LatestPointer?
  public var change: Change?
  public var brands: [BrandSummary]
  public var branchesWithoutCoordinates: [String]
  public var branchesWithUnknownClosingDays: [String]
  public var branchesNotTrading: [NotTrading]
  public var warnings: [Problem]
  public var errors: [Problem]
  /// What the national register of large stores said, when the run read one.
  public var register: RegisterFindings?

  private enum CodingKeys: String, CodingKey {
    case toolVersion, startedAt, finishedAt, asOf, window, outcome, published, change, brands
    case branchesWithoutCoordinates, branchesWithUnknownClosingDays, branchesNotTrading, warnings, errors
    case register
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    toolVersion = try container.decodeIfPresent(String.self, forKey: .toolVersion)
    startedAt = try container.decodeIfPresent(String.self, forKey: .startedAt)
    finishedAt = try container.decodeIfPresent(String.self, forKey: .finishedAt)
    asOf = try container.decode(CalendarDate.self, forKey: .asOf)
    window = try container.decode(DateWindow.self, forKey: .window)
    outcome = try container.decode(String.self, forKey: .outcome)
    published = try container.decodeIfPresent(LatestPointer.self, forKey: .published)
    change = try container.decodeIfPresent(Change.self, forKey: .change)
    brands = try container.decodeIfPresent([BrandSummary].self, forKey: .brands) ?? []
    branchesWithoutCoordinates =
      try container.decodeIfPresent([String].self, forKey: .branchesWithoutCoordinates) ?? []
    branchesWithUnknownClosingDays =
      try container.decodeIfPresent([String].self, forKey: .branchesWithUnknownClosingDays) ?? []
    branchesNotTrading = try container.decodeIfPresent([NotTrading].self, forKey: .branchesNotTrading) ?? []
    warnings = try container.decodeIfPresent([Problem].self, forKey: .warnings) ?? []
    errors = try container.decodeIfPresent([Problem].self, forKey: .errors) ?? []
    register = try container.decodeIfPresent(RegisterFindings.self, forKey: .register)
  }

  /// Reads `report.json`.
  public static func read(_ url: URL) throws(FileError) -> RunReportFile {
    let data: Data
    do { data = try Data(contentsOf: url) } catch {
      throw FileError(.read, path: url.path, message: "cannot read: \(error.localizedDescription)")
    }
    return try decode(data, path: url.path)
  }

  /// Decodes the bytes of `report.json`; `path` names them in the error.
  static func decode(_ data: Data, path: String) throws(FileError) -> RunReportFile {
    do { return try JSONDecoder().decode(RunReportFile.self, from: data) } catch {
      throw FileError(.malformed, path: path, message: "not a run report", cause: error)
    }
  }

  /// Whether the run made a bundle current (with or without stale or missing brands).
  public var didPublish: Bool { outcome.hasPrefix("published") }

  /// The errors of what follows `latest.json` that the run could not write (kinds `current`
  /// and `report`): a run with any exits 1 though it published.
  public var unfinishedSteps: [Problem] { errors.filter { $0.kind == "current" || $0.kind == "report" } }

  /// The step an unfinished-output error names: `current/`, or `report.json and report.html`.
  static func step(of problem: Problem) -> String {
    problem.kind == "current" ? "current/" : "the report"
  }

  /// The brand of a branch id written in the report, among `brands` (slugs may hold hyphens: the
  /// longest slug that prefixes the id wins).
  static func brand(of id: String, among brands: [BrandSlug]) -> BrandSlug? {
    brands.filter { id.hasPrefix($0.rawValue + "-") }.max { $0.rawValue.count < $1.rawValue.count }
  }
}
