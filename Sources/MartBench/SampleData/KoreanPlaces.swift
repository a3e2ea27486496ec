import MartCore

/// A deterministic random number generator (SplitMix64): the same seed gives the same data on
/// every machine and Swift version.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A uniformly chosen element of a non-empty array.
  mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[Int.random(in: 0..<elements.count, using: &self)]
  }

  /// True with probability `probability`.
  mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }
}

/// A province (시·도) as addresses write it, with the districts branches are spread over.
struct ProvinceSample: Sendable {
  /// The official name, e.g. `경상남도`.
  var fullName: String
  /// The short form some sites use, e.g. `경남`.
  var shortName: String
  /// E-mart's `AREA_CODE` letter.
  var areaCode: String
  /// The area telephone prefix, e.g. `055`.
  var phonePrefix: String
  var latitude: Double
  var longitude: Double
  /// Weight in the national store count (roughly population).
  var weight: Int
  /// 시·군·구 as addresses write them (`창원시 성산구`, `강남구`).
  var districts: [String]
}

/// The places, roads and neighbourhoods branch addresses are made of.
enum KoreanPlaces {
  static let provinces: [ProvinceSample] = [
    .init(
      fullName: "서울특별시", shortName: "서울", areaCode: "A", phonePrefix: "02", latitude: 37.55, longitude: 126.99,
      weight: 19,
      districts: [
        "강남구", "강동구", "강북구", "강서구", "관악구", "광진구", "구로구", "금천구", "노원구", "도봉구", "동대문구", "동작구",
        "마포구", "서대문구", "서초구", "성동구", "성북구", "송파구", "양천구", "영등포구", "용산구", "은평구", "종로구", "중랑구",
      ]),
    .init(
      fullName: "부산광역시", shortName: "부산", areaCode: "B", phonePrefix: "051", latitude: 35.17, longitude: 129.07,
      weight: 7, districts: ["해운대구", "부산진구", "동래구", "남구", "북구", "사하구", "금정구", "강서구", "연제구", "수영구", "사상구", "기장군"]),
    .init(
      fullName: "대구광역시", shortName: "대구", areaCode: "D", phonePrefix: "053", latitude: 35.87, longitude: 128.60,
      weight: 5, districts: ["수성구", "달서구", "북구", "동구", "중구", "서구", "달성군"]),
    .init(
      fullName: "인천광역시", shortName: "인천", areaCode: "C", phonePrefix: "032", latitude: 37.46, longitude: 126.70,
      weight: 6, districts: ["연수구", "남동구", "부평구", "계양구", "서구", "미추홀구", "중구"]),
    .init(
      fullName: "광주광역시", shortName: "광주", areaCode: "E", phonePrefix: "062", latitude: 35.16, longitude: 126.85,
      weight: 3, districts: ["광산구", "북구", "서구", "남구", "동구"]),
    .init(
      fullName: "대전광역시", shortName: "대전", areaCode: "F", phonePrefix: "042", latitude: 36.35, longitude: 127.38,
      weight: 3, districts: ["서구", "유성구", "중구", "동구", "대덕구"]),
    .init(
      fullName: "울산광역시", shortName: "울산", areaCode: "G", phonePrefix: "052", latitude: 35.54, longitude: 129.31,
      weight: 2, districts: ["남구", "중구", "북구", "동구", "울주군"]),
    .init(
      fullName: "세종특별자치시", shortName: "세종", areaCode: "Q", phonePrefix: "044", latitude: 36.48, longitude: 127.29,
      weight: 1, districts: [""]),
    .init(
      fullName: "경기도", shortName: "경기", areaCode: "I", phonePrefix: "031", latitude: 37.40, longitude: 127.10,
      weight: 26,
      districts: [
        "수원시 영통구", "수원시 팔달구", "성남시 분당구", "성남시 중원구", "용인시 기흥구", "용인시 수지구", "고양시 일산동구",
        "고양시 덕양구", "안양시 동안구", "부천시", "화성시", "남양주시", "의정부시", "평택시", "시흥시", "파주시", "김포시", "광명시",
        "하남시", "안산시 단원구", "이천시", "오산시", "구리시", "안성시",
      ]),
    .init(
      fullName: "강원특별자치도", shortName: "강원", areaCode: "H", phonePrefix: "033", latitude: 37.75, longitude: 128.30,
      weight: 3, districts: ["춘천시", "원주시", "강릉시", "속초시", "동해시"]),
    .init(
      fullName: "충청북도", shortName: "충북", areaCode: "O", phonePrefix: "043", latitude: 36.64, longitude: 127.49,
      weight: 3, districts: ["청주시 흥덕구", "청주시 상당구", "충주시", "제천시"]),
    .init(
      fullName: "충청남도", shortName: "충남", areaCode: "N", phonePrefix: "041", latitude: 36.66, longitude: 126.67,
      weight: 4, districts: ["천안시 서북구", "천안시 동남구", "아산시", "서산시", "당진시", "논산시"]),
    .init(
      fullName: "전북특별자치도", shortName: "전북", areaCode: "M", phonePrefix: "063", latitude: 35.82, longitude: 127.11,
      weight: 3, districts: ["전주시 덕진구", "전주시 완산구", "익산시", "군산시", "정읍시"]),
    .init(
      fullName: "전라남도", shortName: "전남", areaCode: "L", phonePrefix: "061", latitude: 34.82, longitude: 126.46,
      weight: 3, districts: ["목포시", "여수시", "순천시", "광양시", "나주시"]),
    .init(
      fullName: "경상북도", shortName: "경북", areaCode: "K", phonePrefix: "054", latitude: 36.24, longitude: 128.60,
      weight: 5, districts: ["포항시 북구", "포항시 남구", "구미시", "경산시", "경주시", "안동시", "김천시"]),
    .init(
      fullName: "경상남도", shortName: "경남", areaCode: "J", phonePrefix: "055", latitude: 35.24, longitude: 128.69,
      weight: 6,
      districts: ["창원시 성산구", "창원시 의창구", "창원시 마산회원구", "창원시 진해구", "김해시", "양산시", "진주시", "거제시", "통영시"]),
    .init(
      fullName: "제주특별자치도", shortName: "제주", areaCode: "P", phonePrefix: "064", latitude: 33.49, longitude: 126.50,
      weight: 1, districts: ["제주시", "서귀포시"]),
  ]

  /// Stems of road names (`중앙` → `중앙로`, `중앙대로`, `중앙로12번길`).
  static let roadStems = [
    "중앙", "시청", "역전", "번영", "공단", "대학", "문화", "평화", "신흥", "동부", "서부", "남부", "북부", "새마을", "충무", "세종",
    "한마음", "금강", "청계", "강변", "산업", "월드컵", "해안", "호수", "테헤란", "도산", "올림픽", "통일", "백제", "가야", "신라",
    "선유", "노해", "매헌", "연북", "동원", "판교역", "다산중앙", "송파대", "천호대", "원이대", "가야대", "섬밭", "중흥", "봉화",
  ]

  /// Neighbourhood (동) stems; branch names and lot addresses are built from them.
  static let dongStems = [
    "창", "양재", "만촌", "중", "역삼", "대치", "서초", "잠실", "가락", "문정", "상계", "중계", "월계", "목", "신정", "화곡",
    "등촌", "연희", "합정", "망원", "성수", "행당", "왕십리", "구의", "자양", "천호", "명일", "고덕", "둔산", "탄방", "노은",
    "봉명", "복대", "율량", "용암", "분평", "두정", "불당", "신부", "배방", "효자", "송천", "인후", "삼산", "무거", "달동",
    "센텀", "우", "좌", "명지", "하단", "덕천", "화명", "연산", "수성", "범어", "상인", "칠곡", "동천", "죽도", "양덕",
    "상남", "용호", "내", "장유", "진주", "노형", "연동", "서귀", "영통", "매탄", "정자", "수내", "야탑", "구성", "보정",
    "죽전", "동탄", "병점", "행신", "화정", "주엽", "탄현", "일산", "부평", "계산", "구월", "송도", "청라", "검단", "다산",
    "민락", "금촌", "운정", "풍무", "장기", "소하", "미사", "풍산", "평촌", "범계", "산본", "중동", "상동", "고잔", "석사",
  ]

  /// A phone number in the area of `province`, e.g. `055-211-1234`.
  static func phone(_ province: ProvinceSample, using random: inout SeededRandom) -> String {
    let exchange = Int.random(in: 200...999, using: &random)
    let line = Int.random(in: 1000...9999, using: &random)
    return "\(province.phonePrefix)-\(exchange)-\(line)"
  }
}

/// One generated place: where a branch stands and how its address reads.
public struct PlaceSample: Sendable {
  var province: ProvinceSample
  var district: String
  var dong: String
  /// Road-name address, e.g. `경상남도 창원시 성산구 중앙대로 123 (중앙동)`.
  public var roadAddress: String
  /// Lot-number address, e.g. `경상남도 창원시 성산구 중앙동 1-15`.
  public var lotAddress: String
  /// The same road address with the short province name (`경남 …`), as some sites write it.
  public var shortRoadAddress: String
  var latitude: Double
  var longitude: Double
  /// The closing weekday the district's ordinance sets (most use Sunday).
  var closingWeekday: Weekday

  /// A place drawn in proportion to the provinces' store counts.
  public static func random(using random: inout SeededRandom) -> PlaceSample {
    let totalWeight = KoreanPlaces.provinces.reduce(0) { $0 + $1.weight }
    var ticket = Int.random(in: 0..<totalWeight, using: &random)
    var province = KoreanPlaces.provinces[0]
    for candidate in KoreanPlaces.provinces {
      if ticket < candidate.weight {
        province = candidate
        break
      }
      ticket -= candidate.weight
    }
    let district = random.pick(province.districts)
    let dong = random.pick(KoreanPlaces.dongStems) + "동"
    let stem = random.pick(KoreanPlaces.roadStems)
    let road: String =
      switch Int.random(in: 0..<4, using: &random) {
      case 0: "\(stem)대로"
      case 1: "\(stem)로\(Int.random(in: 1...120, using: &random))번길"
      default: "\(stem)로"
      }
    let building = Int.random(in: 1...980, using: &random)
    let area = district.isEmpty ? province.fullName : "\(province.fullName) \(district)"
    let shortArea = district.isEmpty ? province.shortName : "\(province.shortName) \(district)"
    var suffix = ""
    switch Int.random(in: 0..<6, using: &random) {
    case 0: suffix = " (\(dong))"
    case 1: suffix = ", \(random.pick(["B1층", "2층", "지하1층", "1층"]))"
    default: break
    }
    let lot =
      "\(Int.random(in: 1...1500, using: &random))"
      + (random.chance(0.5) ? "-\(Int.random(in: 1...40, using: &random))" : "")
    let weekday: Weekday =
      switch (province.shortName, district) {
      case ("대구", _): .monday
      case ("제주", _): .saturday
      case ("충북", let district) where district.hasPrefix("청주"): .wednesday
      case ("서울", "서초구"), ("서울", "동대문구"): .wednesday
      default: .sunday
      }
    return PlaceSample(
      province: province, district: district, dong: dong,
      roadAddress: "\(area) \(road) \(building)\(suffix)",
      lotAddress: "\(area) \(dong) \(lot)",
      shortRoadAddress: "\(shortArea) \(road) \(building)\(suffix)",
      latitude: province.latitude + Double.random(in: -0.15...0.15, using: &random),
      longitude: province.longitude + Double.random(in: -0.15...0.15, using: &random),
      closingWeekday: weekday)
  }
}
