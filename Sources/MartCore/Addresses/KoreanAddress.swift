/// A building number on a road (도로명 건물번호): `300`, `244-1`, `지하 12`.
public struct BuildingNumber: Hashable, Sendable, Codable, CustomStringConvertible {
  public var main: Int
  public var sub: Int?
  /// Whether the entrance is underground (`지하`), which is part of the number, not a floor.
  public var isUnderground: Bool

  public init(main: Int, sub: Int? = nil, isUnderground: Bool = false) {
    self.main = main
    self.sub = sub
    self.isUnderground = isUnderground
  }

  /// `지하 12-3`, `300`.
  public var description: String {
    (isUnderground ? "지하 " : "") + String(main) + (sub.map { "-\($0)" } ?? "")
  }
}

/// A lot number (지번): `92`, `607-1`, `산 12-3` (a mountain lot).
public struct LotNumber: Hashable, Sendable, Codable, CustomStringConvertible {
  public var main: Int
  public var sub: Int?
  /// Whether the lot is a mountain lot (`산`).
  public var isMountain: Bool

  public init(main: Int, sub: Int? = nil, isMountain: Bool = false) {
    self.main = main
    self.sub = sub
    self.isMountain = isMountain
  }

  /// `산12-3`, `607-1`.
  public var description: String {
    (isMountain ? "산" : "") + String(main) + (sub.map { "-\($0)" } ?? "")
  }
}

/// A Korean address split into its parts, from text that may mix the lot-number (지번) and
/// road-name (도로명) systems. Build one with `KoreanAddress(parsing:)`.
///
/// The canonical forms (`roadAddress`, `jibunAddress`) and the geocoding candidates (`queries`)
/// are derived from the parts and never contain details, building names or parentheses.
public struct KoreanAddress: Hashable, Sendable {
  /// The text as given.
  public var raw: String
  /// 시도 by its current official name.
  public var province: Province?
  /// 시군구, with 시 and 구 together when a city has districts, e.g. `성남시 분당구`.
  public var sigungu: String?
  /// 읍 or 면.
  public var eupMyeon: String?
  /// 법정동 or 리, e.g. `신천동`, `종로2가`, `가남리`.
  public var dongRi: String?
  /// Road name without inner spaces, e.g. `칠성로56길`.
  public var roadName: String?
  public var buildingNumber: BuildingNumber?
  public var lotNumber: LotNumber?
  /// What follows the address: floors, units, building names.
  public var detail: String?
  /// The parenthesized reference, e.g. `죽도동 607-1` or `노형동`.
  public var reference: String?
  /// Pieces of the text that were not understood, in order. Empty when everything was.
  public var unparsed: [String]
  /// What the reader could not settle, in order: a 구 abolished since, kept as published because
  /// the address does not say its successor (see `docs/addresses-and-geocoding.md`).
  public var warnings: [String] = []

  public init(
    raw: String, province: Province? = nil, sigungu: String? = nil, eupMyeon: String? = nil,
    dongRi: String? = nil, roadName: String? = nil, buildingNumber: BuildingNumber? = nil,
    lotNumber: LotNumber? = nil, detail: String? = nil, reference: String? = nil, unparsed: [String] = []
  ) {
    self.raw = raw
    self.province = province
    self.sigungu = sigungu
    self.eupMyeon = eupMyeon
    self.dongRi = dongRi
    self.roadName = roadName
    self.buildingNumber = buildingNumber
    self.lotNumber = lotNumber
    self.detail = detail
    self.reference = reference
    self.unparsed = unparsed
  }

  /// `<시도> <시군구>[ <읍/면>]`, the parts present, with the province written `provinceName`,
  /// followed by the parts of `rest` present, with one space between two parts. The bytes are
  /// copied once into storage of the text's exact length: appended part by part, the text would
  /// grow several times.
  private func region(_ provinceName: String?, then rest: String?...) -> String {
    let head = [provinceName, sigungu, eupMyeon]
    func forEachPart(_ body: (String) -> Void) {
      for case let part? in head { body(part) }
      for case let part? in rest { body(part) }
    }
    var length = 0
    var parts = 0
    forEachPart {
      length += $0.utf8.count
      parts += 1
    }
    guard parts > 0 else { return "" }
    length += parts - 1
    return String(unsafeUninitializedCapacity: length) { buffer in
      var count = 0
      var isFirst = true
      forEachPart { part in
        if !isFirst {
          buffer[count] = UInt8(ascii: " ")
          count += 1
        }
        isFirst = false
        count += UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(from: part.utf8).1
      }
      return count
    }
  }

  /// Whether the region is specific enough to build a full address from.
  private var hasRegion: Bool { province != nil || sigungu != nil }

  /// `<시도> <시군구>[ <읍/면>] <road name>[ 지하] <main>[-<sub>]`, or `nil` without a road name
  /// and building number.
  public var roadAddress: String? { roadAddress(provinceName: province?.officialName) }

  /// `<시도> <시군구>[ <읍/면>] <동 or 리> [산]<main>[-<sub>]`, or `nil` without a 동/리 and lot number.
  public var jibunAddress: String? { jibunAddress(provinceName: province?.officialName) }

  /// The area alone (`<시도> <시군구>[ <읍/면>][ <동/리>]`), a district-level last resort.
  public var districtQuery: String? { districtQuery(provinceName: province?.officialName) }

  private func roadAddress(provinceName: String?) -> String? {
    guard hasRegion, let roadName, let buildingNumber else { return nil }
    return region(provinceName, then: roadName, buildingNumber.description)
  }

  private func jibunAddress(provinceName: String?) -> String? {
    guard hasRegion, let dongRi, let lotNumber else { return nil }
    return region(provinceName, then: dongRi, lotNumber.description)
  }

  private func districtQuery(provinceName: String?) -> String? {
    guard hasRegion, eupMyeon != nil || dongRi != nil else { return nil }
    return region(provinceName, then: dongRi)
  }

  /// What a geocoding query names: a building, a lot or only an area.
  public enum QueryForm: Sendable {
    /// The road-name address (`roadAddress`).
    case road
    /// The lot-number address (`jibunAddress`).
    case lot
    /// The 읍/면 or 동/리 (`districtQuery`).
    case district
  }

  /// Geocoding candidates, best first, without repeats: the road form, the lot-number form, then
  /// the district. Where the province has a name geocoders may still know instead of the official
  /// one (`Province.formerName(sigungu:)`: 광주광역시 or 전라남도 for 전남광주통합특별시), each form
  /// is followed by the same form under that name, so a geocoder that knows only one of the names
  /// still finds the most precise form it can.
  public var queryCandidates: [(form: QueryForm, text: String)] {
    var names = [province?.officialName]
    if let former = province?.formerName(sigungu: sigungu) { names.append(former) }
    var result: [(form: QueryForm, text: String)] = []
    func add(_ form: QueryForm, _ text: String?) {
      if let text, !result.contains(where: { $0.text == text }) { result.append((form, text)) }
    }
    for name in names { add(.road, roadAddress(provinceName: name)) }
    for name in names { add(.lot, jibunAddress(provinceName: name)) }
    for name in names { add(.district, districtQuery(provinceName: name)) }
    return result
  }

  /// The texts of `queryCandidates`, best first.
  public var queries: [String] { queryCandidates.map(\.text) }

  /// Whether every piece of the text was understood.
  public var isFullyParsed: Bool { unparsed.isEmpty }
}

extension KoreanAddress: Codable {
  private enum CodingKeys: String, CodingKey {
    case raw, sido, sigungu, eupMyeon, dongRi, roadName, buildingNumber, lotNumber, detail, reference
    case unparsed, roadAddress, jibunAddress, queries, warnings
  }

  /// Decodes the parts; the derived forms are recomputed, not read.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      raw: try container.decode(String.self, forKey: .raw),
      province: try container.decodeIfPresent(String.self, forKey: .sido).flatMap(Province.init(rawValue:)),
      sigungu: try container.decodeIfPresent(String.self, forKey: .sigungu),
      eupMyeon: try container.decodeIfPresent(String.self, forKey: .eupMyeon),
      dongRi: try container.decodeIfPresent(String.self, forKey: .dongRi),
      roadName: try container.decodeIfPresent(String.self, forKey: .roadName),
      buildingNumber: try container.decodeIfPresent(BuildingNumber.self, forKey: .buildingNumber),
      lotNumber: try container.decodeIfPresent(LotNumber.self, forKey: .lotNumber),
      detail: try container.decodeIfPresent(String.self, forKey: .detail),
      reference: try container.decodeIfPresent(String.self, forKey: .reference),
      unparsed: try container.decodeIfPresent([String].self, forKey: .unparsed) ?? [])
    warnings = try container.decodeIfPresent([String].self, forKey: .warnings) ?? []
  }

  /// Encodes every part (absent ones as `null`) and the derived `roadAddress`, `jibunAddress`
  /// and `queries`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(raw, forKey: .raw)
    try container.encode(province?.officialName, forKey: .sido)
    try container.encode(sigungu, forKey: .sigungu)
    try container.encode(eupMyeon, forKey: .eupMyeon)
    try container.encode(dongRi, forKey: .dongRi)
    try container.encode(roadName, forKey: .roadName)
    try container.encode(buildingNumber, forKey: .buildingNumber)
    try container.encode(lotNumber, forKey: .lotNumber)
    try container.encode(detail, forKey: .detail)
    try container.encode(reference, forKey: .reference)
    try container.encode(unparsed, forKey: .unparsed)
    try container.encode(roadAddress, forKey: .roadAddress)
    try container.encode(jibunAddress, forKey: .jibunAddress)
    try container.encode(queries, forKey: .queries)
    // Only when there are some: most addresses have none.
    if !warnings.isEmpty { try container.encode(warnings, forKey: .warnings) }
  }
}
