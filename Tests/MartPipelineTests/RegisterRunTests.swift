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

/// The national register of large stores read by a run: through the run's fetch stack (a
/// `register` mirror, the replay recordings), with its `Referer`, cross-checked against the
/// published branches, and refused when it lost most of its open stores.
@Suite(.serialized) struct RegisterRunTests {
  let asOf = CalendarDate(iso: "2026-11-20")!

  func temporaryOutput(_ name: String) -> URL {
    Scratch.directory.appendingPathComponent("register-run-\(name)-\(UUID().uuidString)/output")
  }

  @Test func aReplayReadsTheRecordedRegisterAndCrossChecksTheBranches() async throws {
    let output = temporaryOutput("replay")
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: asOf, brands: [.emart, .megamart],
        geocodingEnvironment: [:], readsRegister: true))
    let register = try #require(result.report.register)
    #expect(register.origin == .fetched)
    // fixtures/README.md: 이마트 창동점 (1000), 울산점 (1044) and 메가마트 동래점 (1001) are
    // register rows within 150 m of their branches.
    #expect(register.registerIDs["emart-1000"] == "2009310010807500001")
    #expect(register.registerIDs["emart-1044"] == "2002370010807500002")
    #expect(register.registerIDs["megamart-1001"] == "2005331010807500001")
    // Only the run's brands are checked: no other brand's branch is named.
    #expect(register.registerIDs.keys.allSatisfy { $0.hasPrefix("emart-") || $0.hasPrefix("megamart-") })
    // 이마트 청계천점 is open in the register and not among 이마트's recorded stores.
    #expect(register.unlisted.map(\.id).contains("2008301010007500002"))
    // The 트레이더스 마곡점 permit of 2026-11-15 is five days before the as-of date.
    #expect(register.newPermits.map(\.id) == ["2026350010807500001"])
    #expect(!result.report.warnings.contains { $0.kind == .register })
    // The published branches carry the 관리번호 the report names, and only those.
    let bundle = try #require(try BundleStore(outputDirectory: output).latest())
    let published = bundle.branches.branches.compactMap { branch in
      branch.registerID.map { (branch.id.description, $0) }
    }
    #expect(Dictionary(uniqueKeysWithValues: published) == register.registerIDs)
    // A replay keeps no register as the last good one.
    let state = RunConfiguration.defaultStateDirectory(for: output)
    #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("cache/register.csv").path))
  }

  /// The bootstrap run (every brand, replayed): the open stores no brand source covers
  /// (fixtures/README.md: 하나로마트 양재, 탑마트 대연, 킴스클럽 under its host, 골드마트 광주, 다농엘마트
  /// 회덕, 해피마트 반여) are branches of the register brands, with expected or unknown days only.
  @Test func aRunOfEveryBrandPublishesTheStoresOutsideTheBrands() async throws {
    let output = temporaryOutput("outside")
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: asOf, geocodingEnvironment: [:],
        readsRegister: true))
    #expect(result.report.published != nil)
    let bundle = try #require(try BundleStore(outputDirectory: output).latest())
    let stores = bundle.branches.branches.filter { $0.source == .register }
    #expect(
      stores.map(\.id.description).sorted() == [
        "independent-mart-2011469010807500001", "independent-mart-2015416010807500003",
        "independent-mart-2019333020207500001", "kimsclub-2003322010807500004", "nonghyup-hanaro-2008321010807500005",
        "topmart-2010329010807500002",
      ])
    for store in stores {
      // Never a plain closure: no day of their own, only expected days or unknown ones.
      #expect(store.closing.status == .unknown)
      #expect(store.closing.dates.isEmpty)
      #expect(store.closing.unknownRanges == [bundle.manifest.window])
      #expect(store.registerID == store.id.storeID)
    }
    #expect(stores.first { $0.brand == "nonghyup-hanaro" }?.closing.expected == nil)
    #expect(stores.first { $0.id.storeID == "2019333020207500001" }?.storeClass == .ssm)
    // Each store with expected days has its own class's pattern in its district.
    let districts = try #require(bundle.districtsFile())
    for store in stores {
      guard let expected = store.closing.expected else { continue }
      #expect(expected.storeClass == store.storeClass)
      #expect(
        districts.districts.contains {
          "\($0.sido) \($0.sigungu)" == expected.district && $0.storeClass == store.storeClass
        })
    }
    let brands = Dictionary(uniqueKeysWithValues: bundle.manifest.brands.map { ($0.slug, $0) })
    for slug: BrandSlug in ["nonghyup-hanaro", "topmart", "kimsclub", "independent-mart"] {
      #expect(brands[slug]?.freshness == .fresh)
    }
    #expect(brands["nonghyup-hanaro"]?.designated == false)
    #expect(brands["topmart"]?.designated == true)
    // No register store duplicates a covered brand's branch: they are that brand's.
    #expect(!stores.contains { RegisterBrands.entry($0.brand) == nil })
    #expect(BundleValidator(directory: output, sources: Pipeline.independentSources).validate().problems.map(\.description) == [])
  }

  @Test func aRegisterWithFarFewerOpenStoresOrAPageIsRefusedAndTheLastGoodOneKept() async throws {
    let full = try FixturePaths.data("register/register-2026.csv")
    // The header and the first row: one open store where the last good register had twenty.
    let lines = full.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let cut = Data(lines.prefix(2).joined(separator: Data([UInt8(ascii: "\n")]))) + Data([UInt8(ascii: "\n")])
    let served = Atomic(0)
    let referers = Mutex<[String?]>([])
    let server = try LocalHTTPServer { request in
      referers.withLock { $0.append(request.headers.first { $0.name.lowercased() == "referer" }?.value) }
      let count = served.wrappingAdd(1, ordering: .relaxed).newValue
      if count == 3 {
        // The site's page instead of the file (a lost session, a redesign).
        return .text("<!DOCTYPE html><html><body>로그인이 필요합니다</body></html>", contentType: "text/html")
      }
      return ServerResponse(
        status: 200, headers: [HTTPHeader("Content-Type", "text/csv")], body: count == 1 ? full : cut)
    }
    defer { server.stop() }
    let output = temporaryOutput("sanity")
    let state = RunConfiguration.defaultStateDirectory(for: output)
    func run() async throws -> RunReport {
      try await Pipeline.run(
        RunConfiguration(
          outputDirectory: output, mirrors: [RegisterStage.slug: server.baseURL], asOf: asOf, brands: [],
          geocodingEnvironment: [:], sources: [],
          politeness: PolitenessPolicy(
            maxConcurrentRequestsPerHost: 1, minimumDelay: .zero, jitter: .zero, obeysRobotsTxt: false),
          retry: FetchRetryPolicy(maxAttempts: 1), readsRegister: true)
      ).report
    }

    let first = try await run()
    #expect(first.register?.origin == .fetched)
    #expect(first.register?.openStores == 20)
    let kept = state.appendingPathComponent("cache/register.csv")
    #expect(try Data(contentsOf: kept) == full)

    let second = try await run()
    #expect(second.register?.origin == .kept)
    #expect(second.register?.openStores == 20)
    let warning = try #require(second.warnings.first { $0.kind == .register })
    #expect(warning.message.contains("1 open stores where the last good one listed 20"))
    #expect(try Data(contentsOf: kept) == full)

    let third = try await run()
    #expect(third.register?.origin == .kept)
    #expect(third.register?.openStores == 20)
    #expect(third.warnings.filter { $0.kind == .register }.count == 1)
    #expect(try Data(contentsOf: kept) == full)
    #expect(referers.withLock { $0 } == Array(repeating: RegisterDownload.referer, count: 3))
  }
}
