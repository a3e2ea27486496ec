import Foundation
import MartCore
import MartDigest
import MartExport
import Testing

@testable import MartHolidayKit

/// The kit reads every bundle file the tests publish as the pipeline's own types do, and its
/// SHA-256 is the pipeline's.
@Suite struct DecodingAgreementTests {
  /// The kit's branch and the pipeline's agree field by field.
  static func expectAgreement(_ kit: MartBranch, _ branch: Branch, brandName: String, file: String) {
    let context = "\(file): \(branch.id)"
    #expect(kit.id == branch.id.description, "\(context)")
    #expect(kit.brand.slug == branch.brand.rawValue, "\(context)")
    #expect(kit.brand.name == brandName, "\(context)")
    #expect(kit.name == branch.name, "\(context)")
    #expect(kit.address.published == branch.address.published, "\(context)")
    #expect(kit.address.road == branch.address.road, "\(context)")
    #expect(kit.address.jibun == branch.address.jibun, "\(context)")
    #expect(kit.address.sido == branch.address.sido, "\(context)")
    #expect(kit.address.sigungu == branch.address.sigungu, "\(context)")
    #expect(kit.phone == branch.phone, "\(context)")
    #expect(kit.openingHours == branch.openingHours, "\(context)")
    #expect(kit.hours?.open == branch.hours?.open, "\(context)")
    #expect(kit.hours?.close == branch.hours?.close, "\(context)")
    #expect(kit.coordinate?.latitude == branch.coordinate?.latitude, "\(context)")
    #expect(kit.coordinate?.longitude == branch.coordinate?.longitude, "\(context)")
    #expect(kit.pageURL?.absoluteString == branch.pageURL, "\(context)")
    #expect(kit.storeStatus.state.rawValue == branch.storeStatus.state.rawValue, "\(context)")
    #expect(kit.storeStatus.text == branch.storeStatus.text, "\(context)")
    #expect(kit.storeStatus.until?.iso == branch.storeStatus.until?.iso, "\(context)")
    #expect(kit.storeStatus.closesOn?.iso == branch.storeStatus.closesOn?.iso, "\(context)")
    #expect(kit.schedule.status.rawValue == branch.closing.status.rawValue, "\(context)")
    #expect(kit.schedule.closingDays.map(\.iso) == branch.closing.dates.map(\.iso), "\(context)")
    #expect(
      kit.schedule.unknownRanges.map { "\($0.lowerBound)…\($0.upperBound)" }
        == branch.closing.unknownRanges.map { "\($0.from)…\($0.through)" }, "\(context)")
    #expect(kit.schedule.knownThrough?.iso == branch.closing.knownThrough?.iso, "\(context)")
    #expect(kit.schedule.text == branch.closing.schedule.text, "\(context)")
    #expect(kit.schedule.warnings == branch.closing.schedule.warnings, "\(context)")
    #expect(kit.core.schedule == branch.closing.schedule, "\(context)")
    // Expected days keep what they rest on and the class whose designation gave them.
    #expect(kit.schedule.expectedDays.map(\.iso) == (branch.closing.expected?.dates ?? []).map(\.iso), "\(context)")
    #expect(kit.schedule.expectedBasis?.rawValue == branch.closing.expected?.basis, "\(context)")
    #expect(kit.schedule.expectedStoreClass?.rawValue == branch.closing.expected?.storeClass?.rawValue, "\(context)")
    #expect(kit.core.storeStatus == branch.storeStatus, "\(context)")
  }

  @Test func everyBranchesFileDecodesAsThePipelineWroteIt() async throws {
    let output = try await PublishedFixtures.shared.output()
    let raw = try RawBundle(output: output)
    let published = try BundleStore.readBundle(at: output)
    let bundle = try MartBundle(contentsOf: output)
    #expect(bundle.version == published.manifest.version)
    #expect(bundle.asOf.iso == published.manifest.asOf.iso)
    #expect(bundle.window.lowerBound.iso == published.manifest.window.from.iso)
    #expect(bundle.window.upperBound.iso == published.manifest.window.through.iso)
    #expect(bundle.brands.map(\.slug) == published.manifest.brands.map(\.slug.rawValue))
    #expect(bundle.brands.map(\.name) == published.manifest.brands.map(\.name))
    #expect(bundle.brands.map(\.isDesignated) == published.manifest.brands.map(\.designated))
    // The registry's specialty stores are the ones the manifest marks not designated.
    #expect(bundle.brands.filter { !$0.isDesignated }.map(\.slug) == ["bottle-bunker", "toysrus"])
    // Each brand's store class as the manifest says it; none for the specialty stores.
    #expect(bundle.brands.map(\.storeClass?.rawValue) == published.manifest.brands.map(\.storeClass?.rawValue))
    #expect(bundle.brands.first { $0.slug == "everyday" }?.storeClass == .ssm)
    #expect(bundle.brands.first { $0.slug == "toysrus" }?.storeClass == nil)
    let names = Dictionary(uniqueKeysWithValues: published.manifest.brands.map { ($0.slug.rawValue, $0.name) })
    // The fixtures' run read every brand, so every branch the kit builds is fresh.
    for brand in published.manifest.brands {
      #expect(brand.freshness == .fresh, "\(brand.slug)")
      #expect(brand.lastFetchedAsOf == published.manifest.asOf, "\(brand.slug)")
    }
    let brands = Dictionary(
      uniqueKeysWithValues: published.manifest.brands.map { summary in
        let brand = MartBrand(
          slug: summary.slug.rawValue, name: summary.name, isDesignated: summary.designated,
          storeClass: summary.storeClass.flatMap { MartStoreClass(rawValue: $0.rawValue) })
        return (summary.slug.rawValue, (brand: brand, freshness: MartBrandFreshness.fresh))
      })
    let window = published.manifest.window
    let files = raw.files.map(\.path).filter {
      $0 == "branches.json" || ($0.hasPrefix("brands/") && $0.hasSuffix(".json"))
    }
    #expect(files.count == 1 + published.manifest.brands.count)
    for path in files {
      let data = try Data(contentsOf: raw.directory.appendingPathComponent(path))
      let theirs = try BundleJSON.decode(BranchesFile.self, from: data)
      let ours = try BundleReader.decode(BranchesFileRecord.self, from: data, location: path)
      #expect(ours.branches.count == theirs.branches.count, "\(path)")
      for (record, branch) in zip(ours.branches, theirs.branches) {
        let kit = MartBranch(record: record, brands: brands, day: RunDay(asOf: published.manifest.asOf, window: window))
        Self.expectAgreement(kit, branch, brandName: names[branch.brand.rawValue] ?? "", file: path)
        if path == "branches.json" {
          #expect(bundle.branch(id: kit.id) == kit, "\(path): \(kit.id)")
        }
      }
    }
  }

  @Test func everyBundleFileHasThePipelinesDigest() async throws {
    let raw = try RawBundle(output: try await PublishedFixtures.shared.output())
    #expect(raw.files.count > 100)
    let manifest = try Data(contentsOf: raw.directory.appendingPathComponent("manifest.json"))
    #expect(KitSHA256.hex(manifest) == SHA256.hex(manifest))
    #expect(KitSHA256.hex(manifest) == raw.latest["manifestSHA256"] as? String)
    for file in raw.files {
      let data = try Data(contentsOf: raw.directory.appendingPathComponent(file.path))
      let digest = KitSHA256.hex(data)
      #expect(digest == SHA256.hex(data), "\(file.path)")
      #expect(digest == file.sha256, "\(file.path)")
    }
  }

  /// FIPS 180-2 and NIST example vectors.
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
        + "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func standardVectors(message: String, digest: String) {
    #expect(KitSHA256.hex(Data(message.utf8)) == digest)
  }

  @Test func aMillionTimesA() {
    let data = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(KitSHA256.hex(data) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// Every length around the padding boundaries, against libcrypto.
  @Test func lengthsAroundBlockBoundariesMatchLibcrypto() {
    var bytes: [UInt8] = []
    for length in 0...200 {
      let data = Data(bytes)
      #expect(KitSHA256.hex(data) == SHA256.hex(data), "\(length) bytes")
      bytes.append(UInt8(truncatingIfNeeded: length &* 131 &+ 7))
    }
  }
}
