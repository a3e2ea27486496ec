import Testing

@testable import MartCore

/// The researched table as the starting point: a cited designation gives a district its days
/// until stores establish them, never overrides the stores silently, and is kept when the stores
/// that brought it in go stale. Window 2026-11-01 … 2027-01-31, as of 2026-11-20. Weekdays from
/// the calendar: the 2nd/4th Wednesdays are 11-11, 11-25, 12-09, 12-23, 01-13, 01-27 and the
/// 2nd/4th Sundays 11-08, 11-22, 12-13, 12-27, 01-10, 01-24.
@Suite("Cited designations")
struct CitedDesignationTests {
  typealias Memory = DesignationMemoryTests
  static let uijeongbu = District(sido: "경기도", sigungu: "의정부시")
  static let citation = DesignationCitation(
    source: "경기북부이슈 (bukbuissue.com/933)", sourceDate: "2019-06-18", since: "2019-06-26")

  /// 의정부시 as the table has it: both classes on the 2nd/4th Wednesday.
  static let table = DesignationReference(
    description: "test", checked: "2026-12-02",
    designations: [
      DesignationReference.Entry(
        sido: "경기도", sigungu: "의정부시", storeClasses: [.hypermarket, .ssm], pattern: ["2:wednesday", "4:wednesday"],
        since: citation.since, source: citation.source, sourceDate: citation.sourceDate,
        storeExceptions: [
          .init(store: "코스트코 의정부점", branch: "costco-Uijeongbu", pattern: ["2:sunday", "4:sunday"], note: nil)
        ])
    ])

  static func branch(_ brand: BrandSlug, _ store: String, _ text: String?) -> Branch {
    DistrictDesignationTests.branch(brand, store, sido: "경기도", sigungu: "의정부시", text: text)
  }

  static func infer(_ branches: [Branch], memory: DesignationMemory = DesignationMemory(), exempt: Set<BrandSlug> = [])
    -> DistrictInference
  {
    DistrictDesignations.infer(
      from: branches, window: Memory.window, exempt: Memory.exempt.union(exempt), storeClasses: Memory.classes,
      asOf: Memory.asOf, memory: memory, reference: table)
  }

  @Test("one store of a class on the table's days: the class's pattern is the table's, cited, and gives expected days")
  func oneStoreFollowsTheTable() throws {
    let branches = [
      Self.branch("emart", "1", "매월 둘째, 넷째 수요일 휴무"), Self.branch("homeplus", "2", nil),
      Self.branch("lotte-super", "3", nil),
    ]
    let inference = Self.infer(branches)
    #expect(inference.mismatches.isEmpty)
    #expect(inference.changes.isEmpty)
    let hyper = try #require(inference.pattern(for: Self.uijeongbu, storeClass: .hypermarket))
    #expect(hyper.basis == .cited)
    #expect(hyper.citation == Self.citation)
    #expect(hyper.pattern == Memory.secondFourth(.wednesday))
    #expect(hyper.evidence.map(\.description) == ["emart-1"])
    #expect(hyper.firstConfirmed == nil && hyper.lastConfirmed == nil)
    let expected = inference.withExpectedDays(branches)
    let homeplus = try #require(expected.first { $0.id.brand == "homeplus" }?.closing.expected)
    #expect(homeplus.dates == Memory.days(Memory.wednesdays))
    #expect(homeplus.basis == "cited" && homeplus.storeClass == .hypermarket)
    // The SSM class has no store that publishes days: the table still gives it its days.
    let ssm = try #require(expected.first { $0.id.brand == "lotte-super" }?.closing.expected)
    #expect(ssm.dates == Memory.days(Memory.wednesdays))
    #expect(ssm.basis == "cited" && ssm.storeClass == .ssm)
    // Nothing the stores confirmed contradicts the table.
    #expect(inference.contradictions(with: Self.table).isEmpty)
  }

  @Test("a store announced to close for good is held to the table's days only up to the day before")
  func aStoreClosingForGoodIsCheckedUpToTheDayBefore() throws {
    let closesOn = try #require(CalendarDate(iso: "2026-12-15"))
    var store = Self.branch("emart", "1", "매월 둘째, 넷째 수요일 휴무")
    // Shut every day from 12-15 through the window's end, as a run lists a closing store's days.
    let shut = (closesOn.dayNumber...Memory.window.through.dayNumber).map { CalendarDate(dayNumber: $0) }
    store.closing.dates = store.closing.dates.filter { $0 < closesOn } + shut
    store.storeStatus.closesOn = closesOn
    #expect(Self.infer([store]).mismatches.isEmpty)
    // The same days without the announcement break the designation.
    store.storeStatus.closesOn = nil
    #expect(Self.infer([store]).mismatches.map(\.branch.description) == ["emart-1"])
  }

  @Test("stores of two sources on the table's days make it learned, confirmed today")
  func qualifyingStoresConfirmIt() throws {
    let inference = Self.infer([
      Self.branch("emart", "1", "매월 둘째, 넷째 수요일 휴무"), Self.branch("homeplus", "2", "매월 둘째·넷째 수요일"),
    ])
    let hyper = try #require(inference.pattern(for: Self.uijeongbu, storeClass: .hypermarket))
    #expect(hyper.basis == .learned && hyper.citation == nil)
    #expect(hyper.firstConfirmed == Memory.asOf && hyper.lastConfirmed == Memory.asOf)
    #expect(inference.changes.isEmpty)
    #expect(inference.contradictions(with: Self.table).isEmpty)
  }

  @Test("stores of two sources on other days replace it, as a change and a contradiction naming both sides")
  func qualifyingStoresOnOtherDaysReplaceIt() throws {
    let inference = Self.infer([
      Self.branch("emart", "1", "매월 둘째, 넷째 일요일 휴무"), Self.branch("homeplus", "2", "매월 둘째·넷째 일요일"),
    ])
    let hyper = try #require(inference.pattern(for: Self.uijeongbu, storeClass: .hypermarket))
    #expect(hyper.pattern == Memory.secondFourth(.sunday) && hyper.basis == .learned)
    let change = try #require(inference.changes.first)
    #expect(change.old.basis == .cited && change.new == Memory.secondFourth(.sunday))
    #expect(change.message.contains("cited since 2019-06-26 (경기북부이슈 (bukbuissue.com/933), 2019-06-18)"))
    let contradiction = try #require(inference.contradictions(with: Self.table).first)
    #expect(contradiction.message.contains("the stores show 2nd sunday, 4th sunday"))
    #expect(contradiction.message.contains("the table says 2nd wednesday, 4th wednesday"))
  }

  @Test("one store on other days does not override it: a mismatch naming the table's source")
  func oneStoreAgainstTheTableIsAMismatch() throws {
    let inference = Self.infer([Self.branch("megamart", "9", "매월 둘째, 넷째 일요일 휴무")])
    let hyper = try #require(inference.pattern(for: Self.uijeongbu, storeClass: .hypermarket))
    #expect(hyper.pattern == Memory.secondFourth(.wednesday) && hyper.basis == .cited)
    #expect(hyper.evidence.isEmpty)
    let mismatch = try #require(inference.mismatches.first)
    #expect(mismatch.branch.description == "megamart-9")
    #expect(mismatch.closedOffPattern == Memory.days(Memory.sundays))
    #expect(mismatch.message.contains("cited since 2019-06-26 (경기북부이슈 (bukbuissue.com/933), 2019-06-18); evidence: no store"))
  }

  @Test("a store the table names as keeping its own days is not a mismatch, and is remembered as an exception")
  func aNamedStoreExceptionIsNoMismatch() throws {
    let inference = Self.infer([Self.branch("costco", "Uijeongbu", "매월 둘째, 넷째 일요일 의무 휴무")])
    #expect(inference.mismatches.isEmpty)
    let id = BranchID(brand: "costco", storeID: "Uijeongbu")
    #expect(inference.memory.exceptions[id]?.pattern == Memory.secondFourth(.sunday))
    // On other days than the table names for it, it is one.
    let other = Self.infer([Self.branch("costco", "Uijeongbu", "매월 둘째, 넷째 토요일 휴무")])
    #expect(other.mismatches.map(\.branch) == [id])
  }

  @Test("a learned designation in memory stands before the table")
  func learnedMemoryComesFirst() throws {
    let key = DesignationKey(district: Self.uijeongbu, storeClass: .hypermarket)
    let earlier = CalendarDate(iso: "2026-10-01")!
    let memory = DesignationMemory(designations: [
      key: RememberedDesignation(
        pattern: Memory.secondFourth(.sunday), firstConfirmed: earlier, lastConfirmed: earlier,
        evidence: [BranchID(brand: "emart", storeID: "1"), BranchID(brand: "homeplus", storeID: "2")])
    ])
    let inference = Self.infer([Self.branch("homeplus", "2", nil)], memory: memory)
    let hyper = try #require(inference.pattern(for: Self.uijeongbu, storeClass: .hypermarket))
    #expect(hyper.basis == .learned && hyper.pattern == Memory.secondFourth(.sunday))
    #expect(hyper.lastConfirmed == earlier)
  }

  @Test("a cited designation is kept when the brand that brought it in is stale the next day")
  func citedIsKeptWhenItsBrandGoesStale() throws {
    let branches = [Self.branch("everyday", "4", "매월 둘째, 넷째 수요일 휴무"), Self.branch("lotte-super", "5", nil)]
    let first = Self.infer(branches)
    let ssmKey = DesignationKey(district: Self.uijeongbu, storeClass: .ssm)
    #expect(first.memory.designations[ssmKey]?.basis == .cited)
    // E-mart's brands are stale: 에브리데이 is left out; 롯데슈퍼 still has no days.
    let next = Self.infer(branches, memory: first.memory, exempt: ["everyday"])
    let ssm = try #require(next.pattern(for: Self.uijeongbu, storeClass: .ssm))
    #expect(ssm.basis == .cited && ssm.pattern == Memory.secondFourth(.wednesday))
    let lotteSuper = try #require(next.withExpectedDays(branches).first { $0.id.brand == "lotte-super" })
    #expect(lotteSuper.closing.expected?.dates == Memory.days(Memory.wednesdays))
    #expect(lotteSuper.closing.expected?.basis == "cited")
  }

  @Test("the table's district without a store of the class in the run is not listed")
  func noStoreNoEntry() {
    let inference = Self.infer([Self.branch("everyday", "4", nil)])
    #expect(inference.pattern(for: Self.uijeongbu, storeClass: .hypermarket) == nil)
    #expect(inference.pattern(for: Self.uijeongbu, storeClass: .ssm)?.basis == .cited)
  }
}
