import Foundation
import MartCore
import MartFetch
import MartHTML

/// E-mart's store site, which serves four brands from the same feeds: 이마트 (`.emart`),
/// 이마트 트레이더스 (`.traders`), 노브랜드 (`.nobrand`) and 이마트 에브리데이 (`.everyday`).
///
/// The requests are the most recent forms the site answers (recorded under
/// `fixtures/web/store.emart.com`, see `fixtures/README.md`); a run makes them in this order:
///
/// - `POST /branch/searchList.do`, form `srchMode=jijum&year=YYYY&month=MM&jMode=true&`
///   `strConfirmYN=N&searchType=EM|TR|NO&keyword=` (the 2021–2022 form; year and month of
///   the as-of date): the store master (`dataList`), one request per requested brand. The fields
///   of the older form (`jMode=true&searchType=…`) are among these, so a server that knows only
///   those can ignore the rest.
/// - `POST /branch/holidayList.do`, form `areaCd=<letter>&year=YYYY&month=MM&keyword=` (the 2025
///   form), one request per area letter `A C I F Q O N D K J G B M L E H P`, for the as-of
///   month and the next two (17 × 3 requests): each store's closing dates (`dateList`), joined on
///   `JIJUM_ID` = `ID`. The rows of all areas are merged; a store listed in two areas counts once,
///   and an area without stores answers an empty `dateList`. The feed lists every store, named
///   with its banner (`에브리데이 가락동점`); 에브리데이 has no `searchType`, so its branches are
///   the rows of this feed (id, name, `TEL`, dates).
///
///   When the very first of these requests shows that the site does not serve this form (HTTP
///   404, 405 or 501, or an answer that is not a JSON object with a `dateList`), or no area of the
///   first month lists a store, every month is requested with the older form instead,
///   `GET /branch/holidayList.do?year=YYYY&month=MM` (all areas at once, the older form), and
///   a session warning says so. Later failures are errors, not a reason to switch.
/// - When 에브리데이 is requested: `POST /branch/searchList.do`, form `srchMode=jijum&year=YYYY&`
///   `month=M&areaId=&jMode=true&strConfirmYN=N` (the 2026 form without `searchType`; the
///   month not zero-padded): the master of every format, whose 에브리데이 rows give each store's
///   address, phone, hours and coordinates (joined on `ID`). A store it does not place (or a site
///   that does not serve the form, which costs a warning) has its store page read instead.
/// - `GET /branch/view.do?id=<ID>`: the store page, read for No Brand phone numbers, which the
///   master leaves blank, and for a 에브리데이 store the masters do not place: the
///   `road-name` and `lot-number` addresses (`dd.data`), the point in `data-x` (latitude) and
///   `data-y` (longitude), and the phone in the third item of the page's intro list.
///
/// What the code relies on: the endpoints, the request forms and their fields, the area
/// letters and their order, the JSON keys (`dataList`/`dateList`, `ID`/`JIJUM_ID`, `STORE_TP`,
/// `MAP_X` latitude / `MAP_Y` longitude, `HOLIDAY_DAYn_YMD` with truncated `YYYYMM` slots), the
/// brand prefixes of `NAME`, and on the store page only the phone's place,
/// `.intro-wrap > ul > li:nth-child(3) > p`. The code depends on nothing else; in particular it
/// does not need to know which area a store is in. The recorded fixtures reconstruct the rest
/// (which stores each area lists, names, phones, the rest of the store page's markup): see
/// `fixtures/README.md`.
public struct EmartSource: BrandSource {
  public static let name = "emart"
  public static let brands: [BrandSlug] = [.emart, .traders, .nobrand, .everyday]
  public static let origin = "https://store.emart.com"
  /// `HOLIDAY_DAYn` slots hold every closing day of their month, fetched for three months.
  public static let closingDateCoverage = DateCoverage.wholeMonths

  public init() {}

  static let storeListPath = "/branch/searchList.do"

  /// The `searchType` that lists `brand`'s stores.
  static func searchType(for brand: BrandSlug) -> String? {
    switch brand {
    case .emart: "EM"
    case .traders: "TR"
    case .nobrand: "NO"
    default: nil
    }
  }

  /// The brand of a `STORE_TP` code: `E`/`A` 이마트, `T` 트레이더스, `S` 노브랜드; `nil` for other
  /// codes, whose rows are classified by name.
  static func brand(forStoreType storeType: String) -> BrandSlug? {
    switch storeType.uppercased() {
    case "E", "A": .emart
    case "T": .traders
    case "S": .nobrand
    default: nil
    }
  }

  /// Words that mark a store of another kind sharing the feeds or their banners (이마트24, SSG
  /// 푸드마켓, Boots, 일렉트로마트, 몰리스, 토이킹덤, 베이비서클, …): such rows are never a branch.
  static let otherStoreMarkers = ["이마트24", "SSG", "Boots", "BOOTS", "부츠", "일렉트로마트", "몰리스", "토이킹덤", "베이비서클", "PK마켓"]

  /// The brand of a feed row: none for the other kinds of store, else by `STORE_TP` where it is
  /// a known code, else by the banner the name starts with (`이마트`, `트레이더스 홀세일 클럽`,
  /// `에브리데이`, `노브랜드`, the misspelling `노브렌드`, and the newer E-mart banners
  /// `스타필드 마켓`, `이마트 푸드마켓`), written with or without a space after it or inside it
  /// (`노브랜드예천호명점`, `스타필드마켓 일산점`), as 2026 feeds write them; no 2026 client reads
  /// `STORE_TP`, so a row whose code is missing or unseen is placed by its name. `nil` when
  /// neither says.
  public static func classify(storeType: String?, name: String) -> BrandSlug? {
    let jamo = hasConjoiningJamo(name)
    if otherStoreMarkers.contains(where: { contains(name, $0, hasConjoiningJamo: jamo) }) { return nil }
    // The 에브리데이 banner wins over any store type: the all-format list may file its rows
    // under a hypermarket code.
    func startsWithPrefix(of brand: BrandSlug) -> Bool {
      namePrefixes(for: brand).contains { rest(of: name, after: $0, hasConjoiningJamo: jamo) != nil }
    }
    if startsWithPrefix(of: .everyday) { return .everyday }
    if let brand = storeType.flatMap(brand(forStoreType:)) { return brand }
    let order: [BrandSlug] = [.everyday, .traders, .nobrand, .emart]
    for brand in order where startsWithPrefix(of: brand) { return brand }
    if banner(of: name) != nil { return .emart }
    return nil
  }

  /// Whether `marker` occurs in `name`: byte for byte as UTF-8, and through Foundation's
  /// canonical comparison only for a name with conjoining jamo (the one way a name can spell a
  /// marker's Hangul differently), so the common case makes no trip through NSString.
  static func contains(_ name: String, _ marker: String, hasConjoiningJamo: Bool? = nil) -> Bool {
    if utf8(of: name, contains: marker) { return true }
    return (hasConjoiningJamo ?? Self.hasConjoiningJamo(name)) && name.contains(marker)
  }

  /// What follows banner `word` at the start of `name`, spaces skipped, when `name` starts with
  /// it written as it is or without its spaces (`스타필드 마켓`, `스타필드마켓`) and something
  /// follows: `노브랜드예천호명점` after `노브랜드` is `예천호명점`. Byte for byte unless the name has
  /// conjoining jamo.
  static func rest(of name: String, after word: String, hasConjoiningJamo: Bool? = nil) -> Substring? {
    let jamo = hasConjoiningJamo ?? Self.hasConjoiningJamo(name)
    let closed = word.filter { $0 != " " }
    for spelling in closed == word ? [word] : [word, closed] {
      let rest: Substring
      if jamo {
        guard name.hasPrefix(spelling) else { continue }
        rest = name.dropFirst(spelling.count)
      } else {
        guard name.utf8.starts(with: spelling.utf8) else { continue }
        rest = Substring(name.utf8.dropFirst(spelling.utf8.count))
      }
      let trimmed = rest.drop { $0.isWhitespace }
      if !trimmed.isEmpty { return trimmed }
    }
    return nil
  }

  /// Whether `name` spells Hangul with conjoining jamo (ᄀ…, ꥠ…, ힰ…), which compare equal to
  /// precomposed syllables without being the same bytes.
  static func hasConjoiningJamo(_ name: String) -> Bool {
    // U+1100–11FF is E1 84–87 xx in UTF-8, U+A960–A97F EA A5 A0–BF, U+D7B0–D7FF ED 9E B0–BF or
    // ED 9F xx: told from the lead and next bytes, without decoding a scalar.
    var bytes = name.utf8.makeIterator()
    var (lead, second): (UInt8, UInt8) = (0, 0)
    while let byte = bytes.next() {
      if (lead == 0xE1 && (0x84...0x87).contains(second)) || (lead == 0xEA && second == 0xA5 && byte >= 0xA0)
        || (lead == 0xED && ((second == 0x9E && byte >= 0xB0) || second == 0x9F))
      {
        return true
      }
      (lead, second) = (second, byte)
    }
    return false
  }


  /// Whether `needle`'s UTF-8 bytes occur in `haystack`'s. A plain loop over the bytes: a store
  /// name is a few dozen bytes, and the standard library's generic `firstRange(of:)` (a Z-array
  /// built per call) made this check most of the time spent reading E-mart's store lists.
  static func utf8(of haystack: String, contains needle: String) -> Bool {
    var haystack = haystack
    var needle = needle
    return haystack.withUTF8 { text in
      needle.withUTF8 { marker in
        guard let first = marker.first else { return true }
        guard text.count >= marker.count else { return false }
        for start in 0...(text.count - marker.count) where text[start] == first {
          if text[start..<(start + marker.count)].elementsEqual(marker) { return true }
        }
        return false
      }
    }
  }

  /// The name prefixes each brand carries in `NAME`, longest first.
  static func namePrefixes(for brand: BrandSlug) -> [String] {
    switch brand {
    case .emart: ["이마트"]
    case .traders: ["이마트 트레이더스 홀세일 클럽", "트레이더스 홀세일 클럽", "이마트 트레이더스", "트레이더스"]
    case .nobrand: ["노브랜드", "노브렌드"]
    case .everyday: ["이마트 에브리데이", "이마트에브리데이", "에브리데이"]
    default: []
    }
  }

  static let holidayListPath = "/branch/holidayList.do"

  /// The area letters of the 2025 holiday list, in the order they are requested: A 서울,
  /// C 인천, I 경기, F 대전, Q 세종, O/N 충청, D 대구, K/J 경상, G 울산, B 부산, M/L 전라, E 광주,
  /// H 강원, P 제주.
  public static let areaCodes = ["A", "C", "I", "F", "Q", "O", "N", "D", "K", "J", "G", "B", "M", "L", "E", "H", "P"]

  /// `month`'s month, zero-padded (`03`).
  static func paddedMonth(_ month: CalendarDate) -> String {
    month.month < 10 ? "0\(month.month)" : "\(month.month)"
  }

  /// The store-list form for `searchType` in the month of `asOf` (the 2021–2022 form).
  static func storeListFields(searchType: String, asOf: CalendarDate) -> [(name: String, value: String)] {
    [
      ("srchMode", "jijum"), ("year", "\(asOf.year)"), ("month", paddedMonth(asOf)), ("jMode", "true"),
      ("strConfirmYN", "N"), ("searchType", searchType), ("keyword", ""),
    ]
  }

  /// The holiday-list form for one area and `month` (the 2025 form).
  static func holidayListFields(area: String, month: CalendarDate) -> [(name: String, value: String)] {
    [("areaCd", area), ("year", "\(month.year)"), ("month", paddedMonth(month)), ("keyword", "")]
  }

  /// `GET` path and query of the older, all-area holiday list for `month`.
  static func holidayListPath(for month: CalendarDate) -> String {
    "\(holidayListPath)?year=\(month.year)&month=\(paddedMonth(month))"
  }

  /// Path and query of a store's detail page.
  static func detailPath(storeID: String) -> String {
    "/branch/view.do?id=\(FormEncoding.escape(storeID))"
  }

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    /// 에브리데이 stores come from the holiday lists, one per month: each is added once.
    var seenStoreIDs = Set<String>()
    let searchTypes = brands.filter { session.brands.contains($0) }.compactMap { Self.searchType(for: $0) }
    var branches = try await session.sideBySide(searchTypes) { session, searchType throws(SourceError) in
      let response = try await session.postForm(
        Self.storeListPath, fields: Self.storeListFields(searchType: searchType, asOf: session.asOf)
      ) { Self.storeListMismatch($0, searchType: searchType) }
      return try Self.parseStoreList(response.body, url: response.requestURL)
    }.flatMap { $0 }
    let requested = brands.filter { session.brands.contains($0) }
    guard !requested.isEmpty else { return [] }
    let storeListsRequested = requested.contains { Self.searchType(for: $0) != nil }
    guard !storeListsRequested || branches.contains(where: { session.brands.contains($0.id.brand) }) else {
      throw SourceError(
        source: session.sourceName, url: session.url(Self.storeListPath),
        reason: .unexpectedContent("no store of \(requested.map(\.rawValue)) in the store lists"))
    }

    var closingDays: [String: [String]] = [:]
    // The first month settles which form the site serves; the next two are then asked together.
    var form = HolidayListForm.perArea
    let firstFeed = try await Self.holidayList(for: session.asOf.firstOfMonth(addingMonths: 0), form: &form, probing: true, session)
    let servedForm = form
    let laterFeeds = try await session.sideBySide([1, 2]) { session, offset throws(SourceError) in
      var form = servedForm
      return try await Self.holidayList(
        for: session.asOf.firstOfMonth(addingMonths: offset), form: &form, probing: false, session)
    }
    for feed in [firstFeed] + laterFeeds {
      for (storeID, days) in Self.closingDays(in: feed.rows) {
        closingDays[storeID, default: []].append(contentsOf: days)
      }
      if session.brands.contains(.everyday) {
        for branch in Self.stores(in: feed.rows, feedURL: feed.url)
        where branch.id.brand == .everyday && seenStoreIDs.insert(branch.id.storeID).inserted {
          branches.append(branch)
        }
      }
    }
    if session.brands.contains(.everyday) {
      guard branches.contains(where: { $0.id.brand == .everyday }) else {
        throw SourceError(
          source: session.sourceName, url: session.url(Self.holidayListPath),
          reason: .unexpectedContent("no 에브리데이 store in the holiday lists"))
      }
      await Self.placeEveryday(&branches, session)
    }

    for index in branches.indices {
      let storeID = branches[index].id.storeID
      // Dates stay dates: the site publishes no closing-day text, so none is made up.
      branches[index].closingDates = Set((closingDays[storeID] ?? []).compactMap { CalendarDate(compact: $0) })
        .sorted()
    }
    let nobrandIndices = session.brands.contains(.nobrand) ? branches.indices.filter { branches[$0].id.brand == .nobrand } : []
    let phones = await session.sideBySide(nobrandIndices.map { branches[$0].id }) { session, id -> String? in
      // A broken detail page costs only the phone number, not the brand.
      do throws(SourceError) {
        let response = try await session.get(Self.detailPath(storeID: id.storeID)) {
          Self.storePageMismatch($0, storeID: id.storeID)
        }
        return try Self.parseDetailPhone(response.body, url: response.requestURL, charset: response.charset)
      } catch {
        session.warn("phone not read from the store page: \(error)", branch: id)
        return nil
      }
    }
    for (index, phone) in zip(nobrandIndices, phones) {
      if let phone { branches[index].phone = phone }
    }
    return branches
  }

  // MARK: - 에브리데이 places

  /// The all-format store-list form of 2026 (no `searchType`; the month not zero-padded).
  static func allFormatsFields(asOf: CalendarDate) -> [(name: String, value: String)] {
    [
      ("srchMode", "jijum"), ("year", "\(asOf.year)"), ("month", "\(asOf.month)"), ("areaId", ""),
      ("jMode", "true"), ("strConfirmYN", "N"),
    ]
  }

  /// Where a store is, as a store list row or a store page publishes it.
  public struct StorePlace: Hashable, Sendable {
    public var address: String?
    public var lotAddress: String?
    public var phone: String?
    public var openingHours: String?
    public var coordinate: GeoPoint?
    /// The URL it was read from.
    public var url: String

    /// Whether it says where the store is.
    var placesTheStore: Bool { address != nil || lotAddress != nil || coordinate != nil }
  }

  /// Gives the 에브리데이 branches, which the holiday lists name without a place, their address,
  /// phone, hours and coordinates: from the all-format store list when it places them, else from
  /// each store's page. Neither failing costs the brand: a branch left without a place is
  /// exported as it is (with a warning), and the geocoding stage reports it without coordinates.
  static func placeEveryday(_ branches: inout [RawBranch], _ session: SourceSession) async {
    var listed: [String: StorePlace] = [:]
    do {
      let response = try await session.postForm(storeListPath, fields: allFormatsFields(asOf: session.asOf))
      for branch in try parseStoreList(response.body, url: response.requestURL) where branch.id.brand == .everyday {
        listed[branch.id.storeID] = StorePlace(
          address: branch.address, lotAddress: branch.lotAddress, phone: branch.phone,
          openingHours: branch.openingHours, coordinate: branch.coordinate, url: branch.sourceURL)
      }
    } catch {
      session.warn("에브리데이 stores not placed from the all-format store list: \(error)")
    }
    var unplaced: [Int] = []
    for index in branches.indices where branches[index].id.brand == .everyday {
      if let place = listed[branches[index].id.storeID], place.placesTheStore {
        branches[index] = merging(place, into: branches[index])
      } else {
        unplaced.append(index)
      }
    }
    // Each page's failure is a warning, not an error.
    let pagePlaces = await session.sideBySide(unplaced.map { branches[$0].id }) { session, id -> StorePlace? in
      do throws(SourceError) {
        let response = try await session.get(detailPath(storeID: id.storeID)) {
          storePageMismatch($0, storeID: id.storeID)
        }
        let place = try parseStorePlace(response.body, url: response.requestURL, charset: response.charset)
        guard place.placesTheStore else {
          session.warn("neither the store list nor the store page gives its place", branch: id)
          return nil
        }
        return place
      } catch {
        session.warn("no place for this store: \(error)", branch: id)
        return nil
      }
    }
    for (index, place) in zip(unplaced, pagePlaces) {
      if let place { branches[index] = merging(place, into: branches[index]) }
    }
  }

  /// `branch` with `place`'s addresses, coordinate and hours, its phone where `branch` has none,
  /// and `place`'s URL as the one the record was read from.
  static func merging(_ place: StorePlace, into branch: RawBranch) -> RawBranch {
    var merged = branch
    merged.address = place.address
    merged.lotAddress = place.lotAddress
    merged.coordinate = place.coordinate
    merged.openingHours = place.openingHours ?? branch.openingHours
    merged.phone = branch.phone ?? place.phone
    merged.sourceURL = place.url
    return merged
  }

  /// Reads a store page's place (the 2026 form): the road-name and lot-number addresses
  /// from the `dd.data` of the elements classed `road-name` and `lot-number` (or their first
  /// `dd`, or the element itself when it is the `dd`), the point from the first element that
  /// carries both `data-x` (latitude) and `data-y` (longitude), and the phone from
  /// `.intro-wrap > ul > li:nth-child(3) > p`. What the page lacks is `nil`.
  public static func parseStorePlace(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> StorePlace {
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      // One walk: the first element of each kind in document order.
      var roadName: HTMLElement?
      var lotNumber: HTMLElement?
      var pointHolder: HTMLElement?
      var phoneCell: HTMLElement?
      for element in document.elements {
        if roadName == nil, element.hasClass("road-name") { roadName = element }
        if lotNumber == nil, element.hasClass("lot-number") { lotNumber = element }
        if pointHolder == nil, element.hasAttribute("data-x"), element.hasAttribute("data-y") { pointHolder = element }
        if phoneCell == nil, isIntroPhoneCell(element) { phoneCell = element }
      }
      func address(_ holder: HTMLElement?) -> String? {
        guard let holder else { return nil }
        let cell = holder.name == "dd" ? holder : addressCell(in: holder) ?? holder
        return cell.text.isEmpty ? nil : cell.text
      }
      var coordinate: GeoPoint?
      if let pointHolder, let latitude = pointHolder.attribute("data-x"),
        let longitude = pointHolder.attribute("data-y")
      {
        coordinate = ["x": JSONScalar.string(latitude), "y": .string(longitude)].point(latitude: "x", longitude: "y")
      }
      let phone = phoneCell?.text
      return StorePlace(
        address: address(roadName), lotAddress: address(lotNumber),
        phone: phone?.isEmpty == false ? phone : nil, coordinate: coordinate, url: url)
    } catch {
      throw SourceError(source: name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// The first `dd.data` below `holder`, else its first `dd`.
  private static func addressCell(in holder: HTMLElement) -> HTMLElement? {
    var firstCell: HTMLElement?
    for element in holder.descendants where element.hasName("dd") {
      if element.hasClass("data") { return element }
      if firstCell == nil { firstCell = element }
    }
    return firstCell
  }

  /// Whether `element` is the phone's place, `.intro-wrap > ul > li:nth-child(3) > p` (as the
  /// XPath `//*[hasClass('intro-wrap')]/ul/*[3][self::li]/p` selects it).
  static func isIntroPhoneCell(_ element: HTMLElement) -> Bool {
    guard element.hasName("p"), let item = element.parent, item.hasName("li"), let list = item.parent,
      list.hasName("ul"), let intro = list.parent, intro.hasClass("intro-wrap")
    else { return false }
    let items = list.children
    return items.count >= 3 && items[2] == item
  }

  /// The phone of an `.intro-wrap` block: `./ul/*[3][self::li]/p`, the first in document order.
  static func introPhoneCell(in intro: HTMLElement) -> HTMLElement? {
    for list in intro.children where list.hasName("ul") {
      let items = list.children
      guard items.count >= 3, items[2].hasName("li") else { continue }
      if let cell = items[2].children.first(where: { $0.hasName("p") }) { return cell }
    }
    return nil
  }

  // MARK: - Holiday lists

  /// The two request forms of `holidayList.do`.
  enum HolidayListForm {
    /// `POST` `areaCd`, `year`, `month`, `keyword`: one request per area (2025).
    case perArea
    /// `GET ?year=&month=`: every area in one request (2018 to 2024).
    case allAreas
  }

  /// One month of the holiday list: the rows of every area, and a URL that served them.
  struct HolidayListFeed {
    var rows: [[String: JSONScalar]]
    var url: String
  }

  /// Fetches `month`'s holiday list in `form`. When `probing` (the first month) and the per-area
  /// form turns out not to be served (see the type's documentation), switches `form` to
  /// `.allAreas`, warns, and fetches the month again in that form.
  ///
  /// Throws when a request fails or an answer has no `dateList`, and when no row of the month
  /// has a `JIJUM_ID`.
  static func holidayList(
    for month: CalendarDate, form: inout HolidayListForm, probing: Bool, _ session: SourceSession
  ) async throws(SourceError) -> HolidayListFeed {
    let monthText = "\(month.year)-\(paddedMonth(month))"
    if form == .perArea {
      @Sendable func areaRows(_ area: String, _ session: SourceSession) async throws(SourceError) -> [[String: JSONScalar]] {
        let response = try await holidayList(area: area, month: month, session)
        return try decodeHolidayRows(response.body, url: response.requestURL)
      }
      var rows: [[String: JSONScalar]] = []
      var notServed: String?
      var otherAreas = areaCodes[...]
      if probing, let firstArea = otherAreas.popFirst() {
        // The first area's answer tells whether the form is served at all.
        do throws(SourceError) {
          rows = try await areaRows(firstArea, session)
        } catch {
          guard meansFormNotServed(error) else { throw error }
          notServed = "\(error)"
        }
      }
      if notServed == nil {
        rows += try await session.sideBySide(Array(otherAreas)) { session, area throws(SourceError) in
          try await areaRows(area, session)
        }.flatMap { $0 }
      }
      if notServed == nil, probing, !rows.contains(where: { $0.text("JIJUM_ID") != nil }) {
        notServed = "no area listed a store for \(monthText)"
      }
      if let notServed {
        form = .allAreas
        session.warn(
          "\(session.url(holidayListPath)): the per-area POST form (areaCd, year, month, keyword) is not served "
            + "(\(notServed)); the holiday lists are requested with the older form GET ?year=YYYY&month=MM "
            + "(all areas at once)")
      } else {
        return try requiringStores(HolidayListFeed(rows: rows, url: session.url(holidayListPath)), month: monthText)
      }
    }
    let response = try await session.get(holidayListPath(for: month)) { holidayListMismatch($0, month: month) }
    let rows = try decodeHolidayRows(response.body, url: response.requestURL)
    return try requiringStores(HolidayListFeed(rows: rows, url: response.requestURL), month: monthText)
  }

  /// Whether the first per-area request's failure means the site does not serve that form (and
  /// the older one is worth trying): HTTP 404, 405 or 501, or an answer that is not a JSON
  /// object with a `dateList`. Other failures (transport, 5xx) are errors of their own.
  static func meansFormNotServed(_ error: SourceError) -> Bool {
    switch error.reason {
    case .fetch(let fetchError):
      if case .httpStatus(let status) = fetchError.code { return [404, 405, 501].contains(status) }
      return false
    case .unexpectedContent:
      return true
    }
  }

  /// `feed`, unless none of its rows has a `JIJUM_ID`: a month in which no area lists any store
  /// is a broken feed, not a month without stores.
  private static func requiringStores(_ feed: HolidayListFeed, month: String) throws(SourceError) -> HolidayListFeed {
    guard feed.rows.contains(where: { $0.text("JIJUM_ID") != nil }) else {
      throw SourceError(
        source: name, url: feed.url,
        reason: .unexpectedContent("the holiday list of \(month) has \(feed.rows.count) rows but none with a JIJUM_ID"))
    }
    return feed
  }

  // MARK: - Parsing

  private struct StoreListBody: Decodable {
    let dataList: [[String: JSONScalar]]
  }

  private struct HolidayListBody: Decodable {
    let dateList: [[String: JSONScalar]]
  }

  /// Reads a `searchList.do` answer into branches of the covered store types, in feed order,
  /// without closing days (those come from `holidayList.do`). `url` is the endpoint: it names
  /// the endpoint in errors and is each branch's `sourceURL`; `pageURL` is the store page
  /// (`/branch/view.do?id=<ID>`) on the same site.
  ///
  /// Throws `SourceError.unexpectedContent` when there is no `dataList` or no row has an `ID`
  /// and a `NAME`.
  public static func parseStoreList(_ data: Data, url: String) throws(SourceError) -> [RawBranch] {
    let rows =
      try decodeRows(
        data, key: "dataList", url: url, expecting: "a \"dataList\" array", fallback: StoreListBody.self,
        rows: \.dataList)
      ?? []
    var branches: [RawBranch] = []
    var identifiedRows = 0
    // Each store's page is on the site that served the feed.
    let origin = URLParts(url).origin
    for row in rows {
      guard let storeID = row.text("ID"), let fullName = row.text("NAME") else { continue }
      identifiedRows += 1
      guard let brand = classify(storeType: row.text("STORE_TP"), name: fullName) else { continue }
      let coordinate = row.point(latitude: "MAP_X", longitude: "MAP_Y")
      branches.append(
        RawBranch(
          id: BranchID(brand: brand, storeID: storeID),
          name: strippingBrandPrefix(fullName, brand: brand),
          banner: banner(of: fullName),
          address: row.text("ADDRESS1") ?? row.text("ADDRESS3"),
          lotAddress: row.text("ADDRESS3"),
          phone: row.text("TEL"),
          openingHours: openingHours(of: row),
          coordinate: coordinate,
          closingText: nil,
          sourceURL: url,
          pageURL: origin + detailPath(storeID: storeID)))
    }
    guard identifiedRows > 0 else {
      throw SourceError(
        source: name, url: url,
        reason: .unexpectedContent("\"dataList\" has \(rows.count) rows but none with an ID and a NAME"))
    }
    return branches
  }

  /// Reads a `holidayList.do` answer: each `JIJUM_ID`'s closing dates as `YYYYMMDD`, in slot
  /// order. Slots that are not a full eight-digit date (the site sends `YYYYMM` for "none") are
  /// dropped; a store with no real date maps to an empty list. Both request forms answer in this
  /// shape; a per-area answer holds only that area's stores.
  ///
  /// Throws `SourceError.unexpectedContent` when there is no `dateList` or it has no rows (an
  /// area without stores is fine in `collect`, which checks the month as a whole).
  public static func parseHolidayList(_ data: Data, url: String) throws(SourceError) -> [String: [String]] {
    let rows = try decodeHolidayRows(data, url: url)
    let days = closingDays(in: rows)
    guard !days.isEmpty else {
      throw SourceError(
        source: name, url: url,
        reason: .unexpectedContent("\"dateList\" has \(rows.count) rows but none with a JIJUM_ID"))
    }
    return days
  }

  /// Reads the stores of a `holidayList.do` answer that are branches of a covered brand, by the
  /// banner in `NAME`: id `JIJUM_ID`, name without the banner, phone `TEL`, no closing days (see
  /// `parseHolidayList`); `sourceURL` is the feed, `pageURL` the store page, as in `parseStoreList`. Rows of other kinds of store
  /// (SSG, Boots, …) and unprefixed names are skipped. An empty `dateList` gives no branch.
  public static func parseHolidayListStores(_ data: Data, url: String) throws(SourceError) -> [RawBranch] {
    stores(in: try decodeHolidayRows(data, url: url), feedURL: url)
  }

  /// The `dateList` rows of a `holidayList.do` answer, possibly none.
  static func decodeHolidayRows(_ data: Data, url: String) throws(SourceError) -> [[String: JSONScalar]] {
    try decodeRows(
      data, key: "dateList", url: url, expecting: "a \"dateList\" array", fallback: HolidayListBody.self,
      rows: \.dateList) ?? []
  }

  /// Each `JIJUM_ID`'s full `YYYYMMDD` dates in `rows`, in row and slot order.
  static func closingDays(in rows: [[String: JSONScalar]]) -> [String: [String]] {
    var days: [String: [String]] = [:]
    for row in rows {
      guard let storeID = row.text("JIJUM_ID") else { continue }
      let valid = (1...3).compactMap { slot in row.text("HOLIDAY_DAY\(slot)_YMD") }
        .filter { CalendarDate(compact: $0) != nil }
      days[storeID, default: []].append(contentsOf: valid)
    }
    return days
  }

  /// The branches of a covered brand among `rows`, each id once (see `parseHolidayListStores`).
  static func stores(in rows: [[String: JSONScalar]], feedURL url: String) -> [RawBranch] {
    var branches: [RawBranch] = []
    var seen = Set<String>()
    // Each store's page is on the site that served the feed.
    let origin = URLParts(url).origin
    for row in rows {
      guard let storeID = row.text("JIJUM_ID"), let fullName = row.text("NAME"),
        let brand = classify(storeType: nil, name: fullName), seen.insert(storeID).inserted
      else { continue }
      branches.append(
        RawBranch(
          id: BranchID(brand: brand, storeID: storeID),
          name: strippingBrandPrefix(fullName, brand: brand),
          banner: banner(of: fullName),
          phone: row.text("TEL"),
          sourceURL: url,
          pageURL: origin + detailPath(storeID: storeID)))
    }
    return branches
  }

  /// Reads the phone number from a store page (`.intro-wrap > ul > li:nth-child(3) > p`).
  /// Returns `nil` when the page has no such line or it is blank; throws when the page does not
  /// have the `intro-wrap` block at all (a redesign).
  public static func parseDetailPhone(
    _ data: Data, url: String, charset: String? = nil
  ) throws(SourceError) -> String? {
    do {
      let document = try HTMLDocument(data: data, url: url, charset: charset)
      guard let intro = document.firstElement(where: { $0.hasClass("intro-wrap") }) else {
        throw SourceError(source: name, url: url, reason: .unexpectedContent("no .intro-wrap block"))
      }
      let phone = introPhoneCell(in: intro)?.text
      return phone?.isEmpty == false ? phone : nil
    } catch let error as SourceError {
      throw error
    } catch {
      throw SourceError(source: name, url: url, reason: .unexpectedContent("\(error)"))
    }
  }

  /// Store formats of 이마트 that the feeds name before the branch (`스타필드 마켓 월계점`,
  /// `이마트 푸드마켓 고덕점`): the branch stays an 이마트 and carries the format as its banner.
  static let banners = ["스타필드 마켓", "이마트 푸드마켓"]

  /// The banner `name` starts with, if any, as `banners` spells it (`스타필드마켓 일산점` →
  /// `스타필드 마켓`).
  public static func banner(of name: String) -> String? {
    let jamo = hasConjoiningJamo(name)
    return banners.first { rest(of: name, after: $0, hasConjoiningJamo: jamo) != nil }
  }

  /// `name` without its brand prefix or banner, written with or without a space (`트레이더스
  /// 고양점` → `고양점`, `스타필드마켓 일산점` → `일산점`, `노브랜드예천호명점` → `예천호명점`).
  static func strippingBrandPrefix(_ name: String, brand: BrandSlug) -> String {
    let jamo = hasConjoiningJamo(name)
    for prefix in banners + namePrefixes(for: brand) {
      if let rest = rest(of: name, after: prefix, hasConjoiningJamo: jamo) { return rest.trimmingSpaces() }
    }
    return name
  }

  /// `STORE_SHOPPING_TIME`, else `OPEN_SHOPPING_TIME ~ CLOSE_SHOPPING_TIME`.
  private static func openingHours(of row: [String: JSONScalar]) -> String? {
    if let hours = row.text("STORE_SHOPPING_TIME") { return hours }
    guard let open = row.text("OPEN_SHOPPING_TIME"), let close = row.text("CLOSE_SHOPPING_TIME") else {
      return nil
    }
    return "\(open) ~ \(close)"
  }
}

extension BrandSlug {
  /// 이마트.
  public static let emart: BrandSlug = "emart"
  /// 이마트 트레이더스.
  public static let traders: BrandSlug = "traders"
  /// 노브랜드.
  public static let nobrand: BrandSlug = "nobrand"
  /// 이마트 에브리데이.
  public static let everyday: BrandSlug = "everyday"
}

extension EmartSource {
  /// The 이마트 store list (rows with `ID` and `NAME` that are placed in a brand) and the first
  /// area's holiday list of the as-of month (rows with `JIJUM_ID`).
  public func probe(_ session: SourceSession) async -> [ProbePage] {
    let list = await session.probe(
      .postForm(session.url(Self.storeListPath), fields: Self.storeListFields(searchType: "EM", asOf: session.asOf))
    ) { response throws(SourceError) in
      let rows = try Self.parseStoreList(response.body, url: response.requestURL)
      return [ProbeCount("dataList rows with ID and NAME placed in a brand", found: rows.count)]
    }
    let month = session.asOf.firstOfMonth()
    let holidays = await session.probe(
      .postForm(
        session.url(Self.holidayListPath), fields: Self.holidayListFields(area: Self.areaCodes[0], month: month))
    ) { response throws(SourceError) in
      let rows = try Self.parseHolidayList(response.body, url: response.requestURL)
      return [ProbeCount("dateList rows with JIJUM_ID", found: rows.count)]
    }
    return [list, holidays]
  }
}
