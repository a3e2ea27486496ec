import Foundation
import MartExport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `kill -9` at any moment of a run must leave a complete, verifiable bundle published:
/// the previous one or the new one, never a partial one.
@Suite struct KilledRunTests {
  @Test func aRunKilledAtAnyMomentLeavesAValidBundle() async throws {
    // The first run, as of the recordings' day, published the shared output this starts from.
    let output = try PublishedOutput.copy("killed")
    let store = BundleStore(outputDirectory: output)

    func start(asOf: String, brands: [String] = []) throws -> Process {
      let process = Process()
      process.executableURL = CommandLineContractTests.binary
      process.arguments =
        ["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", asOf]
        + brands.flatMap { ["--brand", $0] }
      process.currentDirectoryURL = FixturePaths.repositoryRoot
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      return process
    }

    var published = Set([try #require(try store.latest()).pointer.version])

    // Each run has a different as-of date in the recorded months, so each run that completes
    // publishes a new version.
    var generator = SystemRandomNumberGenerator()
    for day in 21...30 {
      let asOf = "2026-11-\(day)"
      let process = try start(asOf: asOf)
      try await Task.sleep(for: .milliseconds(Int.random(in: 0...250, using: &generator)))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let latest = try #require(try store.latest(), "after a kill during the run for \(asOf)")
      #expect(latest.branches.branches.count == (try FixturePaths.replayTotal()))
      published.insert(latest.pointer.version)
    }
    // Whatever was published is one of the complete bundles; staging leftovers are never used.
    let bundles = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("bundles").path)
    for version in published { #expect(bundles.contains(version)) }
    // And the bundle latest.json names passes every check, derived files and calendars included.
    let current = try #require(try store.latest()).directory
    let validate = try CommandLineContractTests().run(["validate", current.path])
    #expect(validate.status == 0, "stderr: \(validate.stderr)")
    // current/ follows latest.json right after each publish; a kill in between leaves it one
    // bundle behind until the next run, which brings it in line (as of the last day asked, so
    // that no earlier day is published over a later one). A run of one brand does, as a run of
    // every brand would, at a fraction of the cost.
    let next = try start(asOf: "2026-11-30", brands: ["megamart"])
    next.waitUntilExit()
    let whole = try CommandLineContractTests().run(["validate", output.path])
    #expect(whole.status == 0, "stderr: \(whole.stderr)")
  }
}
