import Foundation
import MartBrands
import MartCore
import MartFetch
import MartReplay

/// How many branches of each brand a generated recording holds.
public struct BrandMix: Sendable, Hashable {
  public var counts: [BrandSlug: Int]

  /// The national chains' relative sizes (about 2025): 이마트 130, 트레이더스 22, 노브랜드 230,
  /// 에브리데이 250, 롯데마트 110, 홈플러스 126, 익스프레스 300, 코스트코 20, GS THE FRESH 520.
  public static let nationalShares: [(BrandSlug, Double)] = [
    (.emart, 130), (.traders, 22), (.nobrand, 230), (.everyday, 250), (.lottemart, 110),
    (.homeplus, 126), (.homeplusExpress, 300), (.costco, 20), (.gsTheFresh, 520),
  ]

  /// Most GS THE FRESH stores a run reads: its list comes three to a page and the source reads
  /// at most 1,000 pages. The share above that goes to the other brands.
  public static let gsTheFreshLimit = 3_000

  /// `total` branches spread like the real chains (largest remainders, every brand at least one).
  public static func national(total: Int) -> BrandMix {
    precondition(total >= BrandMix.nationalShares.count, "at least one branch per brand")
    var shares = nationalShares
    var counts: [BrandSlug: Int] = [:]
    var remaining = total
    let gsShare = shares.first { $0.0 == .gsTheFresh }!.1
    let shareSum = shares.reduce(0) { $0 + $1.1 }
    if Double(total) * gsShare / shareSum > Double(gsTheFreshLimit) {
      counts[.gsTheFresh] = gsTheFreshLimit
      remaining -= gsTheFreshLimit
      shares.removeAll { $0.0 == .gsTheFresh }
    }
    let sum = shares.reduce(0) { $0 + $1.1 }
    let exact = shares.map { (brand: $0.0, value: Double(remaining) * $0.1 / sum) }
    var assigned = exact.map { max(1, Int($0.value)) }
    var leftover = remaining - assigned.reduce(0, +)
    let order = exact.indices.sorted {
      (exact[$0].value - Double(Int(exact[$0].value)), $1) > (exact[$1].value - Double(Int(exact[$1].value)), $0)
    }
    var index = 0
    while leftover > 0 {
      assigned[order[index % order.count]] += 1
      leftover -= 1
      index += 1
    }
    for (position, share) in exact.enumerated() { counts[share.brand] = assigned[position] }
    return BrandMix(counts: counts)
  }

  public var total: Int { counts.values.reduce(0, +) }

  public func count(_ brand: BrandSlug) -> Int { counts[brand] ?? 0 }
}

/// Writes a recording (the replay format of `fixtures/web`) of every brand site at any scale:
/// the same endpoints, keys, markup and quirks as the fixtures, with seeded random names,
/// addresses across the provinces, phones, coordinates and closing texts in the sites' wordings.
///
/// The same seed, mix and as-of date always give the same bytes.
public struct SourceDataGenerator: Sendable {
  public var mix: BrandMix
  public var seed: UInt64
  /// The day the recording is made for (`recordedOn`); closing dates cover its month and the
  /// next two.
  public var asOf: CalendarDate

  public init(
    mix: BrandMix, seed: UInt64 = 20_261_120, asOf: CalendarDate = CalendarDate(year: 2026, month: 11, day: 20)!
  ) {
    self.mix = mix
    self.seed = seed
    self.asOf = asOf
  }

  /// Every exchange of the recording, named as the files it is written to.
  public func exchanges() -> [(name: String, exchange: RecordedExchange)] {
    var random = SeededRandom(seed: seed)
    var output: [(name: String, exchange: RecordedExchange)] = []
    output += emart(&random)
    output += lotteMart(&random)
    output += homeplus(&random)
    output += costco(&random)
    output += gsTheFresh(&random)
    return output
  }

  /// Writes `replay.json` and every exchange into `directory`; returns the number of exchanges.
  @discardableResult
  public func write(to directory: URL) throws(ReplayError) -> Int {
    try ReplayArchive.writeManifest(
      recordedOn: asOf.iso,
      description:
        "Generated source data (seed \(seed)): \(mix.total) branches of nine brands in each site's format.",
      to: directory)
    let all = exchanges()
    for (name, exchange) in all {
      try ReplayArchive.write(exchange, name: name, to: directory)
    }
    return all.count
  }

  // MARK: - Shared pieces

  static let jsonHeaders = [HTTPHeader("Content-Type", "application/json;charset=UTF-8")]
  static let htmlHeaders = [HTTPHeader("Content-Type", "text/html;charset=UTF-8")]

  /// The 2nd and 4th `weekday` of the month of `month`.
  static func secondAndFourth(_ weekday: Weekday, in month: CalendarDate) -> [CalendarDate] {
    let first = month.firstOfMonth()
    let offset = (weekday.rawValue - first.weekday.rawValue + 7) % 7
    return [first.adding(days: offset + 7), first.adding(days: offset + 21)]
  }

  /// The three months of closing days a site publishes.
  func closingDays(_ weekday: Weekday) -> [[CalendarDate]] {
    (0..<3).map { Self.secondAndFourth(weekday, in: asOf.firstOfMonth(addingMonths: $0)) }
  }

  /// The next closing day on or after the as-of date.
  func nextClosingDay(_ weekday: Weekday) -> CalendarDate {
    closingDays(weekday).joined().first { $0 >= asOf }!
  }

  /// Unique branch names built from neighbourhoods (`역삼점`, `역삼2점`, …).
  struct NameBook {
    private var used: [String: Int] = [:]

    mutating func name(near place: PlaceSample) -> String {
      let stem = String(place.dong.dropLast())
      let count = used[stem, default: 0] + 1
      used[stem] = count
      return count == 1 ? "\(stem)점" : "\(stem)\(count)점"
    }
  }

  static func compact(_ date: CalendarDate) -> String { date.iso.replacingOccurrences(of: "-", with: "") }

  static func monthDay(_ date: CalendarDate) -> String { "\(date.month)/\(date.day)" }

  static func coordinateText(_ value: Double, digits: Int) -> String { String(format: "%.\(digits)f", value) }

  // MARK: - E-mart (이마트, 트레이더스, 노브랜드, 에브리데이)

  private struct EmartStore {
    var id: Int
    /// The name as the feeds write it (`트레이더스 구성점`, `창동점`).
    var feedName: String
    var storeType: String
    var brand: BrandSlug?
    var place: PlaceSample
    var phone: String
    /// The phone the store page shows (No Brand's list leaves `TEL` blank).
    var pagePhone: String
    var hasNoClosingDay: Bool
  }

  private func emart(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var stores: [EmartStore] = []
    var nextID = 1000
    func add(
      _ brand: BrandSlug?, count: Int, storeType: (inout SeededRandom) -> String, prefix: (inout SeededRandom) -> String
    ) {
      for _ in 0..<count {
        let place = PlaceSample.random(using: &random)
        let phone = KoreanPlaces.phone(place.province, using: &random)
        let type = storeType(&random)
        stores.append(
          EmartStore(
            id: nextID, feedName: prefix(&random) + names.name(near: place), storeType: type, brand: brand,
            place: place, phone: brand == .nobrand ? "" : phone, pagePhone: phone,
            hasNoClosingDay: random.chance(0.01)))
        nextID += Int.random(in: 1...3, using: &random)
      }
    }
    add(.emart, count: mix.count(.emart), storeType: { $0.chance(0.2) ? "A" : "E" }, prefix: { _ in "" })
    add(
      .traders, count: mix.count(.traders), storeType: { _ in "T" },
      prefix: { $0.chance(0.15) ? "트레이더스 홀세일 클럽 " : "트레이더스 " })
    add(.nobrand, count: mix.count(.nobrand), storeType: { _ in "S" }, prefix: { _ in "노브랜드 " })
    add(
      .everyday, count: mix.count(.everyday), storeType: { _ in "" },
      prefix: { $0.chance(0.05) ? "이마트 에브리데이 " : "에브리데이 " })
    // Other kinds of store share the feeds and are never branches.
    let others = max(1, (mix.count(.emart) + mix.count(.everyday)) / 25)
    add(
      nil, count: others, storeType: { _ in "M" },
      prefix: { $0.pick(["SSG ", "일렉트로마트 ", "Boots ", "몰리스 ", "토이킹덤 "]) })

    var output: [(name: String, exchange: RecordedExchange)] = []
    let origin = "https://store.emart.com"
    let asOfMonth = asOf.month < 10 ? "0\(asOf.month)" : "\(asOf.month)"
    for (searchType, brand) in [("EM", BrandSlug.emart), ("TR", .traders), ("NO", .nobrand)] {
      var rows: [String] = []
      for store in stores where store.brand == brand || (brand == .emart && store.storeType == "M") {
        rows.append(masterRow(store, &random))
      }
      output.append(
        (
          "searchList-\(searchType)",
          RecordedExchange(
            method: "POST", url: origin + "/branch/searchList.do",
            requestBody:
              "srchMode=jijum&year=\(asOf.year)&month=\(asOfMonth)&jMode=true&strConfirmYN=N&searchType=\(searchType)&keyword=",
            status: 200, headers: Self.jsonHeaders, body: Data("{\"dataList\":[\(rows.joined(separator: ","))]}".utf8))
        ))
    }
    // The holiday lists, one POST per area letter and month, as the site's 2025 form asks.
    for offset in 0..<3 {
      let month = asOf.firstOfMonth(addingMonths: offset)
      let padded = month.month < 10 ? "0\(month.month)" : "\(month.month)"
      let truncated = "\(month.year)\(padded)"
      var rowsByArea: [String: [String]] = [:]
      for store in stores {
        let days = store.hasNoClosingDay ? [] : closingDays(store.place.closingWeekday)[offset].map(Self.compact)
        let slots = (0..<3).map { $0 < days.count ? days[$0] : truncated }
        rowsByArea[store.place.province.areaCode, default: []].append(
          JSONText.object([
            ("JIJUM_ID", .string(String(store.id))), ("NAME", .string(store.feedName)),
            ("AREA", .string(store.place.province.shortName)), ("TEL", .string(store.phone)),
            ("HOLIDAY_DAY1_YMD", .string(slots[0])), ("HOLIDAY_DAY2_YMD", .string(slots[1])),
            ("HOLIDAY_DAY3_YMD", .string(slots[2])),
          ]))
      }
      for area in EmartSource.areaCodes {
        output.append(
          (
            "holidayList-\(month.year)-\(padded)-\(area)",
            RecordedExchange(
              method: "POST", url: origin + "/branch/holidayList.do",
              requestBody: "areaCd=\(area)&year=\(month.year)&month=\(padded)&keyword=", status: 200,
              headers: Self.jsonHeaders,
              body: Data("{\"dateList\":[\((rowsByArea[area] ?? []).joined(separator: ","))]}".utf8))
          ))
      }
    }
    for store in stores where store.brand == .nobrand {
      output.append(
        (
          "view-\(store.id)",
          RecordedExchange(
            method: "GET", url: origin + "/branch/view.do?id=\(store.id)", status: 200, headers: Self.htmlHeaders,
            body: Data(noBrandPage(store).utf8))
        ))
    }
    return output
  }

  private func masterRow(_ store: EmartStore, _ random: inout SeededRandom) -> String {
    var latitude = Self.coordinateText(store.place.latitude, digits: 7)
    var longitude = Self.coordinateText(store.place.longitude, digits: 7)
    if random.chance(0.02) { swap(&latitude, &longitude) }
    if random.chance(0.01) { (latitude, longitude) = ("0", "0") }
    let lotOnly = random.chance(0.02)
    let hours = store.brand == .emart ? ("10:00", "23:00") : ("10:00", "22:00")
    let november = store.hasNoClosingDay ? [] : closingDays(store.place.closingWeekday)[0].map(Self.compact)
    return JSONText.object([
      ("ID", .string(String(store.id))), ("NAME", .string(store.feedName)), ("STORE_TP", .string(store.storeType)),
      ("AREA_CODE", .string(store.place.province.areaCode)), ("TEL", .string(store.phone)),
      ("ADDRESS1", .string(lotOnly ? "" : store.place.roadAddress)), ("ADDRESS3", .string(store.place.lotAddress)),
      ("STORE_SHOPPING_TIME", .string("\(hours.0) ~ \(hours.1)")), ("MAP_X", .string(latitude)),
      ("MAP_Y", .string(longitude)), ("OPEN_SHOPPING_TIME", .string(hours.0)),
      ("CLOSE_SHOPPING_TIME", .string(hours.1)),
      ("HOLIDAY_DAY1_YYYYMMDD", .string(november.first ?? "")),
      ("HOLIDAY_DAY2_YYYYMMDD", .string(november.count > 1 ? november[1] : "")), ("HOLIDAY_DAY3_YYYYMMDD", .string("")),
    ])
  }

  private func noBrandPage(_ store: EmartStore) -> String {
    let name = HTMLText.escape(store.feedName)
    return """
      <!DOCTYPE html>
      <html lang="ko">
      <head>
      <meta charset="UTF-8">
      <title>이마트 매장안내 | \(name)</title>
      <link rel="stylesheet" href="/css/branch.css">
      </head>
      <body>
      <div id="wrap">
        <div class="branch-view">
          <h2 class="tit">\(name)</h2>
          <div class="intro-wrap">
            <ul>
              <li><span class="tit">점포명</span><p>\(name)</p></li>
              <li><span class="tit">주소</span><p>\(HTMLText.escape(store.place.roadAddress))</p></li>
              <li><span class="tit">전화번호</span><p>\(store.pagePhone)</p></li>
            </ul>
            <a href="/branch/list.do?id=\(store.id)" class="btn-map">지도보기</a>
          </div>
          <div class="time-wrap">
            <dl><dt>영업시간</dt><dd>10:00 ~ 22:00</dd></dl>
          </div>
        </div>
      </div>
      </body>
      </html>

      """
  }

  // MARK: - Lotte Mart

  private func lotteMart(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var rows: [String] = []
    var listed: [String] = []
    for index in 0..<mix.count(.lottemart) {
      let place = PlaceSample.random(using: &random)
      let name = names.name(near: place)
      let code = "01" + String(format: "%05d", 100 + index)
      let phone = KoreanPlaces.phone(place.province, using: &random)
      let publishedPhone: String =
        switch Int.random(in: 0..<10, using: &random) {
        case 0: phone.replacingOccurrences(of: "-", with: " ")
        case 1: phone.replacingOccurrences(of: "-", with: "")
        default: phone
        }
      let weekday = place.closingWeekday
      let months = closingDays(weekday)
      let next = nextClosingDay(weekday)
      let ruleDays = months[0].allSatisfy { $0 >= asOf } ? months[0] : [months[0][1], months[1][0]]
      let weekdayName = ["일", "월", "화", "수", "목", "금", "토"][weekday.rawValue - 1] + "요일"
      var dayOff: String
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1, 2:
        dayOff =
          "<img src=\"/images/shop/ico_dayoff.png\" alt=\"\"> \(Self.monthDay(next))(\(weekday.koreanShortName))"
      case 3, 4:
        dayOff = "매월 둘째, 넷째주 \(weekdayName) ( \(ruleDays.map(Self.monthDay).joined(separator: ", ")) )"
      case 5, 6:
        dayOff = "매월 둘째, 넷째주 \(weekdayName) (\(ruleDays.map(Self.monthDay).joined(separator: ", ")))"
      case 7:
        dayOff = "\(months[1][0].month)/\(months[1][0].day),/\(months[1][1].day)"
      case 8:
        dayOff =
          "\(months[0][0].month)월 의무휴업안내(\(Self.monthDay(months[0][0]))(\(weekdayName)),\(Self.monthDay(months[0][1]))(\(weekdayName))"
      default:
        dayOff = "매월 둘째, 넷째주 \(weekdayName)"
      }
      var state = "영업중"
      var hours = "10:00~23:00"
      if random.chance(0.01) {
        state = random.pick(["임시휴업", "영업종료"])
        hours = ""
        dayOff = ""
      }
      let linked = !random.chance(0.03)
      let nameMarkup = linked ? "<a href=\"/shop/shop_view.asp?brnchCd=\(code)\">\(name)</a>" : name
      let address = random.chance(0.3) ? place.shortRoadAddress : place.roadAddress
      let row = """
              <li>
                <span class="logo"><img src="/images/shop/logo_lottemart.png" alt="LOTTE Mart"></span>
                <strong class="name">\(nameMarkup)</strong>
                <span class="state">\(state)</span>
                <div class="info">
                  <span class="time">\(hours)</span>
                  <span class="call">\(publishedPhone)</span>
                  <span class="day-off">\(dayOff)</span>
                </div>
                <div class="address">\(HTMLText.escape(address))</div>
              </li>

        """
      rows.append(row)
      listed.append(row)
      // A store listed under a second region appears twice on the page.
      if random.chance(0.02) { rows.append(row) }
    }
    rows.append(
      """
              <li>
                <span class="logo"><img src="/images/shop/logo_lottemart.png" alt="LOTTE Mart"></span>
                <strong class="name">(가칭)신도시점</strong>
                <span class="state">오픈예정</span>
                <div class="info">
                  <span class="time"></span>
                  <span class="call"></span>
                  <span class="day-off"></span>
                </div>
                <div class="address">경기도 화성시 동탄대로 1</div>
              </li>

      """)
    let page = """
      <!DOCTYPE html>
      <html lang="ko">
      <head>
      <meta http-equiv="Content-Type" content="text/html; charset=utf-8">
      <meta http-equiv="X-UA-Compatible" content="IE=edge">
      <title>롯데마트 - 매장찾기</title>
      <link rel="stylesheet" type="text/css" href="/css/shop.css">
      <script type="text/javascript" src="/js/jquery-1.12.4.min.js"></script>
      </head>
      <body>
      <div id="wrap">
        <div id="header"><h1><a href="/"><img src="/images/common/logo.png" alt="롯데마트"></a></h1></div>
        <div id="container" class="shop-search">
          <h2 class="tit">매장찾기</h2>
          <p class="txt-notice">* 매장별 자세한 사항은 지점별 도와센터를 통해 확인 부탁드립니다.</p>
          <div class="result">
            <p class="count">검색결과 <em>\(rows.count)</em>건</p>
            <ul class="shop-list">
      \(rows.joined())      </ul>
          </div>
        </div>
      </div>
      </body>
      </html>

      """
    return [
      (
        "shop_search_type-01",
        RecordedExchange(
          method: "POST", url: "http://company.lottemart.com/shop/shop_search_type.asp?schArea=&schType=01&schWord=",
          status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=UTF-8")], body: Data(page.utf8))
      )
    ]
  }

  // MARK: - Homeplus (홈플러스, 스페셜, 익스프레스)

  private func homeplus(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names: [BrandSlug: NameBook] = [:]
    var rows: [String] = []
    var output: [(name: String, exchange: RecordedExchange)] = []
    let origin = "https://my.homeplus.co.kr"
    var nextID = 500
    for brand in [BrandSlug.homeplus, .homeplusExpress] {
      for _ in 0..<mix.count(brand) {
        let id = nextID
        nextID += 1
        let place = PlaceSample.random(using: &random)
        let name = names[brand, default: NameBook()].name(near: place)
        let type = brand == .homeplusExpress ? "E" : (random.chance(0.1) ? "S" : "H")
        var phone = KoreanPlaces.phone(place.province, using: &random)
        if brand == .homeplusExpress && random.chance(0.03) { phone = "00-000-0000" }
        var hours = "10:00~24:00"
        var stopped = false
        if random.chance(0.01) {
          hours = random.chance(0.5) ? "마트 임시휴업. 몰영업시간 10:00~21:00" : "\(name) 영업종료로 단골매장을 변경해주세요."
          stopped = true
        }
        let next = nextClosingDay(place.closingWeekday)
        let dayOff = stopped ? "" : "\(Self.monthDay(next))(\(place.closingWeekday.koreanShortName))"
        func coordinate(_ value: Double) -> JSONText.Value {
          let digits = Int.random(in: 3...7, using: &random)
          return random.chance(0.5)
            ? .number(Self.coordinateText(value, digits: digits)) : .string(Self.coordinateText(value, digits: digits))
        }
        rows.append(
          JSONText.object([
            ("storId", .number(String(id))), ("storCd", .string(String(format: "%04d", id))),
            ("storKorNm", .string(name)), ("storDivCd", .string(type)), ("storAddr", .string(place.roadAddress)),
            ("storLat", coordinate(place.latitude)), ("storLon", coordinate(place.longitude)),
            ("storTphnNo", .string(phone)), ("storSlesTime", .string(hours)), ("storDayoffCntt", .string(dayOff)),
          ]))
        let months = closingDays(place.closingWeekday)
        let ruleDays = months[0].allSatisfy { $0 >= asOf } ? months[0] : [months[0][1], months[1][0]]
        let weekdayName = ["일", "월", "화", "수", "목", "금", "토"][place.closingWeekday.rawValue - 1] + "요일"
        let closing = stopped ? "" : "매월 둘째, 넷째 \(weekdayName) (\(ruleDays.map(Self.monthDay).joined(separator: ", ")))"
        let page = """
          <!DOCTYPE html>
          <html lang="ko">
          <head>
          <meta charset="UTF-8">
          <title>홈플러스 \(name) | 매장안내 | 홈플러스</title>
          <link rel="stylesheet" href="/resources/css/store.css">
          </head>
          <body>
          <div id="wrap">
            <div class="store_detail">
              <div class="shop_tit">
                <span class="logo">\(brand == .homeplusExpress ? "홈플러스 익스프레스" : "홈플러스")</span>
                <h3 class="name">\(name)</h3>
                <a href=" /store " class="btn_list">목록</a>
              </div>
              <dl class="shop_detail_01">
                <dt>영업시간</dt><dd>\(brand == .homeplusExpress ? "10:00 ~ 24:00" : "10:00 ~ 24:00")</dd>
                <dt>휴점일</dt><dd>\(closing)</dd>
                <dt>전화번호</dt><dd>\(phone)</dd>
                <dt>주차</dt><dd>\(brand == .homeplusExpress ? "무료 1시간 (구매 고객)" : "무료 3시간 (구매 고객)")</dd>
                <dt>주소</dt><dd>\(HTMLText.escape(place.roadAddress)) <a href="
                    /store/store_map?storId=\(id) " class="btn_route">길 찾기</a></dd>
              </dl>
            </div>
          </div>
          </body>
          </html>

          """
        output.append(
          (
            "store_detail-\(id)",
            RecordedExchange(
              method: "GET", url: origin + "/store/store_detail?storId=\(id)", status: 200, headers: Self.htmlHeaders,
              body: Data(page.utf8))
          ))
      }
    }
    let list =
      "{\"draw\": 1, \"recordsTotal\": \(rows.count), \"recordsFiltered\": \(rows.count), \"data\": [\(rows.joined(separator: ", "))]}"
    output.insert(
      (
        "get_list",
        RecordedExchange(
          method: "POST", url: origin + "/store/get_list",
          requestBody:
            "viewHomeplus=H&viewExpress=E&viewPlus=&viewSpecial=S&draw=1&pageSize=999&sortFlag=N&searchRegion=&locatePage=N&searchStoreNm=",
          status: 200, headers: Self.jsonHeaders, body: Data(list.utf8))
      ), at: 0)
    return output
  }

  // MARK: - Costco

  /// Romanized city names for warehouse `name`s.
  static let romanizedCities = [
    "Yangpyung", "Daejeon", "Daegu", "Ilsan", "Ulsan", "Busan", "Gwangmyeong", "Cheonan", "Uijeongbu", "Sangbong",
    "Yangjae", "Suwon", "Gimhae", "Hanam", "Songdo", "Sejong", "Pyeongtaek", "Cheongna", "Gongse", "Jeju",
  ]

  private func costco(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var records: [String] = []
    for index in 0..<mix.count(.costco) {
      let place = PlaceSample.random(using: &random)
      let displayName = names.name(near: place)
      let city = Self.romanizedCities[index % Self.romanizedCities.count]
      let englishName = index < Self.romanizedCities.count ? city : "\(city) \(index / Self.romanizedCities.count + 1)"
      let weekdayName = ["일", "월", "화", "수", "목", "금", "토"][place.closingWeekday.rawValue - 1] + "요일"
      let rule = "매월 둘째, 넷째 \(weekdayName) 의무 휴무"
      let notice = random.chance(0.4) ? " ※ 일산점은 12월 23일 (수요일) 정상영업 합니다." : ""
      let content =
        random.chance(0.5)
        ? "<h3 class='headline'>영업시간</h3><p style='font-size: 20px;'>오전 10:00 - 오후 10:00</p><p style='padding-top:10px;'>정부시책에 의거 유통산업 발전법에 따라 <span style='color:red;'>\(rule)</span>합니다.<br />*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)</p> </body> </html>\(notice)"
        : "<h3 class='headline'>영업시간</h3><p><font>오전 10:00 - 오후 10:00</font></p><p>*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)</p><p>정부시책에 의거 유통산업 발전법에 따라 <span style='color:red;'>\(rule)</span>합니다.</p> </body> </html>\(notice)"
      let lot = place.lotAddress.split(separator: " ").suffix(2).joined(separator: " ")
      let openings = ["일", "월", "화", "수", "목", "금", "토"].map {
        "\"\($0)\" : {\n      \"individual\" : \"오전 10:00 - 오후 10:00\"\n    }"
      }.joined(separator: ",\n    ")
      let fields: [(String, JSONText.Value)] = [
        ("displayName", .string(displayName)), ("warehouseCode", .string("costcoKoreaWarehouse")),
        ("name", .string(englishName)),
        (
          "url",
          .string(
            "/store/\(englishName.replacingOccurrences(of: " ", with: "%20"))?lat=35.907757&long=127.766922&q=Korea, Republic of"
          )
        ),
        ("phone", .string(random.chance(0.05) ? "" : "+82-1899-9900")), ("formattedDistance", .string("56.6 Km")),
        ("line1", .string(place.roadAddress)), ("line2", .string("(\(lot))")), ("town", .string("")),
        ("postalCode", .string("")), ("email", .string("member@costcokr.com")),
        ("latitude", .string(Self.coordinateText(place.latitude, digits: 6))),
        ("longitude", .string(Self.coordinateText(place.longitude, digits: 6))),
        ("storeContent", .string(content)),
      ]
      let body = fields.map { "  \"\($0.0)\" : \(JSONText.costcoEscaped($0.1))" }.joined(separator: ",\n")
      records.append(
        "{\n\(body),\n  \"openings\" : {\n    \(openings)\n  },\n  \"features\" : [ \"서비스 델리\", \"휠체어 이용가능\", \"타이어 센터\", \"ATM\", \"푸드 코트\", \"후레쉬 베이커리\" ],\n  \"image\" : \"\\/medias\\/sys_master\\/images\\/h76\\/hd7\\/10276309139486.jpg\"\n}"
      )
    }
    return [
      (
        "store-finder-search",
        RecordedExchange(
          method: "GET", url: "https://www.costco.co.kr/store-finder/search?q=Korea%2C+Republic+of&page=0", status: 200,
          headers: Self.jsonHeaders, body: Data("{\"data\":[\(records.joined(separator: ","))]}".utf8))
      )
    ]
  }

  // MARK: - GS THE FRESH

  private func gsTheFresh(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
    var names = NameBook()
    var stores: [String] = []
    for index in 0..<mix.count(.gsTheFresh) {
      let place = PlaceSample.random(using: &random)
      let name =
        String(place.district.split(separator: " ").first.map { $0.dropLast() } ?? "") + names.name(near: place)
      let phoneDigits = KoreanPlaces.phone(place.province, using: &random).split(separator: "-")
      let phone: String =
        switch Int.random(in: 0..<10, using: &random) {
        case 0: "\(phoneDigits[0]) \(phoneDigits[1]) \(phoneDigits[2])"
        case 1: phoneDigits.joined()
        case 2: "\(phoneDigits[0]))\(phoneDigits[1])-\(phoneDigits[2])~\(Int.random(in: 1...9, using: &random))"
        default: "\(phoneDigits[0]))\(phoneDigits[1])-\(phoneDigits[2])"
        }
      var days = closingDays(place.closingWeekday).prefix(2).joined().filter { $0 >= asOf.firstOfMonth() }.prefix(4)
        .map { date in
          let month = date.month < 10 ? "0\(date.month)" : "\(date.month)"
          let day = date.day < 10 ? "0\(date.day)" : "\(date.day)"
          return "\(month)월 \(day)일"
        }
      if random.chance(0.05) { days = days.map { $0.replacingOccurrences(of: " ", with: "") } }
      while days.count < 4 { days.append("") }
      let swapped = !random.chance(0.1)
      let latitude = Self.coordinateText(place.latitude, digits: 8)
      let longitude = Self.coordinateText(place.longitude, digits: 8)
      let code = String(10_000 + index * 3 + Int.random(in: 0...2, using: &random))
      stores.append(
        JSONText.object([
          ("phone", .string(phone)), ("shutDownDate", .string("")), ("parkingFacility", .string("점내 무료주차장")),
          ("timeSTH", .string("10")), ("faxNumber", .null),
          ("deliverySystem", .string("※ 무료배송 금액/지역/시간은 점포 전화 문의 요망")),
          ("longs", .string(swapped ? latitude : longitude)), ("alt1", .string("\(name)_매장전경 이미지_1")),
          ("alt2", .string("\(name)_매장내부 이미지_1")), ("alt3", .string("\(name)_매장내부 이미지_2")),
          ("timeSTM", .string("00")), ("mobileLeaflet", .string("http://asp3.rise7.co.kr/Viewer/m1")),
          ("timeEDH", .string(random.chance(0.2) ? "24" : "23")), ("openDate", .number("2050326000000")),
          ("lat", .string(swapped ? longitude : latitude)),
          ("smUrl", .string("http://www.gsfresh.com/eretail.main.dev?mallId=335")),
          (
            "file2",
            .string("https://hpsimg.gsretail.com/medias/sys_master/images/images/h46/h5e/8807923515422.jpg")
          ),
          ("timeEDM", .string("00")),
          (
            "file3",
            .string("https://hpsimg.gsretail.com/medias/sys_master/images/images/h1d/h87/8807923580958.jpg")
          ),
          (
            "file1",
            .string("https://hpsimg.gsretail.com/medias/sys_master/images/images/h74/hea/8807923449886.jpg")
          ),
          ("pcLeaflet", .string("http://www.publishchanger.com/Viewer/p1")),
          ("wayToVisit", .string("버스노선: 시내버스 정류장 하차")), ("closedDate2", .string(days[1])),
          ("closedDate3", .string(days[2])), ("shopCode", .string(code)), ("closedDate4", .string(days[3])),
          ("shopType", .raw("{\"code\": \"DIRECT\", \"type\": \"SMShopTypeEnum\"}")),
          ("kakaoYellowId", .string("https://pf.kakao.com/_Kxczeu")),
          (
            "address",
            .string(
              "\(place.shortRoadAddress.split(separator: "(").first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "")(\(place.dong) \(place.lotAddress.split(separator: " ").last ?? ""))"
            )
          ),
          ("shopName", .string(name)), ("closedDate1", .string(days[0])),
        ]))
    }
    let pageSize = 3
    let pages = max(1, (stores.count + pageSize - 1) / pageSize)
    var output: [(name: String, exchange: RecordedExchange)] = []
    for page in 0..<pages {
      let slice = stores[min(stores.count, page * pageSize)..<min(stores.count, (page + 1) * pageSize)]
      let body =
        "{\"results\": [\(slice.joined(separator: ", "))], \"pagination\": {\"sort\": null, \"pageSize\": \(pageSize), \"currentPage\": \(page), \"totalNumberOfResults\": \(stores.count), \"numberOfPages\": \(pages)}, \"sorts\": []}"
      output.append(
        (
          "find-storelist-page-\(page + 1)",
          RecordedExchange(
            method: "GET",
            url:
              "http://gsthefresh.gsretail.com/thefresh/ko/market-info/find-storelist?searchType=&pageNum=\(page + 1)&listCnt=3&pagingCnt=10&pagingNowIdx=1&totlPageNum=1&stb1=&stb2=&searchShopName=",
            status: 200, headers: Self.jsonHeaders, body: Data(body.utf8))
        ))
    }
    return output
  }
}

/// Just enough JSON writing for the generated feeds: keys in the order given, as the sites send them.
enum JSONText {
  enum Value {
    case string(String)
    /// A number, written as given.
    case number(String)
    case null
    /// Already JSON.
    case raw(String)
  }

  static func object(_ fields: [(String, Value)]) -> String {
    "{" + fields.map { "\(quoted($0.0)): \(text($0.1))" }.joined(separator: ", ") + "}"
  }

  static func text(_ value: Value) -> String {
    switch value {
    case .string(let string): quoted(string)
    case .number(let number): number
    case .null: "null"
    case .raw(let raw): raw
    }
  }

  static func quoted(_ string: String) -> String {
    var out = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          out += String(format: "\\u%04X", scalar.value)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// Costco's escaping: `<`, `>`, `'` as `\u003C`, `\u003E`, `\u0027`, and `/` as `\/`.
  static func costcoEscaped(_ value: Value) -> String {
    guard case .string = value else { return text(value) }
    return text(value)
      .replacingOccurrences(of: "/", with: "\\/")
      .replacingOccurrences(of: "<", with: "\\u003C")
      .replacingOccurrences(of: ">", with: "\\u003E")
      .replacingOccurrences(of: "'", with: "\\u0027")
  }
}

/// Escaping text into HTML.
enum HTMLText {
  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
