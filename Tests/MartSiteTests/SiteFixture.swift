import Foundation
import TestSupport
import Testing

/// The bundle the README's bootstrap publishes (a replay of every recorded brand in
/// fixtures/web), made once by the built `mart-holiday`, and sites built from it by the `site`
/// command.
enum SiteFixture {
  /// The executable beside this test bundle in the build folder.
  static let binary: URL = {
    let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return testExecutable.deletingLastPathComponent().appendingPathComponent("mart-holiday")
  }()

  /// A fresh folder for one test.
  static func temporaryDirectory() throws -> URL {
    let url = Scratch.directory.appendingPathComponent("site-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The bootstrap output directory (`run --replay fixtures/web`), made once per test process.
  static let bootstrapOutput: Result<URL, any Error> = Result {
    let work = try temporaryDirectory()
    let output = work.appendingPathComponent("output")
    let outcome = try ProcessRunner.run(
      binary,
      ["run", "--replay", FixturePaths.web.path, "--output", output.path, "--state", work.appendingPathComponent("state").path],
      in: FixturePaths.repositoryRoot)
    guard outcome.status == 0 else {
      throw SiteFixtureError(message: "bootstrap run failed (\(outcome.status)): \(outcome.stderrText)")
    }
    return output
  }

  /// `mart-holiday site` of the bootstrap output into a new folder, once per process (and per
  /// base URL).
  static let bootstrapSite: Result<URL, any Error> = Result { try buildSite(baseURL: nil) }
  static let bootstrapSiteWithBase: Result<URL, any Error> = Result {
    try buildSite(baseURL: "https://example.org/mart/")
  }

  static func buildSite(baseURL: String?) throws -> URL {
    let output = try bootstrapOutput.get()
    let site = try temporaryDirectory().appendingPathComponent("site")
    let outcome = try ProcessRunner.run(
      binary, ["site", output.path, "--to", site.path] + (baseURL.map { ["--base-url", $0] } ?? []))
    guard outcome.status == 0 else {
      throw SiteFixtureError(message: "site failed (\(outcome.status)): \(outcome.stderrText)")
    }
    return site
  }

  /// The bootstrap bundle's `branches.json` and as-of day, read as plain JSON (not through the
  /// code under test).
  static func publishedBranches() throws -> (asOf: String, window: (from: String, through: String), branches: [[String: Any]]) {
    let output = try bootstrapOutput.get()
    let latest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("latest.json"))) as? [String: Any])
    let bundle = try #require(latest["bundle"] as? String)
    let file = try #require(
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: output.appendingPathComponent(bundle).appendingPathComponent("branches.json")))
        as? [String: Any])
    let window = try #require(file["window"] as? [String: String])
    return (
      try #require(latest["asOf"] as? String), (try #require(window["from"]), try #require(window["through"])),
      try #require(file["branches"] as? [[String: Any]])
    )
  }

  /// Every regular file under `root`, by path relative to it.
  static func files(under root: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
    while let path = enumerator.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let url = root.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files[path] = try Data(contentsOf: url)
      }
    }
    return files
  }
}

struct SiteFixtureError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
