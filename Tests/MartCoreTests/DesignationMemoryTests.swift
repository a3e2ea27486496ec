import Testing

@testable import MartCore

/// Designations by store class and as lasting knowledge: what a district designates for its
/// hypermarkets and for its SSMs apart, what earlier runs learned and keep, and stores that keep
/// days of their own. Window 2026-11-01 … 2027-01-31, as of 2026-11-20. Weekdays from the
/// calendar: November's 2nd/4th Sundays are 11-08, 11-22 and Wednesdays 11-11, 11-25;
/// December's Sundays 12-13, 12-27 and Wednesdays 12-09, 12-23; January's Sundays 01-10, 01-24
/// and Wednesdays 01-13, 01-27.
@Suite("Designations by class, kept and excepted")
struct DesignationMemoryTests {
  static let asOf = DistrictDesignationTests.asOf
  static let window = DistrictDesignationTests.window
  static let exempt: Set<BrandSlug> = ["toysrus", "bottle-bunker"]
  /// As the registry has them (KnownBrands): 대규모점포 and 준대규모점포.
  static let classes: [BrandSlug: StoreClass] = [
    "emart": .hypermarket, "homeplus": .hypermarket, "lottemart": .hypermarket, "megamart": .hypermarket,
    "costco": .hypermarket, "everyday": .ssm, "gs-the-fresh": .ssm, "lotte-super": .ssm, "homeplus-express": .ssm,
  ]
  static let wednesdays = ["2026-11-11", "2026-11-25", "2026-12-09", "2026-12-23", "2027-01-13", "2027-01-27"]
  static let sundays = ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27", "2027-01-10", "2027-01-24"]
  static let gwanak = District(sido: "서울특별시", sigungu: "관악구")
  static func secondFourth(_ weekday: Weekday) -> [DesignatedDay] {
    [DesignatedDay(ordinal: 2, weekday: weekday), DesignatedDay(ordinal: 4, weekday: weekday)]
  }

  static func branch(_ brand: BrandSlug, _ store: String, _ text: String?) -> Branch {
    DistrictDesignationTests.branch(brand, store, sido: "서울특별시", sigungu: "관악구", text: text)
  }

  static func days(_ isos: [String]) -> [CalendarDate] { isos.map { CalendarDate(iso: $0)! } }

  /// 관악구 as 2025 left it: the hypermarkets on Wednesdays, the SSMs on Sundays, and one store of
  /// each class publishing no days.
  static let gwanakStores = [
    branch("emart", "1", "매월 둘째, 넷째 수요일 휴무"),
    branch("homeplus", "2", "매월 둘째·넷째 수요일"),
    branch("megamart", "3", nil),
    branch("everyday", "4", "매월 둘째, 넷째 일요일 휴무"),
    branch("gs-the-fresh", "5", "매월 2,4번째 일요일"),
    branch("lotte-super", "6", nil),
  ]

  @Test("hypermarkets on Wednesdays and SSMs on Sundays: each class its own days, neither flagged")
  func classesApart() throws {
    let inference = DistrictDesignations.infer(
      from: Self.gwanakStores, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes, asOf: Self.asOf)
    #expect(inference.mismatches.isEmpty)
    let hyper = try #require(inference.pattern(for: Self.gwanak, storeClass: .hypermarket))
    let ssm = try #require(inference.pattern(for: Self.gwanak, storeClass: .ssm))
    #expect(hyper.pattern == Self.secondFourth(.wednesday))
    #expect(hyper.evidence.map(\.description) == ["emart-1", "homeplus-2"])
    #expect(ssm.pattern == Self.secondFourth(.sunday))
    #expect(ssm.evidence.map(\.description) == ["everyday-4", "gs-the-fresh-5"])
    #expect(hyper.firstConfirmed == Self.asOf && hyper.lastConfirmed == Self.asOf)
    #expect(inference.expectedDays(for: Self.gwanak, storeClass: .hypermarket) == Self.days(Self.wednesdays))
    let branches = inference.withExpectedDays(Self.gwanakStores)
    let megamart = try #require(branches.first { $0.id.brand == "megamart" })
    let lotteSuper = try #require(branches.first { $0.id.brand == "lotte-super" })
    #expect(megamart.closing.expected?.dates == Self.days(Self.wednesdays))
    #expect(megamart.closing.expected?.storeClass == .hypermarket)
    #expect(lotteSuper.closing.expected?.dates == Self.days(Self.sundays))
    #expect(lotteSuper.closing.expected?.storeClass == .ssm)

    // Without classes (a bundle from before them) the two halves are one split district.
    let together = DistrictDesignations.infer(from: Self.gwanakStores, window: Self.window, exempt: Self.exempt)
    #expect(together.districts.isEmpty)
  }

  @Test("a class with no established pattern gives its stores no expected days")
  func noPatternNoDays() throws {
    let stores = Array(Self.gwanakStores.prefix(3)) + [Self.branch("lotte-super", "6", nil)]
    let inference = DistrictDesignations.infer(
      from: stores, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes, asOf: Self.asOf)
    #expect(inference.pattern(for: Self.gwanak, storeClass: .ssm) == nil)
    #expect(inference.expectedDays(for: Self.gwanak, storeClass: .ssm) == nil)
    let lotteSuper = try #require(inference.withExpectedDays(stores).first { $0.id.brand == "lotte-super" })
    #expect(lotteSuper.closing.expected == nil)
  }

  @Test("a stale brand loses no designation: it is kept, with the day it was last confirmed")
  func keptWhenStale() throws {
    let first = DistrictDesignations.infer(
      from: Self.gwanakStores, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes, asOf: Self.asOf)
    // The next day E-mart's brands are stale: the hypermarkets have one source left, the SSMs too.
    let nextDay = CalendarDate(iso: "2026-11-21")!
    let stale = Self.exempt.union(["emart", "everyday"])
    let second = DistrictDesignations.infer(
      from: Self.gwanakStores, window: Self.window, exempt: stale, storeClasses: Self.classes, asOf: nextDay,
      memory: first.memory)
    #expect(second.changes.isEmpty)
    #expect(second.mismatches.isEmpty)
    for storeClass in StoreClass.allCases {
      let before = try #require(first.pattern(for: Self.gwanak, storeClass: storeClass))
      let after = try #require(second.pattern(for: Self.gwanak, storeClass: storeClass))
      #expect(after.pattern == before.pattern)
      #expect(after.lastConfirmed == Self.asOf && after.daysSinceConfirmed(asOf: nextDay) == 1)
      #expect(after.evidence == before.evidence)
    }
    let branches = second.withExpectedDays(Self.gwanakStores)
    #expect(branches.first { $0.id.brand == "megamart" }?.closing.expected?.dates == Self.days(Self.wednesdays))
    #expect(branches.first { $0.id.brand == "lotte-super" }?.closing.expected?.dates == Self.days(Self.sundays))
    // Without the memory the same run claims nothing: what a fresh output does.
    let alone = DistrictDesignations.infer(
      from: Self.gwanakStores, window: Self.window, exempt: stale, storeClasses: Self.classes, asOf: nextDay)
    #expect(alone.districts.isEmpty)
  }

  @Test("fresh stores of two sources agreeing on other days replace a designation, as a change")
  func replaced() throws {
    let sundaysFirst = [
      Self.branch("emart", "1", "매월 둘째, 넷째 일요일 휴무"), Self.branch("homeplus", "2", "매월 둘째·넷째 일요일"),
    ]
    let first = DistrictDesignations.infer(
      from: sundaysFirst, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes, asOf: Self.asOf)
    #expect(first.pattern(for: Self.gwanak, storeClass: .hypermarket)?.pattern == Self.secondFourth(.sunday))
    let later = CalendarDate(iso: "2026-11-27")!
    // One store alone on Wednesdays replaces nothing: it is a mismatch of the kept Sundays.
    let one = [Self.branch("emart", "1", "매월 둘째, 넷째 수요일 휴무")]
    let kept = DistrictDesignations.infer(
      from: one, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes, asOf: later,
      memory: first.memory)
    #expect(kept.pattern(for: Self.gwanak, storeClass: .hypermarket)?.pattern == Self.secondFourth(.sunday))
    #expect(kept.mismatches.map(\.branch.description) == ["emart-1"])
    #expect(kept.changes.isEmpty)
    let both = DistrictDesignations.infer(
      from: Array(Self.gwanakStores.prefix(2)), window: Self.window, exempt: Self.exempt, storeClasses: Self.classes,
      asOf: later, memory: first.memory)
    let now = try #require(both.pattern(for: Self.gwanak, storeClass: .hypermarket))
    #expect(now.pattern == Self.secondFourth(.wednesday))
    #expect(now.firstConfirmed == later)
    #expect(both.changes.count == 1)
    #expect(both.changes.first?.old.pattern == Self.secondFourth(.sunday))
    #expect(both.changes.first?.evidence.map(\.description) == ["emart-1", "homeplus-2"])
    #expect(both.changes.first?.message.contains("2nd sunday, 4th sunday") == true)
  }

  @Test("a store keeping its own days is a mismatch until it has kept them two months, then an exception")
  func standingException() throws {
    // 의정부시: Wednesdays, Costco on Sundays (브릿지경제, 2024-06-18).
    func store(_ brand: BrandSlug, _ id: String, _ text: String?) -> Branch {
      DistrictDesignationTests.branch(brand, id, sido: "경기도", sigungu: "의정부시", text: text)
    }
    let stores = [
      store("emart", "1", "매월 둘째, 넷째 수요일 휴무"), store("lottemart", "2", "매월 둘째·넷째 수요일"),
      store("homeplus", "3", "매월 둘째·넷째 수요일"), store("costco", "4", "매월 둘째, 넷째 일요일 휴무"),
    ]
    let first = DistrictDesignations.infer(
      from: stores, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes, asOf: Self.asOf)
    #expect(first.mismatches.map(\.branch.description) == ["costco-4"])
    let costco = BranchID(brand: "costco", storeID: "4")
    #expect(first.memory.exceptions[costco]?.since == Self.asOf)
    // A month and a half later: still a mismatch.
    let early = DistrictDesignations.infer(
      from: stores, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes,
      asOf: CalendarDate(iso: "2027-01-05")!, memory: first.memory)
    #expect(early.mismatches.map(\.branch.description) == ["costco-4"])
    // Two months after it was first seen: a standing exception, listed with its district.
    let standing = DistrictDesignations.infer(
      from: stores, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes,
      asOf: CalendarDate(iso: "2027-01-20")!, memory: early.memory)
    #expect(standing.mismatches.isEmpty)
    let uijeongbu = try #require(standing.districts.first)
    #expect(uijeongbu.exceptions.map(\.branch) == [costco])
    #expect(uijeongbu.exceptions.first?.pattern == Self.secondFourth(.sunday))
    #expect(uijeongbu.exceptions.first?.since == Self.asOf)
    // When it stops publishing its days, its own days are the ones expected of it.
    var silent = stores
    silent[3] = store("costco", "4", nil)
    let later = DistrictDesignations.infer(
      from: silent, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes,
      asOf: CalendarDate(iso: "2027-01-21")!, memory: standing.memory)
    let expected = try #require(later.expected(for: silent[3]))
    #expect(expected.basis == ExpectedClosing.storeExceptionBasis)
    #expect(expected.dates == Self.days(Self.sundays))
  }

  @Test("the researched table: agreement is silent, a contradiction names both sides")
  func contradictions() throws {
    let inference = DistrictDesignations.infer(
      from: Self.gwanakStores, window: Self.window, exempt: Self.exempt, storeClasses: Self.classes, asOf: Self.asOf)
    func entry(_ classes: [StoreClass], _ pattern: [String]) -> DesignationReference.Entry {
      DesignationReference.Entry(
        sido: "서울특별시", sigungu: "관악구", storeClasses: classes, pattern: pattern, since: "2025",
        source: "뉴시스", sourceDate: "2025-02-06", note: nil, storeExceptions: nil)
    }
    let agreeing = DesignationReference(
      description: "", checked: "2026-12-02",
      designations: [entry([.hypermarket], ["2:wednesday", "4:wednesday"]), entry([.ssm], ["4:sunday", "2:sunday"])])
    #expect(inference.contradictions(with: agreeing).isEmpty)
    let other = DesignationReference(
      description: "", checked: "2026-12-02", designations: [entry([.hypermarket, .ssm], ["2:wednesday", "4:wednesday"])])
    let found = inference.contradictions(with: other)
    #expect(found.map(\.key.storeClass) == [.ssm])
    let message = try #require(found.first?.message)
    #expect(message.contains("the stores show 2nd sunday, 4th sunday"))
    #expect(message.contains("the table says 2nd wednesday, 4th wednesday since 2025 (뉴시스, 2025-02-06)"))
  }

  @Test("days of a designation stored as codes read back as themselves")
  func codes() {
    let days = [DesignatedDay(ordinal: 2, weekday: .wednesday), DesignatedDay(ordinal: 4, weekday: .sunday), DesignatedDay(dayOfMonth: 10)]
    #expect(days.map(\.code) == ["2:wednesday", "4:sunday", "10"])
    #expect(days.map(\.code).compactMap { DesignatedDay(code: $0) } == days)
    #expect(DesignatedDay(code: "6:monday") == nil && DesignatedDay(code: "32") == nil && DesignatedDay(code: "2:mon") == nil)
  }
}
