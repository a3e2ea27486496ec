/// The sixteen first-level divisions (시도) under their current official names, as the map is since
/// 2026-07-01 (docs/addresses-and-geocoding.md lists the changes with their dates and sources).
public enum Province: String, CaseIterable, Sendable, Codable {
  case seoul = "서울특별시"
  case busan = "부산광역시"
  case daegu = "대구광역시"
  case incheon = "인천광역시"
  case daejeon = "대전광역시"
  case ulsan = "울산광역시"
  case sejong = "세종특별자치시"
  case gyeonggi = "경기도"
  case gangwon = "강원특별자치도"
  case chungbuk = "충청북도"
  case chungnam = "충청남도"
  case jeonbuk = "전북특별자치도"
  /// 광주광역시 and 전라남도 merged on 2026-07-01 (special act passed by the National Assembly on
  /// 2026-03-01; 시·군·구 names unchanged).
  case jeonnamGwangju = "전남광주통합특별시"
  case gyeongbuk = "경상북도"
  case gyeongnam = "경상남도"
  case jeju = "제주특별자치도"

  /// The official name, e.g. `강원특별자치도`.
  public var officialName: String { rawValue }

  /// Every spelling found in store pages: short forms, `…시` forms and names in use before a
  /// province was renamed or merged (강원도 until 2023, 전라북도 until 2024, 광주광역시 and 전라남도
  /// until 2026-07-01). 전남광주통합특별시 is also written 광주특별시 (the short name in the special
  /// act), 전남광주특별시 (the name agreed on 2026-01-27, before the act) and 전남광주 (the short
  /// form in Kakao's address data).
  public var aliases: [String] {
    switch self {
    case .seoul: ["서울특별시", "서울시", "서울"]
    case .busan: ["부산광역시", "부산시", "부산"]
    case .daegu: ["대구광역시", "대구시", "대구"]
    case .incheon: ["인천광역시", "인천시", "인천"]
    case .daejeon: ["대전광역시", "대전시", "대전"]
    case .ulsan: ["울산광역시", "울산시", "울산"]
    case .sejong: ["세종특별자치시", "세종특별시", "세종시", "세종"]
    case .gyeonggi: ["경기도", "경기"]
    case .gangwon: ["강원특별자치도", "강원도", "강원"]
    case .chungbuk: ["충청북도", "충북"]
    case .chungnam: ["충청남도", "충남"]
    case .jeonbuk: ["전북특별자치도", "전라북도", "전북"]
    case .jeonnamGwangju:
      ["전남광주통합특별시", "전남광주특별시", "광주특별시", "전남광주", "광주광역시", "광주", "전라남도", "전남"]
    case .gyeongbuk: ["경상북도", "경북"]
    case .gyeongnam: ["경상남도", "경남"]
    case .jeju: ["제주특별자치도", "제주도", "제주"]
    }
  }

  /// The name geocoders may still know the area by, with the 시군구 it is in, or `nil` when the
  /// official name is the only one: 광주광역시 for the 구 of 전남광주통합특별시 (동구, 서구, 남구, 북구
  /// and 광산구, the former 광주광역시; the former 전라남도 has no 구) and 전라남도 for its 시 and 군.
  /// `nil` without a 시군구, which alone tells the two apart.
  public func formerName(sigungu: String?) -> String? {
    guard self == .jeonnamGwangju, let sigungu else { return nil }
    return sigungu.hasSuffix("구") ? "광주광역시" : "전라남도"
  }

  /// The province a whole token names, e.g. `전북` → `.jeonbuk`. `광주시` is deliberately not an
  /// alias: it is also 경기도 광주시, so the parser decides from the context.
  public init?(alias: String) {
    guard let match = Province.byAlias[alias] else { return nil }
    self = match
  }

  /// The province a whole word of the address parser names.
  init?(aliasScalars word: ArraySlice<Unicode.Scalar>) {
    guard word.count < Province.aliasesByLength.count, let first = word.first,
      let match = Province.aliasesByLength[word.count].first(where: {
        $0.scalars[0] == first && $0.scalars.elementsEqual(word)
      })
    else { return nil }
    self = match.province
  }

  /// Every alias and its province (each alias names one province).
  private static let byAlias: [String: Province] = Dictionary(
    uniqueKeysWithValues: allCases.flatMap { province in province.aliases.map { ($0, province) } })

  /// All aliases as Unicode scalars, longest first, for matching prefixes of text written without
  /// spaces.
  static let aliasesLongestFirst: [(scalars: [Unicode.Scalar], province: Province)] =
    Province.allCases.flatMap { province in province.aliases.map { (Array($0.unicodeScalars), province) } }
    .sorted { $0.scalars.count > $1.scalars.count }

  /// The aliases by their length in scalars: a word is compared only with those of its length.
  private static let aliasesByLength: [[(scalars: [Unicode.Scalar], province: Province)]] =
    (0...aliasesLongestFirst[0].scalars.count).map { length in
      aliasesLongestFirst.filter { $0.scalars.count == length }
    }
}
