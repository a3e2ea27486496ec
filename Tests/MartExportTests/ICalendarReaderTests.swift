import Foundation
import MartCore
import Testing

@testable import MartExport

/// What `validate` reads in a calendar file: the RFC 5545 line rules (CRLF, at most 75 octets,
/// folding), and the days its events cover.
@Suite struct ICalendarReaderTests {
  /// A calendar of the given content lines, each ended by CRLF.
  func calendar(_ lines: [String]) -> Data { Data(lines.map { $0 + "\r\n" }.joined().utf8) }

  func event(_ uid: String, _ day: String, tentative: Bool = false) -> [String] {
    ["BEGIN:VEVENT", "UID:\(uid)", "DTSTART;VALUE=DATE:\(day)"] + (tentative ? ["STATUS:TENTATIVE"] : [])
      + ["END:VEVENT"]
  }

  @Test func readsTheDaysOfEventsAndUnfoldsFoldedLines() throws {
    // 2026-11-08 and 2026-11-22 are the 2nd and 4th Sundays of November 2026; the second event
    // spans 2026-12-30 and 2026-12-31 (DTEND is exclusive), the third is expected only.
    let lines =
      ["BEGIN:VCALENDAR", "VERSION:2.0"] + event("a", "20261108")
      + ["BEGIN:VEVENT", "UID:b", "DTSTART;VALUE=DATE:20261230", "DTEND;VALUE=DATE:20270101", "END:VEVENT"]
      + event("c", "20261122", tentative: true)
      // A folded summary: the continuation line starts with a space.
      + ["BEGIN:VEVENT", "UID:d", "SUMMARY:이마트 ", " 휴무", "DTSTART;VALUE=DATE:", " 20261213", "END:VEVENT"]
      + ["END:VCALENDAR"]
    let reading = ICalendarReader.read(calendar(lines))
    #expect(reading.problems == [])
    #expect(reading.events == 4)
    let days = ["2026-11-08", "2026-12-30", "2026-12-31", "2026-12-13"].compactMap { CalendarDate(iso: $0) }
    #expect(reading.covered == days)
    #expect(reading.tentative == [CalendarDate(iso: "2026-11-22")].compactMap { $0 })
  }

  @Test func namesEveryLineThatBreaksTheRules() throws {
    let long = "DESCRIPTION:" + String(repeating: "x", count: 70)  // 82 octets
    var data = calendar(["BEGIN:VCALENDAR", long, "X-A:one"])
    data.append(Data("X-B:bare\nfeed\r\nX-C:bare\rreturn\r\n".utf8))
    data.append(calendar(["UID:same", "UID:same", "END:VCALENDAR"]))
    let reading = ICalendarReader.read(data)
    #expect(
      reading.problems == [
        "line 2 has 82 octets, more than 75", "line 4 has a bare line break", "line 5 has a bare line break",
        "UID same occurs twice",
      ])
    #expect(reading.covered == [])
  }

  @Test func stopsAtALineFoldedInsideACharacterOrAFileWithoutCRLF() throws {
    // "휴" is ED 9C B4 in UTF-8: a fold after its first byte leaves two lines that are not UTF-8.
    var data = Data("BEGIN:VCALENDAR\r\nSUMMARY:".utf8)
    data.append(contentsOf: [0xED, 0x0D, 0x0A, 0x20, 0x9C, 0xB4, 0x0D, 0x0A])
    data.append(Data("END:VCALENDAR\r\n".utf8))
    let folded = ICalendarReader.read(data)
    #expect(folded.problems == ["line 2 is not UTF-8 (folded inside a character?)"])
    #expect(folded.covered == nil)

    let unended = ICalendarReader.read(Data("BEGIN:VCALENDAR\r\nEND:VCALENDAR".utf8))
    #expect(unended.problems == ["does not end with CRLF"])
    #expect(unended.covered == nil)

    let two = ICalendarReader.read(calendar(["BEGIN:VCALENDAR", "END:VCALENDAR", "BEGIN:VCALENDAR"]))
    #expect(two.problems == ["is not one VCALENDAR"])
  }

  @Test func readsACalendarHeldInASliceOfLargerData() throws {
    let whole = Data("junk".utf8) + calendar(["BEGIN:VCALENDAR"] + event("a", "20261108") + ["END:VCALENDAR"])
    let slice = whole.dropFirst(4)
    #expect(slice.startIndex == 4)
    let reading = ICalendarReader.read(slice)
    #expect(reading.problems == [])
    #expect(reading.covered == [CalendarDate(iso: "2026-11-08")].compactMap { $0 })
  }
}
