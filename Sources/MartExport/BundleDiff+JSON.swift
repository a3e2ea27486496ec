import Foundation
import MartCore

/// The diff as JSON, for machines.
extension BundleDiff {
  /// The machine-readable form, stable (canonical JSON, everything sorted):
  /// `{"old", "new", "window", "brands", "staleBrands": [{"brand", "name", "staleSince", "daysStale",
  /// "lastError"}], "districts": [{"district", "old", "new", "evidence"}], "register": [{"kind",
  /// "registerId", "branch", "name", "brand", "state", "since", "until", "permitDate", "district"}],
  /// "added", "removed",
  /// "addedBranches", "removedBranches",
  /// "changed": [{"id", "name", "brand", "brandName", "banner", "changes": [{"field", "old", "new", "sourceText"}]}],
  /// "groups", "summary": {"added", "removed", "changed", "groups", "kinds": {kind: count},
  /// "brands": {slug: {"added", "removed", "changed"}}}}` (see `docs/bundle-format.md`).
  public func json() throws -> Data {
    struct SideInfo: Encodable {
      var version: String
      var asOf: CalendarDate
      var window: DateWindow
    }
    struct WindowInfo: Encodable {
      var changed: Bool
      var compared: DateWindow?
      var addedDays: [DateWindow]
      var unknownOnAddedDays: [String: [BranchID]]
    }
    struct BranchInfo: Encodable {
      var id: BranchID
      var name: String
      var brand: BrandSlug
      var brandName: String
    }
    struct BrandEntry: Encodable {
      var brand: BrandSlug
      var brandName: String
      var old: BrandState?
      var new: BrandState?
    }
    struct Changed: Encodable {
      var id: BranchID
      var name: String
      var brand: BrandSlug
      var brandName: String
      var banner: String?
      var changes: [FieldChange]
    }
    struct SourceTextEntry: Encodable {
      var old: String?
      var new: String?
      var ids: [BranchID]
    }
    struct GroupEntry: Encodable {
      var brand: BrandSlug
      var brandName: String
      var field: ChangeKind
      var old: DiffValue
      var new: DiffValue
      var count: Int
      var ids: [BranchID]
      var sourceTexts: [SourceTextEntry]
    }
    struct Summary: Encodable {
      var added: Int
      var removed: Int
      var changed: Int
      var groups: Int
      var kinds: [String: Int]
      var brands: [String: BrandCounts]
    }
    struct Output: Encodable {
      var old: SideInfo
      var new: SideInfo
      var window: WindowInfo
      var brands: [BrandEntry]
      var staleBrands: [StaleBrand]
      var districts: [DistrictChange]
      var register: [RegisterFinding]
      var added: [BranchID]
      var removed: [BranchID]
      var addedBranches: [BranchInfo]
      var removedBranches: [BranchInfo]
      var changed: [Changed]
      var groups: [GroupEntry]
      var summary: Summary
    }
    func info(_ branch: Branch) -> BranchInfo {
      BranchInfo(id: branch.id, name: branch.name, brand: branch.brand, brandName: brandName(branch.brand))
    }
    let groups = groups
    let output = Output(
      old: SideInfo(version: old.version, asOf: old.asOf, window: old.window),
      new: SideInfo(version: new.version, asOf: new.asOf, window: new.window),
      window: WindowInfo(
        changed: windowChanged, compared: comparedDays, addedDays: addedDays,
        unknownOnAddedDays: Dictionary(uniqueKeysWithValues: unknownOnAddedDays.map { ($0.key.rawValue, $0.value) })),
      brands: brands.map { BrandEntry(brand: $0.brand, brandName: $0.name, old: $0.old, new: $0.new) },
      staleBrands: staleBrands,
      districts: districts,
      register: registerFindings,
      added: added.map(\.id), removed: removed.map(\.id),
      addedBranches: added.map(info), removedBranches: removed.map(info),
      changed: changed.map {
        Changed(
          id: $0.branch.id, name: $0.branch.name, brand: $0.branch.brand, brandName: brandName($0.branch.brand),
          banner: $0.branch.banner, changes: $0.changes)
      },
      groups: groups.map { group in
        GroupEntry(
          brand: group.brand, brandName: brandName(group.brand), field: group.kind, old: group.old, new: group.new,
          count: group.branches.count, ids: group.branches.map(\.id),
          sourceTexts: group.sourceTexts.map { SourceTextEntry(old: $0.change.old, new: $0.change.new, ids: $0.ids) })
      },
      summary: Summary(
        added: added.count, removed: removed.count, changed: changed.count, groups: groups.count,
        kinds: Dictionary(uniqueKeysWithValues: countsByKind.map { ($0.key.rawValue, $0.value) }),
        brands: Dictionary(uniqueKeysWithValues: countsByBrand.map { ($0.key.rawValue, $0.value) })))
    return try BundleJSON.encode(output)
  }
}
