import Foundation
import MartCore
import MartFetch
import MartGeocoding
import MartHolidayKit
import MartPipeline
import PipelineTestSupport
import TestSupport
import Testing

/// The README's tour: the fixtures published as of 2026-11-20, then replayed as of 2026-11-25.
/// The stores the first run found shut stay shut on the days between (the second bundle keeps
/// what the first knew of them): `closures.json` lists them under `shut` only, never in `dates`
/// on those days, and the kit says `.shut`, not `.closed`.
@Suite(.serialized) struct ShutStoreTourTests {
  static func publish(_ output: URL, asOf: String) async throws {
    let result = try await Pipeline.run(
      RunConfiguration(
        outputDirectory: output, replayDirectory: FixturePaths.web, asOf: CalendarDate(iso: asOf)!,
        geocodingRetryPolicy: .immediate))
    #expect(result.report.outcome == .published, "the run as of \(asOf)")
  }

  @Test func aShutStoreIsNeverInTheDailyListsOnADayItIsShut() async throws {
    // The first run, as of 2026-11-20: a copy of the process's one run over the fixtures.
    #expect(ReplayedFixtures.asOf.iso == "2026-11-20")
    let output = try await ReplayedFixtures.shared.copy("tour")
    let first = try RawBundle(output: output)
    let shutBefore = try #require(first.closures["shut"] as? [String])
    // A day the source stated before the first as-of day (진해점's "11/8(일요일)") is known from
    // the first bundle on, and kept by the next; its text names its month ("11월 의무휴업안내"),
    // so the other days of November are known open.
    let jinhae = try #require(try MartBundle(contentsOf: output).branch(id: "lottemart-진해점"))
    #expect(jinhae.status(on: try #require(MartDay(iso: "2026-11-08"))) == .closed)
    #expect(jinhae.status(on: try #require(MartDay(iso: "2026-11-09"))) == .open)
    try await Self.publish(output, asOf: "2026-11-25")
    let raw = try RawBundle(output: output)
    #expect(raw.asOf == "2026-11-25")
    let shut = try #require(raw.closures["shut"] as? [String])
    // The two the issue names: closed for good (GS THE FRESH) and temporarily closed (Homeplus).
    #expect(shut.contains("gs-thefresh-11759") && shut.contains("homeplus-641"), "\(shut)")
    #expect(Set(shutBefore).isSubset(of: Set(shut)))
    let dates = try #require(raw.closures["dates"] as? [String: [String]])
    // The days from the first as-of day through the day before the second: shut in both runs' eyes.
    let between = isoDays(from: "2026-11-20", through: "2026-11-24")
    let bundle = try MartBundle(contentsOf: output)
    for id in shutBefore {
      let record = try #require(raw.branches.first { $0["id"] as? String == id })
      let state = (record["storeStatus"] as? [String: Any])?["state"] as? String
      guard state == "closed" || state == "temporarily-closed" else { continue }
      let branch = try #require(bundle.branch(id: id))
      for day in between {
        #expect(!(dates[day] ?? []).contains(id), "\(id) is listed as closing on \(day)")
        #expect(branch.status(on: try #require(MartDay(iso: day))) == .shut, "\(id) on \(day)")
      }
    }
    // No shut store is in `dates` on any day the kit says it is shut, past days included.
    for id in shut {
      let branch = try #require(bundle.branch(id: id))
      for (day, ids) in dates where ids.contains(id) {
        #expect(branch.status(on: try #require(MartDay(iso: day))) == .closed, "\(id) in dates on \(day)")
      }
    }
    #expect(
      bundle.branch(id: "gs-thefresh-11759")?.status(on: try #require(MartDay(iso: "2026-11-22"))) == .shut)
    #expect(bundle.branch(id: "lottemart-진해점")?.status(on: try #require(MartDay(iso: "2026-11-08"))) == .closed)
    #expect(
      bundle.branchesClosed(on: try #require(MartDay(iso: "2026-11-22"))).allSatisfy { !shut.contains($0.id) })
  }
}
