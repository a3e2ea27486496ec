// The map as it is now: names an address may still use for a place that has since changed.

extension AddressParser {
  /// The cities with 특례시 status (지방자치법 제198조) and their provinces: 수원, 고양, 용인
  /// and 창원 since 2022-01-13, 화성 since 2025-01-01. The status adds `특례시` to how the city
  /// may be written (`화성특례시 만세구 …`), but the legal address keeps `…시`. Each name is the
  /// only city of that name in the country, so it also places an address without its province.
  static let specialCities: [String: Province] = [
    "수원시": .gyeonggi, "고양시": .gyeonggi, "용인시": .gyeonggi, "화성시": .gyeonggi, "창원시": .gyeongnam,
  ]

  /// Puts the address on the map as it is now: the legal name of a 특례시, the province of a
  /// city named alone (제주시, 서귀포시, a 특례시, 군위군), and the successor of an abolished 구
  /// of 인천 (``IncheonReform``).
  static func placeOnCurrentMap(_ address: inout KoreanAddress) {
    if let sigungu = address.sigungu, let city = city(of: sigungu),
      city.utf8.reversed().starts(with: "특례시".utf8.reversed())
    {
      let legal = String(city.unicodeScalars.dropLast(3)) + "시"
      if specialCities[legal] != nil { address.sigungu = legal + sigungu[city.endIndex...] }
    }
    if address.province == nil, let city = address.sigungu.flatMap(city(of:)) {
      address.province = specialCities[String(city)] ?? (city == "제주시" || city == "서귀포시" ? .jeju : nil)
    }
    // 군위군 has been part of 대구광역시 since 2023-07-01; store pages still write `경북 군위군`.
    if address.province == nil || address.province == .gyeongbuk, address.sigungu == "군위군" {
      address.province = .daegu
    }
    if address.province == .incheon { IncheonReform.apply(to: &address) }
  }
}

extension AddressParser {
  /// The city of a 시군구 as the parser reads it (`성남시` of `성남시 분당구`): the text before its
  /// first space, `nil` when there is none. The parser's 시군구 are Hangul syllables with at most
  /// one space, between a 시 and its 구, so each scalar is a character: read by scalar, this is
  /// what `sigungu.split(separator: " ").first` reads by character, without making the pieces.
  static func city(of sigungu: String) -> Substring? {
    let scalars = sigungu.unicodeScalars
    let end = scalars.firstIndex(of: " ") ?? scalars.endIndex
    return end == scalars.startIndex ? nil : sigungu[..<end]
  }
}

/// The 인천 reform of 2026-07-01 (인천광역시 제물포구·영종구·검단구 설치 등에 관한 법률, passed
/// 2024-01-09): 중구 and 동구 were abolished, their inland part became 제물포구 and 영종도 with
/// 용유도 became 영종구; 서구 north of the 경인아라뱃길 became 검단구, and the rest of 서구 took the
/// name it chose on 2025-08-07, 서해구 (national data of 2026 write it: the 국회도서관 council code
/// table lists 인천광역시 서해구의회 beside 검단구·영종구·제물포구의회; read 2026-11-28; the
/// renaming law's number and date were not found).
///
/// An address written with an abolished 구 names its successor only where its 동 (법정동 or
/// 행정동) or its road decides it (`인천 중구 공항로 272 (운서동)` is on 영종도: 영종구). Where
/// neither does, the 구 is kept as published, with a warning.
enum IncheonReform {
  /// 법정동 and 행정동 of 영종도 and 용유도 (영종구).
  static let yeongjongDongs: Set<String> = [
    "운서동", "운남동", "운북동", "중산동", "덕교동", "을왕동", "남북동", "무의동", "영종동", "영종1동", "용유동",
  ]
  /// Roads that run only on 영종도 (영종구).
  static let yeongjongRoads: Set<String> = ["공항로", "영종대로", "영종해안남로", "영종해안북로", "하늘중앙로", "용유로"]
  /// 법정동 (without their 가) and 행정동 of inland 중구 (제물포구).
  static let inlandJungguDongs: Set<String> = [
    "항동", "신포동", "답동", "신생동", "내동", "경동", "용동", "인현동", "전동", "율목동", "유동", "도원동",
    "신흥동", "선화동", "관동", "중앙동", "해안동", "송학동", "사동", "선린동", "북성동", "송월동", "연안동",
    "개항동", "동인천동",
  ]
  /// 법정동 and 행정동 of 서구 north of the 경인아라뱃길 (검단구).
  static let geomdanDongs: Set<String> = [
    "마전동", "당하동", "원당동", "불로동", "대곡동", "금곡동", "오류동", "왕길동", "검단동", "불로대곡동",
    "오류왕길동", "아라동",
  ]
  /// Roads that run only north of the 경인아라뱃길 (검단구): the roads of 검단신도시 named on
  /// 2020-07-20 (이음대로, 이음1~3로, 서로1~3로, 검마루로, 갈메울로, 당곡로; 미디어인천신문
  /// 2020-07-28, read 2026-12-02) and the older 검단 roads 검단로, 완정로, 원당대로.
  static let geomdanRoads: Set<String> = [
    "이음대로", "이음1로", "이음2로", "이음3로", "서로1로", "서로2로", "서로3로", "검마루로", "갈메울로", "당곡로", "검단로",
    "완정로", "원당대로",
  ]
  /// Roads that run only in 청라, south of the 경인아라뱃길 (서해구): 청라국제도시 (법정동
  /// 청라동) is bounded north by the 아라뱃길; its main roads were named in 2011 after its three
  /// zones and given the prefix 청라 about 2014 (청라에메랄드로, 청라루비로, 청라사파이어로: 경인일보
  /// 2018-08-07, read 2026-12-02), beside 청라대로 (the 인천경제청's 청라 office, 청라대로 46) and
  /// 청라커낼로 (보틀벙커 청라점, 청라커낼로 252). Every road of 서구 whose name begins with
  /// 청라 is read so (`seohaeRoadPrefix`).
  static let seohaeRoads: Set<String> = ["청라대로", "청라커낼로", "청라에메랄드로", "청라루비로", "청라사파이어로"]
  /// The name 청라's roads begin with.
  static let seohaeRoadPrefix = "청라"

  /// Whether `road` runs only in 청라 (서해구).
  static func isSeohaeRoad(_ road: String) -> Bool {
    seohaeRoads.contains(road) || (road.hasPrefix(seohaeRoadPrefix) && road.count > seohaeRoadPrefix.count + 1)
  }

  /// 법정동 and 행정동 of the rest of 서구 (서해구).
  static let restOfSeoguDongs: Set<String> = [
    "백석동", "시천동", "검암동", "경서동", "공촌동", "연희동", "심곡동", "가정동", "신현동", "석남동", "원창동",
    "가좌동", "청라동", "검암경서동", "신현원창동",
  ]

  /// The 법정동 of `dong` without a trailing number and 가 or 동 number (`항동7가` → `항동`,
  /// `가정1동` → `가정동`).
  static func baseName(_ dong: String) -> String {
    var scalars = Array(dong.unicodeScalars)
    guard let last = scalars.popLast(), last == "가" || last == "동" else { return dong }
    let before = scalars.count
    while let tail = scalars.last, ("0"..."9").contains(tail) { scalars.removeLast() }
    guard scalars.count < before else { return dong }
    let base = String(String.UnicodeScalarView(scalars))
    return last == "가" ? base : base + "동"
  }

  static func apply(to address: inout KoreanAddress) {
    guard let sigungu = address.sigungu else { return }
    let dong = address.dongRi.map(baseName)
    func decides(_ names: Set<String>) -> Bool { dong.map(names.contains) ?? false }
    switch sigungu {
    case "동구":
      address.sigungu = "제물포구"
    case "중구":
      if decides(yeongjongDongs) || address.roadName.map(yeongjongRoads.contains) == true {
        address.sigungu = "영종구"
      } else if decides(inlandJungguDongs) {
        address.sigungu = "제물포구"
      } else {
        address.warnings.append(
          "인천 중구 was abolished on 2026-07-01 (제물포구, 영종구): kept as published, its 동 or road does not say which")
      }
    case "서구":
      // The 동 first (the legal 동 of the building), else the road.
      let byDong = decides(geomdanDongs) ? "검단구" : decides(restOfSeoguDongs) ? "서해구" : nil
      let byRoad = address.roadName.flatMap { road in
        geomdanRoads.contains(road) ? "검단구" : isSeohaeRoad(road) ? "서해구" : nil
      }
      if let successor = byDong ?? byRoad {
        address.sigungu = successor
      } else {
        address.warnings.append(
          "인천 서구 was split on 2026-07-01 (검단구, 서해구): kept as published, its 동 or road does not say which")
      }
    default:
      break
    }
  }
}
