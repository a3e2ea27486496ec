import Foundation
import MartCore
import MartPipeline
import MartSQLite
import TestSupport
import Testing

/// What runs learn of the designations, in a real SQLite file, and the researched table in the
/// repository.
struct DesignationStoreTests {
  func day(_ iso: String) -> CalendarDate { CalendarDate(iso: iso)! }

  @Test func whatIsSavedReadsBackWholeAndReplacesWhatWasThere() throws {
    let path = Scratch.directory.appendingPathComponent("designations-\(UUID().uuidString).sqlite").path
    let key = DesignationKey(district: District(sido: "경기도", sigungu: "의정부시"), storeClass: .hypermarket)
    let ssm = DesignationKey(district: District(sido: "서울특별시", sigungu: "관악구"), storeClass: .ssm)
    let wednesdays = [DesignatedDay(ordinal: 2, weekday: .wednesday), DesignatedDay(ordinal: 4, weekday: .wednesday)]
    let costco = BranchID(brand: "costco", storeID: "Uijeongbu 1")
    var memory = DesignationMemory()
    memory.designations[key] = RememberedDesignation(
      pattern: wednesdays, firstConfirmed: day("2026-10-01"), lastConfirmed: day("2026-11-20"),
      evidence: [BranchID(brand: "emart", storeID: "1"), BranchID(brand: "homeplus-express", storeID: "express-9")],
      swaps: [DistrictSwap(date: day("2026-12-25"), ids: [BranchID(brand: "emart", storeID: "1")], replaces: day("2026-12-23"))])
    memory.designations[ssm] = RememberedDesignation(
      pattern: [DesignatedDay(ordinal: 4, weekday: .sunday), DesignatedDay(dayOfMonth: 10)], firstConfirmed: day("2026-11-20"),
      lastConfirmed: day("2026-11-20"), evidence: [])
    memory.exceptions[costco] = StoreException(
      branch: costco, key: key, pattern: [DesignatedDay(ordinal: 2, weekday: .sunday)], since: day("2026-09-15"))
    do {
      let store = try DesignationStore(path: path)
      try store.save(memory)
    }
    let reopened = try DesignationStore(path: path)
    let (read, unreadable) = try reopened.load()
    #expect(unreadable.isEmpty)
    #expect(read == memory)
    try reopened.save(DesignationMemory())
    #expect(try reopened.load().memory.isEmpty)

    // A row a later hand damaged is left out and named, never guessed.
    try reopened.save(memory)
    let database = try SQLiteConnection(path: path)
    try database.run("UPDATE designation SET pattern = '6:someday' WHERE sigungu = '관악구'")
    let (partial, named) = try reopened.load()
    #expect(partial.designations.keys.sorted() == [key])
    #expect(named == ["designation 서울특별시 관악구 ssm"])
  }

  @Test func theResearchedTableReadsAndCitesEveryEntry() throws {
    let table = try DesignationReferenceFile.read(DesignationReferenceFile.inRepository)
    #expect(table.designations.count >= 40)
    for entry in table.designations {
      #expect(!entry.source.isEmpty && CalendarDate(iso: entry.sourceDate) != nil, "\(entry.district)")
      #expect(!entry.storeClasses.isEmpty, "\(entry.district)")
    }
    let wednesdays = [DesignatedDay(ordinal: 2, weekday: .wednesday), DesignatedDay(ordinal: 4, weekday: .wednesday)]
    let mondays = [DesignatedDay(ordinal: 2, weekday: .monday), DesignatedDay(ordinal: 4, weekday: .monday)]
    let sundays = [DesignatedDay(ordinal: 2, weekday: .sunday), DesignatedDay(ordinal: 4, weekday: .sunday)]
    for city in ["원주시", "고양시", "남양주시", "의정부시", "하남시"] {
      let sido = city == "원주시" ? "강원특별자치도" : "경기도"
      #expect(table.entry(for: District(sido: sido, sigungu: city), storeClass: .hypermarket)?.days == wednesdays, "\(city)")
    }
    for gu in ["부산진구", "해운대구"] {
      #expect(table.entry(for: District(sido: "부산광역시", sigungu: gu), storeClass: .hypermarket)?.days == mondays, "\(gu)")
    }
    let gwanak = District(sido: "서울특별시", sigungu: "관악구")
    #expect(table.entry(for: gwanak, storeClass: .hypermarket)?.days == wednesdays)
    #expect(table.entry(for: gwanak, storeClass: .ssm)?.days == sundays)
    // 구미시 splits the classes: hypermarkets on Wednesdays, SSMs on Sundays, since 2015-11-04.
    let gumi = District(sido: "경상북도", sigungu: "구미시")
    #expect(table.entry(for: gumi, storeClass: .hypermarket)?.days == wednesdays)
    #expect(table.entry(for: gumi, storeClass: .ssm)?.days == sundays)
    let uijeongbu = try #require(table.entry(for: District(sido: "경기도", sigungu: "의정부시"), storeClass: .hypermarket))
    #expect(uijeongbu.storeExceptions?.first { $0.store.contains("코스트코") }?.pattern == ["2:sunday", "4:sunday"])
    let ansan = try #require(table.entry(for: District(sido: "경기도", sigungu: "안산시"), storeClass: .ssm))
    #expect(ansan.days == [DesignatedDay(ordinal: 4, weekday: .sunday), DesignatedDay(dayOfMonth: 10)])
  }
}
