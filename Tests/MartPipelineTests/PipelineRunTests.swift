import Foundation
import MartBrands
import MartCore
import MartExport
import MartFetch
import MartGeocoding
import MartPipeline
import MartReplay
import PipelineTestSupport
import TestSupport
import Testing

/// Whole runs over the replay server: real libcurl requests to 127.0.0.1, real parsing,
/// real files. A test that only reads what a run over the fixtures published reads the
/// process's one such run (``ReplayedFixtures``); a test that reruns over it takes a copy; a test
/// that damages recordings works on its own copy of them and its own output folder.
@Suite(.serialized) struct PipelineRunTests {
  let asOf = ReplayedFixtures.asOf

  /// The process's one run over `fixtures/web`, which every request of had a recording.
  func published() async throws -> ReplayedFixtures.Published {
    let published = try await ReplayedFixtures.shared.published()
    #expect(
      published.result.unmatchedReplayRequests.isEmpty,
      "requests without a recording: \(published.result.unmatchedReplayRequests)")
    #expect(published.result.archiveDirectory == nil, "a replay keeps no archive")
    return published
  }

  /// A private copy of the output of the process's one published run over the fixtures.
  func publishedOutput() async throws -> URL {
    #expect(try await published().report.outcome == .published)
    return try await ReplayedFixtures.shared.copy("output")
  }

  /// A scratch copy of `fixtures/web` that a test may damage.
  func copyOfRecordings() throws -> URL {
    let copy = Scratch.directory.appendingPathComponent("web-\(UUID().uuidString)")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    return copy
  }

  func emptyOutput() -> URL {
    Scratch.directory.appendingPathComponent("output-\(UUID().uuidString)")
  }

  /// A configured run over `recordings`, as `mart-holiday run --replay` makes it.
  func run(
    recordings: URL = FixturePaths.web, output: URL, brands: Set<BrandSlug> = [],
    sources: [any BrandSource] = BrandSources.all, expectEveryRequestRecorded: Bool = true
  ) async throws -> RunReport {
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: recordings, asOf: asOf, brands: brands,
        geocodingRetryPolicy: .immediate, sources: sources))
    if expectEveryRequestRecorded {
      #expect(
        result.unmatchedReplayRequests.isEmpty, "requests without a recording: \(result.unmatchedReplayRequests)")
    }
    #expect(result.archiveDirectory == nil, "a replay keeps no archive")
    return result.report
  }

  /// Replaces one recorded exchange's status and body.
  func breakExchange(in recordings: URL, _ relativePath: String, status: Int, body: String) throws {
    let exchangeURL = recordings.appendingPathComponent(relativePath)
    var exchange = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: exchangeURL)) as? [String: Any])
    var response = try #require(exchange["response"] as? [String: Any])
    response["status"] = status
    let bodyFile = try #require(response["bodyFile"] as? String)
    try Data(body.utf8).write(to: exchangeURL.deletingLastPathComponent().appendingPathComponent(bodyFile))
    exchange["response"] = response
    try JSONSerialization.data(withJSONObject: exchange).write(to: exchangeURL)
  }

  func latestBranches(_ output: URL) throws -> [Branch] {
    try #require(try BundleStore(outputDirectory: output).latest()).branches.branches
  }

  @Test func everyBranchIsPlacedAndCitesAURLTheRunRead() async throws {
    let output = try await published().output
    let branches = try latestBranches(output)
    let recorded = Set(try ReplayArchive.load(from: FixturePaths.web).exchanges.map(\.url))
    for branch in branches {
      #expect(recorded.contains(branch.sourceURL), "\(branch.id): \(branch.sourceURL) was not read")
      #expect(branch.address.sido != nil, "\(branch.id) has no province")
      // Only No Brand 다산점 publishes (0, 0) and no provider finds its address.
      #expect(branch.coordinate != nil || branch.id.description == "nobrand-4123", "\(branch.id) has no coordinates")
    }
    #expect(branches.filter { $0.brand == .everyday }.count == 17)
  }

  @Test func publishesEveryRecordedBranch() async throws {
    let shared = try await published()
    let (output, report) = (shared.output, shared.report)
    #expect(report.outcome == .published)
    #expect(report.exitCode == 0)
    let branches = try latestBranches(output)
    let counts = Dictionary(grouping: branches, by: \.brand.rawValue).mapValues(\.count)
    #expect(counts == (try FixturePaths.branchCounts()))
    // Every registered brand has recordings that publish branches.
    #expect(Set(KnownBrands.entries.map(\.slug.rawValue)) == Set(counts.keys))
    // 도와센터: one request per area; Lotte ON: three list pages (the third empty), then one
    // holiday request per store with a trNo, one after another on one new connection closed by
    // the first list page (its rows name no store, and five of the seven share their days with
    // another: the lane's proof, not a second asking, shows that none is a leftover); 메가마트:
    // one query.
    #expect(report.fetch.hosts["www.lotteon.com"]?.requests == 3 + 7 + 1)
    #expect(report.fetch.hosts["home.megamart.com"]?.requests == 1)
    // A format inside a brand is a banner; a name as published stays beside the display name.
    let special = try #require(branches.first { $0.id.description == "homeplus-573" })
    #expect(special.banner == "홈플러스 스페셜" && special.name == "광주하남점")
    // 홈플러스 스페셜 상인점 and 광주하남점, 롯데마트 잠실점 and 서울역점 (제타플렉스).
    #expect(branches.filter { $0.banner != nil }.count == 4)
    #expect(branches.first { $0.id.description == "lottemart-잠실점" }?.banner == "제타플렉스")
    let dasanSuper = try #require(branches.first { $0.id.description == "lotte-super-5023" })
    #expect(dasanSuper.name == "다산역점" && dasanSuper.namePublished == "E다산역점" && dasanSuper.banner == nil)
    // 롯데슈퍼 stores without a holiday answer are unknown, never open.
    for id in ["lotte-super-5052", "lotte-super-6061", "megamart-1004"] {
      #expect(branches.first { $0.id.description == id }?.closing.status == .unknown, "\(id)")
    }
    // E-mart: 3 store lists, 17 areas x 3 months of holiday lists (the 3 areas without stores
    // asked once more when their empty list came on a reused one, one after another on one new
    // connection a round, closed by the store list), 15 No Brand store pages, the all-format
    // store list and the store pages of the 3 에브리데이 stores it does not place.
    let emartRequests = 3 + 17 * 3 + 15 + 1 + 3
    #expect((emartRequests...emartRequests + 3 * 3 + 3).contains(report.fetch.hosts["store.emart.com"]?.requests ?? 0))
    #expect(report.fetch.hosts["store.emart.com"]?.failures == 0)
    #expect(!report.warnings.contains { $0.message.contains("holidayList.do") })

    // 이마트 창원점: the holiday feed lists the 2nd and 4th Sundays of each month.
    let changwon = try #require(branches.first { $0.id.description == "emart-1059" })
    #expect(changwon.name == "창원점")
    #expect(changwon.phone == "055-211-1234")
    #expect(changwon.address.published == "경남 창원시 의창구 원이대로 320")
    #expect(changwon.sourceURL == "https://store.emart.com/branch/searchList.do")
    #expect(changwon.pageURL == "https://store.emart.com/branch/view.do?id=1059")
    #expect(
      changwon.closing.dates.map(\.iso) == [
        "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24",
      ])

    // 롯데마트 창원중앙점: "매월 둘째, 넷째주 일요일 ( 11/8, 11/22 )" — the rule gives the same
    // Sundays for December and January too.
    let lotte = try #require(branches.first { $0.id.description == "lottemart-창원중앙점" })
    #expect(lotte.name == "창원중앙점")
    #expect(lotte.closing.status == .closures)
    #expect(
      lotte.closing.dates.map(\.iso) == [
        "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24",
      ])
    #expect(lotte.sourceURL == "http://company.lottemart.com/shop/shop_search_type.asp?schArea=&schType=01&schWord=")
    // The 2026 rows link no store page.
    #expect(lotte.pageURL == nil)

    // Canonical addresses beside the published text; coordinates from the site (E-mart) or,
    // where the site gives none (Lotte Mart), from the recorded geocoder answers.
    #expect(changwon.address.road == "경상남도 창원시 의창구 원이대로 320")
    #expect(changwon.address.sido == "경상남도")
    #expect(changwon.address.sigungu == "창원시 의창구")
    #expect(changwon.coordinate?.source == .site)
    #expect(lotte.address.published == "경남 창원시 성산구 중앙대로 123")
    #expect(lotte.address.road == "경상남도 창원시 성산구 중앙대로 123")
    let located = try #require(lotte.coordinate)
    #expect(located.source != .site)
    #expect(CoordinateValidation.isDomestic(located.point))

    // 트레이더스 고양점 publishes latitude and longitude the wrong way round: corrected.
    let goyang = try #require(branches.first { $0.id.description == "traders-1413" })
    #expect(goyang.coordinate?.latitude == 37.618602)
    #expect(goyang.coordinate?.longitude == 126.836569)
    #expect(
      report.warnings.contains {
        $0.branch?.description == "traders-1413" && $0.kind == .location && $0.message.contains("swapped")
      })
    // 노브랜드 남양주 다산점 publishes (0, 0) and no provider knows its address: exported without
    // coordinates, listed in the report with the reason, never dropped.
    let dasan = try #require(branches.first { $0.id.description == "nobrand-4123" })
    #expect(dasan.coordinate == nil)
    #expect(report.branchesWithoutCoordinates == [dasan.id])
    #expect(
      report.warnings.contains {
        $0.branch == dasan.id
          && $0.message.hasPrefix("exported without coordinates: the source's coordinates are invalid")
          && $0.message.contains("no provider found the address")
      })
    #expect(branches.filter { $0.id != dasan.id }.allSatisfy { $0.coordinate != nil })

    // Ids are unique and stable.
    #expect(Set(branches.map(\.id)).count == branches.count)
    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("report.json").path))
  }

  /// No branch's closing dates stop partway through the window without an unknown range
  /// covering the rest: a month of the window with no closing date is either unknown, backed by
  /// a recurring rule (or the store never closes), or, for a source that lists its next closing
  /// days, known only from the as-of date through the last day listed. Every day after
  /// `knownThrough` is unknown.
  @Test func everyBranchSaysWhichDaysItKnows() async throws {
    let shared = try await published()
    let (output, report) = (shared.output, shared.report)
    #expect(report.outcome == .published)
    let latest = try #require(try BundleStore(outputDirectory: output).latest())
    let window = latest.branches.window
    let asOf = latest.manifest.asOf
    #expect(!latest.branches.branches.isEmpty)
    let nextDaysBrands: Set<BrandSlug> = [.lottemart, .homeplus, .homeplusExpress]
    for branch in latest.branches.branches {
      let closing = branch.closing
      let unknown = closing.unknownRanges
      func isUnknown(_ day: CalendarDate) -> Bool { unknown.contains { $0.from <= day && day <= $0.through } }
      #expect(!closing.dates.contains(where: isUnknown), "\(branch.id): a closed day inside an unknown range")
      if closing.status == .unknown {
        #expect(unknown == [window], "\(branch.id): unknown closing days must cover the window")
      }
      let recurring = !closing.schedule.rules.isEmpty || !closing.schedule.lunar.isEmpty
      if let known = closing.knownThrough {
        var day = max(known.adding(days: 1), window.from)
        while day <= window.through {
          #expect(isUnknown(day), "\(branch.id): \(day) is after knownThrough \(known) but not unknown")
          day = day.adding(days: 1)
        }
      } else {
        #expect(recurring || closing.status == .openAllYear, "\(branch.id): no knownThrough without a rule")
      }
      if nextDaysBrands.contains(branch.brand), !recurring, closing.schedule.status == .closures {
        // Only the listed days and those from the as-of date through the last listed are known,
        // and the months a label of the text heads (`11월 의무휴업안내(…)`).
        let listed = Set(closing.schedule.dates + closing.schedule.exceptions)
        let last = try #require(listed.max(), "\(branch.id)")
        var day = window.from
        while day <= window.through {
          if !isUnknown(day) {
            let headed = closing.schedule.text?.contains("\(day.month)월") ?? false
            #expect(
              listed.contains(day) || (asOf <= day && day <= last) || headed,
              "\(branch.id): \(day) known without a source")
          }
          day = day.adding(days: 1)
        }
        continue
      }
      var month = window.from.firstOfMonth()
      while month <= window.through {
        let closesInMonth = closing.dates.contains { $0.firstOfMonth() == month }
        let daysOfMonth = (0..<CalendarDate.daysInMonth(year: month.year, month: month.month)).map {
          month.adding(days: $0)
        }
        if !closesInMonth && closing.status != .openAllYear && !recurring {
          #expect(
            daysOfMonth.allSatisfy(isUnknown),
            "\(branch.id): no closing date in \(month.iso.prefix(7)) and nothing says the month is known")
        }
        month = month.firstOfMonth(addingMonths: 1)
      }
    }

    // 롯데마트 판교점 publishes its next closing days "11/22,12/13,/27" (as of 2026-11-20): the days
    // from 11-20 through 12-27 are known, the days before the as-of date and after 12-27 are not.
    let pangyo = try #require(latest.branches.branches.first { $0.id.description == "lottemart-판교점" })
    #expect(pangyo.closing.dates.map(\.iso) == ["2026-11-22", "2026-12-13", "2026-12-27"])
    #expect(
      pangyo.closing.unknownRanges.map { "\($0.from.iso)…\($0.through.iso)" } == [
        "2026-11-01…2026-11-19", "2026-12-28…2027-01-31",
      ])
    #expect(pangyo.closing.knownThrough?.iso == "2026-12-27")
    // E-mart publishes dates as data: the schedule carries them and no made-up text.
    let changwon = try #require(latest.branches.branches.first { $0.id.description == "emart-1059" })
    #expect(changwon.closing.schedule.text == nil)
    #expect(changwon.closing.schedule.dates == changwon.closing.dates)
    #expect(changwon.closing.unknownRanges.isEmpty)
    #expect(changwon.closing.knownThrough == window.through)
    // 이마트 1099 publishes no date at all: unknown for the whole window.
    let withoutDates = try #require(latest.branches.branches.first { $0.id.description == "emart-1099" })
    #expect(withoutDates.closing.status == .unknown)
    #expect(withoutDates.closing.unknownRanges == [window])
    #expect(withoutDates.closing.knownThrough == window.from.adding(days: -1))
  }

  @Test func runsAreDeterministic() async throws {
    // The process's one run and a run of this test's own, over the same recordings.
    let shared = try await published()
    let (first, a) = (shared.output, shared.report)
    let second = emptyOutput()
    let b = try await run(output: second)
    let versionA = try #require(a.published?.version)
    #expect(versionA == b.published?.version)
    let bundle = try #require(a.published?.bundle)
    for file in ["manifest.json", "branches.json"] {
      let bytesA = try Data(contentsOf: first.appendingPathComponent("\(bundle)/\(file)"))
      let bytesB = try Data(contentsOf: second.appendingPathComponent("\(bundle)/\(file)"))
      #expect(bytesA == bytesB, "\(file) differs between two runs over the same recordings")
    }
  }

  @Test func aFailingBrandKeepsItsLastGoodBranches() async throws {
    let output = try await publishedOutput()

    let broken = try copyOfRecordings()
    // Both of Lotte Mart's lists fail: the search and the all-format list that stands in for it.
    for exchange in ["shop_search_type-01", "shop_search-all"] {
      try breakExchange(
        in: broken, "company.lottemart.com/\(exchange).exchange.json", status: 500, body: "Internal Server Error")
    }
    let report = try await run(recordings: broken, output: output)
    #expect(report.outcome == .publishedWithStaleBrands)
    #expect(report.exitCode == 2)
    let lotte = try #require(report.brands.first { $0.slug == .lottemart })
    #expect(lotte.status == .stale)
    #expect(lotte.branchCount == 19)
    #expect(lotte.error?.contains("500") == true)

    let latest = try #require(try BundleStore(outputDirectory: output).latest())
    #expect(latest.branches.branches.filter { $0.brand == .lottemart }.count == 19)
    let summary = try #require(latest.manifest.brands.first { $0.slug == .lottemart })
    #expect(summary.freshness == .stale)
    #expect(latest.manifest.brands.first { $0.slug == .emart }?.freshness == .fresh)
  }

  @Test func aRedesignedPageIsAFailureNotAnEmptyBrand() async throws {
    let output = try await publishedOutput()
    let before = try latestBranches(output)

    let redesigned = try copyOfRecordings()
    for exchange in ["shop_search_type-01", "shop_search-all"] {
      try breakExchange(
        in: redesigned, "company.lottemart.com/\(exchange).exchange.json", status: 200,
        body: "<html><body><div class=\"new-shop-list\"><p>새 매장찾기</p></div></body></html>")
    }
    let report = try await run(recordings: redesigned, output: output)
    #expect(report.brands.first { $0.slug == .lottemart }?.status == .stale)
    #expect(try latestBranches(output).count == before.count)
  }

  @Test func aPrimaryPageFailingWithAWorkingFallbackIsFreshWithAWarning() async throws {
    let output = emptyOutput()
    let broken = try copyOfRecordings()
    try breakExchange(
      in: broken, "company.lottemart.com/shop_search_type-01.exchange.json", status: 500, body: "Internal Server Error")
    let report = try await run(recordings: broken, output: output)
    #expect(report.outcome == .published)
    let lotte = try #require(report.brands.first { $0.slug == .lottemart })
    #expect(lotte.status == .fresh && lotte.branchCount == 19)
    #expect(lotte.dataSource == LotteMartSource.allFormatsData)
    #expect(
      report.warnings.contains {
        $0.kind == .source && $0.message.contains("shop_search_type.asp")
          && $0.message.contains("500") && $0.message.contains("fallback")
      })
    // Every other fresh brand names its primary pages.
    #expect(report.brands.first { $0.slug == .costco }?.dataSource == CostcoSource.primaryData)
  }

  @Test func aBrokenDetailPageCostsOnlyThatPhoneNumber() async throws {
    let output = emptyOutput()
    let broken = try copyOfRecordings()
    try breakExchange(in: broken, "store.emart.com/view-4507.exchange.json", status: 500, body: "error")
    let report = try await run(recordings: broken, output: output)
    #expect(report.outcome == .published)
    #expect(report.brands.first { $0.slug == .nobrand }?.status == .fresh)
    let branches = try latestBranches(output)
    #expect(branches.filter { $0.brand == .nobrand }.count == 15)
    #expect(branches.first { $0.id.description == "nobrand-4507" }?.phone == nil)
    #expect(branches.first { $0.id.description == "nobrand-1604" }?.phone == "031-837-1604")
    #expect(
      report.warnings.contains {
        $0.branch?.description == "nobrand-4507" && $0.brand == .nobrand && $0.kind == .source
          && $0.message.contains("500")
      })
  }

  @Test func aCollapsedBranchCountIsTreatedAsFailure() async throws {
    let output = try await publishedOutput()

    let shrunk = try copyOfRecordings()
    let list = shrunk.appendingPathComponent("store.emart.com/searchList-EM.body.json")
    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: list)) as? [String: Any])
    let rows = try #require(json["dataList"] as? [Any])
    json["dataList"] = Array(rows.prefix(2))
    try JSONSerialization.data(withJSONObject: json).write(to: list)

    let report = try await run(recordings: shrunk, output: output)
    let emart = try #require(report.brands.first { $0.slug == .emart })
    #expect(emart.status == .stale)
    #expect(emart.error?.contains("down from 16") == true)
    #expect(try latestBranches(output).filter { $0.brand == .emart }.count == 16)
  }

  @Test func aFailingBrandWithNothingToKeepIsMissingAndTheOthersArePublished() async throws {
    let output = emptyOutput()
    let broken = try copyOfRecordings()
    // E-mart's one holiday feed serves every E-mart brand: one area's December answer failing
    // fails all of them.
    try breakExchange(
      in: broken, "store.emart.com/holidayList-2026-12-I.exchange.json", status: 503, body: "busy")
    let report = try await run(recordings: broken, output: output)
    #expect(report.outcome == .publishedWithMissingBrands)
    #expect(report.exitCode == 2)
    #expect(report.errors.contains { $0.brand == .emart && $0.kind == .brandFailed && $0.message.contains("503") })

    let latest = try #require(try BundleStore(outputDirectory: output).latest())
    let published = Set(latest.branches.branches.map(\.brand))
    #expect(published.contains(.lottemart))
    #expect(published.isDisjoint(with: EmartSource.brands))
    for brand in EmartSource.brands {
      let listed = try #require(latest.manifest.brands.first { $0.slug == brand })
      #expect(listed.freshness == .missing)
      #expect(listed.branchCount == 0)
      #expect(listed.lastFetchedAsOf == nil)
      #expect(report.brands.first { $0.slug == brand }?.status == .missing)
    }
    #expect(latest.manifest.brands.first { $0.slug == .lottemart }?.freshness == .fresh)
    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("report.json").path))
  }

  @Test func aRunInWhichNoBrandIsFreshPublishesNothing() async throws {
    let output = emptyOutput()
    let broken = try copyOfRecordings()
    try breakExchange(
      in: broken, "store.emart.com/holidayList-2026-12-I.exchange.json", status: 503, body: "busy")
    for exchange in ["shop_search_type-01", "shop_search-all"] {
      try breakExchange(in: broken, "company.lottemart.com/\(exchange).exchange.json", status: 500, body: "error")
    }
    let report = try await run(recordings: broken, output: output, sources: [EmartSource(), LotteMartSource()])
    #expect(report.outcome == .failed)
    #expect(report.exitCode == 1)
    #expect(report.published == nil)
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("latest.json").path))
    #expect(report.errors.contains { $0.brand == .emart && $0.message.contains("503") })
    #expect(report.errors.contains { $0.brand == nil && $0.kind == .publish })
    // The report is written even when nothing is published.
    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("report.json").path))
  }

  @Test func aBrandWithoutASourceDoesNotBlockTheOthers() async throws {
    let output = emptyOutput()
    // Only Lotte Mart has a source in this run; 이마트 is asked for too.
    let report = try await run(output: output, brands: [.lottemart, .emart], sources: [LotteMartSource()])
    #expect(report.outcome == .publishedWithMissingBrands)
    #expect(report.exitCode == 2)
    #expect(report.brands.first { $0.slug == .emart }?.status == .missing)
    #expect(report.errors.contains { $0.brand == .emart && $0.kind == .noSource })
    let latest = try #require(try BundleStore(outputDirectory: output).latest())
    #expect(!latest.branches.branches.isEmpty)
    #expect(latest.branches.branches.allSatisfy { $0.brand == .lottemart })
    #expect(latest.manifest.brands.first { $0.slug == .emart }?.freshness == .missing)
  }

  @Test func reportProblemsHaveBrandBranchKindAndMessage() async throws {
    let output = try await published().output
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let warnings = try #require(json["warnings"] as? [[String: Any]])
    #expect(!warnings.isEmpty)
    for warning in warnings {
      #expect(Set(warning.keys) == ["brand", "branch", "kind", "message"])
      #expect(warning["kind"] is String)
    }
    let swapped = try #require(warnings.first { ($0["message"] as? String)?.contains("swapped") == true })
    #expect(swapped["brand"] as? String == "traders")
    #expect(swapped["branch"] as? String == "traders-1413")
    #expect(swapped["kind"] as? String == "location")
    #expect(json["errors"] as? [Any] != nil)
  }

  @Test func branchesThatCannotBeGeocodedAreKeptWithoutCoordinates() async throws {
    let output = emptyOutput()
    // Every provider answer becomes a 503, or no answer at all.
    let withoutProviders = try copyOfRecordings()
    for host in ["dapi.kakao.com", "maps.apigw.ntruss.com", "api.vworld.kr"] {
      let folder = withoutProviders.appendingPathComponent(host)
      let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
      for file in files where file.hasSuffix(".exchange.json") {
        try breakExchange(in: folder, file, status: 503, body: "Service Unavailable")
      }
    }
    let report = try await run(recordings: withoutProviders, output: output, expectEveryRequestRecorded: false)
    #expect(report.outcome == .published)
    let branches = try latestBranches(output)
    let lotte = branches.filter { $0.brand == .lottemart }
    #expect(lotte.count == 19)
    #expect(lotte.allSatisfy { $0.coordinate == nil })
    #expect(Set(report.branchesWithoutCoordinates).isSuperset(of: lotte.map(\.id)))
    // E-mart publishes its own coordinates.
    #expect(branches.filter { $0.brand == .emart }.allSatisfy { $0.coordinate?.source == .site })
    #expect(report.branchesWithoutCoordinates.contains { $0.description == "nobrand-4123" })
  }

  @Test func aSingleBrandRunKeepsTheOtherBrands() async throws {
    let output = try await publishedOutput()
    let report = try await run(output: output, brands: [.lottemart])
    #expect(report.outcome == .published)
    #expect(report.brands.first { $0.slug == .lottemart }?.status == .fresh)
    #expect(report.brands.first { $0.slug == .emart }?.status == .kept)
    #expect(try latestBranches(output).count == (try FixturePaths.branchTotal()))
  }

  @Test func costcoGSAndEverydayExportWithClosingDaysHoursAndPhones() async throws {
    let shared = try await published()
    let (output, report) = (shared.output, shared.report)
    #expect(report.outcome == .published)
    let branches = try latestBranches(output)
    for brand in [BrandSlug.costco, .gsTheFresh, .everyday] {
      let ofBrand = branches.filter { $0.brand == brand }
      let known = ofBrand.filter { $0.closing.status == .closures && !$0.closing.dates.isEmpty }
      #expect(ofBrand.count >= 15, "\(brand.rawValue)")
      // Nearly all: at most one branch per brand without closing days (GS's closed store).
      #expect(known.count >= ofBrand.count - 1, "\(brand.rawValue): \(known.count) of \(ofBrand.count)")
    }

    // 코스트코 대전점: published hours "오전 10:00 - 오후 10:00" read as 10:00–22:00; phone
    // "+82-1899-9900" as 1899-9900; 2nd/4th Sundays plus 1/1 (2027-01-01 is a Friday).
    let daejeon = try #require(branches.first { $0.id.description == "costco-Daejeon" })
    #expect(daejeon.openingHours == "오전 10:00 - 오후 10:00")
    #expect(daejeon.hours == OpeningHours(open: "10:00", close: "22:00"))
    #expect(daejeon.phone == "1899-9900")
    #expect(daejeon.phonePublished == "+82-1899-9900")
    #expect(
      daejeon.closing.dates.map(\.iso) == [
        "2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-01", "2027-01-10", "2027-01-24",
      ])

    // GS THE FRESH 포항죽도점: "054)278-1448~9" → 054-278-1448; dates from "11월 08일", "11월 22일".
    let pohang = try #require(branches.first { $0.id.description == "gs-thefresh-12021" })
    #expect(pohang.phone == "054-278-1448")
    #expect(pohang.phonePublished == "054)278-1448~9")
    #expect(pohang.hours == OpeningHours(open: "10:00", close: "23:00"))
    #expect(pohang.closing.dates.map(\.iso) == ["2026-11-08", "2026-11-22"])
    #expect(pohang.coordinate?.latitude == 36.02490301)
    // A placeholder phone is not a number; its text is kept.
    let changwon = try #require(branches.first { $0.id.description == "gs-thefresh-11536" })
    #expect(changwon.phone == nil)
    #expect(changwon.phonePublished == "00-000-0000")
    // 방배점 closes at midnight: "24:00".
    #expect(branches.first { $0.id.description == "gs-thefresh-10112" }?.hours?.close == "24:00")
  }
}
