/// The store brands the dataset covers. The raw value is the slug used in branch ids,
/// command-line options and file names; it never changes.
public enum BrandSlug: String, CaseIterable, Sendable, Codable, Comparable {
  case emart
  case traders
  case nobrand
  case everyday
  case homeplus
  case homeplusExpress = "homeplus-express"
  case lottemart
  case costco
  case gsTheFresh = "gs-thefresh"
  case lotteMaxx = "lotte-maxx"
  case toysrus
  case grandGrocery = "grand-grocery"
  case bottleBunker = "bottle-bunker"
  case lotteSuper = "lotte-super"
  case megamart

  /// The brand's name as Korean shoppers know it.
  public var koreanName: String {
    switch self {
    case .emart: "이마트"
    case .traders: "이마트 트레이더스"
    case .nobrand: "노브랜드"
    case .everyday: "이마트 에브리데이"
    case .homeplus: "홈플러스"
    case .homeplusExpress: "홈플러스 익스프레스"
    case .lottemart: "롯데마트"
    case .costco: "코스트코"
    case .gsTheFresh: "GS더프레시"
    case .lotteMaxx: "롯데마트 맥스"
    case .toysrus: "토이저러스"
    case .grandGrocery: "그랑그로서리"
    case .bottleBunker: "보틀벙커"
    case .lotteSuper: "롯데슈퍼"
    case .megamart: "메가마트"
    }
  }

  public static func < (lhs: BrandSlug, rhs: BrandSlug) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A branch's permanent identifier: `<brand slug>-<the brand's own store id>`, e.g. `emart-1059`.
///
/// Clients store these as favourites, so they must never change between runs.
public struct BranchID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
  public let brand: BrandSlug
  public let storeID: String

  public init(brand: BrandSlug, storeID: String) {
    self.brand = brand
    self.storeID = storeID
  }

  public var description: String { "\(brand.rawValue)-\(storeID)" }

  public static func < (lhs: BranchID, rhs: BranchID) -> Bool { lhs.description < rhs.description }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    // Longest slug first: "homeplus-express-0293" must not parse as homeplus + "express-0293".
    for slug in BrandSlug.allCases.sorted(by: { $0.rawValue.count > $1.rawValue.count })
    where text.hasPrefix(slug.rawValue + "-") {
      self.init(brand: slug, storeID: String(text.dropFirst(slug.rawValue.count + 1)))
      return
    }
    throw DecodingError.dataCorruptedError(
      in: container, debugDescription: "not a branch id (<brand>-<store id>): \(text)")
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
