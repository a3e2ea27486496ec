import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartPipeline
import MartRegister
import MartReplay
import Synchronization
import TestSupport
import Testing

/// The register brands when the register goes stale (docs/cli.md, "The register in a run"): a
/// register the run refuses (an HTTP error, a page instead of the file, columns missing, far
/// fewer open stores) leaves the register brands `stale` with the last bundle's branches, or,
/// with no bundle yet, made from the last good register; nothing is lost, the run exits `2`,
/// and the next good register makes them fresh again. Runs of every brand of one source against
/// its recorded pages and a register mirror on 127.0.0.1.
@Suite(.serialized) struct RegisterStaleRunTests {
  /// The six open stores of the recorded register that no brand source covers (fixtures/README.md).
  static let registerStores = [
    "independent-mart-2011469010807500001", "independent-mart-2015416010807500003",
    "independent-mart-2019333020207500001", "kimsclub-2003322010807500004", "nonghyup-hanaro-2008321010807500005",
    "topmart-2010329010807500002",
  ]
  static let registerBrands: [BrandSlug] = ["independent-mart", "kimsclub", "nonghyup-hanaro", "topmart"]

  /// How the register can be broken on a later day.
  enum Breakage: String, CaseIterable, Sendable {
    case httpError, htmlPage, missingColumns, farFewerStores
  }

  /// The register mirror: answers whatever it was last told to serve, and counts the requests.
  final class RegisterMirror: Sendable {
    final class State: Sendable {
      let answer: Mutex<ServerResponse>
      let requests = Mutex(0)
      init(_ answer: ServerResponse) { self.answer = Mutex(answer) }
    }
    let state: State
    let server: LocalHTTPServer

    init(_ first: ServerResponse) throws {
      let state = State(first)
      self.state = state
      self.server = try LocalHTTPServer { _ in
        state.requests.withLock { $0 += 1 }
        return state.answer.withLock { $0 }
      }
    }

    var requestCount: Int { state.requests.withLock { $0 } }

    func serve(_ response: ServerResponse) { state.answer.withLock { $0 = response } }
  }

  static func csv(_ body: Data) -> ServerResponse {
    ServerResponse(status: 200, headers: [HTTPHeader("Content-Type", "text/csv")], body: body)
  }

  static func fullRegister() throws -> Data { try FixturePaths.data("register/register-2026.csv") }

  /// The answer of a broken register, and what its `register` warning names.
  static func broken(_ breakage: Breakage) throws -> (response: ServerResponse, warns: String) {
    let full = try fullRegister()
    var lines = full.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Data($0) }
    switch breakage {
    case .httpError:
      return (.text("Service Unavailable", status: 503), "503 Service Unavailable")
    case .htmlPage:
      return (
        .text("<!DOCTYPE html><html><body>로그인이 필요합니다</body></html>", contentType: "text/html"),
        "an HTML page"
      )
    case .missingColumns:
      // The coordinate columns renamed (`좌표정보(Q)`, `좌표정보(Z)`): the file cannot be placed.
      var header = lines[0]
      for (from, to) in [("(X)", "(Q)"), ("(Y)", "(Z)")] {
        let range = try #require(header.range(of: Data(from.utf8)))
        header.replaceSubrange(range, with: Data(to.utf8))
      }
      lines[0] = header
      return (csv(Data(lines.joined(separator: [UInt8(ascii: "\n")]))), "좌표정보(X)")
    case .farFewerStores:
      // The header and the first row: one open store where the last good register had twenty.
      return (
        csv(Data(lines.prefix(2).joined(separator: [UInt8(ascii: "\n")])) + Data([UInt8(ascii: "\n")])),
        "1 open stores where the last good one listed 20"
      )
    }
  }

  /// A live run (the state keeps the last good register) of every brand of one source, 메가마트,
  /// whose recorded pages the replay server answers as its mirror: a run with no fresh brand
  /// publishes nothing, whatever the register does.
  static func run(
    _ mirror: RegisterMirror, output: URL, state: URL, asOf: String
  ) async throws -> RunResult {
    let recordings = try ReplayServer.start(archive: ReplayArchive.load(from: FixturePaths.web))
    defer { recordings.stop() }
    let megamart = try #require(recordings.baseURL(forOrigin: MegamartSource.origin))
    return try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, stateDirectory: state,
        mirrors: [RegisterStage.slug: mirror.server.baseURL, .megamart: megamart],
        asOf: CalendarDate(iso: asOf)!, brands: [], geocodingEnvironment: [:], sources: [MegamartSource()],
        politeness: PolitenessPolicy(
          maxConcurrentRequestsPerHost: 1, minimumDelay: .zero, jitter: .zero, obeysRobotsTxt: false),
        retry: FetchRetryPolicy(maxAttempts: 1), readsRegister: true))
  }

  static func temporaryRoot(_ name: String) -> URL {
    Scratch.directory.appendingPathComponent("register-stale-\(name)-\(UUID().uuidString)")
  }

  static func latest(_ output: URL) throws -> PublishedBundle {
    try #require(try BundleStore(outputDirectory: output).latest())
  }

  static func registerBranches(_ bundle: PublishedBundle) -> [Branch] {
    bundle.branches.branches.filter { $0.source == .register }
  }

  static func summaries(_ bundle: PublishedBundle) -> [BrandSlug: BrandSummary] {
    Dictionary(uniqueKeysWithValues: bundle.manifest.brands.map { ($0.slug, $0) })
  }

  @Test(arguments: Breakage.allCases)
  func aBrokenRegisterKeepsTheRegisterStoresStaleAndAGoodOneMakesThemFresh(_ breakage: Breakage) async throws {
    let full = try Self.fullRegister()
    let mirror = try RegisterMirror(Self.csv(full))
    defer { mirror.server.stop() }
    let root = Self.temporaryRoot(breakage.rawValue)
    defer { try? FileManager.default.removeItem(at: root) }
    let output = root.appendingPathComponent("output")
    let state = root.appendingPathComponent("state")
    let kept = state.appendingPathComponent("cache/register.csv")

    // Day one: the register publishes its six stores, fresh.
    let first = try await Self.run(mirror, output: output, state: state, asOf: "2026-11-20")
    #expect(first.report.outcome == .published)
    #expect(first.report.exitCode == 0)
    let dayOne = try Self.latest(output)
    #expect(Self.registerBranches(dayOne).map(\.id.description).sorted() == Self.registerStores)
    for slug in Self.registerBrands {
      #expect(Self.summaries(dayOne)[slug]?.freshness == .fresh)
      #expect(Self.summaries(dayOne)[slug]?.lastFetchedAsOf == CalendarDate(iso: "2026-11-20"))
    }
    #expect(try Data(contentsOf: kept) == full)

    // Day two: the register is broken. Its stores stay, as they were, under stale brands.
    let (response, warns) = try Self.broken(breakage)
    mirror.serve(response)
    let second = try await Self.run(mirror, output: output, state: state, asOf: "2026-11-21")
    #expect(second.report.outcome == .publishedWithStaleBrands, "\(second.report.errors)")
    #expect(second.report.exitCode == 2)
    let warnings = second.report.warnings.filter { $0.kind == .register }
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.contains(warns) == true, "\(warnings)")
    #expect(second.report.register?.origin == .kept)
    let dayTwo = try Self.latest(output)
    #expect(dayTwo.manifest.asOf == CalendarDate(iso: "2026-11-21"))
    let before = Dictionary(uniqueKeysWithValues: Self.registerBranches(dayOne).map { ($0.id, $0) })
    let after = Self.registerBranches(dayTwo)
    #expect(after.map(\.id.description).sorted() == Self.registerStores)
    for branch in after {
      let earlier = try #require(before[branch.id])
      #expect(branch.name == earlier.name)
      #expect(branch.address == earlier.address)
      #expect(branch.coordinate == earlier.coordinate)
      #expect(branch.phone == earlier.phone)
      #expect(branch.registerID == earlier.registerID)
      #expect(branch.storeClass == earlier.storeClass)
      #expect(branch.closing.status == .unknown)
    }
    #expect(dayTwo.branches.removed.isEmpty)
    for slug in Self.registerBrands {
      let summary = try #require(Self.summaries(dayTwo)[slug])
      #expect(summary.freshness == .stale)
      #expect(summary.lastFetchedAsOf == CalendarDate(iso: "2026-11-20"))
      // The report's brand says why the register was refused.
      let reported = try #require(second.report.brands.first { $0.slug == slug })
      #expect(reported.status == .stale)
      #expect(reported.error?.contains(warns) == true, "\(reported.error ?? "no error")")
    }
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.map(\.description) == [])
    // The last good register is still the one of day one.
    #expect(try Data(contentsOf: kept) == full)

    // Day three: a good register again makes them fresh.
    mirror.serve(Self.csv(full))
    let third = try await Self.run(mirror, output: output, state: state, asOf: "2026-11-22")
    #expect(third.report.outcome == .published)
    #expect(third.report.exitCode == 0)
    #expect(!third.report.warnings.contains { $0.kind == .register })
    let dayThree = try Self.latest(output)
    #expect(Self.registerBranches(dayThree).map(\.id.description).sorted() == Self.registerStores)
    for slug in Self.registerBrands {
      let summary = try #require(Self.summaries(dayThree)[slug])
      #expect(summary.freshness == .fresh)
      #expect(summary.lastFetchedAsOf == CalendarDate(iso: "2026-11-22"))
      #expect(third.report.brands.first { $0.slug == slug }?.error == nil)
    }
    #expect(mirror.requestCount == 3)
  }

  /// With no bundle to keep them from, a refused register's stores are made from the last good
  /// register the state keeps, as stale brands never fetched in this output.
  @Test func withNoBundleARefusedRegistersStoresComeFromTheLastGoodOne() async throws {
    let full = try Self.fullRegister()
    let mirror = try RegisterMirror(Self.csv(full))
    defer { mirror.server.stop() }
    let root = Self.temporaryRoot("no-bundle")
    defer { try? FileManager.default.removeItem(at: root) }
    let state = root.appendingPathComponent("state")

    let first = try await Self.run(mirror, output: root.appendingPathComponent("first"), state: state, asOf: "2026-11-20")
    #expect(first.report.exitCode == 0)

    // A new output directory, the same state: no bundle, the last good register kept.
    mirror.serve(try Self.broken(.farFewerStores).response)
    let output = root.appendingPathComponent("second")
    let second = try await Self.run(mirror, output: output, state: state, asOf: "2026-11-21")
    #expect(second.report.outcome == .publishedWithStaleBrands, "\(second.report.errors)")
    #expect(second.report.exitCode == 2)
    let bundle = try Self.latest(output)
    #expect(Self.registerBranches(bundle).map(\.id.description).sorted() == Self.registerStores)
    for slug in Self.registerBrands {
      let summary = try #require(Self.summaries(bundle)[slug])
      #expect(summary.freshness == .stale)
      #expect(summary.lastFetchedAsOf == nil)
    }
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.map(\.description) == [])
  }
}
