import Foundation

/// Locations of the repository's fixtures, found from this source file so tests run from any
/// working directory.
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

  /// Reads a file under `fixtures/`, failing loudly (never silently) when it is missing.
  public static func data(_ relativePath: String) throws -> Data {
    try Data(contentsOf: fixtures.appendingPathComponent(relativePath))
  }
}
