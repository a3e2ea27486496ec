import Foundation
import MartCore

/// Content lines being written as bytes into one buffer: each line is written in place, then
/// folded (``ICalendar/fold(_:)``) and ended with CRLF when it is finished, so no line is held
/// as a string of its own.
struct ContentLines {
  /// The finished lines, then the line being made.
  private(set) var bytes: [UInt8] = []
  /// Where the line being made starts in ``bytes``.
  private var lineStart = 0

  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  /// Empties the buffer, keeping its room.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
    lineStart = 0
  }

  /// `lines` folded and ended, for lines written the same way many times.
  static func folded(_ lines: [String]) -> [UInt8] {
    var output = ContentLines()
    for line in lines { output.line(text: line) }
    return output.bytes
  }

  /// Adds `text` to the line being made, as it is.
  mutating func append(text: String) {
    text.withContiguousUTF8 { bytes.append(contentsOf: $0) }
  }

  /// Adds the literal `text` to the line being made, as it is (its bytes read in place).
  mutating func append(_ text: StaticString) {
    bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Adds `text` to the line being made as a TEXT value (RFC 5545 §3.3.11): backslash,
  /// semicolon and comma escaped with a backslash, a line feed as `\n`, a carriage return left
  /// out and other control characters made spaces. Byte by byte (every character escaped or
  /// replaced is ASCII, one byte that no byte of another character can be taken for), so text
  /// escaped in parts is the whole escaped.
  mutating func append(escaping text: String) {
    text.withContiguousUTF8 { append(escaping: $0) }
  }

  /// ``append(escaping:)`` of a string's UTF-8 bytes. Runs of bytes that need no escape are
  /// copied whole, and looked through eight at a time (``needsEscape(_:)``).
  private mutating func append(escaping utf8: UnsafeBufferPointer<UInt8>) {
    let count = utf8.count
    var start = 0
    var index = 0
    while index < count {
      if index + 8 <= count, !Self.needsEscape(ByteWords.word(of: utf8, at: index)) {
        index += 8
        continue
      }
      let byte = utf8[index]
      index += 1
      guard byte < 0x20 || byte == 0x7F || byte == 0x5C || byte == 0x3B || byte == 0x2C else { continue }
      let escapedIndex = index - 1
      if start < escapedIndex {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<escapedIndex]))
      }
      start = index
      switch byte {
      case 0x5C, 0x3B, 0x2C:
        bytes.append(0x5C)
        bytes.append(byte)
      case 0x0A:
        bytes.append(0x5C)
        bytes.append(0x6E)
      case 0x0D: continue
      // Other control characters are not allowed in TEXT.
      default: bytes.append(0x20)
      }
    }
    if start < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
  }

  /// Whether any of the eight bytes of `word` is one a TEXT value escapes or leaves out:
  /// below 0x20, 0x7F, `\`, `;` or `,`.
  private static func needsEscape(_ word: UInt64) -> Bool {
    ByteWords.bytes(below: 0x20, in: word) | ByteWords.bytes(equalTo: 0x7F, in: word)
      | ByteWords.bytes(equalTo: 0x5C, in: word) | ByteWords.bytes(equalTo: 0x3B, in: word)
      | ByteWords.bytes(equalTo: 0x2C, in: word) != 0
  }

  /// Adds, escaped, how events name a branch: its banner, or else its brand's name
  /// (`brandName`), then its own name (`홈플러스 스페셜 광주하남점`, `이마트 창원점`).
  mutating func append(title branch: Branch, brandName: String) {
    append(escaping: branch.banner ?? brandName)
    bytes.append(0x20)
    append(escaping: branch.name)
  }

  /// Adds a branch id as it is, `<brand>-<store id>` (its `description`), without making that
  /// text.
  mutating func append(id: BranchID) {
    append(text: id.brand.rawValue)
    bytes.append(0x2D)
    append(text: id.storeID)
  }

  /// Adds `date` as `YYYYMMDD` (a year has four digits), its eight bytes in one append: every
  /// event writes four such dates.
  mutating func append(basic date: CalendarDate) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { digits in
      Self.write(basic: date, into: digits, at: 0)
      bytes.append(contentsOf: UnsafeBufferPointer(digits))
    }
  }

  /// Writes `date` as `YYYYMMDD` into the eight bytes of `buffer` from `offset`.
  private static func write(basic date: CalendarDate, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) {
    let (year, month, day) = (date.year, date.month, date.day)
    buffer[offset] = digit(year / 1000)
    buffer[offset + 1] = digit(year / 100)
    buffer[offset + 2] = digit(year / 10)
    buffer[offset + 3] = digit(year)
    buffer[offset + 4] = digit(month / 10)
    buffer[offset + 5] = digit(month)
    buffer[offset + 6] = digit(day / 10)
    buffer[offset + 7] = digit(day)
  }

  /// Adds an all-day event's DTSTART and DTEND lines, from `start` to `end` (the day after its
  /// last: DTEND is exclusive), put together on the stack and appended at once: neither is
  /// long enough to fold.
  mutating func dateLines(from start: CalendarDate, to end: CalendarDate) {
    let startName: StaticString = "DTSTART;VALUE=DATE:"
    let endName: StaticString = "DTEND;VALUE=DATE:"
    let count = startName.utf8CodeUnitCount + endName.utf8CodeUnitCount + 2 * (8 + 2)
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { text in
      let startEnd = Self.write(line: startName, start, into: text, at: 0)
      _ = Self.write(line: endName, end, into: text, at: startEnd)
      bytes.append(contentsOf: UnsafeBufferPointer(text))
    }
    lineStart = bytes.count
  }

  /// Writes the line `name` followed by `date` as `YYYYMMDD`, ended, into `buffer` from
  /// `offset`; returns where it ends.
  private static func write(
    line name: StaticString, _ date: CalendarDate, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int
  ) -> Int {
    _ = UnsafeMutableBufferPointer(rebasing: buffer[offset...]).initialize(
      from: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    let dateStart = offset + name.utf8CodeUnitCount
    write(basic: date, into: buffer, at: dateStart)
    buffer[dateStart + 8] = 0x0D
    buffer[dateStart + 9] = 0x0A
    return dateStart + 10
  }

  /// The last decimal digit of `value` (not negative), as ASCII.
  private static func digit(_ value: Int) -> UInt8 { 0x30 + UInt8(truncatingIfNeeded: value % 10) }

  /// Adds `date` as `YYYY-MM-DD`, its `iso` (a year has four digits).
  mutating func append(iso date: CalendarDate) {
    append(fourDigits: date.year)
    bytes.append(0x2D)
    append(twoDigits: date.month)
    bytes.append(0x2D)
    append(twoDigits: date.day)
  }

  /// Adds the last four decimal digits of `value` (not negative), zero-padded.
  private mutating func append(fourDigits value: Int) {
    append(twoDigits: value / 100)
    append(twoDigits: value)
  }

  /// Adds the last two decimal digits of `value` (not negative), zero-padded. The divisors are
  /// constants, which the compiler turns into multiplications.
  private mutating func append(twoDigits value: Int) {
    bytes.append(0x30 + UInt8(truncatingIfNeeded: value / 10 % 10))
    bytes.append(0x30 + UInt8(truncatingIfNeeded: value % 10))
  }

  /// Finishes the line being made: folded in place when it is longer than 75 octets, and
  /// ended with CRLF.
  mutating func endLine() {
    if bytes.count - lineStart > 75 {
      let line = Array(bytes[lineStart...])
      bytes.removeSubrange(lineStart...)
      line.withUnsafeBufferPointer { ICalendar.fold($0, into: &bytes) }
    } else {
      bytes.append(0x0D)
      bytes.append(0x0A)
    }
    lineStart = bytes.count
  }

  /// Adds the whole line `text`.
  mutating func line(text: String) {
    append(text: text)
    endLine()
  }

  /// Adds the whole line `text`, a literal.
  mutating func line(_ text: StaticString) {
    append(text)
    endLine()
  }

  /// Adds the DTSTAMP line: 15:00 UTC of `day` (``ICalendar/stampDay(asOf:)``).
  mutating func stampLine(_ day: CalendarDate) {
    append("DTSTAMP:")
    append(basic: day)
    append("T150000Z")
    endLine()
  }

  /// Adds an event's opening lines (``ICalendar/EventOpening``): its UID line is the line being
  /// made.
  mutating func append(opening: ICalendar.EventOpening) {
    let start = bytes.count
    bytes.append(contentsOf: opening.bytes)
    lineStart = start + opening.uidLineStart
  }

  /// Adds lines already folded and ended.
  mutating func append(folded lines: [UInt8]) {
    lines.withUnsafeBufferPointer { append(folded: $0) }
  }

  /// Adds lines already folded and ended.
  mutating func append(folded lines: UnsafeBufferPointer<UInt8>) {
    bytes.append(contentsOf: lines)
    lineStart = bytes.count
  }
}

extension ICalendar {
  /// A calendar being written, and where each of its events lies in it.
  struct CalendarText {
    var lines = ContentLines(capacity: 4096)
    /// Each event's first day and its bytes' place in `lines.bytes`, in the order written.
    private(set) var events: [(date: CalendarDate, range: Range<Int>)] = []
    /// The DTSTAMP line last asked for and its day (``stampLine(_:)``).
    private var stamp: (day: CalendarDate, line: [UInt8])?

    /// The DTSTAMP line of the day `day` (``ContentLines/stampLine(_:)``), ended: made once for
    /// every calendar written here with the same day (those of one bundle).
    mutating func stampLine(_ day: CalendarDate) -> [UInt8] {
      if let stamp, stamp.day == day { return stamp.line }
      var line = ContentLines(capacity: 32)
      line.stampLine(day)
      stamp = (day, line.bytes)
      return line.bytes
    }

    /// Empties the calendar, keeping its room.
    mutating func removeAll() {
      lines.removeAll()
      events.removeAll(keepingCapacity: true)
    }

    /// Writes an event whose first day is `date` with `write`, and lists it.
    mutating func event(on date: CalendarDate, _ write: (inout ContentLines) -> Void) {
      let start = lines.bytes.count
      write(&lines)
      events.append((date, start..<lines.bytes.count))
    }
  }

  /// A brand's calendar made as its branches come, in id order: each event's bytes are copied
  /// once into one buffer as they come, and the calendar lists them by day, each day's in the
  /// order they came (branch-id order).
  struct BrandCalendarBuilder {
    /// The events' bytes, as they came.
    private var bytes: [UInt8] = []
    /// Each event's place in the calendar (``orderKey(_:start:)``) and its bytes' place in
    /// ``bytes``.
    private var events: [(key: Int, range: Range<Int>)] = []

    /// Adds a branch's events, those `calendar` lists; branches must come in id order.
    mutating func add(_ calendar: CalendarText) {
      calendar.lines.bytes.withUnsafeBufferPointer { source in
        for event in calendar.events {
          let start = bytes.count
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[event.range]))
          events.append((Self.orderKey(event.date, start: start), start..<bytes.count))
        }
      }
    }

    /// One integer that orders events by their first day, then by where their bytes start in
    /// ``bytes`` (below 2³²): compared at once where a date and an offset would be compared in
    /// turn.
    private static func orderKey(_ date: CalendarDate, start: Int) -> Int {
      (date.year << 9 | date.month << 5 | date.day) << 32 | start
    }

    /// The calendar of brand `brandName`, stale since `staleSince` when it is stale.
    func calendar(brandName: String, staleSince: CalendarDate?, asOf: CalendarDate) -> Data {
      var lines = ContentLines(capacity: 1024 + bytes.count)
      ICalendar.header(
        into: &lines, name: { $0.append(escaping: brandName) },
        description: {
          ICalendar.appendStaleNotice(staleSince: staleSince, asOf: asOf, to: &$0)
          $0.append(escaping: brandName)
          $0.append(escaping: " 전 지점의 휴무일")
        })
      // By day; within a day by place in `bytes`, the order the events came.
      let order = events.sorted { $0.key < $1.key }
      bytes.withUnsafeBufferPointer { source in
        for event in order { lines.append(folded: UnsafeBufferPointer(rebasing: source[event.range])) }
      }
      lines.line("END:VCALENDAR")
      return Data(lines.bytes)
    }
  }
}
