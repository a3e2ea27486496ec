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
    let (year, month, day) = (date.year, date.month, date.day)
    let digits = (
      Self.digit(year / 1000), Self.digit(year / 100), Self.digit(year / 10), Self.digit(year),
      Self.digit(month / 10), Self.digit(month), Self.digit(day / 10), Self.digit(day)
    )
    withUnsafeBytes(of: digits) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
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

  /// Adds the whole line `name` followed by `date` as `YYYYMMDD`.
  mutating func line(_ name: StaticString, _ date: CalendarDate) {
    append(name)
    append(basic: date)
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
    /// Each event's first day and its bytes' place in ``bytes``.
    private var events: [(date: CalendarDate, range: Range<Int>)] = []

    /// Adds a branch's events, those `calendar` lists; branches must come in id order.
    mutating func add(_ calendar: CalendarText) {
      calendar.lines.bytes.withUnsafeBufferPointer { source in
        for event in calendar.events {
          let start = bytes.count
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[event.range]))
          events.append((event.date, start..<bytes.count))
        }
      }
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
      let order = events.sorted { ($0.date, $0.range.lowerBound) < ($1.date, $1.range.lowerBound) }
      bytes.withUnsafeBufferPointer { source in
        for event in order { lines.append(folded: UnsafeBufferPointer(rebasing: source[event.range])) }
      }
      lines.line("END:VCALENDAR")
      return Data(lines.bytes)
    }
  }
}
