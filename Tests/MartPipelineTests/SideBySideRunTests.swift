import Foundation
import MartCore
import MartFetch
import MartGeocoding
import MartPipeline
import TestSupport
import Testing

/// A whole run over the fixtures, its independent pages fetched one at a time and eight at a
/// time per host: what it publishes must not depend on the order the answers came back in.
@Suite struct SideBySideRunTests {
  /// A replay of `fixtures/web` at `maxPerHost` requests per host: every file of its output
  /// but the run's report (which says when the run started and how long it took), by path
  /// below the output folder.
  private func publishedFiles(maxPerHost: Int) async throws -> [String: Data] {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("output-\(UUID().uuidString)")
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: CalendarDate(iso: "2026-11-20")!,
        geocodingRetryPolicy: .immediate,
        politeness: PolitenessPolicy(maxConcurrentRequestsPerHost: maxPerHost, minimumDelay: .zero, jitter: .zero)))
    #expect(result.report.outcome == .published)
    #expect(result.unmatchedReplayRequests.isEmpty)
    var files: [String: Data] = [:]
    let root = output.resolvingSymlinksInPath().path + "/"
    let walk = try #require(FileManager.default.enumerator(at: output, includingPropertiesForKeys: [.isRegularFileKey]))
    for case let url as URL in walk where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
      let path = String(url.resolvingSymlinksInPath().path.dropFirst(root.count))
      guard !path.hasPrefix("report.") else { continue }
      files[path] = try Data(contentsOf: url)
    }
    for folder in [output, RunConfiguration.defaultStateDirectory(for: output)]
    where FileManager.default.fileExists(atPath: folder.path) {
      try FileManager.default.removeItem(at: folder)
    }
    return files
  }

  @Test func aRunPublishesTheSameBytesAtOneAndAtEightRequestsPerHost() async throws {
    let one = try await publishedFiles(maxPerHost: 1)
    let eight = try await publishedFiles(maxPerHost: 8)
    #expect(one.keys.contains { $0.hasPrefix("bundles/") })
    #expect(one.keys.sorted() == eight.keys.sorted())
    for (path, bytes) in one.sorted(by: { $0.key < $1.key }) {
      #expect(eight[path] == bytes, "\(path) differs between 1 and 8 requests per host")
    }
  }
}
