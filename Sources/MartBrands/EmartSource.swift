import Foundation
import MartCore
import MartFetch

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
///   `JIJUM_ID` = `ID`. The as-of month and the next are required (2025–26 clients read those
///   two); the month after is read when served, and its failure leaves its days unknown. The
///   rows of all areas are merged; a store listed in two areas counts once, and an area without
///   stores answers an empty `dateList`. Each answer is checked by its month and by the region
///   its letter stands for (docs/checks.md); an answer that fails its check is left out with a
///   warning, and the stores in no believed list of that month are not published from the run;
///   a row dated outside its month is left out with a warning. The feed lists every store, named
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
  /// No closing-day text is read: the dates come from `holidayList.do`, one month per request.
  /// The store page's `휴점일` line is no month's list: it gives the rest of this month and only
  /// the first closure of next month (on E-mart's own calendar every one of 132 stores of
  /// 2026-10 has a second closure in 2026-11), so a text from it is read as next closing days.
  public static let closingTextCoverage = DateCoverage.asOfThroughLastListed

  public init() {}

  /// The store lists' path (a POST form: ``storeListFields(searchType:asOf:)``, ``allFormatsFields(asOf:)``).
  package static let storeListPath = "/branch/searchList.do"

  /// The `searchType` that lists `brand`'s stores.
  package static func searchType(for brand: BrandSlug) -> String? {
    switch brand {
    case .emart: "EM"
    case .traders: "TR"
    case .nobrand: "NO"
    default: nil
    }
  }

  /// The holiday lists' path (a POST form per area and month: ``holidayListFields(area:month:)``).
  package static let holidayListPath = "/branch/holidayList.do"

  /// The area letters of the 2025 holiday list, in the order they are requested: A 서울,
  /// C 인천, I 경기, F 대전, Q 세종, O/N 충청, D 대구, K/J 경상, G 울산, B 부산, M/L 전라, E 광주,
  /// H 강원, P 제주.
  public static let areaCodes = ["A", "C", "I", "F", "Q", "O", "N", "D", "K", "J", "G", "B", "M", "L", "E", "H", "P"]

  /// `month`'s month, zero-padded (`03`).
  package static func paddedMonth(_ month: CalendarDate) -> String {
    month.month < 10 ? "0\(month.month)" : "\(month.month)"
  }

  /// The store-list form for `searchType` in the month of `asOf` (the 2021–2022 form).
  package static func storeListFields(searchType: String, asOf: CalendarDate) -> [(name: String, value: String)] {
    [
      ("srchMode", "jijum"), ("year", "\(asOf.year)"), ("month", paddedMonth(asOf)), ("jMode", "true"),
      ("strConfirmYN", "N"), ("searchType", searchType), ("keyword", ""),
    ]
  }

  /// The holiday-list form for one area and `month` (the 2025 form).
  package static func holidayListFields(area: String, month: CalendarDate) -> [(name: String, value: String)] {
    [("areaCd", area), ("year", "\(month.year)"), ("month", paddedMonth(month)), ("keyword", "")]
  }

  /// `GET` path and query of the older, all-area holiday list for `month`.
  static func holidayListPath(for month: CalendarDate) -> String {
    "\(holidayListPath)?year=\(month.year)&month=\(paddedMonth(month))"
  }

  /// Path and query of a store's detail page.
  package static func detailPath(storeID: String) -> String {
    "/branch/view.do?id=\(FormEncoding.escape(storeID))"
  }

  public func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch] {
    /// 에브리데이 stores come from the holiday lists, one per month: each is added once.
    var seenStoreIDs = Set<String>()
    let searchTypes = brands.filter { session.brands.contains($0) }.compactMap { Self.searchType(for: $0) }
    var branches = try await session.sideBySide(searchTypes) { session, searchType throws(SourceError) in
      let list = try await Self.storeList(searchType: searchType, session)
      session.warn(skipped: list.skipped)
      return list.branches
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
    let firstFeed = try await Self.holidayList(
      for: session.asOf.firstOfMonth(addingMonths: 0), form: &form, probing: true, session)
    let servedForm = form
    // The current and the next month are required (what 2025–26 clients fetch); the month after
    // is read when served, and its failure leaves its days unknown.
    let laterFeeds = try await session.sideBySide([1, 2]) { session, offset throws(SourceError) -> HolidayListFeed? in
      var form = servedForm
      let month = session.asOf.firstOfMonth(addingMonths: offset)
      do throws(SourceError) {
        return try await Self.holidayList(for: month, form: &form, probing: false, session)
      } catch let error where offset == Self.optionalMonthOffset {
        session.warn(
          "the holiday list of \(month.year)-\(Self.paddedMonth(month)) not read; its days are unknown: \(error)")
        return nil
      }
    }
    let months = ([0] + [1, 2].filter { laterFeeds[$0 - 1] != nil }).map { session.asOf.firstOfMonth(addingMonths: $0) }
    let feeds = await Self.reaskingRepeatedAreas(
      try await Self.reaskingEmptyAreas([firstFeed] + laterFeeds.compactMap { $0 }, months: months, session),
      months: months, session)
    // Stores in no believed list of a month whose list lost an answer may be that answer's:
    // they are left out this run rather than published without the days they have.
    var inDroppedArea = Set<String>()
    for feed in feeds where feed.pages.contains(where: { $0.dropped != nil }) {
      let listed = Set(feed.rows.compactMap { $0.text("JIJUM_ID") })
      for branch in branches where !listed.contains(branch.id.storeID) { inDroppedArea.insert(branch.id.storeID) }
    }
    for feed in feeds {
      for (storeID, days) in Self.closingDays(in: feed.rows) {
        closingDays[storeID, default: []].append(contentsOf: days)
      }
      if session.brands.contains(.everyday) {
        for page in feed.pages {
          let stores = Self.stores(in: page.rows, feedURL: feed.url, list: page.list)
          session.warn(skipped: stores.skipped)
          for branch in stores.branches
          where branch.id.brand == .everyday && seenStoreIDs.insert(branch.id.storeID).inserted {
            branches.append(branch)
          }
        }
      } else {
        // A row without a JIJUM_ID gives its days to no store: said, not dropped quietly.
        for page in feed.pages {
          for (index, row) in page.rows.enumerated() where row.text("JIJUM_ID") == nil {
            session.warn(
              skipped: [
                SkippedRow(row, at: index, of: page.list, url: feed.url, lacking: [["JIJUM_ID"]], nameKey: "NAME")
              ])
          }
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

    if !inDroppedArea.isEmpty {
      branches.removeAll { branch in
        guard inDroppedArea.contains(branch.id.storeID) else { return false }
        session.warn(
          "in no believed holiday list (an area's list was left out); not published from this run", branch: branch.id)
        return true
      }
    }
    for index in branches.indices {
      let storeID = branches[index].id.storeID
      // Dates stay dates: the site publishes no closing-day text, so none is made up.
      branches[index].closingDates = Set((closingDays[storeID] ?? []).compactMap { CalendarDate(compact: $0) })
        .sorted()
    }
    let nobrandIndices =
      session.brands.contains(.nobrand) ? branches.indices.filter { branches[$0].id.brand == .nobrand } : []
    let nobrandPages = await Self.storePages(of: nobrandIndices.map { branches[$0] }, session)
    let pages = zip(nobrandIndices, nobrandPages).map { index, page -> (phone: String?, page: Data?) in
      // A broken detail page costs only the phone number, not the brand.
      do throws(SourceError) {
        let response = try page.get()
        return (
          try Self.parseDetailPhone(response.body, url: response.requestURL, charset: response.charset), response.body
        )
      } catch {
        session.warn("phone not read from the store page: \(error)", branch: branches[index].id)
        return (nil, nil)
      }
    }
    // Pages that are all one answer (a cache that ignores the query string) cannot say whose
    // they are: no phone is taken from them.
    let read = pages.compactMap { $0.page }
    if read.count == pages.count, AnswerChecks.allAlike(read) {
      session.warn(
        "\(session.url(Self.detailPath(storeID: ""))): all \(read.count) 노브랜드 store pages are one answer,"
          + " which cannot say whose it is; no phone taken from them")
    } else {
      for (index, page) in zip(nobrandIndices, pages) {
        if let phone = page.phone { branches[index].phone = phone }
      }
    }
    return branches
  }

  // MARK: - 에브리데이 places

  /// The offset of the month after next: its holiday list is read when served, not required.
  static let optionalMonthOffset = 2

  /// The all-format store-list form of 2026 (no `searchType`; the month not zero-padded).
  package static func allFormatsFields(asOf: CalendarDate) -> [(name: String, value: String)] {
    [
      ("srchMode", "jijum"), ("year", "\(asOf.year)"), ("month", "\(asOf.month)"), ("areaId", ""),
      ("jMode", "true"), ("strConfirmYN", "N"),
    ]
  }

  /// Gives the 에브리데이 branches, which the holiday lists name without a place, their address,
  /// phone, hours and coordinates: from the all-format store list when it places them, else from
  /// each store's page. Neither failing costs the brand: a branch left without an address is
  /// not published from this run (with a warning); a field neither gives is nil, never a label.
  static func placeEveryday(_ branches: inout [RawBranch], _ session: SourceSession) async {
    var listed: [String: StorePlace] = [:]
    do {
      // An answer that does not read as a store list is not the list asked for (a leftover on
      // a kept-alive connection): it is asked again on a fresh one. One that reads but places
      // no 에브리데이 store proves nothing, and is asked again when it repeats another answer.
      let request = HTTPRequest.postForm(session.url(storeListPath), fields: allFormatsFields(asOf: session.asOf))
      let list = try await session.send(
        request, reading: { reading($0, list: "the all-format store list") },
        answering: { reading in
          guard case .failure(let error) = reading else { return nil }
          return "not a store list (\(error.reason))"
        },
        unproven: { reading in
          guard case .success(let list) = reading else { return true }
          return !list.branches.contains { $0.id.brand == .everyday }
        }
      ).reading.get()
      session.warn(skipped: list.skipped)
      for branch in list.branches where branch.id.brand == .everyday {
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
    let unplacedPages = await storePages(of: unplaced.map { branches[$0] }, session)
    let pagePlaces = zip(unplaced, unplacedPages).map { index, page -> StorePlace? in
      let id = branches[index].id
      do throws(SourceError) {
        let response = try page.get()
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
    var withoutPlace = Set<Int>()
    for (index, place) in zip(unplaced, pagePlaces) {
      if let place, place.address != nil || place.lotAddress != nil {
        branches[index] = merging(place, into: branches[index])
      } else {
        withoutPlace.insert(index)
      }
    }
    // A branch without an address is not published from this run: a later run (or the last
    // bundle) places it.
    for index in withoutPlace.sorted(by: >) {
      session.warn(
        "no address from the store list or the store page; not published from this run", branch: branches[index].id)
      branches.remove(at: index)
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
    /// Each answer's rows, in request order.
    var pages: [HolidayListPage]
    var url: String

    /// The rows of every page, in order.
    var rows: [JSONRow] { pages.flatMap(\.rows) }
  }

  /// The rows of one holiday-list answer, and how a message names that list (`the holiday list
  /// of 2026-11, area A`).
  struct HolidayListPage {
    var list: String
    var rows: [JSONRow]
    /// Why the answer was not believed (it was another area's or month's each time it was
    /// asked), when it was not: its stores have no days from this month's list.
    var dropped: String?
    /// The area letter asked for (the per-area form).
    var area: String?
    /// The answer as received.
    var body: Data?
    /// Whether the answer came on a reused connection, where it may be another request's leftover.
    var cameOnReusedConnection = false
  }

  /// The areas of `pages` whose answers, listing stores, are byte-equal to another area's.
  static func repeatedAreas(_ pages: [HolidayListPage]) -> [String] {
    var areasByBody: [AnswerBody: [String]] = [:]
    for page in pages where page.dropped == nil && !page.rows.isEmpty {
      guard let body = page.body, let area = page.area else { continue }
      areasByBody[AnswerBody(body), default: []].append(area)
    }
    return areasByBody.values.filter { $0.count > 1 }.flatMap { $0 }.sorted()
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
      @Sendable func areaRows(_ area: String, _ session: SourceSession) async throws(SourceError) -> HolidayListPage {
        try await areaPage(area, month: month, connection: .keptAlive, session)
      }
      var pages: [HolidayListPage] = []
      var notServed: String?
      var otherAreas = areaCodes[...]
      if probing, let firstArea = otherAreas.popFirst() {
        // The first area's answer tells whether the form is served at all.
        do throws(SourceError) {
          pages = [try await areaRows(firstArea, session)]
        } catch {
          guard meansFormNotServed(error) else { throw error }
          notServed = "\(error)"
        }
      }
      if notServed == nil {
        pages += try await session.sideBySide(Array(otherAreas)) { session, area throws(SourceError) in
          try await areaRows(area, session)
        }
        // Two areas never list the same stores: areas whose answers are one (a leftover taken
        // before its own request's answer was noted, a cache) are asked again, on one
        // connection closed by the store list (``areaPagesAgain(_:_:)``), and what still
        // repeats is left out.
        let repeated = Self.repeatedAreas(pages)
        if !repeated.isEmpty {
          let again = try await areaPagesAgain(repeated.map { ($0, month) }, session)
          for page in again {
            if let index = pages.firstIndex(where: { $0.area == page.area }) { pages[index] = page }
          }
          for area in Self.repeatedAreas(pages) {
            guard let index = pages.firstIndex(where: { $0.area == area }) else { continue }
            session.warn("\(pages[index].list) is the same answer as another area's, asked again; left out")
            pages[index] = HolidayListPage(
              list: pages[index].list, rows: [], dropped: "the same answer as another area's", area: area)
          }
        }
      }
      if notServed == nil, probing, !pages.contains(where: { $0.rows.contains { $0.text("JIJUM_ID") != nil } }) {
        notServed = "no area listed a store for \(monthText)"
      }
      if let notServed {
        form = .allAreas
        session.warn(
          "\(session.url(holidayListPath)): the per-area POST form (areaCd, year, month, keyword) is not served "
            + "(\(notServed)); the holiday lists are requested with the older form GET ?year=YYYY&month=MM "
            + "(all areas at once)")
      } else {
        return try requiringStores(HolidayListFeed(pages: pages, url: session.url(holidayListPath)), month: monthText)
      }
    }
    let answer = try await holidayList(.get(session.url(holidayListPath(for: month))), unproven: false, session) {
      holidayListMismatch($0, month: month) ?? allAreasMismatch($0)
    }
    let list = "the holiday list of \(monthText)"
    let page = HolidayListPage(list: list, rows: rowsOfMonth(answer.rows, month: month, list: list, session))
    return try requiringStores(HolidayListFeed(pages: [page], url: answer.response.requestURL), month: monthText)
  }

  /// The page of `area`'s holiday list of `month` (the per-area form), asked on `connection`. An
  /// answer that is another area's or month's each time it is asked is left
  /// out (``HolidayListPage/dropped``): an unsure check costs that one answer, and the area's
  /// stores keep their last data.
  static func areaPage(
    _ area: String, month: CalendarDate, connection: HTTPRequest.ConnectionChoice, _ session: SourceSession
  ) async throws(SourceError) -> HolidayListPage {
    let list = "the holiday list of \(month.year)-\(paddedMonth(month)), area \(area)"
    let answer: HolidayListAnswer
    do throws(SourceError) {
      answer = try await holidayList(area: area, month: month, connection: connection, session)
    } catch let error where error.isMismatch {
      session.warn("\(list) was not believed and is left out: \(error)")
      return HolidayListPage(list: list, rows: [], dropped: "\(error)", area: area)
    }
    return HolidayListPage(
      list: list, rows: rowsOfMonth(answer.rows, month: month, list: list, session),
      area: area, body: answer.response.body, cameOnReusedConnection: answer.response.cameOnReusedConnection)
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
