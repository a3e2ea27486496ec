import Foundation
import MartHolidayKit
import Testing

/// Brand freshness and id lookup, read from the manifest's `freshness`/`lastFetchedAsOf` and
/// `branches.json`'s `removed`: on the fixtures' bundle, and on copies carrying what a failed run
/// or a removed store writes.
@Suite struct FreshnessAndLookupTests {
  @Test func theFixturesBundleIsFreshForEveryBrand() async throws {
    let raw = try RawBundle(output: try await PublishedFixtures.shared.output())
    let bundle = try await PublishedFixtures.shared.bundle()
    let brands = try #require(raw.manifest["brands"] as? [[String: Any]])
    #expect(brands.count > 5)
    for brand in brands {
      let slug = try #require(brand["slug"] as? String)
      #expect(brand["freshness"] as? String == "fresh", "\(slug)")
      #expect(bundle.freshness(ofBrand: slug) == .fresh, "\(slug)")
    }
    #expect(!bundle.branches.isEmpty)
    for branch in bundle.branches { #expect(branch.freshness == .fresh, "\(branch.id)") }
    // A slug the bundle does not know has no data in it.
    #expect(bundle.freshness(ofBrand: "no-such-brand") == .missing)
    #expect(bundle.freshness(ofBrand: "") == .missing)
  }

  @Test func staleAndMissingBrandsAreToldApart() async throws {
    let output = try await PublishedFixtures.shared.copy()
    try BundleEdits.setFreshness(
      in: output,
      [
        "emart": ("stale", "2026-11-13"), "homeplus": ("stale", nil), "lottemart": ("missing", nil),
        // A value this kit does not know is never taken for fresh.
        "costco": ("rotten", "2026-11-19"),
      ])
    let bundle = try MartBundle(contentsOf: output)
    let expected: [String: MartBrandFreshness] = [
      "emart": .stale(lastGood: MartDay(year: 2026, month: 11, day: 13)), "homeplus": .stale(lastGood: nil),
      "lottemart": .missing, "costco": .stale(lastGood: MartDay(year: 2026, month: 11, day: 19)),
    ]
    for brand in bundle.brands {
      #expect(bundle.freshness(ofBrand: brand.slug) == expected[brand.slug] ?? .fresh, "\(brand.slug)")
    }
    for slug in expected.keys { #expect(!bundle.branches(ofBrand: slug).isEmpty, "\(slug)") }
    for branch in bundle.branches {
      #expect(branch.freshness == expected[branch.brand.slug] ?? .fresh, "\(branch.id)")
    }
  }

  @Test func aManifestWithoutFreshnessReadsAsStale() async throws {
    let output = try await PublishedFixtures.shared.copy()
    let directory = try RawBundle(output: output).directory
    try BundleLoadingTests.resignedManifest(output, directory) { manifest in
      manifest["brands"] = (manifest["brands"] as? [[String: Any]] ?? []).map { brand in
        brand.filter { $0.key != "freshness" && $0.key != "lastFetchedAsOf" }
      }
    }
    let bundle = try MartBundle(contentsOf: output)
    #expect(!bundle.brands.isEmpty)
    for brand in bundle.brands { #expect(bundle.freshness(ofBrand: brand.slug) == .stale(lastGood: nil)) }
  }

  @Test func specialtyStoresAreNotDesignatedAndAManifestWithoutTheFieldReadsAsDesignated() async throws {
    let fixtures = try await PublishedFixtures.shared.bundle()
    #expect(fixtures.brands.filter { !$0.isDesignated }.map(\.slug) == ["bottle-bunker", "toysrus"])
    let toyStore = try #require(fixtures.branches(ofBrand: "toysrus").first)
    #expect(!toyStore.brand.isDesignated)
    #expect(try #require(fixtures.branches(ofBrand: "emart").first).brand.isDesignated)

    let output = try await PublishedFixtures.shared.copy()
    let directory = try RawBundle(output: output).directory
    try BundleLoadingTests.resignedManifest(output, directory) { manifest in
      manifest["brands"] = (manifest["brands"] as? [[String: Any]] ?? []).map { brand in
        brand.filter { $0.key != "designated" }
      }
    }
    let bundle = try MartBundle(contentsOf: output)
    #expect(bundle.brands.count == fixtures.brands.count)
    #expect(bundle.brands.allSatisfy { $0.isDesignated })
    #expect(bundle.branches.allSatisfy { $0.brand.isDesignated })
  }

  /// A bundle written before `removed` existed: listed ids answer, every other id is unknown.
  @Test func aBundleWithoutRemovedIdsAnswersUnknown() async throws {
    let output = try await PublishedFixtures.shared.copy()
    try BundleEdits.setRemoved(in: output, nil)
    let bundle = try MartBundle(contentsOf: output)
    #expect(!bundle.knowsRemovedBranches)
    #expect(bundle.lookup(id: "emart-1059") == .listed(try #require(bundle.branch(id: "emart-1059"))))
    #expect(bundle.lookup(id: "emart-2001") == .unknown)
    #expect(bundle.lookup(id: "") == .unknown)
    for branch in bundle.branches { #expect(bundle.lookup(id: branch.id) == .listed(branch)) }
  }

  @Test func removedIdsAreToldApartFromIdsThatNeverExisted() async throws {
    let output = try await PublishedFixtures.shared.copy()
    try BundleEdits.setRemoved(
      in: output,
      #"[{"brand":"emart","id":"emart-1059","lastListed":"2026-11-01"},"#
        + #"{"brand":"emart","id":"emart-2001","lastListed":"2026-11-13"},"#
        + #"{"brand":"homeplus","id":"homeplus-9001","lastListed":null}]"#)
    let bundle = try MartBundle(contentsOf: output)
    #expect(bundle.knowsRemovedBranches)
    #expect(bundle.lookup(id: "emart-2001") == .removed(lastListed: MartDay(year: 2026, month: 11, day: 13)))
    #expect(bundle.lookup(id: "homeplus-9001") == .removed(lastListed: nil))
    #expect(bundle.branch(id: "emart-2001") == nil)
    #expect(bundle.lookup(id: "emart-2002") == .unknown)
    // An id both listed and removed is listed: the branches are what the bundle holds.
    #expect(bundle.lookup(id: "emart-1059") == .listed(try #require(bundle.branch(id: "emart-1059"))))
  }

  /// The fixtures' first run had no previous bundle: it writes an empty list.
  @Test func anEmptyRemovedListKnowsThatNothingWasRemoved() async throws {
    let raw = try RawBundle(output: try await PublishedFixtures.shared.output())
    let file = try RawBundle.object(raw.directory.appendingPathComponent("branches.json"))
    #expect((file["removed"] as? [Any])?.isEmpty == true)
    let bundle = try await PublishedFixtures.shared.bundle()
    #expect(bundle.knowsRemovedBranches)
    #expect(bundle.lookup(id: "emart-2001") == .unknown)
  }

  @Test func aMalformedRemovedListIsRefusedNamingBranchesJSON() async throws {
    let output = try await PublishedFixtures.shared.copy()
    try BundleEdits.setRemoved(in: output, #"[{"brand":"emart","lastListed":"2026-11-13"}]"#)
    let expected = try RawBundle(output: output).directory.appendingPathComponent("branches.json").path
    #expect {
      try MartBundle(contentsOf: output)
    } throws: { error in
      guard let error = error as? MartBundleError else { return false }
      return error.code == .malformed && error.location == expected && error.message.contains("removed")
    }
  }
}
