import Foundation
import MartCore

/// iCalendar (RFC 5545) files of closing days that a person can subscribe to in a calendar app:
/// one all-day event per closing day, and for a branch that is not trading one event spanning
/// the days it is shut (UID `<branch id>-shut@mart-holiday`, the same from bundle to bundle while
/// the shut period moves with the window).
///
/// The bytes depend only on the data: UIDs are `<branch id>-<YYYYMMDD>@mart-holiday` (the same
/// closing day keeps its UID from bundle to bundle, so calendar apps update rather than
/// duplicate it), and DTSTAMP is midnight in Korea of the first day of the as-of month (the
/// window's first day), written in UTC (``stampDay(asOf:)``).
///
/// Calendars are written as bytes, line by line, into one buffer (``ContentLines``): no line
/// and no event is held as a string or an array of its own.
public enum ICalendar {
  /// How often a subscribed calendar should be fetched again (`REFRESH-INTERVAL`, RFC 7986,
  /// and `X-PUBLISHED-TTL` for the apps that read only that): a day, as often as runs publish.
  public static let refreshInterval = "P1D"

  /// The calendar of one branch; `brandName` is its brand's Korean name, `staleSince` the as-of
  /// date of the brand's last good fetch when the brand is stale (the calendar then says so).
  public static func branchCalendar(
    _ branch: Branch, brandName: String, asOf: CalendarDate, staleSince: CalendarDate? = nil
  ) -> Data {
    var calendar = CalendarText()
    writeBranchCalendar(branch, brandName: brandName, staleSince: staleSince, asOf: asOf, into: &calendar)
    return Data(calendar.lines.bytes)
  }

  /// Writes the calendar of one branch (as ``branchCalendar(_:brandName:asOf:staleSince:)``)
  /// into `calendar`, emptied first; its events stay listed there for the brand's calendar.
  static func writeBranchCalendar(
    _ branch: Branch, brandName: String, staleSince: CalendarDate?, asOf: CalendarDate,
    into calendar: inout CalendarText
  ) {
    calendar.removeAll()
    header(
      into: &calendar.lines,
      name: { $0.append(title: branch, brandName: brandName) },
      description: {
        appendStaleNotice(staleSince: staleSince, asOf: asOf, to: &$0)
        appendDescription(of: branch, to: &$0)
      })
    writeEvents(of: branch, brandName: brandName, asOf: asOf, into: &calendar)
    calendar.lines.line("END:VCALENDAR")
  }

  /// The final calendar of a branch the current bundle no longer lists (`current/`): one
  /// all-day event on `asOf` saying so (RFC 5545 wants at least one component), with the day it
  /// was last listed; its closing days are gone, since nothing says it still trades.
  public static func unlistedBranchCalendar(
    _ branch: Branch, brandName: String, lastListedAsOf: CalendarDate, asOf: CalendarDate
  ) -> Data {
    let notice = "\(asOf.iso) 기준 목록에 없는 지점입니다 (마지막 확인 \(lastListedAsOf.iso)). 폐점했거나 이름이 바뀌었을 수 있습니다."
    var lines = ContentLines()
    header(
      into: &lines, name: { $0.append(title: branch, brandName: brandName) },
      description: { $0.append(escaping: notice) })
    lines.line("BEGIN:VEVENT")
    lines.append("UID:")
    lines.append(id: branch.id)
    lines.append("-unlisted@mart-holiday")
    lines.endLine()
    lines.stampLine(stampDay(asOf: asOf))
    lines.dateLines(from: asOf, to: asOf.adding(days: 1))
    lines.append("SUMMARY:")
    lines.append(title: branch, brandName: brandName)
    lines.append(escaping: " 목록에서 빠짐")
    lines.endLine()
    lines.append("DESCRIPTION:")
    lines.append(escaping: notice)
    lines.endLine()
    lines.line("TRANSP:TRANSPARENT")
    lines.line("END:VEVENT")
    lines.line("END:VCALENDAR")
    return Data(lines.bytes)
  }

  /// The days a branch's calendar covers: its closing dates as listed day by day
  /// (``Branch/listedClosingDates``), so a store announced to close for good has one event on
  /// that day instead of one per day after it.
  public static func coveredDays(of branch: Branch) -> [CalendarDate] { branch.listedClosingDates }

  /// Writes a branch's events into `calendar`, in date order: one for the days its store status
  /// shuts it (spanning them, or only the day it closes for good when that is announced), one
  /// per other closing day.
  /// A branch without published days that has expected ones (`closing.expected`) gets one
  /// tentative event per expected day instead (``writeExpectedEvent(_:brandName:on:opening:into:)``).
  static func writeEvents(of branch: Branch, brandName: String, asOf: CalendarDate, into calendar: inout CalendarText) {
    let dates = branch.closing.dates
    let stamp = stampDay(asOf: asOf)
    guard !dates.isEmpty else {
      guard let expected = branch.closing.expected?.dates, !expected.isEmpty else { return }
      let opening = EventOpening(branch.id, stampLine: calendar.stampLine(stamp))
      for date in expected {
        calendar.event(on: date) {
          writeExpectedEvent(branch, brandName: brandName, on: date, opening: opening, into: &$0)
        }
      }
      return
    }
    let closingDay = ClosingDayLines(branch, brandName: brandName, stampLine: calendar.stampLine(stamp))
    let shutDays = branch.shutDays(asOf: asOf)
    guard let first = dates.first, let last = dates.last,
      let shut = shutDays.range(in: DateWindow(from: first, through: last))
    else {
      for date in dates { calendar.event(on: date) { closingDay.write(on: date, into: &$0) } }
      return
    }
    func addShutEvent(_ calendar: inout CalendarText) {
      calendar.event(on: shut.lowerBound) {
        writeShutEvent(
          branch, brandName: brandName, days: shut, closesForGoodOn: shutDays.closesForGoodOn, stamp: stamp, into: &$0)
      }
    }
    // The dates are sorted and none outside the shut days is their first: the dates before
    // them, their event, the dates after them.
    var shutWritten = false
    for date in dates where !shut.contains(date) {
      if !shutWritten, shut.lowerBound < date {
        addShutEvent(&calendar)
        shutWritten = true
      }
      calendar.event(on: date) { closingDay.write(on: date, into: &$0) }
    }
    if !shutWritten { addShutEvent(&calendar) }
  }

  /// The tentative event of a day the branch is expected to close (`closing.expected`): its
  /// source published no days, so the day comes from its district's other stores and is marked
  /// `STATUS:TENTATIVE`, said to be expected in its summary, and given a UID of its own
  /// (`<branch id>-<YYYYMMDD>-expected@mart-holiday`), so a confirmed day never replaces it
  /// silently.
  static func writeExpectedEvent(
    _ branch: Branch, brandName: String, on date: CalendarDate, opening: EventOpening, into lines: inout ContentLines
  ) {
    beginDayEvent(opening, on: date, uidEnd: "-expected@mart-holiday", into: &lines)
    lines.append("SUMMARY:")
    lines.append(title: branch, brandName: brandName)
    lines.append(escaping: " 휴무 예상 (미확인)")
    lines.endLine()
    appendPlace(of: branch, to: &lines)
    lines.append("DESCRIPTION:")
    lines.append(escaping: "매장이 휴무일을 공개하지 않았습니다. ")
    lines.append(escaping: branch.closing.expected?.district ?? "")
    lines.append(escaping: "의 다른 매장들이 지키는 의무휴업일로 본 예상일이며 확정된 휴무일이 아닙니다. 방문 전에 매장에 확인하세요.")
    lines.endLine()
    lines.line("STATUS:TENTATIVE")
    lines.line("TRANSP:TRANSPARENT")
    lines.line("END:VEVENT")
  }

  /// One all-day event over a shut store's shut days; for a store that closes for good on an
  /// announced day among them (`closesForGoodOn`, ``ShutDays/closesForGoodOn``), one event on
  /// that day alone. A day announced before them (a branch carried over past it) has passed: the
  /// event spans the shut days, as a closed store's does.
  static func writeShutEvent(
    _ branch: Branch, brandName: String, days: ClosedRange<CalendarDate>, closesForGoodOn: CalendarDate?,
    stamp: CalendarDate, into lines: inout ContentLines
  ) {
    let what = branch.storeStatus.state == .temporarilyClosed ? " 임시휴업" : " 영업종료"
    let last = closesForGoodOn.flatMap { days.contains($0) ? $0 : nil } ?? days.upperBound
    lines.line("BEGIN:VEVENT")
    lines.append("UID:")
    lines.append(id: branch.id)
    lines.append("-shut@mart-holiday")
    lines.endLine()
    lines.stampLine(stamp)
    lines.dateLines(from: days.lowerBound, to: last.adding(days: 1))
    lines.append("SUMMARY:")
    lines.append(title: branch, brandName: brandName)
    lines.append(escaping: what)
    lines.endLine()
    appendPlace(of: branch, to: &lines)
    if let text = branch.storeStatus.text {
      lines.append("DESCRIPTION:")
      lines.append(escaping: text)
      lines.endLine()
    }
    lines.line("TRANSP:TRANSPARENT")
    lines.line("END:VEVENT")
  }

  /// The lines every closing-day event of one branch ends with (summary, place, description),
  /// made and folded once for all its days.
  struct ClosingDayLines {
    /// The lines before the day (``EventOpening``).
    let opening: EventOpening
    /// The lines after DTEND, folded.
    let after: [UInt8]

    init(_ branch: Branch, brandName: String, stampLine: [UInt8]) {
      opening = EventOpening(branch.id, stampLine: stampLine)
      var lines = ContentLines(capacity: 256)
      lines.append("SUMMARY:")
      lines.append(title: branch, brandName: brandName)
      lines.append(escaping: " 휴무")
      lines.endLine()
      ICalendar.appendPlace(of: branch, to: &lines)
      if let text = branch.closing.schedule.text, !text.isEmpty {
        lines.append("DESCRIPTION:")
        lines.append(escaping: text)
        lines.endLine()
      }
      lines.line("TRANSP:TRANSPARENT")
      lines.line("END:VEVENT")
      after = lines.bytes
    }

    /// Writes the event of the closing day `date`, whose UID is
    /// `<branch id>-<YYYYMMDD>@mart-holiday`.
    func write(on date: CalendarDate, into lines: inout ContentLines) {
      ICalendar.beginDayEvent(opening, on: date, uidEnd: "@mart-holiday", into: &lines)
      lines.append(folded: after)
    }
  }

  /// What every all-day event of one branch opens with, made once for all its days: BEGIN,
  /// the start of the UID line up to the day (`UID:<id>-`) and the DTSTAMP line
  /// (``beginDayEvent(_:on:uidEnd:into:)``).
  struct EventOpening {
    /// `BEGIN:VEVENT`, ended, then `UID:<id>-`, the UID line left open.
    let bytes: [UInt8]
    /// Where the UID line starts in ``bytes``.
    let uidLineStart: Int
    /// The DTSTAMP line (of the day ``ICalendar/stampDay(asOf:)``), ended.
    let stampLine: [UInt8]

    init(_ id: BranchID, stampLine: [UInt8]) {
      var lines = ContentLines(capacity: 64)
      lines.line("BEGIN:VEVENT")
      uidLineStart = lines.bytes.count
      lines.append("UID:")
      lines.append(id: id)
      lines.append("-")
      bytes = lines.bytes
      self.stampLine = stampLine
    }
  }

  /// Writes the opening lines of the all-day event of `date` of the branch `opening` is made
  /// for: BEGIN, the UID `<id>-<YYYYMMDD>` followed by `uidEnd`, DTSTAMP, DTSTART and DTEND (the
  /// day after, DTEND being exclusive).
  static func beginDayEvent(
    _ opening: EventOpening, on date: CalendarDate, uidEnd: StaticString, into lines: inout ContentLines
  ) {
    lines.append(opening: opening)
    lines.append(basic: date)
    lines.append(uidEnd)
    lines.endLine()
    lines.append(folded: opening.stampLine)
    lines.dateLines(from: date, to: date.adding(days: 1))
  }

  /// An event's LOCATION (the road address, or else the published one) and GEO lines, for
  /// the branch's that it has.
  static func appendPlace(of branch: Branch, to lines: inout ContentLines) {
    if let address = branch.address.road ?? branch.address.published {
      lines.append("LOCATION:")
      lines.append(escaping: address)
      lines.endLine()
    }
    if let coordinate = branch.coordinate {
      lines.line(text: "GEO:\(coordinate.latitude);\(coordinate.longitude)")
    }
  }

  /// The calendar of one brand (Korean name `brandName`): every branch's closing days, ordered
  /// by date, then branch id. `staleSince` as for ``branchCalendar(_:brandName:asOf:staleSince:)``.
  public static func brandCalendar(
    brandName: String, branches: [Branch], asOf: CalendarDate, staleSince: CalendarDate? = nil
  ) -> Data {
    var builder = BrandCalendarBuilder()
    var calendar = CalendarText()
    for branch in branches.sorted(by: { $0.id < $1.id }) {
      calendar.removeAll()
      writeEvents(of: branch, brandName: brandName, asOf: asOf, into: &calendar)
      builder.add(calendar)
    }
    return builder.calendar(brandName: brandName, staleSince: staleSince, asOf: asOf)
  }

  /// DTSTAMP's day for a bundle of as-of date `asOf`: DTSTAMP is 00:00 in Korea (UTC+9, so 15:00
  /// UTC the day before) of the first day of its month, the first day of the bundle's window.
  /// Never later than the run that writes it, and the same for every run of the month, so a
  /// calendar whose events did not change keeps its bytes from one day to the next (and is a
  /// hard link of the previous bundle's); it moves when the window does, when the calendars
  /// change anyway.
  static func stampDay(asOf: CalendarDate) -> CalendarDate { asOf.firstOfMonth().adding(days: -1) }

  /// Writes the calendar's opening lines: its name (`name` writes what comes before ` 휴무일`)
  /// and its description (`description` writes it, escaped).
  static func header(
    into lines: inout ContentLines, name: (inout ContentLines) -> Void, description: (inout ContentLines) -> Void
  ) {
    lines.append(folded: headerStart)
    lines.append("X-WR-CALNAME:")
    name(&lines)
    lines.append(escaping: " 휴무일")
    lines.endLine()
    lines.append("X-WR-CALDESC:")
    description(&lines)
    lines.endLine()
    lines.append(folded: headerEnd)
  }

  /// The header's lines before the calendar's name, the same in every calendar.
  private static let headerStart = ContentLines.folded([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//mart-holiday//closing days//KO", "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
  ])

  /// The header's lines after the calendar's description, the same in every calendar.
  private static let headerEnd = ContentLines.folded([
    "X-WR-TIMEZONE:Asia/Seoul", "REFRESH-INTERVAL;VALUE=DURATION:\(refreshInterval)",
    "X-PUBLISHED-TTL:\(refreshInterval)",
  ])

  /// For a brand stale since `staleSince`, appends (escaped) a warning and a space to go before a
  /// calendar's description: its days are those known on that date, since its site could not be
  /// read since, so later changes are missing. Nothing for a fresh brand.
  static func appendStaleNotice(staleSince: CalendarDate?, asOf: CalendarDate, to lines: inout ContentLines) {
    guard let staleSince else { return }
    let days = asOf.dayNumber - staleSince.dayNumber
    lines.append(
      escaping: "주의: \(staleSince.iso) 이후 매장 사이트를 읽지 못해 \(asOf.iso) 현재 \(days)일째 갱신되지 않은 정보입니다."
        + " 그 뒤에 바뀐 휴무일은 반영되지 않았으니 방문 전에 매장에 확인하세요. ")
  }

  /// Appends (escaped) a branch calendar's description: the store's status when it is not
  /// trading or closes for good, else its closing days' notice with the ranges whose days are
  /// unknown, or that it opens all year, or that its days are unknown.
  static func appendDescription(of branch: Branch, to lines: inout ContentLines) {
    let status = branch.storeStatus
    func appendStatusText() {
      if let text = status.text {
        lines.append(escaping: ": ")
        lines.append(escaping: text)
      }
    }
    switch status.state {
    case .closed:
      lines.append(escaping: "영업종료")
      appendStatusText()
      return
    case .temporarilyClosed:
      lines.append(escaping: "임시휴업")
      if let until = status.until {
        lines.append(escaping: " (")
        lines.append(iso: until)
        lines.append(escaping: "까지)")
      }
      appendStatusText()
      return
    case .trading:
      if let closesOn = status.closesOn {
        lines.append(iso: closesOn)
        lines.append(escaping: " 영업종료 예정")
        appendStatusText()
        return
      }
    }
    switch branch.closing.status {
    case .closures:
      lines.append(escaping: "휴무 안내: ")
      lines.append(escaping: branch.closing.schedule.text ?? "매장이 공개한 휴무일")
      for range in branch.closing.unknownRanges {
        lines.append(escaping: " (")
        lines.append(iso: range.from)
        lines.append(escaping: "~")
        lines.append(iso: range.through)
        lines.append(escaping: " 휴무일 미확인)")
      }
    case .openAllYear: lines.append(escaping: "연중무휴")
    case .unknown: lines.append(escaping: "휴무일을 확인하지 못했습니다. 방문 전에 매장에 확인하세요.")
    }
  }

  /// TEXT value escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks
  /// (``ContentLines/append(escaping:)``).
  public static func escape(_ text: String) -> String {
    var lines = ContentLines()
    lines.append(escaping: text)
    return String(decoding: lines.bytes, as: UTF8.self)
  }

  /// Folds a content line into lines of at most 75 octets (RFC 5545 §3.1), never inside a
  /// UTF-8 sequence; continuation lines start with one space.
  public static func fold(_ line: String) -> [UInt8] {
    var lines = ContentLines()
    lines.line(text: line)
    return lines.bytes
  }

  /// ``fold(_:)`` of a line's UTF-8 bytes, appending to `output`.
  static func fold(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
    var start = 0
    var limit = 75
    while bytes.count - start > limit {
      var end = start + limit
      // Step back to the start of a UTF-8 sequence (continuation bytes are 10xxxxxx).
      while end > start, bytes[end] & 0xC0 == 0x80 { end -= 1 }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
      output += [0x0D, 0x0A, 0x20]
      start = end
      limit = 74  // the leading space counts
    }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    output.append(0x0D)
    output.append(0x0A)
  }
}
