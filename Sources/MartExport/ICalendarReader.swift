import Foundation
import MartCore

/// Reads back the iCalendar files ``ICalendar`` writes, as `validate` does: checks the RFC 5545
/// rules the writer follows (CRLF lines of at most 75 octets, whole UTF-8 characters, one
/// calendar, UIDs unique) and gathers the days its all-day events cover (one per day, or one
/// spanning a shut store's shut days), tentative ones (expected days) apart.
enum ICalendarReader {
  /// What a calendar holds.
  struct Reading {
    /// The rules it breaks, in the order found.
    var problems: [String] = []
    /// Its events (one per `DTSTART`).
    var events = 0
    /// The days its confirmed events cover; `nil` when it could not be read that far.
    var covered: [CalendarDate]?
    /// The days of its tentative events (`STATUS:TENTATIVE`: expected days).
    var tentative: [CalendarDate] = []
  }

  /// Reads `data`: every rule it breaks, and unless one makes it unreadable, the days its
  /// events cover.
  static func read(_ data: Data) -> Reading {
    var reading = Reading()
    func problem(_ message: String) { reading.problems.append(message) }
    guard data.count >= 2, data.suffix(2).elementsEqual([0x0D, 0x0A]) else {
      problem("does not end with CRLF")
      return reading
    }
    guard let lines = unfoldedLines(data, problem: problem) else { return reading }
    guard lines.first == "BEGIN:VCALENDAR", lines.last == "END:VCALENDAR" else {
      problem("is not one VCALENDAR")
      return reading
    }
    var covered: [CalendarDate] = []
    var tentative: [CalendarDate] = []
    var events = 0
    var eventStart: CalendarDate?
    var eventDays: [CalendarDate] = []
    var eventTentative = false
    var uids = Set<String>()
    for line in lines {
      if line.hasPrefix("DTSTART") {
        guard line.hasPrefix("DTSTART;VALUE=DATE:"),
          let date = CalendarDate(compact: line.dropFirst("DTSTART;VALUE=DATE:".count))
        else {
          problem("\(line) is not an all-day date")
          continue
        }
        events += 1
        eventStart = date
      } else if line.hasPrefix("DTEND"), let first = eventStart {
        // DTEND is exclusive: the event covers first ..< end.
        guard line.hasPrefix("DTEND;VALUE=DATE:"),
          let end = CalendarDate(compact: line.dropFirst("DTEND;VALUE=DATE:".count)), end > first
        else {
          problem("\(line) is not an all-day date after DTSTART")
          continue
        }
        var day = first
        while day < end {
          eventDays.append(day)
          day = day.adding(days: 1)
        }
        eventStart = nil
      } else if line == "STATUS:TENTATIVE" {
        eventTentative = true
      } else if line.hasPrefix("END:VEVENT") {
        if let first = eventStart { eventDays.append(first) }
        if eventTentative { tentative += eventDays } else { covered += eventDays }
        eventStart = nil
        eventDays = []
        eventTentative = false
      } else if line.hasPrefix("UID:"), !uids.insert(String(line.dropFirst(4))).inserted {
        problem("UID \(line.dropFirst(4)) occurs twice")
      }
    }
    reading.tentative = tentative
    reading.events = events
    reading.covered = covered
    return reading
  }

  /// The content lines of `data`, which ends with CRLF: split at each CRLF, checked (at most 75
  /// octets, no bare CR or LF, whole UTF-8 characters) and unfolded (a line that begins with a
  /// space or a tab continues the one before). `nil` when a line is not UTF-8: nothing after it
  /// can be read.
  private static func unfoldedLines(_ data: Data, problem: (String) -> Void) -> [String]? {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [String]? in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard let base = bytes.baseAddress else { return [] }
      var lines: [String] = []
      var number = 0
      var start = 0
      while start < bytes.count {
        // The line's end: the first CR followed by LF; a CR without LF stays inside the line.
        var end = start
        while let found = memchr(base + end, 0x0D, bytes.count - end) {
          end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
          if end + 1 < bytes.count, bytes[end + 1] == 0x0A { break }
          end += 1
        }
        number += 1
        let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if line.count > 75 { problem("line \(number) has \(line.count) octets, more than 75") }
        if let lineBase = line.baseAddress,
          memchr(lineBase, 0x0A, line.count) != nil || memchr(lineBase, 0x0D, line.count) != nil
        {
          problem("line \(number) has a bare line break")
        }
        guard let text = String(validating: line, as: UTF8.self) else {
          problem("line \(number) is not UTF-8 (folded inside a character?)")
          return nil
        }
        if text.hasPrefix(" ") || text.hasPrefix("\t"), !lines.isEmpty {
          lines[lines.count - 1] += text.dropFirst()
        } else {
          lines.append(text)
        }
        start = end + 2
      }
      return lines
    }
  }
}
