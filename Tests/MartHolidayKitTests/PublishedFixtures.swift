import Foundation
import MartCore
import MartFetch
import MartFiles
import MartGeocoding
import MartHolidayKit
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// The output directory of one replay of `fixtures/web`, published the way `mart-holiday run
/// --replay` publishes it (the process's one ``ReplayedFixtures`` run, shared with the pipeline's
/// tests), read by the kit's tests (which copy it before changing anything).
actor PublishedFixtures {
  static let shared = PublishedFixtures()
  static let asOf = ReplayedFixtures.asOf

  private var loaded: MartBundle?

  /// The output directory, published on first use.
  func output() async throws -> URL {
    try await ReplayedFixtures.shared.published().output
  }

  /// The published bundle as the kit loads it, loaded once.
  func bundle() async throws -> MartBundle {
    if let loaded { return loaded }
    let bundle = try MartBundle(contentsOf: try await output())
    loaded = bundle
    return bundle
  }

  /// A private copy of the published output directory, to damage or serve.
  func copy() async throws -> URL {
    let copy = Scratch.directory.appendingPathComponent("kit-copy-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: try await output(), to: copy)
    return copy
  }
}

/// The published bundle's files as plain JSON, read without the kit or the pipeline's types, so
/// that expectations do not come from the code under test.
struct RawBundle {
  var directory: URL
  var latest: [String: Any]
  var manifest: [String: Any]
  var branches: [[String: Any]]
  var closures: [String: Any]

  init(output: URL) throws {
    latest = try Self.object(output.appendingPathComponent("latest.json"))
    directory = output.appendingPathComponent(try #require(latest["bundle"] as? String))
    manifest = try Self.object(directory.appendingPathComponent("manifest.json"))
    let file = try Self.object(directory.appendingPathComponent("branches.json"))
    branches = try #require(file["branches"] as? [[String: Any]])
    closures = try Self.object(directory.appendingPathComponent("closures.json"))
  }

  static func object(_ url: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
  }

  var asOf: String { latest["asOf"] as? String ?? "" }
  var window: (from: String, through: String) {
    let window = manifest["window"] as? [String: String] ?? [:]
    return (window["from"] ?? "", window["through"] ?? "")
  }

  /// The bundle's files: path relative to the bundle, SHA-256, size.
  var files: [(path: String, sha256: String, bytes: Int)] {
    (manifest["files"] as? [[String: Any]] ?? []).map {
      ($0["path"] as? String ?? "", $0["sha256"] as? String ?? "", $0["bytes"] as? Int ?? -1)
    }
  }
}

/// Every day from `from` through `through`, as `YYYY-MM-DD` strings, counted with Foundation's
/// Gregorian calendar (not with the code under test).
func isoDays(from: String, through: String) -> [String] {
  let formatter = DateFormatter()
  formatter.calendar = Calendar(identifier: .gregorian)
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = TimeZone(identifier: "UTC")
  formatter.dateFormat = "yyyy-MM-dd"
  guard var day = formatter.date(from: from), let last = formatter.date(from: through) else { return [] }
  var days: [String] = []
  while day <= last {
    days.append(formatter.string(from: day))
    day = day.addingTimeInterval(86_400)
  }
  return days
}
