import Foundation
import MartCore
import Testing

@testable import MartExport

@Suite struct BundleFileKindTests {
  let branches = BundleValidatorTests().branches

  /// Whether one kind of ``BundleFileKinds/all`` (or the manifest) names `path`.
  func isNamedByAKind(_ path: String, brands: [BrandSlug], ids: [BranchID]) -> Bool {
    var names: Set<String> = [
      ManifestFileKind.name, BranchesFileKind.name, IndexFileKind.name, ClosuresFileKind.name, DistrictsFileKind.name,
    ]
    names.formUnion(brands.map(BrandFilesKind.path(of:)))
    names.formUnion(brands.map(CalendarFilesKind.path(of:)))
    names.formUnion(ids.map(CalendarFilesKind.path(of:)))
    names.formUnion(names.filter { $0.hasSuffix(".json") && $0 != ManifestFileKind.name }.map(GzipCopiesKind.path(of:)))
    return names.contains(path)
  }

  @Test func everyFileOfABundleIsNamedByItsKind() throws {
    let contents = try BundleContents(
      branches: branches, brands: [], day: ExportFixtures.day)
    let brands = Set(branches.map(\.brand)).sorted()
    let unnamed = contents.files.map(\.path).filter { !isNamedByAKind($0, brands: brands, ids: branches.map(\.id)) }
    #expect(unnamed == [])
    for required in BundleFileKinds.requiredPaths {
      #expect(contents.files.contains { $0.path == required }, "\(required)")
    }
  }

  @Test func aFindingAboutOneBranchNamesItsBranchAndBrand() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    try BundleValidatorTests().rewrite(BranchesFileKind.name, in: output, pointer: pointer) {
      let status = #""storeStatus":{"closesOn":null,"state":"trading""#
      if let last = $0.range(of: status, options: .backwards) {
        $0.replaceSubrange(last, with: #""storeStatus":{"closesOn":null,"state":"closed""#)
      }
    }
    let findings = BundleValidator(directory: output).validate().problems
    let shut = try #require(findings.first { $0.message.contains("the store is closed") })
    #expect(shut.path == "\(pointer.bundle)/\(BranchesFileKind.name)")
    #expect(shut.branch == BranchID(brand: "lottemart", storeID: "0100161"))
    #expect(shut.brand == "lottemart")
    #expect(shut.description == "\(shut.path): \(shut.message)")
  }

  @Test func aClosuresFindingNamesTheBranchItConcerns() throws {
    let (output, pointer) = try ExportFixtures.publish(branches)
    // 2026-11-08 is the 2nd Sunday of November: both branches close; drop the Lotte Mart one.
    try BundleValidatorTests().rewrite(ClosuresFileKind.name, in: output, pointer: pointer) {
      $0 = $0.replacingOccurrences(of: #"["emart-1059","lottemart-0100161"]"#, with: #"["emart-1059"]"#)
    }
    let lotte = BranchID(brand: "lottemart", storeID: "0100161")
    let findings = BundleValidator(directory: output).validate().problems
    let lacking = try #require(findings.first { $0.message.contains("lacks \(lotte)") })
    #expect(lacking.branch == lotte)
    #expect(lacking.path == "\(pointer.bundle)/\(ClosuresFileKind.name)")
  }
}
