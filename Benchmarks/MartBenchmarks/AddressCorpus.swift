/// A store as the address corpus builds it: the parts of one real-looking address.
struct CorpusStore {
  /// The province as the store page spells it (official, short or old name).
  var province: String
  var sigungu: String
  var eupMyeon: String?
  var dong: String
  var road: String
  var building: String
  var lot: String
  /// What store pages append: building names, floors, store names.
  var extra: String
}

/// Store addresses from every province, in the shapes the brand sources publish.
let corpusStores: [CorpusStore] = [
  CorpusStore(province: "서울특별시", sigungu: "송파구", dong: "잠실동", road: "올림픽로", building: "240", lot: "40-1", extra: "롯데월드몰 지하1층"),
  CorpusStore(province: "서울", sigungu: "성동구", dong: "성수동2가", road: "뚝섬로", building: "379", lot: "333-16", extra: "이마트 성수점"),
  CorpusStore(province: "서울특별시", sigungu: "노원구", dong: "월계동", road: "마들로3길", building: "15", lot: "410-6", extra: "SFM 월계점"),
  CorpusStore(province: "서울시", sigungu: "용산구", dong: "한강로3가", road: "한강대로23길", building: "55", lot: "40-999", extra: "현대아이파크몰 3층"),
  CorpusStore(province: "서울특별시", sigungu: "금천구", dong: "가산동", road: "가산로", building: "106", lot: "60-3", extra: "112"),
  CorpusStore(province: "부산광역시", sigungu: "해운대구", dong: "우동", road: "센텀남대로", building: "35", lot: "1495", extra: "신세계센텀시티 B1"),
  CorpusStore(province: "부산", sigungu: "부산진구", dong: "당감동", road: "가야대로", building: "506", lot: "809-1", extra: "홈플러스 가야점"),
  CorpusStore(province: "부산광역시", sigungu: "동래구", dong: "온천동", road: "중앙대로", building: "1393", lot: "502-3", extra: "2층"),
  CorpusStore(province: "대구광역시", sigungu: "수성구", dong: "만촌동", road: "동원로", building: "136", lot: "1420", extra: "이마트 만촌점"),
  CorpusStore(province: "대구", sigungu: "중구", dong: "태평로3가", road: "칠성로", building: "56", lot: "1-1", extra: "지하1층"),
  CorpusStore(province: "인천광역시", sigungu: "연수구", dong: "송도동", road: "컨벤시아대로", building: "165", lot: "3-2", extra: "3층 301호"),
  CorpusStore(province: "인천", sigungu: "남동구", dong: "구월동", road: "인하로", building: "485", lot: "1455", extra: "롯데마트 인천터미널점"),
  CorpusStore(province: "광주광역시", sigungu: "광산구", dong: "수완동", road: "임방울대로", building: "330", lot: "1372", extra: "롯데마트 수완점"),
  CorpusStore(province: "광주", sigungu: "북구", dong: "중흥동", road: "서양로", building: "63", lot: "300-5", extra: "1층"),
  CorpusStore(province: "대전광역시", sigungu: "중구", dong: "오류동", road: "오류로", building: "41", lot: "116-3", extra: "홈플러스 대전점"),
  CorpusStore(province: "대전", sigungu: "유성구", dong: "봉명동", road: "온천로", building: "65", lot: "1001", extra: "B2층"),
  CorpusStore(province: "울산광역시", sigungu: "남구", dong: "삼산동", road: "삼산로", building: "261", lot: "1481-1", extra: "현대백화점 지하1층"),
  CorpusStore(province: "울산", sigungu: "중구", dong: "성안동", road: "성안로", building: "112", lot: "650", extra: "2층"),
  CorpusStore(province: "세종특별자치시", sigungu: "", dong: "나성동", road: "한누리대로", building: "2130", lot: "762", extra: "이마트 세종점"),
  CorpusStore(province: "세종시", sigungu: "", dong: "보람동", road: "보듬3로", building: "114", lot: "701", extra: "1층"),
  CorpusStore(province: "경기도", sigungu: "성남시 분당구", dong: "서현동", road: "황새울로360번길", building: "42", lot: "263", extra: "AK플라자 지하1층"),
  CorpusStore(province: "경기", sigungu: "부천시 원미구", dong: "중동", road: "길주로", building: "100", lot: "1129", extra: "롯데백화점 중동점"),
  CorpusStore(province: "경기도", sigungu: "남양주시", dong: "다산동", road: "다산중앙로123번길", building: "20", lot: "6141", extra: "지하1층"),
  CorpusStore(province: "경기", sigungu: "광주시", eupMyeon: "오포읍", dong: "신현리", road: "신현로", building: "17", lot: "산 12-3", extra: "2층"),
  CorpusStore(province: "경기도", sigungu: "의정부시", dong: "민락동", road: "민락로", building: "220", lot: "846", extra: "2층"),
  CorpusStore(province: "강원특별자치도", sigungu: "춘천시", dong: "석사동", road: "세실로", building: "108", lot: "872", extra: "홈플러스 춘천점"),
  CorpusStore(province: "강원도", sigungu: "원주시", dong: "단계동", road: "북원로", building: "2325", lot: "1123", extra: "이마트 원주점"),
  CorpusStore(province: "강원", sigungu: "강릉시", dong: "교동", road: "하슬라로", building: "22", lot: "1874", extra: "3층"),
  CorpusStore(province: "충청북도", sigungu: "청주시 흥덕구", dong: "비하동", road: "비하로12번길", building: "52", lot: "332-1", extra: "롯데마트 서청주점"),
  CorpusStore(province: "충북", sigungu: "청주시 서원구", dong: "성화동", road: "2순환로", building: "1181", lot: "838", extra: "B1"),
  CorpusStore(province: "충청남도", sigungu: "천안시 서북구", dong: "불당동", road: "불당대로", building: "180", lot: "1567", extra: "2층"),
  CorpusStore(province: "충남", sigungu: "아산시", eupMyeon: "배방읍", dong: "장재리", road: "희망로", building: "78", lot: "1741", extra: "이마트 아산점"),
  CorpusStore(province: "전북특별자치도", sigungu: "전주시 완산구", dong: "효자동2가", road: "효자로", building: "225", lot: "1177", extra: "홈플러스 효자점"),
  CorpusStore(province: "전라북도", sigungu: "군산시", dong: "수송동", road: "수송로", building: "135", lot: "848", extra: "1층"),
  CorpusStore(province: "전라남도", sigungu: "무안군", eupMyeon: "삼향읍", dong: "남악리", road: "오룡3길", building: "2", lot: "2700", extra: "롯데마트 남악점"),
  CorpusStore(province: "전남", sigungu: "여수시", dong: "학동", road: "좌수영로", building: "57", lot: "12", extra: "지하1층"),
  CorpusStore(province: "경상북도", sigungu: "포항시 북구", dong: "죽도동", road: "중흥로", building: "244", lot: "607-1", extra: "GS더프레시 포항죽도점"),
  CorpusStore(province: "경북", sigungu: "구미시", dong: "광평동", road: "신시로", building: "32", lot: "66-1", extra: "2층"),
  CorpusStore(province: "경상남도", sigungu: "창원시 의창구", dong: "중동", road: "원이대로", building: "450", lot: "92", extra: "(주)롯데쇼핑 창원점"),
  CorpusStore(province: "경남", sigungu: "창원시 진해구", dong: "석동", road: "진해대로", building: "617", lot: "543-5", extra: "롯데마트 진해점"),
  CorpusStore(province: "경남", sigungu: "김해시", eupMyeon: "장유면", dong: "대청리", road: "계동로", building: "75", lot: "산 44", extra: "1층"),
  CorpusStore(province: "제주특별자치도", sigungu: "제주시", dong: "노형동", road: "연북로", building: "1", lot: "2470-1", extra: "롯데마트 제주점"),
  CorpusStore(province: "제주도", sigungu: "서귀포시", dong: "서귀동", road: "중앙로", building: "111-1", lot: "275", extra: "2층"),
]

/// One address per shape per store: road-name, road with the 동 in or after parentheses, road with
/// the lot number in parentheses, lot-number, lot then road, road with details, text run on
/// without spaces, and a road-name address with its separately published lot-number address.
func addressCorpus() -> [(text: String, lotAddress: String?)] {
  var corpus: [(text: String, lotAddress: String?)] = []
  for store in corpusStores {
    let region = [store.province, store.sigungu, store.eupMyeon ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
    let road = "\(region) \(store.road) \(store.building)"
    let lot = "\(region) \(store.dong) \(store.lot)"
    corpus += [
      (road, nil),
      ("\(road) (\(store.dong))", nil),
      ("\(road) \(store.dong)", nil),
      ("\(road)(\(store.dong) \(store.lot))", nil),
      ("\(road), \(store.extra) (\(store.dong))", nil),
      (lot, nil),
      ("\(lot)번지 \(store.extra)", nil),
      ("\(lot) \(store.road) \(store.building)", nil),
      ("\(road) \(store.extra)", nil),
      ("\(road)\(store.extra)", nil),
      ((region + store.road + store.building).filter { $0 != " " }, nil),
      ("\(region)\u{00A0}\(store.road)  \(store.building) 길 찾기", nil),
      (road, lot),
      (road, "(\(store.dong) \(store.lot))"),
    ]
  }
  return corpus
}
