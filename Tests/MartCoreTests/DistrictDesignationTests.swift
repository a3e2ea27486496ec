import Testing

@testable import MartCore

/// The district inference, on branches whose closing days come from real closing-day texts read
/// by the engine. The window is 2026-11-01 … 2027-01-31. Weekdays from the calendar:
/// 2026-11-01 is a Sunday, so November's Sundays are 1, 8, 15, 22, 29 (2nd/4th: 8, 22), its
/// Mondays 2, 9, 16, 23, 30 (9, 23) and its Wednesdays 4, 11, 18, 25 (11, 25); 2026-12-01 is a
/// Tuesday, so December's Sundays are 6, 13, 20, 27 (13, 27), Mondays 7, 14, 21, 28 (14, 28),
/// Wednesdays 2, 9, 16, 23, 30 (9, 23), and 12-25 (성탄절, a public holiday) is a Friday;
/// 2027-01-01 (신정, a public holiday) is a Friday, so January's Sundays are 3, 10, 17, 24, 31
/// (10, 24), Mondays 4, 11, 18, 25 (11, 25) and Wednesdays 6, 13, 20, 27 (13, 27).
@Suite("District designations")
struct DistrictDesignationTests {
  static let asOf = CalendarDate(iso: "2026-11-20")!
  static let window = DateWindow.threeMonths(startingAt: asOf)
  /// The specialty stores not subject to the designation, as the registry has them.
  static let exempt: Set<BrandSlug> = ["toysrus", "bottle-bunker"]

  static func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }

  /// A trading branch of `brand` at `sigungu` in `sido` whose closing-day text is `text`
  /// (`nil`: it publishes none).
  static func branch(
    _ brand: BrandSlug, _ store: String, sido: String = "충청북도", sigungu: String, text: String?
  ) -> Branch {
    let schedule =
      text.map { ClosingSchedule.parse($0, asOf: asOf) } ?? ClosingSchedule(status: .unknown, text: nil)
    return Branch(
      id: BranchID(brand: brand, storeID: store), name: "\(store)점",
      address: BranchAddress(published: "\(sido) \(sigungu) 어딘가로 1", sido: sido, sigungu: sigungu),
      phone: nil, phonePublished: nil, openingHours: nil, coordinate: nil,
      closing: BranchClosing(schedule: schedule, window: window), sourceURL: "https://example.com/\(store)")
  }

  /// A branch whose source published these days only (as a feed of dates does), speaking of
  /// their months.
  static func dated(_ brand: BrandSlug, _ store: String, sido: String, sigungu: String, _ dates: [String]) -> Branch {
    var branch = branch(brand, store, sido: sido, sigungu: sigungu, text: nil)
    let schedule = ClosingSchedule(status: .closures, dates: dates.map(day), text: nil)
    branch.closing = BranchClosing(schedule: schedule, window: window)
    return branch
  }

  @Test("stores of two chains on the 2nd/4th Wednesday give 청주시 its pattern, across its 구")
  func agreement() {
    let branches = [
      Self.branch("emart", "1", sigungu: "청주시 흥덕구", text: "매월 둘째, 넷째 수요일 휴무"),
      Self.branch("lottemart", "2", sigungu: "청주시 상당구", text: "매월 둘째·넷째 수요일"),
      // Also closed on 1/1 (a public holiday): a one-off, not a break.
      Self.branch("homeplus", "3", sigungu: "청주시 서원구", text: "매월 둘째, 넷째 수요일, 1월 1일 휴무"),
      // Open all year: not a store with closing days, so not counted.
      Self.branch("traders", "4", sigungu: "청주시 흥덕구", text: "연중무휴"),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt)
    #expect(inference.districts.count == 1)
    let district = inference.districts[0]
    #expect(district.district == District(sido: "충청북도", sigungu: "청주시"))
    #expect(district.pattern == [DesignatedDay(ordinal: 2, weekday: .wednesday), DesignatedDay(ordinal: 4, weekday: .wednesday)])
    #expect(district.evidence.map(\.description) == ["emart-1", "homeplus-3", "lottemart-2"])
    #expect(district.agreeing == 3)
    #expect(district.stores == 3)
    #expect(district.swaps.isEmpty)
    #expect(inference.mismatches.isEmpty)
    // 2nd/4th Wednesdays: 11-11, 11-25, 12-09, 12-23, 01-13, 01-27.
    #expect(
      inference.expectedDates[district.key]
        == ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"].map(Self.day))
  }

  @Test("a branch without published days gets expected days, and its published fields stay as they were")
  func expectedDays() {
    let silent = Self.branch("lotte-super", "9", sigungu: "청주시 상당구", text: nil)
    let toyStore = Self.branch("toysrus", "8", sigungu: "청주시 상당구", text: nil)
    let branches = [
      Self.branch("emart", "1", sigungu: "청주시 흥덕구", text: "매월 둘째, 넷째 수요일 휴무"),
      Self.branch("lottemart", "2", sigungu: "청주시 상당구", text: "매월 둘째, 넷째 수요일 휴무"),
      silent, toyStore,
    ]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt)
    let updated = inference.withExpectedDays(branches)
    let expected = updated.first { $0.id == silent.id }!.closing
    #expect(
      expected.expected
        == ExpectedClosing(
          dates: ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"].map(Self.day),
          district: "충청북도 청주시", storeClass: .hypermarket))
    #expect(expected.dates.isEmpty)
    #expect(expected.status == .unknown)
    #expect(expected.unknownRanges == silent.closing.unknownRanges)
    // A brand not subject to the designation gets none; branches with days get none.
    #expect(updated.first { $0.id == toyStore.id }!.closing.expected == nil)
    #expect(updated.filter { $0.closing.status == .closures }.allSatisfy { $0.closing.expected == nil })
  }

  @Test("a store on Sundays in a district of Monday stores is a mismatch, and the pattern stands at 75 %")
  func disagreement() {
    let branches = [
      Self.branch("emart", "1", sido: "대구광역시", sigungu: "수성구", text: "매월 둘째, 넷째 월요일 휴무"),
      Self.branch("homeplus", "2", sido: "대구광역시", sigungu: "수성구", text: "매월 둘째, 넷째 월요일 휴점"),
      Self.branch("lottemart", "3", sido: "대구광역시", sigungu: "수성구", text: "매월 둘째·넷째 월요일"),
      Self.branch("costco", "4", sido: "대구광역시", sigungu: "수성구", text: "매월 둘째, 넷째 일요일 휴무"),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt)
    #expect(inference.districts.count == 1)
    #expect(inference.districts.first?.pattern.map(\.weekday) == [.monday, .monday])
    #expect(inference.districts.first?.agreeing == 3)
    #expect(inference.districts.first?.stores == 4)
    #expect(inference.mismatches.map(\.branch.description) == ["costco-4"])
    // The Sunday store's own days: 2nd/4th Sundays 11-08, 11-22, 12-13, 12-27, 01-10, 01-24.
    #expect(
      inference.mismatches.first?.dates
        == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"].map(Self.day))
    #expect(inference.mismatches.first?.message.contains("2nd monday, 4th monday") == true)
    #expect(inference.mismatches.first?.message.contains("emart-1") == true)
    // The warning names the days that disagree: its Sundays, and the district's Mondays (2nd
    // and 4th: 11-09, 11-23, 12-14, 12-28, 01-11, 01-25), on which it opens.
    let mondays = ["2026-11-09", "2026-11-23", "2026-12-14", "2026-12-28", "2027-01-11", "2027-01-25"]
    #expect(inference.mismatches.first?.openOnPatternDays == mondays.map(Self.day))
    #expect(
      inference.mismatches.first?.message.hasPrefix(
        "closes 2026-11-08, 2026-11-22, 2026-12-13, 2026-12-27, 2027-01-10, 2027-01-24, which the district does not; "
          + "opens \(mondays.joined(separator: ", ")), which it closes; ") == true)
  }

  @Test("a store of a brand not subject to the designation neither breaks nor supports a pattern")
  func specialtyStoresAreNotEvidence() {
    // 고양시: two chains on the 2nd/4th Sunday (11-08, 11-22, 12-13, 12-27, 01-10, 01-24) and a
    // 토이저러스 on the 1st/3rd Tuesday: 2026-11-01 is a Sunday, so November's Tuesdays are 3, 10,
    // 17, 24 (1st/3rd: 11-03, 11-17); 2026-12-01 is a Tuesday (12-01, 12-15); 2027-01-01 a
    // Friday, so January's Tuesdays are 5, 12, 19, 26 (01-05, 01-19).
    let goyang = [
      Self.branch("emart", "1", sido: "경기도", sigungu: "고양시 일산동구", text: "매월 둘째, 넷째 일요일 휴무"),
      Self.branch("homeplus", "2", sido: "경기도", sigungu: "고양시 덕양구", text: "매월 둘째, 넷째 일요일 휴무"),
      Self.branch("toysrus", "3", sido: "경기도", sigungu: "고양시 덕양구", text: "매월 첫째, 셋째 화요일 휴무"),
    ]
    #expect(
      goyang[2].closing.dates
        == ["2026-11-03", "2026-11-17", "2026-12-01", "2026-12-15", "2027-01-05", "2027-01-19"].map(Self.day))
    // 파주시: one chain on the 2nd/4th Sunday, and a 토이저러스 closing the same Sundays.
    let paju = [
      Self.branch("emart", "4", sido: "경기도", sigungu: "파주시", text: "매월 둘째, 넷째 일요일 휴무"),
      Self.branch("toysrus", "5", sido: "경기도", sigungu: "파주시", text: "매월 둘째, 넷째 일요일 휴무"),
    ]
    let inference = DistrictDesignations.infer(from: goyang + paju, window: Self.window, exempt: Self.exempt)
    // 고양시 keeps its pattern, the toy store not among its stores, and is not flagged; 파주시
    // has one designated store, so no pattern.
    #expect(inference.districts.map(\.district) == [District(sido: "경기도", sigungu: "고양시")])
    #expect(inference.districts.first?.evidence.map(\.description) == ["emart-1", "homeplus-2"])
    #expect(inference.districts.first?.stores == 2)
    #expect(inference.mismatches.isEmpty)
    // Counted as designated, the same toy stores would be a mismatch in 고양시 (2 of 3 still
    // follow its pattern) and make 파주시.
    let counted = DistrictDesignations.infer(from: goyang + paju, window: Self.window, exempt: [])
    #expect(
      counted.districts.map(\.district) == [
        District(sido: "경기도", sigungu: "고양시"), District(sido: "경기도", sigungu: "파주시"),
      ])
    #expect(counted.mismatches.map(\.branch.description) == ["toysrus-3"])
    #expect(counted.districts.last?.evidence.map(\.description) == ["emart-4", "toysrus-5"])
  }

  @Test("no pattern without a majority, with one source only, or with one store")
  func thresholds() {
    let split = [
      Self.branch("emart", "1", sido: "부산광역시", sigungu: "동래구", text: "매월 둘째, 넷째 월요일 휴무"),
      Self.branch("homeplus", "2", sido: "부산광역시", sigungu: "동래구", text: "매월 둘째, 넷째 월요일 휴무"),
      Self.branch("lottemart", "3", sido: "부산광역시", sigungu: "동래구", text: "매월 둘째, 넷째 일요일 휴무"),
      Self.branch("megamart", "4", sido: "부산광역시", sigungu: "동래구", text: "매월 둘째, 넷째 일요일 휴무"),
    ]
    #expect(DistrictDesignations.infer(from: split, window: Self.window, exempt: Self.exempt).districts.isEmpty)
    let oneChain = [
      Self.branch("emart", "1", sido: "부산광역시", sigungu: "사하구", text: "매월 둘째, 넷째 월요일 휴무"),
      Self.branch("emart", "2", sido: "부산광역시", sigungu: "사하구", text: "매월 둘째, 넷째 월요일 휴무"),
    ]
    #expect(DistrictDesignations.infer(from: oneChain, window: Self.window, exempt: Self.exempt).districts.isEmpty)
    let alone = [Self.branch("emart", "1", sido: "부산광역시", sigungu: "수영구", text: "매월 둘째, 넷째 월요일 휴무")]
    let inference = DistrictDesignations.infer(from: alone, window: Self.window, exempt: Self.exempt)
    #expect(inference.districts.isEmpty)
    #expect(inference.mismatches.isEmpty)
  }

  @Test("a December swap to 성탄절 keeps the pattern, is reported, and moves the expected day")
  func swap() {
    // 2nd/4th Sundays, but 12-27 (4th Sunday) closed on 12-25 (성탄절) instead.
    let swapped = ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-25", "2027-01-10", "2027-01-24"]
    let branches = [
      Self.dated("emart", "1", sido: "경상남도", sigungu: "김해시", swapped),
      Self.dated("lottemart", "2", sido: "경상남도", sigungu: "김해시", swapped),
      // Closed on 2027-01-01 too (신정): an extra closure on a public holiday, not a mismatch.
      Self.dated(
        "homeplus", "3", sido: "경상남도", sigungu: "김해시",
        ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-25", "2027-01-01", "2027-01-10", "2027-01-24"]),
      Self.branch("gs-thefresh", "4", sido: "경상남도", sigungu: "김해시", text: nil),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt)
    #expect(inference.districts.count == 1)
    let district = inference.districts[0]
    #expect(district.pattern == [DesignatedDay(ordinal: 2, weekday: .sunday), DesignatedDay(ordinal: 4, weekday: .sunday)])
    #expect(district.agreeing == 3)
    #expect(inference.mismatches.isEmpty)
    #expect(district.swaps == [DistrictSwap(date: Self.day("2026-12-25"), ids: district.evidence, replaces: Self.day("2026-12-27"))])
    // Every store that speaks of 12-27 closed 12-25 instead, so the expected day moves with them.
    #expect(
      inference.expectedDates[district.key]
        == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-25", "2027-01-10", "2027-01-24"].map(Self.day))
  }

  @Test("a swap between two ordinary days is a break, not a swap")
  func ordinarySwapBreaks() {
    // 12-27 (4th Sunday) moved to 12-20 (3rd Sunday): neither is a public holiday.
    let branches = [
      Self.branch("emart", "1", sido: "경상남도", sigungu: "양산시", text: "매월 둘째, 넷째 일요일 휴무"),
      Self.branch("homeplus", "2", sido: "경상남도", sigungu: "양산시", text: "매월 둘째, 넷째 일요일 휴무"),
      Self.branch("lottemart", "3", sido: "경상남도", sigungu: "양산시", text: "매월 둘째, 넷째 일요일 휴무"),
      Self.dated(
        "megamart", "4", sido: "경상남도", sigungu: "양산시",
        ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-20", "2027-01-10", "2027-01-24"]),
    ]
    let inference = DistrictDesignations.infer(from: branches, window: Self.window, exempt: Self.exempt)
    #expect(inference.districts.first?.swaps == [])
    #expect(inference.mismatches.map(\.branch.description) == ["megamart-4"])
  }

  @Test("a city with non-autonomous 구 is one district; an autonomous 구 is its own")
  func districtOfAddress() {
    #expect(
      District(BranchAddress(published: nil, sido: "경기도", sigungu: "성남시 분당구"))
        == District(sido: "경기도", sigungu: "성남시"))
    #expect(
      District(BranchAddress(published: nil, sido: "서울특별시", sigungu: "서초구"))
        == District(sido: "서울특별시", sigungu: "서초구"))
    #expect(District(BranchAddress(published: nil, sido: "서울특별시", sigungu: nil)) == nil)
  }
}
