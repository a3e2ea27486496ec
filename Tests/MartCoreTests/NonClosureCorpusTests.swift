import TestSupport
import Testing

@testable import MartCore

/// Sentences that name no day a store closes, from the Korean press on closing days and store
/// closures (each with its source and date): season words, hours, policy, advice. Read alone, each
/// must give no closed day and no known open day: every day of the window stays unknown. Beside
/// them, closure sentences from the same articles must still give their days
/// (``ClosingDaySentenceTests``).
@Suite("Sentences that are not closures")
struct NonClosureCorpusTests {
  struct Sentence: CustomTestStringConvertible, Sendable {
    let text: String
    let asOf: String
    var testDescription: String { "\"\(text)\"" }
    init(_ text: String, asOf: String) {
      self.text = text
      self.asOf = asOf
    }
  }

  static let sentences: [Sentence] = [
    // 데일리한국, 2024-05-26 (articleView idxno=1087767).
    Sentence("5월 마지막주 주말을 맞아 대형마트의 휴무일이 관심이다.", asOf: "2024-05-26"),
    Sentence("다만 일부 점포는 지자체 별 조례에 따라 휴무일이 변경될 수 있다.", asOf: "2024-05-26"),
    Sentence("서울 서초구와 동대문구, 충북 청주시는 의무휴업일을 평일인 수요일로 변경했다.", asOf: "2024-05-26"),
    Sentence("한편, 자세한 점포별 휴무일은 각 회사 홈페이지 또는 애플리케이션의 전국 점포 정보에서 확인 가능하다.", asOf: "2024-05-26"),
    // 데일리한국, 2024-05-18 (idxno=1085466).
    Sentence("이마트·홈플러스·롯데마트·코스트코 등 대형마트의 휴무일이 관심이다.", asOf: "2024-05-18"),
    Sentence(
      "대형마트 공휴일 의무휴업 원칙을 폐지하는 서울시 조례안이 서울시의회 본회의를 통과하며, 서울 지역 주중에 의무휴업 역시 가시화되고 있다.",
      asOf: "2024-05-18"),
    // 뉴스클레임 (idxno=3027708), 2024-02 ("18일 일요일"; 대구 changed "지난해 2월", 2023-02).
    Sentence("365일 문을 열던 과거와 달리 주말 쉬는 날을 갖는 대형마트 풍경은 어느 정도 익숙해졌다.", asOf: "2024-02-18"),
    Sentence("다만 기초지자체 재량에 따라 지역별로 다른 곳도 있다.", asOf: "2024-02-18"),
    Sentence("헛걸음 하지 않으려면 해당 대형마트 홈페이지 등을 본 후 방문하는 것이 좋다.", asOf: "2024-02-18"),
    Sentence("최근 정부가 대형 마트의 의무 휴업을 중단하기로 하면서 일요일도 문을 여는 대형마트가 점차 늘고 있다.", asOf: "2024-02-18"),
    Sentence("부산 수영구도 대형마트 의무휴업일을 평일로 변경하는 계획을 검토한다.", asOf: "2024-02-18"),
    Sentence("변경 여부가 확정된다면 오는 5월부터 실행할 예정이다.", asOf: "2024-02-18"),
    Sentence("앞서 지난해 2월 대구시는 휴업일을 월요일로 변경했다.", asOf: "2024-02-18"),
    // 동아일보, 2025-09-04.
    Sentence("기업회생절차(법정 관리)를 밟고 있는 홈플러스가 임대료 협상이 무산된 15개 점포를 연내 모두 폐점한다.", asOf: "2025-09-04"),
    Sentence("전 점포 영업시간은 오후 10시까지로 단축하기로 했다.", asOf: "2025-09-04"),
    Sentence("홈플러스는 기존 오후 11시 또는 밤 12시까지 운영했던 일부 점포 영업시간도 10일부터 오후 10시로 앞당기기로 했다.", asOf: "2025-09-04"),
    Sentence("홈플러스 측은 운영비 절감을 위해 이 같은 조치를 취했다는 입장이다.", asOf: "2025-09-04"),
    Sentence(
      "홈플러스 관계자는 “자금 수요가 큰 추석을 앞두고 임대료 협상이 완료된 점포에 대해 밀린 임대료를 지급하면서 자금 압박이 커져 현금 흐름 개선이 시급한 상황”이라고 설명했다.",
      asOf: "2025-09-04"),
    // 뉴시스 (파이낸셜뉴스), 2025-09-03.
    Sentence("이들 15개 점포들에서만 매년 700억 원 이상의 임대료가 발생해 영업손실 규모가 800억 원에 이른다는 게 홈플러스의 설명이다.", asOf: "2025-09-03"),
    Sentence("이와 함께 홈플러스는 운영비 절감을 위해 모든 대형마트 점포의 운영시간을 오후 10시로 앞당기기로 했다.", asOf: "2025-09-03"),
    Sentence("당초 오후 11시나 자정까지 운영해오던 68개 점포의 영업시간을 오후 10시로 단축한다.", asOf: "2025-09-03"),
    Sentence("임대료를 낮추는 데 합의를 보지 못한 15개 점포를 모두 연내 폐점하기로 결정한 것이다.", asOf: "2025-09-03"),
    // 쿠키뉴스 (a headline and its lead; the page gives no date, read as of 2024-09-02).
    Sentence("명절만 오면 되풀이…대형마트 ‘의무휴업’ 논란 어찌하리오", asOf: "2024-09-02"),
    Sentence("추석을 앞둔 대형마트가 의무휴업일 변경을 놓고 속앓이를 하고 있다.", asOf: "2024-09-02"),
    Sentence(
      "대형마트는 유통산업발전법에 따라 월2회 기초자치단체가 지정한 날 문을 닫아야 하지만, 올해는 최대 대목인 추석 전주 일요일이 의무휴업일과 겹치기 때문이다.",
      asOf: "2024-09-02"),
    // 중도일보 (뉴스픽 summary), 2025-06-10.
    Sentence(
      "현재 유통법상 대형마트 휴무일은 자지단체장이 월 2회로 지정할 수 있는데, 법안이 통과되면 대형마트는 한 달 두 번 공휴일에만 문을 닫아야 한다.",
      asOf: "2025-06-10"),
    Sentence("의무 휴업일이 축소·폐지되며 대구와 청주, 서울, 부산 등 전국 76개 대형마트도 주말에서 평일로 의무 휴업을 전환했다.", asOf: "2025-06-10"),
    // 대구MBC, 2023-01.
    Sentence(
      "대구시 8개 구·군은 의무 휴업일을 일요일에서 월요일과 바꾸는 것과 관련해 1월 13일부터 2월 2일까지 행정예고하고, 의견을 수렴합니다.",
      asOf: "2023-01-10"),
    Sentence(
      "대구 시내 의무 휴업 대상은 대규모 점표 17개와 준대규모 점포 43개 등 모두 60개로 광역 자치단체 주도 하에 대형마트 의무 휴업일을 바꾸기는 전국에서 처음입니다.",
      asOf: "2023-01-10"),
    // 연합뉴스TV, 2024-01.
    Sentence("의무휴업일 전환 대상은 대형마트 3곳과 준대규모점포(SSM) 31곳으로 모두 34곳입니다.", asOf: "2024-01-20"),
    Sentence("서초구는 서울 자치구 최초로 이같이 의무휴업일을 변경한다고 밝혔습니다.", asOf: "2024-01-20"),
    Sentence("다만 코스트코 양재점은 현행 의무휴업일을 유지하고, 킴스클럽 강남점은 휴무일을 월요일로 운영합니다.", asOf: "2024-01-20"),
    // 매일신문, 2020-06-14.
    Sentence("다만 업체별 휴무일은 지자체 협의에 따라 지역 점포별로 사정상 다른 곳도 있다.", asOf: "2020-06-14"),
    Sentence(
      "이마트 휴무일을 비롯해 홈플러스 휴업일, 롯데마트 휴무일, 코스트코 휴업일 등 대형마트의 자세한 휴무 일정은 각 회사 홈페이지 또는 애플리케이션(앱)의 전국 점포 정보를 참고하면 된다.",
      asOf: "2020-06-14"),
    // 전자신문, 2020-10-01.
    Sentence("전국 대형마트 중 116개 매장이 다가오는 한글날 연휴 일요일에 문을 열게 됐다.", asOf: "2020-10-01"),
    Sentence("대형마트 업계는 11일이 한글날 사흘 연휴 기간인 점을 고려해 각 지자체에 의무휴업일 요일 변경을 요청했다.", asOf: "2020-10-01"),
    // 데일리한국, 2023-09-28 (idxno=1004740).
    Sentence("추석 연휴가 시작된 가운데, 이마트·홈플러스·롯데마트·코스트코 등 대형마트의 휴무일이 관심이다.", asOf: "2023-09-28"),
    Sentence("점포별 휴무일은 각 회사 홈페이지 또는 애플리케이션의 전국 점포 정보에서 확인 가능하다.", asOf: "2023-09-28"),
    Sentence("한편, 다이소 오픈시간은 매일 오전 9시 또는 10시이다.", asOf: "2023-09-28"),
    // 매일경제, 2024-01-04.
    Sentence("대형마트의 자세한 휴무 일정은 각 회사 홈페이지를 통해 참고하면 된다.", asOf: "2024-01-04"),
    Sentence("다만 각 업체별 휴무일은 지자체 협의나 지역 점포별에 따라 다를 수 있다.", asOf: "2024-01-04"),
    // Sales and events that run until a day or from a day: the day bounds a sale, not a closure.
    // 뉴스투데이, 2023-01-17 (article 20230117500244).
    Sentence(
      "먼저 이마트는 2월 1일까지 제수용 먹거리 간편 트렌드에 발맞춰 피코크 간편식과 즉석조리 먹거리 행사를 진행한다.",
      asOf: "2023-01-17"),
    // 뉴스투데이, 2025-01-03 (article 20250103500006).
    Sentence("홈플러스에서는 오는 8일까지 올해 첫 할인 프로모션을 진행한다.", asOf: "2025-01-03"),
    Sentence(
      "먼저, 오는 5일까지 ‘보먹돼 삼겹살/목심(100g)’을 1300원에 판매하고, ‘농협안심한우 국거리/불고기(100g)’는 50% 할인, ‘딸기(500g)’는 행사카드 결제 시 9990원에 판다.",
      asOf: "2025-01-03"),
    // 뉴스투데이, 2025-02-14 (article 20250214500086).
    Sentence(
      "롯데마트는 오는 19일까지 ‘더 핫’ 프로모션을 진행하고, ‘정갈한 쌀(10㎏/국산)’을 행사 카드(롯데/신한/NH농협/삼성카드) 결제 시 5000원 할인 혜택을 제공해 2만 1900원에 판매한다.",
      asOf: "2025-02-14"),
    // 여성경제신문 (ygosunews article 389063), 2024-05-26.
    Sentence(
      "한편 롯데마트와 슈퍼는 오는 29일까지 핫프라이스 상품으로 ‘간편식 냉면’을 선정해 합리적인 가격에 판매한다.",
      asOf: "2024-05-26"),
    // 포인트데일리 (idxno=157735), 2023-06-04.
    Sentence("이마트는 이날까지 '2023년 상반기 고객감사 세일'을 진행한다.", asOf: "2023-06-04"),
    // bnt뉴스, 2022-12-02 (bnt202212020054).
    Sentence("사전예약 기간은 내년 1월11일까지다.", asOf: "2022-12-02"),
    // 이뉴스투데이 (idxno=1231760), 2018-09-16.
    Sentence(
      "이마트가 추석을 7일 앞둔 17일부터 27일까지 11일 간 차례에 필요한 각종 제수용품부터 제철 신선식품, 주요 생필품 등 총 800여개 품목을 모아 대규모 할인행사를 펼친다고 16일 밝혔다.",
      asOf: "2018-09-16"),
    // Sentences built around the season words the issue quotes (`…명절을 앞두고…`, `…명절 휴식권…`).
    Sentence("설 명절을 앞두고 대형마트 의무휴업일 조정 여부에 관심이 쏠린다", asOf: "2026-01-20"),
    Sentence("마트 노동자의 명절 휴식권을 보장하라", asOf: "2026-01-20"),
  ]

  @Test func noSentenceGivesADay() throws {
    forEachCase(Self.sentences) { sentence, name in
      let asOf = try #require(CalendarDate(iso: sentence.asOf), name)
      let from = asOf.firstOfMonth(addingMonths: -1)
      let through = asOf.firstOfMonth(addingMonths: 3).adding(days: -1)
      let schedule = ClosingSchedule.parse(sentence.text, asOf: asOf, coverage: .asOfThroughLastListed)
      #expect(schedule.closedDates(from: from, through: through).isEmpty, name)
      #expect(
        schedule.unknownRanges(from: from, through: through).map { "\($0.from.iso)…\($0.through.iso)" } == [
          "\(from.iso)…\(through.iso)"
        ], name)
    }
  }

  @Test func theCorpusIsLargeEnough() {
    #expect(Self.sentences.count >= 40)
  }

  /// A day that ends or starts a sale a few words after a month's closing-day heading is not one
  /// of the month's closing days: December 2026 is known, the 13th (and the 27th) closed, the
  /// sale's days open.
  @Test func theBoundOfASaleIsNoClosure() throws {
    let asOf = try #require(CalendarDate(iso: "2026-12-02"))
    let from = try #require(CalendarDate(iso: "2026-12-01"))
    let through = try #require(CalendarDate(iso: "2026-12-31"))
    let cases: [(text: String, closed: [String])] = [
      ("12월 휴무일: 13일. 31일까지 세일", ["2026-12-13"]),
      ("12월 휴무일: 13일. 20일부터 행사", ["2026-12-13"]),
      ("12월 휴무일: 13일, 27일. 24일부터 할인", ["2026-12-13", "2026-12-27"]),
      // A range of days is read whole: its first day is no sale's bound.
      ("12월 휴무일: 27일부터 29일까지", ["2026-12-27", "2026-12-28", "2026-12-29"]),
    ]
    for (text, closed) in cases {
      let schedule = ClosingSchedule.parse(text, asOf: asOf, coverage: .asOfThroughLastListed)
      #expect(schedule.closedDates(from: from, through: through).map(\.iso) == closed, Comment(rawValue: text))
      #expect(schedule.unknownRanges(from: from, through: through).isEmpty, Comment(rawValue: text))
    }
  }

  /// Hours lines beside a weekly rule: the rule closes, public holidays do not.
  @Test func hoursOnPublicHolidaysAreNoClosure() throws {
    let asOf = try #require(CalendarDate(iso: "2026-09-20"))
    let from = try #require(CalendarDate(iso: "2026-10-01"))
    let through = try #require(CalendarDate(iso: "2026-10-31"))
    // October 2026: Mondays 5 12 19 26; 개천절 10-03 and 한글날 10-09 are public holidays.
    for text in ["매주 월요일 휴무 / 주말, 공휴일 영업시간 10:00~22:00", "매주 월요일 휴무\n주말·공휴일 영업시간 : 10:00~23:00"] {
      let schedule = ClosingSchedule.parse(text, asOf: asOf)
      #expect(
        schedule.closedDates(from: from, through: through).map(\.iso) == [
          "2026-10-05", "2026-10-12", "2026-10-19", "2026-10-26",
        ], Comment(rawValue: text))
    }
  }

  /// A notice about a facility inside the store closes no day of the store's.
  @Test func facilityNoticesAreNoClosure() throws {
    let asOf = try #require(CalendarDate(iso: "2026-11-20"))
    let from = try #require(CalendarDate(iso: "2026-11-01"))
    let through = try #require(CalendarDate(iso: "2026-12-31"))
    for text in ["11/30 푸드코트 휴무", "문화센터는 12/24~12/26 휴관", "주차장 공사로 12/1 지하주차장 휴무"] {
      let schedule = ClosingSchedule.parse(text, asOf: asOf)
      #expect(schedule.closedDates(from: from, through: through).isEmpty, Comment(rawValue: text))
    }
  }

  /// Season words keep out; a holiday with a verb or in a list still closes (설날 2027 is 02-07).
  @Test func holidaysWithAVerbStillClose() throws {
    let asOf = try #require(CalendarDate(iso: "2026-11-20"))
    let from = try #require(CalendarDate(iso: "2027-02-01"))
    let through = try #require(CalendarDate(iso: "2027-02-28"))
    for text in ["설날 당일 휴무", "*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업)", "설날에는 휴무"] {
      let schedule = ClosingSchedule.parse(text, asOf: asOf)
      #expect(schedule.closedDates(from: from, through: through).map(\.iso) == ["2027-02-07"], Comment(rawValue: text))
    }
  }
}
