import Foundation

/// Locations of the repository's fixtures, found from this source file so tests run from any
/// working directory.
///
/// Published fixtures: a test that starts from "an output directory with the recordings
/// published" takes a copy of one publishing run per test process instead of publishing again.
/// The command-line tests call `PublishedOutput.copy("label")` (MartCLITests/PublishedOutput.swift:
/// the built binary's `run --replay fixtures/web`, the state directory copied beside the output);
/// the kit's tests `PublishedFixtures.shared.copy()` (MartHolidayKitTests). Only a test of
/// publishing itself runs the publishing command from scratch.
///
/// Time: the fetch layers wait on a `FetchClock` (`FetchStack(clock:)`); tests give them a
/// `ManualClock` (ReplayTestSupport), whose waits return at once and are recorded, and assert
/// the waits exactly instead of sleeping on the real clock.
public enum FixturePaths {
  /// The repository root (the folder holding Package.swift).
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // TestSupport
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

  /// `fixtures/`.
  public static let fixtures = repositoryRoot.appendingPathComponent("fixtures")

  /// `fixtures/web/`: the recorded responses served by the replay server.
  public static let web = fixtures.appendingPathComponent("web")

  /// `fixtures/web-older/`: older forms of some brand pages (sites flip back), for the tests
  /// of the fallbacks.
  public static let olderWeb = fixtures.appendingPathComponent("web-older")

  /// Reads a file under `fixtures/`, failing loudly (never silently) when it is missing.
  public static func data(_ relativePath: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(relativePath))
  }
}

extension FixturePaths {
  /// `fixtures/branch-counts.json`: how many branches each brand's recordings hold (slug →
  /// count), as a replay of `fixtures/web/` publishes them. A new brand adds its line with its
  /// recordings, so the replay tests follow without an edit.
  public static func branchCounts() throws -> [String: Int] {
    struct File: Decodable { var branches: [String: Int] }
    return try JSONDecoder().decode(File.self, from: data("branch-counts.json")).branches
  }

  /// The branches a replay of `fixtures/web/` publishes: the sum of ``branchCounts()``.
  public static func branchTotal() throws -> Int { try branchCounts().values.reduce(0, +) }

  /// The stores outside the brands that a replay of every brand publishes from the register
  /// recording (`fixtures/README.md`, `register/`), by register brand.
  public static let registerStoreCounts = ["independent-mart": 3, "kimsclub": 1, "nonghyup-hanaro": 1, "topmart": 1]

  /// What a replay of every brand that reads the register recording publishes, by brand: the
  /// brands' branches and the register stores.
  public static func replayCounts() throws -> [String: Int] {
    try branchCounts().merging(registerStoreCounts) { first, _ in first }
  }

  /// The sum of ``replayCounts()``.
  public static func replayTotal() throws -> Int { try replayCounts().values.reduce(0, +) }
}
