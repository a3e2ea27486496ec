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
/// window's first day), written in UTC.
public enum ICalendar {
  /// How often a subscribed calendar should be fetched again (`REFRESH-INTERVAL`, RFC 7986,
  /// and `X-PUBLISHED-TTL` for the apps that read only that): a day, as often as runs publish.
  public static let refreshInterval = "P1D"

  /// The calendar of one branch; `brandName` is its brand's Korean name, `staleSince` the as-of
  /// date of the brand's last good fetch when the brand is stale (the calendar then says so).
  public static func branchCalendar(
    _ branch: Branch, brandName: String, asOf: CalendarDate, staleSince: CalendarDate? = nil
  ) -> Data {
    branchCalendar(
      branch, brandName: brandName, events: events(of: branch, brandName: brandName, asOf: asOf),
      staleSince: staleSince, asOf: asOf)
  }

  /// The calendar of one branch from its `events(of:brandName:asOf:)`.
  static func branchCalendar(
    _ branch: Branch, brandName: String, events: [Event], staleSince: CalendarDate? = nil, asOf: CalendarDate
  ) -> Data {
    var lines = ContentLines(capacity: events.reduce(512) { $0 + $1.bytes.count })
    header(
      name: "\(title(branch, brandName: brandName)) 휴무일",
      description: withStaleNotice(description(of: branch), staleSince: staleSince, asOf: asOf), into: &lines)
    for event in events { lines.append(folded: event.bytes) }
    lines.line("END:VCALENDAR")
    return Data(lines.bytes)
  }

  /// The final calendar of a branch the current bundle no longer lists (`current/`): one
  /// all-day event on `asOf` saying so (RFC 5545 wants at least one component), with the day it
  /// was last listed; its closing days are gone, since nothing says it still trades.
  public static func unlistedBranchCalendar(
    _ branch: Branch, brandName: String, lastListedAsOf: CalendarDate, asOf: CalendarDate
  ) -> Data {
    let name = title(branch, brandName: brandName)
    let notice = "\(asOf.iso) 기준 목록에 없는 지점입니다 (마지막 확인 \(lastListedAsOf.iso)). 폐점했거나 이름이 바뀌었을 수 있습니다."
    var lines = ContentLines()
    header(name: "\(name) 휴무일", description: notice, into: &lines)
    lines.line("BEGIN:VEVENT")
    lines.line("UID:\(branch.id)-unlisted@mart-holiday")
    lines.line("DTSTAMP:\(timestamp(asOf: asOf))")
    lines.line("DTSTART;VALUE=DATE:", asOf)
    lines.line("DTEND;VALUE=DATE:", asOf.adding(days: 1))
    lines.line("SUMMARY:\(escape("\(name) 목록에서 빠짐"))")
    lines.line("DESCRIPTION:\(escape(notice))")
    lines.line("TRANSP:TRANSPARENT")
    lines.line("END:VEVENT")
    lines.line("END:VCALENDAR")
    return Data(lines.bytes)
  }

  /// The days a branch's calendar covers: its closing dates as listed day by day
  /// (``Branch/listedClosingDates``), so a store announced to close for good has one event on
  /// that day instead of one per day after it.
  public static func coveredDays(of branch: Branch) -> [CalendarDate] { branch.listedClosingDates }

  /// One event's first day and its content lines, folded and each ended with CRLF.
  typealias Event = (date: CalendarDate, bytes: [UInt8])

  /// A branch's events with their first days, in date order: one for the days its store status
  /// shuts it (spanning them, or only the day it closes for good when that is announced), one
  /// per other closing day.
  /// A branch without published days that has expected ones (`closing.expected`) gets one
  /// tentative event per expected day instead (``expectedEvent(_:title:on:asOf:)``).
  static func events(of branch: Branch, brandName: String, asOf: CalendarDate) -> [Event] {
    let dates = branch.closing.dates
    let title = title(branch, brandName: brandName)
    guard !dates.isEmpty else {
      return (branch.closing.expected?.dates ?? []).map {
        ($0, expectedEvent(branch, title: title, on: $0, asOf: asOf))
      }
    }
    let closingDay = ClosingDayLines(branch, title: title, asOf: asOf)
    let shutDays = branch.shutDays(asOf: asOf)
    guard let first = dates.first, let last = dates.last,
      let shut = shutDays.range(in: DateWindow(from: first, through: last))
    else {
      return dates.map { ($0, closingDay.event(on: $0)) }
    }
    var result = [
      (
        date: shut.lowerBound,
        bytes: shutEvent(branch, title: title, days: shut, closesForGoodOn: shutDays.closesForGoodOn, asOf: asOf)
      )
    ]
    for date in dates where !shut.contains(date) {
      result.append((date, closingDay.event(on: date)))
    }
    return result.sorted { $0.date < $1.date }
  }

  /// The tentative event of a day the branch is expected to close (`closing.expected`): its
  /// source published no days, so the day comes from its district's other stores and is marked
  /// `STATUS:TENTATIVE`, said to be expected in its summary, and given a UID of its own
  /// (`<branch id>-<YYYYMMDD>-expected@mart-holiday`), so a confirmed day never replaces it
  /// silently.
  static func expectedEvent(_ branch: Branch, title: String, on date: CalendarDate, asOf: CalendarDate) -> [UInt8] {
    let district = branch.closing.expected?.district ?? ""
    var lines = ContentLines()
    lines.line("BEGIN:VEVENT")
    lines.append("UID:\(branch.id)-")
    lines.append(basic: date)
    lines.append("-expected@mart-holiday")
    lines.endLine()
    lines.line("DTSTAMP:\(timestamp(asOf: asOf))")
    lines.line("DTSTART;VALUE=DATE:", date)
    lines.line("DTEND;VALUE=DATE:", date.adding(days: 1))
    lines.line("SUMMARY:\(escape("\(title) 휴무 예상 (미확인)"))")
    if let address = branch.address.road ?? branch.address.published {
      lines.line("LOCATION:\(escape(address))")
    }
    if let coordinate = branch.coordinate {
      lines.line("GEO:\(coordinate.latitude);\(coordinate.longitude)")
    }
    lines.line(
      "DESCRIPTION:\(escape("매장이 휴무일을 공개하지 않았습니다. \(district)의 다른 매장들이 지키는 의무휴업일로 본 예상일이며 확정된 휴무일이 아닙니다. 방문 전에 매장에 확인하세요."))"
    )
    lines.line("STATUS:TENTATIVE")
    lines.line("TRANSP:TRANSPARENT")
    lines.line("END:VEVENT")
    return lines.bytes
  }

  /// One all-day event over a shut store's shut days; for a store that closes for good on an
  /// announced day among them (`closesForGoodOn`, ``ShutDays/closesForGoodOn``), one event on
  /// that day alone. A day announced before them (a branch carried over past it) has passed: the
  /// event spans the shut days, as a closed store's does.
  static func shutEvent(
    _ branch: Branch, title: String, days: ClosedRange<CalendarDate>, closesForGoodOn: CalendarDate?,
    asOf: CalendarDate
  ) -> [UInt8] {
    let what = branch.storeStatus.state == .temporarilyClosed ? "임시휴업" : "영업종료"
    let last = closesForGoodOn.flatMap { days.contains($0) ? $0 : nil } ?? days.upperBound
    var lines = ContentLines()
    lines.line("BEGIN:VEVENT")
    lines.line("UID:\(branch.id)-shut@mart-holiday")
    lines.line("DTSTAMP:\(timestamp(asOf: asOf))")
    lines.line("DTSTART;VALUE=DATE:", days.lowerBound)
    lines.line("DTEND;VALUE=DATE:", last.adding(days: 1))
    lines.line("SUMMARY:\(escape("\(title) \(what)"))")
    if let address = branch.address.road ?? branch.address.published {
      lines.line("LOCATION:\(escape(address))")
    }
    if let coordinate = branch.coordinate {
      lines.line("GEO:\(coordinate.latitude);\(coordinate.longitude)")
    }
    if let text = branch.storeStatus.text {
      lines.line("DESCRIPTION:\(escape(text))")
    }
    lines.line("TRANSP:TRANSPARENT")
    lines.line("END:VEVENT")
    return lines.bytes
  }

  /// The calendar of one brand (Korean name `brandName`): every branch's closing days, ordered
  /// by date, then branch id. `staleSince` as for ``branchCalendar(_:brandName:asOf:staleSince:)``.
  public static func brandCalendar(
    brandName: String, branches: [Branch], asOf: CalendarDate, staleSince: CalendarDate? = nil
  ) -> Data {
    brandCalendar(
      brandName: brandName, events: branches.map { ($0.id, events(of: $0, brandName: brandName, asOf: asOf)) },
      staleSince: staleSince, asOf: asOf)
  }

  /// The calendar of one brand from its branches' `events(of:brandName:asOf:)`.
  static func brandCalendar(
    brandName: String, events: [(id: BranchID, events: [Event])], staleSince: CalendarDate? = nil,
    asOf: CalendarDate
  ) -> Data {
    var lines = ContentLines()
    header(
      name: "\(brandName) 휴무일",
      description: withStaleNotice("\(brandName) 전 지점의 휴무일", staleSince: staleSince, asOf: asOf), into: &lines)
    let items = events.flatMap { branch in
      branch.events.map { (date: $0.date, id: branch.id, bytes: $0.bytes) }
    }
    .sorted { ($0.date, $0.id) < ($1.date, $1.id) }
    for item in items { lines.append(folded: item.bytes) }
    lines.line("END:VCALENDAR")
    return Data(lines.bytes)
  }

  /// A brand's calendar made as its branches come, in id order: each event goes to the list of
  /// its day, so the calendar is every day's events in branch-id order, as
  /// ``brandCalendar(brandName:events:)`` orders them. The events' bytes are copied once, into
  /// the calendar, not into growing buckets first.
  struct BrandCalendarBuilder {
    private var days: [CalendarDate: [[UInt8]]] = [:]
    private var byteCount = 0

    /// Adds a branch's events; branches must come in id order.
    mutating func add(_ events: [Event]) {
      for event in events {
        days[event.date, default: []].append(event.bytes)
        byteCount += event.bytes.count
      }
    }

    /// The calendar of brand `brandName`, stale since `staleSince` when it is stale.
    func calendar(brandName: String, staleSince: CalendarDate?, asOf: CalendarDate) -> Data {
      var lines = ContentLines(capacity: 1024 + byteCount)
      let description = ICalendar.withStaleNotice("\(brandName) 전 지점의 휴무일", staleSince: staleSince, asOf: asOf)
      ICalendar.header(name: "\(brandName) 휴무일", description: description, into: &lines)
      for day in days.keys.sorted() {
        for event in days[day]! { lines.append(folded: event) }
      }
      lines.line("END:VCALENDAR")
      return Data(lines.bytes)
    }
  }

  /// The stable UID of a branch's closing day.
  public static func uid(_ id: BranchID, _ date: CalendarDate) -> String {
    "\(id)-\(basic(date))@mart-holiday"
  }

  /// DTSTAMP for a bundle of as-of date `asOf`: 00:00 in Korea (UTC+9, so 15:00 UTC the day
  /// before) of the first day of its month, the first day of the bundle's window. Never later
  /// than the run that writes it, and the same for every run of the month, so a calendar whose
  /// events did not change keeps its bytes from one day to the next (and is a hard link of the
  /// previous bundle's); it moves when the window does, when the calendars change anyway.
  public static func timestamp(asOf: CalendarDate) -> String {
    "\(basic(asOf.firstOfMonth().adding(days: -1)))T150000Z"
  }

  /// The calendar's opening lines, named `name` and described by `description`.
  static func header(name: String, description: String, into lines: inout ContentLines) {
    lines.append(folded: headerStart)
    lines.line("X-WR-CALNAME:\(escape(name))")
    lines.line("X-WR-CALDESC:\(escape(description))")
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

  /// `description`, and for a brand stale since `staleSince` a warning first that its days are
  /// those known on that date: its site could not be read since, so later changes are missing.
  static func withStaleNotice(_ description: String, staleSince: CalendarDate?, asOf: CalendarDate) -> String {
    guard let staleSince else { return description }
    let days = asOf.dayNumber - staleSince.dayNumber
    return "주의: \(staleSince.iso) 이후 매장 사이트를 읽지 못해 \(asOf.iso) 현재 \(days)일째 갱신되지 않은 정보입니다."
      + " 그 뒤에 바뀐 휴무일은 반영되지 않았으니 방문 전에 매장에 확인하세요. \(description)"
  }

  static func description(of branch: Branch) -> String {
    switch branch.storeStatus.state {
    case .closed: return "영업종료" + (branch.storeStatus.text.map { ": \($0)" } ?? "")
    case .temporarilyClosed:
      let until = branch.storeStatus.until.map { " (\($0.iso)까지)" } ?? ""
      return "임시휴업\(until)" + (branch.storeStatus.text.map { ": \($0)" } ?? "")
    case .trading:
      if let closesOn = branch.storeStatus.closesOn {
        return "\(closesOn.iso) 영업종료 예정" + (branch.storeStatus.text.map { ": \($0)" } ?? "")
      }
    }
    return switch branch.closing.status {
    case .closures:
      "휴무 안내: \(branch.closing.schedule.text ?? "매장이 공개한 휴무일")"
        + branch.closing.unknownRanges.map { " (\($0.from.iso)~\($0.through.iso) 휴무일 미확인)" }.joined()
    case .openAllYear: "연중무휴"
    case .unknown: "휴무일을 확인하지 못했습니다. 방문 전에 매장에 확인하세요."
    }
  }

  /// How events name a branch: its banner, or else its brand's name, then its own name
  /// (`홈플러스 스페셜 광주하남점`, `이마트 창원점`).
  static func title(_ branch: Branch, brandName: String) -> String { "\(branch.banner ?? brandName) \(branch.name)" }

  static func event(_ branch: Branch, title: String, on date: CalendarDate, asOf: CalendarDate) -> [UInt8] {
    ClosingDayLines(branch, title: title, asOf: asOf).event(on: date)
  }

  /// The lines every closing-day event of one branch shares, made (and folded) once for all
  /// its days.
  struct ClosingDayLines {
    /// `UID:<branch id>-`, the start of each event's UID line.
    let uidStart: String
    /// The DTSTAMP line, folded.
    let stamp: [UInt8]
    /// The lines after DTEND, folded.
    let after: [UInt8]

    init(_ branch: Branch, title: String, asOf: CalendarDate) {
      uidStart = "UID:\(branch.id)-"
      stamp = ContentLines.folded(["DTSTAMP:\(ICalendar.timestamp(asOf: asOf))"])
      var after = ["SUMMARY:\(ICalendar.escape("\(title) 휴무"))"]
      if let address = branch.address.road ?? branch.address.published {
        after.append("LOCATION:\(ICalendar.escape(address))")
      }
      if let coordinate = branch.coordinate {
        after.append("GEO:\(coordinate.latitude);\(coordinate.longitude)")
      }
      if let text = branch.closing.schedule.text, !text.isEmpty {
        after.append("DESCRIPTION:\(ICalendar.escape(text))")
      }
      after += ["TRANSP:TRANSPARENT", "END:VEVENT"]
      self.after = ContentLines.folded(after)
    }

    /// The event of the closing day `date` (its UID ``ICalendar/uid(_:_:)``).
    func event(on date: CalendarDate) -> [UInt8] {
      var lines = ContentLines(capacity: 128 + stamp.count + after.count)
      lines.append(folded: Self.begin)
      lines.append(uidStart)
      lines.append(basic: date)
      lines.append("@mart-holiday")
      lines.endLine()
      lines.append(folded: stamp)
      lines.line("DTSTART;VALUE=DATE:", date)
      lines.line("DTEND;VALUE=DATE:", date.adding(days: 1))
      lines.append(folded: after)
      return lines.bytes
    }

    private static let begin = ContentLines.folded(["BEGIN:VEVENT"])
  }

  /// `YYYYMMDD`.
  static func basic(_ date: CalendarDate) -> String {
    let digits = String(date.year * 10_000 + date.month * 100 + date.day)
    return digits.count >= 8 ? digits : String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// TEXT value escaping (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks.
  public static func escape(_ text: String) -> String {
    // Most text has none of these: it is returned as it is. (Read from the contiguous bytes:
    // the view's own `contains` steps through indices, twice as slow.)
    func needsEscaping(_ byte: UInt8) -> Bool {
      byte < 0x20 || byte == 0x7F || byte == 0x5C || byte == 0x3B || byte == 0x2C
    }
    guard
      text.utf8.withContiguousStorageIfAvailable({ $0.contains(where: needsEscaping) })
        ?? text.utf8.contains(where: needsEscaping)
    else { return text }
    // By bytes: every character escaped or replaced is ASCII, one byte that no byte of another
    // character can be taken for.
    var result: [UInt8] = []
    result.reserveCapacity(text.utf8.count + 8)
    for byte in text.utf8 {
      switch byte {
      case 0x5C, 0x3B, 0x2C:
        result.append(0x5C)
        result.append(byte)
      case 0x0A:
        result.append(0x5C)
        result.append(0x6E)
      case 0x0D: continue
      // Other control characters are not allowed in TEXT.
      case ..<0x20, 0x7F: result.append(0x20)
      default: result.append(byte)
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// Folds a content line into lines of at most 75 octets (RFC 5545 §3.1), never inside a
  /// UTF-8 sequence; continuation lines start with one space.
  public static func fold(_ line: String) -> [UInt8] {
    var output: [UInt8] = []
    fold(line, into: &output)
    return output
  }

  /// ``fold(_:)`` appending to `output`.
  static func fold(_ line: String, into output: inout [UInt8]) {
    var line = line
    line.withUTF8 { fold($0, into: &output) }
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

/// Content lines being written as bytes: each line is made in place, then folded
/// (``ICalendar/fold(_:)``) and ended with CRLF when it is finished, so no line is held as a
/// string of its own.
struct ContentLines {
  /// The finished lines.
  private(set) var bytes: [UInt8] = []
  /// The line being made, not yet folded.
  private var line: [UInt8] = []

  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// `lines` folded and ended, for lines written the same way many times.
  static func folded(_ lines: [String]) -> [UInt8] {
    var output: [UInt8] = []
    for line in lines { ICalendar.fold(line, into: &output) }
    return output
  }

  /// Adds `text` to the line being made.
  mutating func append(_ text: String) {
    line.append(contentsOf: text.utf8)
  }

  /// Adds `date` to the line being made, as `YYYYMMDD` (``ICalendar/basic(_:)``: a year has
  /// four digits).
  mutating func append(basic date: CalendarDate) {
    append(digits: date.year, divisor: 1000)
    append(digits: date.month, divisor: 10)
    append(digits: date.day, divisor: 10)
  }

  /// Adds `value`'s decimal digits from the place of `divisor` down, zero-padded.
  private mutating func append(digits value: Int, divisor: Int) {
    var divisor = divisor
    while divisor > 0 {
      line.append(UInt8(0x30 + value / divisor % 10))
      divisor /= 10
    }
  }

  /// Finishes the line being made: folded into ``bytes``.
  mutating func endLine() {
    line.withUnsafeBufferPointer { ICalendar.fold($0, into: &bytes) }
    line.removeAll(keepingCapacity: true)
  }

  /// Adds the whole line `text`.
  mutating func line(_ text: String) {
    append(text)
    endLine()
  }

  /// Adds the whole line `name` followed by `date` as `YYYYMMDD`.
  mutating func line(_ name: String, _ date: CalendarDate) {
    append(name)
    append(basic: date)
    endLine()
  }

  /// Adds lines already folded and ended.
  mutating func append(folded lines: [UInt8]) {
    bytes.append(contentsOf: lines)
  }
}
