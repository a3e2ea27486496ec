import Foundation
import MartBrands
import MartCore
import MartFetch

/// Sample data for the bench: 이마트, 트레이더스, 노브랜드 and 에브리데이 as `store.emart.com` serves them: the three store lists, three months of per-area holiday lists and the 노브랜드 store pages, with other kinds of store mixed into the feeds.
///
/// The same endpoints, keys, markup and quirks as the recorded fixtures, at any scale, with
/// seeded random names, places, phones and closing days.
public struct EmartSampleGenerator: SourceSampleGenerator {
  /// The source whose sites this writes.
  public static let source: any BrandSource.Type = EmartSource.self
  public let request: SampleRequest

  public init(_ request: SampleRequest) { self.request = request }

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

  public func exchanges(_ random: inout SeededRandom) -> [(name: String, exchange: RecordedExchange)] {
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
    let origin = EmartSource.origin
    for brand in [BrandSlug.emart, .traders, .nobrand] {
      guard let searchType = EmartSource.searchType(for: brand) else { continue }
      var rows: [String] = []
      for store in stores where store.brand == brand || (brand == .emart && store.storeType == "M") {
        rows.append(masterRow(store, &random))
      }
      output.append(
        (
          "searchList-\(searchType)",
          RecordedExchange(
            method: "POST", url: origin + EmartSource.storeListPath,
            requestBody: FormEncoding.encode(EmartSource.storeListFields(searchType: searchType, asOf: asOf)),
            status: 200, headers: Self.jsonHeaders, body: Data("{\"dataList\":[\(rows.joined(separator: ","))]}".utf8))
        ))
    }
    // The all-format store list of 2026 (no `searchType`, the month not zero-padded), which
    // places the 에브리데이 stores. The site lists every format in it; here it holds the
    // 에브리데이 rows and the other kinds of store only, the rows the source reads, so that at
    // the bench's largest scales it stays under the fetcher's body limit (20 MB).
    output.append(
      (
        "searchList-all",
        RecordedExchange(
          method: "POST", url: origin + EmartSource.storeListPath,
          requestBody: FormEncoding.encode(EmartSource.allFormatsFields(asOf: asOf)),
          status: 200, headers: Self.jsonHeaders,
          body: Data(
            "{\"dataList\":[\(stores.filter { $0.brand == .everyday || $0.brand == nil }.map { masterRow($0, &random) }.joined(separator: ","))]}"
              .utf8))
      ))
    // The holiday lists, one POST per area letter and month, as the site's 2025 form asks.
    for offset in 0..<3 {
      let month = asOf.firstOfMonth(addingMonths: offset)
      let padded = EmartSource.paddedMonth(month)
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
              method: "POST", url: origin + EmartSource.holidayListPath,
              requestBody: FormEncoding.encode(EmartSource.holidayListFields(area: area, month: month)), status: 200,
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
            method: "GET", url: origin + EmartSource.detailPath(storeID: String(store.id)), status: 200,
            headers: Self.htmlHeaders,
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
}
