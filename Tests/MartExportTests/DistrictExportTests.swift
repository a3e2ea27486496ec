import Foundation
import MartCore
import MartDigest
import MartExport
import Testing

/// `districts.json`, expected days in `closures.json` and the calendars, and what `validate` says
/// of them. As of 2026-11-20 (window 2026-11-01 … 2027-01-31); 2026-11-01 is a Sunday, so the
/// 2nd/4th Wednesdays are 11-11 and 11-25, 2026-12-01 a Tuesday (12-09, 12-23), 2027-01-01 a
/// Friday (01-13, 01-27).
@Suite struct DistrictExportTests {
  static let cheongju = BranchAddress(published: "충청북도 청주시 흥덕구 어딘가로 1", sido: "충청북도", sigungu: "청주시 흥덕구")
  static let wednesdays = ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]

  /// Two chains on the 2nd/4th Wednesday in 청주시, and a third store of the city publishing
  /// nothing, given its expected days as the pipeline gives them.
  static func branches() -> [Branch] {
    let branches = [
      ExportFixtures.branch(.emart, "1061", name: "청주점", text: "매월 둘째, 넷째 수요일", address: cheongju),
      ExportFixtures.branch(.lottemart, "0100200", name: "청주점", text: "매월 둘째·넷째 수요일 휴무", address: cheongju),
      ExportFixtures.branch("lotte-super", "5089", name: "청주용암점", text: "", address: cheongju),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: ExportFixtures.window, exempt: [])
    return inference.withExpectedDays(branches)
  }

  @Test func theBundleListsTheDistrictAndKeepsExpectedDaysApart() throws {
    let contents = try BundleContents(
      branches: Self.branches(), brands: ExportFixtures.summaries(Self.branches()), day: ExportFixtures.day)
    func file(_ path: String) throws -> Data { try #require(contents.files.first { $0.path == path }?.data) }
    let districts = try BundleJSON.decode(
      DistrictsFile.self, from: file("districts.json"), brands: [.emart, .lottemart, "lotte-super"])
    #expect(districts.districts.map(\.name) == ["충청북도 청주시"])
    #expect(districts.districts.first?.patternDescription == "2nd wednesday, 4th wednesday")
    #expect(districts.districts.first?.evidence.map(\.description) == ["emart-1061", "lottemart-0100200"])
    #expect(districts.districts.first?.stores == 2)
    #expect(contents.manifest.files.contains { $0.path == "districts.json" })
    #expect(contents.manifest.files.contains { $0.path == "districts.json.gz" })

    let closures = try BundleJSON.decode(
      ClosuresFile.self, from: file("closures.json"), brands: [.emart, .lottemart, "lotte-super"])
    #expect(closures.expected.keys.sorted() == Self.wednesdays)
    #expect(closures.expected["2026-11-11"]?.map(\.description) == ["lotte-super-5089"])
    #expect(closures.dates["2026-11-11"]?.map(\.description) == ["emart-1061", "lottemart-0100200"])

    let calendar = String(decoding: try file("calendars/branches/lotte-super-5089.ics"), as: UTF8.self)
    #expect(calendar.components(separatedBy: "STATUS:TENTATIVE").count - 1 == 6)
    #expect(calendar.contains("UID:lotte-super-5089-20261111-expected@mart-holiday"))
    #expect(!calendar.contains("UID:lotte-super-5089-20261111@mart-holiday"))
    let confirmed = String(decoding: try file("calendars/branches/emart-1061.ics"), as: UTF8.self)
    #expect(!confirmed.contains("TENTATIVE"))
  }

  @Test func validateInfersTheDistrictsAgainAndChecksExpectedDays() throws {
    let (output, pointer) = try ExportFixtures.publish(Self.branches(), label: "districts")
    #expect(BundleValidator(directory: output).validate().problems.map(\.description) == [])
    let validator = BundleValidatorTests()
    try validator.rewrite("districts.json", in: output, pointer: pointer) {
      $0 = $0.replacingOccurrences(of: #""weekday":"wednesday""#, with: #""weekday":"sunday""#)
    }
    let found = validator.problems(output)
    #expect(found.contains { $0.hasPrefix("\(pointer.bundle)/districts.json: 충청북도 청주시 (hypermarket): differs from what branches.json supports") })
  }

  /// `branches()` and a 토이저러스 in 청주시 closing the same 2nd/4th Wednesdays: a specialty
  /// store, which the manifest marks not designated when published with `exempt: ["toysrus"]`.
  static func branchesWithToyStore() -> [Branch] {
    branches() + [
      ExportFixtures.branch("toysrus", "2339", name: "청주점", text: "매월 둘째, 넷째 수요일 휴무", address: cheongju)
    ]
  }

  /// Replaces the manifest's text and signs it again in `latest.json`.
  func rewriteManifest(in output: URL, pointer: LatestPointer, _ edit: (inout String) -> Void) throws {
    let url = output.appendingPathComponent(pointer.bundle).appendingPathComponent("manifest.json")
    var text = try String(contentsOf: url, encoding: .utf8)
    let before = text
    edit(&text)
    #expect(text != before, "the edit changed nothing")
    try Data(text.utf8).write(to: url)
    var latest = pointer
    latest.manifestSHA256 = SHA256.hex(Data(text.utf8))
    try BundleJSON.encode(latest).write(to: output.appendingPathComponent("latest.json"))
  }

  @Test func theManifestSaysWhichBrandsAreDesignatedAndValidateRejectsADistrictCountingAToyStore() throws {
    let (output, pointer) = try ExportFixtures.publish(
      Self.branchesWithToyStore(), label: "districts", exempt: ["toysrus"])
    let bundle = output.appendingPathComponent(pointer.bundle)
    let manifest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: bundle.appendingPathComponent("manifest.json")))
        as? [String: Any])
    let brands = try #require(manifest["brands"] as? [[String: Any]])
    var designated: [String: Bool] = [:]
    for brand in brands { designated[try #require(brand["slug"] as? String)] = brand["designated"] as? Bool }
    #expect(designated == ["emart": true, "lotte-super": true, "lottemart": true, "toysrus": false])

    let districts = try BundleJSON.decode(
      DistrictsFile.self, from: Data(contentsOf: bundle.appendingPathComponent("districts.json")),
      brands: [.emart, .lottemart, "lotte-super", "toysrus"])
    // The toy store closes the district's days but is no evidence, and not one of its stores.
    #expect(districts.districts.first?.evidence.map(\.description) == ["emart-1061", "lottemart-0100200"])
    #expect(districts.districts.first?.agreeing == 2)
    #expect(districts.districts.first?.stores == 2)
    #expect(BundleValidator(directory: output).validate().problems.map(\.description) == [])

    // A districts.json that counted the toy store, as an inference blind to `designated` would.
    let validator = BundleValidatorTests()
    try validator.rewrite("districts.json", in: output, pointer: pointer) {
      let twoStores = #""evidence":["emart-1061","lottemart-0100200"]"#
      let threeStores = #""evidence":["emart-1061","lottemart-0100200","toysrus-2339"]"#
      let counted = $0.replacingOccurrences(of: #""agreeing":2,"#, with: #""agreeing":3,"#)
        .replacingOccurrences(of: twoStores, with: threeStores)
        .replacingOccurrences(of: #""stores":2,"#, with: #""stores":3,"#)
      #expect(counted.components(separatedBy: "toysrus-2339").count == 2 && counted.contains(#""stores":3,"#))
      $0 = counted
    }
    #expect(
      validator.problems(output).contains {
        $0.hasPrefix("\(pointer.bundle)/districts.json: 충청북도 청주시 (hypermarket): differs from what branches.json supports")
      })
  }

  @Test func aManifestWithoutDesignatedCountsEveryBrandAsDesignated() throws {
    // A bundle of designated brands only, its manifest as written before the field existed: valid.
    let (output, pointer) = try ExportFixtures.publish(Self.branches(), label: "districts")
    try rewriteManifest(in: output, pointer: pointer) {
      $0 = $0.replacingOccurrences(of: #""designated":true,"#, with: "")
    }
    let manifestURL = output.appendingPathComponent(pointer.bundle).appendingPathComponent("manifest.json")
    #expect(!(try String(contentsOf: manifestURL, encoding: .utf8)).contains("designated"))
    let manifest = try BundleJSON.decode(BundleManifest.self, from: Data(contentsOf: manifestURL))
    #expect(manifest.brands.count == 3 && manifest.brands.allSatisfy(\.designated))
    #expect(BundleValidator(directory: output).validate().problems.map(\.description) == [])

    // Without the field the toy store counts as designated: its bundle's districts.json, which
    // left it out, no longer agrees.
    let (toyOutput, toyPointer) = try ExportFixtures.publish(
      Self.branchesWithToyStore(), label: "districts", exempt: ["toysrus"])
    #expect(BundleValidator(directory: toyOutput).validate().problems.map(\.description) == [])
    try rewriteManifest(in: toyOutput, pointer: toyPointer) {
      $0 = $0.replacingOccurrences(of: #""designated":false,"#, with: "")
    }
    #expect(
      BundleValidator(directory: toyOutput).validate().problems.map(\.description).contains {
        $0.hasPrefix("\(toyPointer.bundle)/districts.json: 충청북도 청주시 (hypermarket): differs from what branches.json supports")
      })
  }

  @Test func validateRejectsExpectedDaysOnABrandNotDesignated() throws {
    // The 롯데슈퍼 store carries 청주시's expected days, but the manifest says its brand keeps
    // days of its own.
    let (output, pointer) = try ExportFixtures.publish(Self.branches(), label: "districts", exempt: ["lotte-super"])
    #expect(
      BundleValidator(directory: output).validate().problems.map(\.description).contains(
        "\(pointer.bundle)/districts.json: lotte-super-5089: has closing.expected, but the manifest says lotte-super"
          + " is not designated or is stale"))
  }

  @Test func diffInfersEachBundlesDistrictsWithItsOwnDesignatedBrands() {
    // 이마트 청주점 and a 토이저러스 there, both on the 2nd/4th Wednesday. The old manifest, written
    // before `designated` existed, counts the toy store: two stores of two sources, a pattern. The
    // new one marks it not designated: one store left, no pattern.
    let branches = Self.branchesWithToyStore().filter { $0.brand != .lottemart }
    let side = { (version: String, exempt: Set<BrandSlug>) in
      BundleDiff.Side(
        version: version, asOf: ExportFixtures.asOf, window: ExportFixtures.window,
        brands: ExportFixtures.summaries(branches, exempt: exempt))
    }
    let diff = BundleDiff(
      old: side("old", []), oldBranches: branches, new: side("new", ["toysrus"]), newBranches: branches)
    #expect(diff.districts.map(\.district) == ["충청북도 청주시"])
    #expect(diff.districts.first?.old == "2nd wednesday, 4th wednesday")
    #expect(diff.districts.first?.new == nil)
    #expect(diff.districts.first?.evidence.map(\.description) == ["emart-1061", "toysrus-2339"])
  }
}

/// A district designating a day of the month, 안산시 (the 10th and the 4th Sunday): in the window
/// 2026-11-01 … 2027-01-31 the 10ths are 11-10, 12-10, 01-10 and the 4th Sundays 11-22, 12-27,
/// 01-24 (Python's `calendar`).
@Suite struct DayOfMonthDistrictExportTests {
  static let ansan = BranchAddress(published: "경기도 안산시 단원구 어딘가로 1", sido: "경기도", sigungu: "안산시 단원구")

  static func branches() -> [Branch] {
    let text = "매월 10일, 넷째 일요일 휴무"
    let branches = [
      ExportFixtures.branch(.emart, "1", name: "안산점", text: text, address: ansan),
      ExportFixtures.branch("homeplus", "2", name: "안산점", text: text, address: ansan),
      ExportFixtures.branch("lotte-super", "3", name: "안산점", text: "", address: ansan),
    ]
    return DistrictDesignations.infer(from: branches, window: ExportFixtures.window, exempt: []).withExpectedDays(
      branches)
  }

  @Test func aDayOfTheMonthIsWrittenValidatedAndExpected() throws {
    let (output, pointer) = try ExportFixtures.publish(Self.branches(), label: "day-of-month")
    #expect(BundleValidator(directory: output).validate().problems.map(\.description) == [])
    let data = try Data(contentsOf: output.appendingPathComponent(pointer.bundle + "/districts.json"))
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""pattern":[{"ordinal":4,"weekday":"sunday"},{"dayOfMonth":10}]"#))
    let expected = Self.branches().first { $0.id.description == "lotte-super-3" }?.closing.expected
    #expect(
      expected?.dates.map(\.iso) == ["2026-11-10", "2026-11-22", "2026-12-10", "2026-12-27", "2027-01-10", "2027-01-24"])
  }
}

/// A stale brand's branches (kept from an earlier bundle because its run failed) are no evidence:
/// the summaries leave them out of the district inference as they do a brand not designated.
@Suite struct StaleBrandDistrictTests {
  @Test func staleAndUndesignatedBrandsAreLeftOut() {
    let summaries = [
      BrandSummary(slug: "emart", name: "이마트", branchCount: 3, freshness: .stale, lastFetchedAsOf: nil),
      BrandSummary(slug: "homeplus", name: "홈플러스", branchCount: 1, freshness: .fresh, lastFetchedAsOf: nil),
      BrandSummary(slug: "toysrus", name: "토이저러스", branchCount: 1, freshness: .fresh, lastFetchedAsOf: nil, designated: false),
      BrandSummary(slug: "costco", name: "코스트코", branchCount: 0, freshness: .missing, lastFetchedAsOf: nil),
    ]
    #expect(summaries.exemptFromDesignation == ["emart", "toysrus"])
  }
}
