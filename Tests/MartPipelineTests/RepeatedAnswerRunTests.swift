import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartPipeline
import MartReplay
import ReplayTestSupport
import Synchronization
import TestSupport
import Testing

/// Live runs through mirrors that serve the recordings from loopback servers, one of them
/// sending a fifth of its answers twice on kept-alive connections (the copy at once or a little
/// later): no branch is published with another store's days; each brand is fresh and exact, or
/// stale.
@Suite(.serialized) struct RepeatedAnswerRunTests {
  let asOf = CalendarDate(iso: "2026-11-20")!

  /// The recorded hosts, and the brands whose source reads each.
  static let sites: [(host: String, brands: [BrandSlug])] = [
    ("my.homeplus.co.kr", HomeplusSource.brands), ("www.lotteon.com", LotteSuperSource.brands),
    ("company.lottemart.com", LotteDowaSource.brands), ("store.emart.com", EmartSource.brands),
    ("gsthefresh.gsretail.com", GSTheFreshSource.brands),
  ]

  /// One loopback server per recorded host; with `repeating`, every fifth answer of each is sent
  /// twice, the copy at once or 30 ms later in turn.
  func servers(repeating: Bool) throws -> [LocalHTTPServer] {
    let archive = try ReplayArchive.load(from: FixturePaths.web)
    return try Self.sites.map { site in
      let index = RecordingIndex(archive.restricted(toHosts: [site.host]))
      let answered = Atomic(0)
      return try LocalHTTPServer { request in
        guard let exchange = index.match(request, host: site.host) else { return .text("no recording\n", status: 404) }
        let response = ServerResponse(
          status: exchange.status, headers: exchange.headers.filter { $0.name.lowercased() != "content-encoding" },
          body: exchange.body)
        let count = answered.wrappingAdd(1, ordering: .relaxed).newValue
        guard repeating, count % 5 == 0 else { return response }
        return response.delivered(by: RepeatedAnswer(delay: count % 10 == 0 ? .zero : .milliseconds(30)))
      }
    }
  }

  func run(output: URL, through servers: [LocalHTTPServer]) async throws -> RunReport {
    var mirrors: [BrandSlug: String] = [:]
    for (site, server) in zip(Self.sites, servers) {
      for brand in site.brands { mirrors[brand] = server.baseURL }
    }
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, mirrors: mirrors, asOf: asOf, brands: Set(mirrors.keys), geocodingEnvironment: [:],
        politeness: PolitenessPolicy(maxConcurrentRequestsPerHost: 4, minimumDelay: .zero, jitter: .zero, obeysRobotsTxt: false),
        retry: FetchRetryPolicy(initialDelay: .milliseconds(10))))
    return result.report
  }

  /// Each published branch's closing days, by id.
  func closingDays(_ output: URL) throws -> [String: [String]] {
    let bundle = try #require(try BundleStore(outputDirectory: output).latest())
    return Dictionary(
      uniqueKeysWithValues: bundle.branches.branches.map { ($0.id.description, $0.closing.dates.map(\.iso)) })
  }

  @Test func aFifthOfAnswersSentTwicePublishesNoBranchWithAnotherStoresDays() async throws {
    let output = Scratch.directory.appendingPathComponent("repeated-\(UUID().uuidString)/output")
    let clean = try servers(repeating: false)
    let first = try await run(output: output, through: clean)
    clean.forEach { $0.stop() }
    #expect(
      first.brands.allSatisfy { $0.status == .fresh },
      "\(first.brands.map { "\($0.slug): \(String(describing: $0.status)) \($0.error ?? "")" }) \(first.errors.prefix(3))")
    let expected = try closingDays(output)

    let repeating = try servers(repeating: true)
    defer { repeating.forEach { $0.stop() } }
    let second = try await run(output: output, through: repeating)
    // Every brand is fresh (its pages proved themselves, or were asked again) or kept stale.
    #expect(
      second.brands.allSatisfy { [.fresh, .stale].contains($0.status) },
      "\(second.brands.map { "\($0.slug): \(String(describing: $0.status))" })")
    let published = try closingDays(output)
    #expect(
      Set(published.keys) == Set(expected.keys),
      "only now: \(Set(published.keys).subtracting(expected.keys).sorted()), gone: \(Set(expected.keys).subtracting(published.keys).sorted()), warnings: \(second.warnings.map(\.description).filter { $0.contains("asked") }.prefix(5))")
    let differing = published.filter { expected[$0.key] != $0.value }.keys.sorted()
    #expect(
      differing.isEmpty,
      "published with other days: \(differing.map { "\($0): \(published[$0] ?? []) for \(expected[$0] ?? [])" }); \(second.warnings.map(\.description).filter { $0.contains("emart") || $0.contains("area") || $0.contains("lotteon") }.prefix(8))")
  }
}
