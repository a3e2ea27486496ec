// The cities (시) of the country, by the name written without 시.

extension AddressParser {
  /// Every 시 under a province (지방자치법 제3조; the 75 시 and 제주's two 행정시, 서귀포 and 제주) by
  /// its name without 시, with its province: store pages and the press write `파주 금촌동 …`,
  /// `김해 내동 …`. 광주 and 제주 are left out: written alone they name a province (광주광역시, now
  /// part of 전남광주통합특별시; 제주특별자치도). No two 시 share a name.
  static let citiesWithoutSuffix: [String: Province] = {
    let byProvince: [(Province, [String])] = [
      (
        .gyeonggi,
        [
          "수원", "성남", "의정부", "안양", "부천", "광명", "평택", "동두천", "안산", "고양", "과천", "구리", "남양주", "오산",
          "시흥", "군포", "의왕", "하남", "용인", "파주", "이천", "안성", "김포", "화성", "양주", "포천", "여주",
        ]
      ),
      (.gangwon, ["춘천", "원주", "강릉", "동해", "태백", "속초", "삼척"]),
      (.chungbuk, ["청주", "충주", "제천"]),
      (.chungnam, ["천안", "공주", "보령", "아산", "서산", "논산", "계룡", "당진"]),
      (.jeonbuk, ["전주", "군산", "익산", "정읍", "남원", "김제"]),
      (.jeonnamGwangju, ["목포", "여수", "순천", "나주", "광양"]),
      (.gyeongbuk, ["포항", "경주", "김천", "안동", "구미", "영주", "영천", "상주", "문경", "경산"]),
      (.gyeongnam, ["창원", "진주", "통영", "사천", "김해", "밀양", "거제", "양산"]),
      (.jeju, ["서귀포"]),
    ]
    return Dictionary(uniqueKeysWithValues: byProvince.flatMap { province, names in names.map { ($0, province) } })
  }()
}
