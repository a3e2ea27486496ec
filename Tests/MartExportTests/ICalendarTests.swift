import Foundation
import MartCore
import MartExport
import Testing

@Suite struct ICalendarTests {
  @Test func foldsAt75OctetsWithoutSplittingACharacter() throws {
    // 40 Hangul syllables, 3 octets each: 9 + 120 octets after "SUMMARY:".
    let line = "SUMMARY:" + String(repeating: "휴", count: 40)
    let folded = ICalendar.fold(line)
    #expect(folded.suffix(2) == [0x0D, 0x0A])
    let body = try #require(String(validating: folded.dropLast(2), as: UTF8.self))
    let physical = body.components(separatedBy: "\r\n")
    #expect(physical.count == 2)
    for part in physical {
      #expect(part.utf8.count <= 75)
    }
    // 75 octets hold "SUMMARY:" (8) and 22 syllables (66); one more would make 77.
    #expect(physical[0] == "SUMMARY:" + String(repeating: "휴", count: 22))
    #expect(physical[1] == " " + String(repeating: "휴", count: 18))
    // Unfolding (removing CRLF + space) gives the line back.
    #expect(physical[0] + physical[1].dropFirst() == line)
  }

  @Test func shortLinesStayWhole() {
    #expect(ICalendar.fold("VERSION:2.0") == Array("VERSION:2.0\r\n".utf8))
    let exactly75 = String(repeating: "a", count: 75)
    #expect(ICalendar.fold(exactly75) == Array((exactly75 + "\r\n").utf8))
  }

  @Test func escapesTextValues() {
    #expect(ICalendar.escape("매월 둘째, 넷째 일요일; 설\\추석\n휴무") == #"매월 둘째\, 넷째 일요일\; 설\\추석\n휴무"#)
  }

  /// A character to escape, leave out or replace is found wherever it stands in a longer text
  /// (the writer looks through eight bytes at a time).
  @Test func escapesWhereverTheyStand() {
    let escapes: [(text: String, escaped: String)] = [
      (",", #"\,"#), (";", #"\;"#), ("\\", #"\\"#), ("\n", #"\n"#), ("\r", ""), ("\u{7F}", " "), ("\u{01}", " "),
    ]
    for escape in escapes {
      for place in 0...20 {
        let before = String(repeating: "a", count: place)
        let after = String(repeating: "휴", count: 7)
        #expect(ICalendar.escape(before + escape.text + after) == before + escape.escaped + after)
      }
    }
  }

  @Test func branchCalendarHasOneAllDayEventPerClosingDay() throws {
    // 2026-11-01 is a Sunday: the 2nd and 4th Sundays of November are the 8th and 22nd.
    let branch = ExportFixtures.branch("1059", text: "20261108, 20261122")
    let text = String(
      decoding: ICalendar.branchCalendar(branch, brandName: "이마트", asOf: ExportFixtures.asOf), as: UTF8.self)
    #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
    #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    #expect(text.components(separatedBy: "BEGIN:VEVENT").count - 1 == 2)
    #expect(text.contains("UID:emart-1059-20261108@mart-holiday\r\n"))
    #expect(text.contains("DTSTART;VALUE=DATE:20261122\r\nDTEND;VALUE=DATE:20261123\r\n"))
    // The first day of the as-of month: midnight of 2026-11-01 in Korea (UTC+9) is 15:00 UTC
    // on October 31, for every as-of date of November.
    #expect(text.contains("DTSTAMP:20261031T150000Z\r\n"))
    for day in [1, 30] {
      let asOf = try #require(CalendarDate(year: 2026, month: 11, day: day))
      #expect(ICalendar.branchCalendar(branch, brandName: "이마트", asOf: asOf) == Data(text.utf8), "as of \(asOf)")
    }
    #expect(ICalendar.branchCalendar(branch, brandName: "이마트", asOf: ExportFixtures.asOf) == Data(text.utf8))
  }

  @Test func aClosingDayThatHasPassedSpansTheShutDaysAndNeverEndsBeforeItStarts() throws {
    // Announced to close for good on 2026-10-25 and carried over into a bundle as of
    // 2026-11-20, whose window is November through January: shut on every day of it,
    // 2026-11-01 through 2027-01-31, so the event ends on 2027-02-01 (DTEND is exclusive).
    let status = StoreStatus(state: .trading, closesOn: CalendarDate(iso: "2026-10-25")!)
    var branch = ExportFixtures.branch("1059", text: "매월 둘째·넷째 일요일")
    branch.storeStatus = status
    branch.closing = BranchClosing(
      schedule: .parse("매월 둘째·넷째 일요일", asOf: ExportFixtures.asOf), window: ExportFixtures.window,
      storeStatus: status, asOf: ExportFixtures.asOf)
    let text = String(
      decoding: ICalendar.branchCalendar(branch, brandName: "이마트", asOf: ExportFixtures.asOf), as: UTF8.self)
    #expect(text.components(separatedBy: "BEGIN:VEVENT").count - 1 == 1)
    #expect(text.contains("UID:emart-1059-shut@mart-holiday\r\n"))
    #expect(text.contains("DTSTART;VALUE=DATE:20261101\r\nDTEND;VALUE=DATE:20270201\r\n"))
  }
}
