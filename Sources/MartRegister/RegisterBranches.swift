import MartBrands
import MartCore

/// The register stores no brand source covers, as branches of the register brands
/// (``RegisterBrands``): the register's name, address, point, phone and class, `source`
/// `register`, and no closing days of their own (status `unknown`: the register publishes none).
/// Their expected days come from their district's pattern for their class, where the run's
/// district inference gives them (``DistrictInference/expected(for:)``, which reads each
/// branch's ``Branch/storeClass``); a brand whose stores are designated store by store
/// (``RegisterBrands/Entry/designated``: 농협 하나로마트) gets none.
public enum RegisterBranches {
  /// The open stores of `listing` that belong to a register brand (a store whose name marks no
  /// brand is one of the independents'), by brand slug, each brand's branches by id.
  /// Not-yet-open stores trade on no day yet and are left to the cross-checks (new permits);
  /// stores of covered brands are their sources' branches.
  ///
  /// A branch's id is `<brand>-<관리번호>`: the register's permanent number, so a store keeps its
  /// id for as long as the register lists it.
  public static func branches(
    of listing: RegisterListing, normalizer: BranchNormalizer
  ) -> [BrandSlug: [Branch]] {
    var result: [BrandSlug: [Branch]] = [:]
    for entry in RegisterBrands.entries { result[entry.slug] = [] }
    for store in listing.stores where store.status == .open {
      guard let entry = brand(of: store) else { continue }
      result[entry.slug, default: []].append(branch(store, of: entry, normalizer: normalizer))
    }
    return result.mapValues { $0.sorted { $0.id < $1.id } }
  }

  /// The register brand `store` belongs to, `nil` for a covered brand's store.
  static func brand(of store: RegisterStore) -> RegisterBrands.Entry? {
    switch store.owner {
    case .registerBrand(let slug)?: RegisterBrands.entry(slug)
    case .covered?: nil
    case nil: RegisterBrands.independents
    }
  }

  /// One store as a branch of `entry`.
  static func branch(_ store: RegisterStore, of entry: RegisterBrands.Entry, normalizer: BranchNormalizer) -> Branch {
    let (banner, name) = split(store.name)
    let raw = RawBranch(
      id: BranchID(brand: entry.slug, storeID: store.id), name: name,
      publishedName: name == store.name ? nil : store.name,
      banner: entry.gathersIndependents ? banner : nil,
      address: store.roadAddress ?? store.jibunAddress,
      lotAddress: store.roadAddress == nil ? nil : store.jibunAddress, phone: store.phone,
      sourceURL: RegisterDownload.url)
    var branch = normalizer.normalize(raw).branch
    branch.coordinate = store.point.map {
      Coordinate(latitude: $0.latitude, longitude: $0.longitude, source: .site, precision: .building)
    }
    branch.registerID = store.id
    branch.source = .register
    branch.storeClass = store.kind
    return branch
  }

  /// A registered name as banner and branch name: `골드마트 광주점` is `골드마트` and `광주점`, and
  /// the operator's legal form goes (`(주)해피유통 해피마트 반여점` is `해피마트` and `반여점`); a name
  /// whose last word is no branch name (`…점`), or that is one word, is the branch name whole.
  static func split(_ registered: String) -> (banner: String?, name: String) {
    let words = registered.split(whereSeparator: \.isWhitespace)
    guard words.count > 1, let last = words.last, last.hasSuffix("점"), last.count > 1 else {
      return (nil, registered)
    }
    let banner = words.dropLast().filter { word in !legalForms.contains { word.contains($0) } }
    return (banner.isEmpty ? nil : banner.joined(separator: " "), String(last))
  }

  /// What marks a word of a registered name as the operator's legal form.
  static let legalForms = ["(주)", "㈜", "주식회사", "(유)", "(사)"]
}
