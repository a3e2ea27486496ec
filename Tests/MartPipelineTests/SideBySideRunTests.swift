import Foundation
import MartCore
import MartFetch
import MartGeocoding
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// A whole run over the fixtures, its independent pages fetched one at a time and eight at a
/// time per host: what it publishes must not depend on the order the answers came back in.
@Suite struct SideBySideRunTests {
  /// A replay of `fixtures/web` at `maxPerHost` requests per host: every file of its output
  /// but the run's report (which says when the run started and how long it took), by path
  /// below the output folder.
  private func publishedFiles(maxPerHost: Int) async throws -> [String: Data] {
    let output = Scratch.directory.appendingPathComponent("output-\(UUID().uuidString)")
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: CalendarDate(iso: "2026-11-20")!,
        geocodingRetryPolicy: .immediate,
        politeness: PolitenessPolicy(maxConcurrentRequestsPerHost: maxPerHost, minimumDelay: .zero, jitter: .zero)))
    #expect(result.report.outcome == .published)
    #expect(result.unmatchedReplayRequests.isEmpty)
    let files = try Self.files(under: output)
    for folder in [output, RunConfiguration.defaultStateDirectory(for: output)]
    where FileManager.default.fileExists(atPath: folder.path) {
      try FileManager.default.removeItem(at: folder)
    }
    return files
  }

  /// Every file of the output folder `output` but the run's report, by path below it.
  private static func files(under output: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let root = output.resolvingSymlinksInPath().path + "/"
    let walk = try #require(FileManager.default.enumerator(at: output, includingPropertiesForKeys: [.isRegularFileKey]))
    for case let url as URL in walk where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
      let path = String(url.resolvingSymlinksInPath().path.dropFirst(root.count))
      guard !path.hasPrefix("report.") else { continue }
      files[path] = try Data(contentsOf: url)
    }
    return files
  }

  /// The process's one replay of `fixtures/web` (``ReplayedFixtures``): a run as of the same day
  /// at the default one request per host (a replay keeps no delay), which
  /// ``publishedFiles(maxPerHost:)`` would make again for 1.
  private func filesAtOneRequestPerHost() async throws -> [String: Data] {
    let published = try await ReplayedFixtures.shared.published()
    #expect(PolitenessPolicy().maxConcurrentRequestsPerHost == 1)
    #expect(published.report.outcome == .published)
    #expect(published.result.unmatchedReplayRequests.isEmpty)
    return try Self.files(under: published.output)
  }

  @Test func aRunPublishesTheSameBytesAtOneAndAtEightRequestsPerHost() async throws {
    let one = try await filesAtOneRequestPerHost()
    let eight = try await publishedFiles(maxPerHost: 8)
    #expect(one.keys.contains { $0.hasPrefix("bundles/") })
    #expect(one.keys.sorted() == eight.keys.sorted())
    for (path, bytes) in one.sorted(by: { $0.key < $1.key }) {
      #expect(eight[path] == bytes, "\(path) differs between 1 and 8 requests per host")
    }
  }
}
