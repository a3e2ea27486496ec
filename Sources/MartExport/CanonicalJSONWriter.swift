import Foundation
import MartCore

/// Writes canonical JSON (see ``CanonicalJSON``) straight from the bundle's model types into a
/// byte buffer, without building a tree of values: the same bytes ``CanonicalJSON/encode(_:)``
/// produces, at a fraction of the cost. Keys are written in the order of their UTF-8 bytes,
/// fixed by hand for each type; the tests compare both encoders over every type a bundle holds.
struct CanonicalJSONWriter {
  /// The bytes written so far.
  var bytes: [UInt8] = []

  init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

  // MARK: Scalars

  mutating func null() { bytes.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C]) }

  mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func string(_ text: String) {
    bytes.append(0x22)
    escaped(text)
    bytes.append(0x22)
  }

  /// A branch id as a string, `<brand>-<store id>` (its `description`), written without making
  /// that text: the slug and the dash need no escape, and escaping goes byte by byte, so the
  /// store id escaped alone is the rest of the whole escaped. A store id with nothing to escape
  /// (nearly every one) is put together with the quotes, the slug and the dash on the stack and
  /// appended at once: `closures.json` alone writes some 180,000 ids.
  mutating func id(_ id: BranchID) {
    id.brand.rawValue.withContiguousUTF8 { slug in
      id.storeID.withContiguousUTF8 { storeID in
        guard !Self.needsEscape(storeID) else {
          bytes.append(0x22)
          bytes.append(contentsOf: slug)
          bytes.append(0x2D)
          Self.appendEscaped(storeID, to: &bytes)
          bytes.append(0x22)
          return
        }
        let count = slug.count + storeID.count + 3
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { text in
          text[0] = 0x22
          _ = UnsafeMutableBufferPointer(rebasing: text[1...]).initialize(from: slug)
          text[slug.count + 1] = 0x2D
          _ = UnsafeMutableBufferPointer(rebasing: text[(slug.count + 2)...]).initialize(from: storeID)
          text[count - 1] = 0x22
          bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
      }
    }
  }

  /// A brand slug's text, without the quotes: lower-case ASCII letters and hyphens
  /// (``BrandSlug``), none of which JSON escapes.
  private mutating func slug(_ brand: BrandSlug) {
    brand.rawValue.withContiguousUTF8 { bytes.append(contentsOf: $0) }
  }

  /// A brand slug as a string.
  mutating func string(_ brand: BrandSlug) {
    bytes.append(0x22)
    slug(brand)
    bytes.append(0x22)
  }

  /// `text`'s UTF-8 bytes with JSON's escapes, without the quotes.
  private mutating func escaped(_ text: String) {
    text.withContiguousUTF8 { Self.appendEscaped($0, to: &bytes) }
  }

  /// Appends a string's UTF-8 bytes to `bytes` with JSON's escapes, without the quotes; the
  /// escapes of every canonical JSON writer (``JSONNodeBuilder`` too). Runs of bytes that need
  /// no escape are copied whole, and looked through eight at a time (``needsEscape(_:)``).
  static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
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
      guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
      let escapedIndex = index - 1
      if start < escapedIndex {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<escapedIndex]))
      }
      start = index
      switch byte {
      case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
      case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
      case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
      case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
      case 0x08: bytes.append(contentsOf: [0x5C, 0x62])
      case 0x0C: bytes.append(contentsOf: [0x5C, 0x66])
      default:
        let hex: StaticString = "0123456789abcdef"
        let digits = hex.utf8Start
        bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
      }
    }
    if start < count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...])) }
  }

  /// Whether `utf8` holds a byte JSON escapes (below 0x20, `"` or `\`), looked for eight
  /// bytes at a time.
  private static func needsEscape(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index + 8 <= utf8.count {
      if needsEscape(ByteWords.word(of: utf8, at: index)) { return true }
      index += 8
    }
    while index < utf8.count {
      let byte = utf8[index]
      if byte < 0x20 || byte == 0x22 || byte == 0x5C { return true }
      index += 1
    }
    return false
  }

  /// Whether any of the eight bytes of `word` is one JSON escapes: below 0x20, `"` or `\`.
  private static func needsEscape(_ word: UInt64) -> Bool {
    ByteWords.bytes(below: 0x20, in: word) | ByteWords.bytes(equalTo: 0x22, in: word)
      | ByteWords.bytes(equalTo: 0x5C, in: word) != 0
  }

  mutating func string(_ text: String?) {
    if let text { string(text) } else { null() }
  }

  mutating func int(_ value: Int) {
    if value >= 0 && value < 10 {
      bytes.append(0x30 + UInt8(value))
      return
    }
    // Its digits from the last, on the stack (no string made per number), then appended at once.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { text in
      var rest = value.magnitude
      var start = text.count
      repeat {
        start -= 1
        text[start] = 0x30 + UInt8(rest % 10)
        rest /= 10
      } while rest > 0
      if value < 0 {
        start -= 1
        text[start] = 0x2D
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
    }
  }

  /// Integral values without a fraction, others in Swift's shortest round-trip form, as
  /// `CanonicalJSON` writes them.
  mutating func double(_ value: Double) throws {
    try bytes.append(contentsOf: JSONNodeBuilder.format(value, codingPath: []).utf8)
  }

  mutating func double(_ value: Double?) throws {
    if let value { try double(value) } else { null() }
  }

  /// A date as its `YYYY-MM-DD` string.
  mutating func date(_ date: CalendarDate) {
    var year = date.year
    var digits: (UInt8, UInt8, UInt8, UInt8) = (0x30, 0x30, 0x30, 0x30)
    guard (0...9999).contains(year) else {
      string(date.iso)
      return
    }
    digits.3 = 0x30 + UInt8(year % 10)
    year /= 10
    digits.2 = 0x30 + UInt8(year % 10)
    year /= 10
    digits.1 = 0x30 + UInt8(year % 10)
    year /= 10
    digits.0 = 0x30 + UInt8(year % 10)
    // Twelve bytes in one append, from the stack (an array literal would be allocated).
    let text: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
      0x22, digits.0, digits.1, digits.2, digits.3, 0x2D,
      0x30 + UInt8(date.month / 10), 0x30 + UInt8(date.month % 10), 0x2D,
      0x30 + UInt8(date.day / 10), 0x30 + UInt8(date.day % 10), 0x22
    )
    withUnsafeBytes(of: text) { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
  }

  mutating func date(_ date: CalendarDate?) {
    if let date { self.date(date) } else { null() }
  }

  mutating func window(_ window: DateWindow) {
    raw(#"{"from":"#)
    date(window.from)
    raw(#","through":"#)
    date(window.through)
    bytes.append(0x7D)
  }

  mutating func windows(_ windows: [DateWindow]) {
    array(windows) { $0.window($1) }
  }

  mutating func dates(_ dates: [CalendarDate]) {
    array(dates) { $0.date($1) }
  }

  mutating func ints(_ values: [Int]) {
    array(values) { $0.int($1) }
  }

  mutating func strings(_ values: [String]) {
    array(values) { $0.string($1) }
  }

  mutating func array<Element>(_ elements: [Element], _ write: (inout Self, Element) throws -> Void) rethrows {
    bytes.append(0x5B)
    var first = true
    for element in elements {
      if !first { bytes.append(0x2C) }
      first = false
      try write(&self, element)
    }
    bytes.append(0x5D)
  }

  /// An object of string keys, in the order of their UTF-8 bytes.
  mutating func object<Value>(_ members: [String: Value], _ write: (inout Self, Value) throws -> Void) rethrows {
    bytes.append(0x7B)
    var first = true
    for key in members.keys.sorted(by: { $0.precedesInUTF8($1) }) {
      if !first { bytes.append(0x2C) }
      first = false
      string(key)
      bytes.append(0x3A)
      try write(&self, members[key]!)
    }
    bytes.append(0x7D)
  }

  /// Any other value, through the general encoder.
  mutating func encodable(_ value: some Encodable) throws {
    bytes.append(contentsOf: try CanonicalJSON.encode(value))
  }

  // MARK: Model types

  /// One branch, exactly as `CanonicalJSON.encode(branch)` writes it.
  mutating func branch(_ branch: Branch) throws {
    raw(#"{"address":"#)
    address(branch.address)
    raw(#","banner":"#)
    string(branch.banner)
    raw(#","brand":"#)
    string(branch.brand)
    raw(#","closing":"#)
    closing(branch.closing)
    raw(#","coordinate":"#)
    if let coordinate = branch.coordinate {
      raw(#"{"latitude":"#)
      try double(coordinate.latitude)
      raw(#","longitude":"#)
      try double(coordinate.longitude)
      raw(#","precision":"#)
      string(coordinate.precision.rawValue)
      raw(#","source":"#)
      string(coordinate.source.rawValue)
      bytes.append(0x7D)
    } else {
      null()
    }
    if !branch.formerIDs.isEmpty {
      raw(#","formerIds":["#)
      for (index, former) in branch.formerIDs.enumerated() {
        if index > 0 { bytes.append(0x2C) }
        id(former)
      }
      bytes.append(0x5D)
    }
    raw(#","hours":"#)
    if let hours = branch.hours {
      raw(#"{"close":"#)
      string(hours.close)
      raw(#","open":"#)
      string(hours.open)
      bytes.append(0x7D)
    } else {
      null()
    }
    raw(#","id":"#)
    id(branch.id)
    if let missing = branch.missingFromSource {
      raw(#","missingFromSource":{"runs":"#)
      int(missing.runs)
      raw(#","since":"#)
      date(missing.since)
      bytes.append(0x7D)
    }
    raw(#","name":"#)
    string(branch.name)
    raw(#","namePublished":"#)
    string(branch.namePublished)
    raw(#","openingHours":"#)
    string(branch.openingHours)
    raw(#","pageURL":"#)
    string(branch.pageURL)
    raw(#","phone":"#)
    string(branch.phone)
    raw(#","phonePublished":"#)
    string(branch.phonePublished)
    if let registerID = branch.registerID {
      raw(#","registerId":"#)
      string(registerID)
    }
    if let source = branch.source {
      raw(#","source":"#)
      string(source.rawValue)
    }
    raw(#","sourceURL":"#)
    string(branch.sourceURL)
    if let storeClass = branch.storeClass {
      raw(#","storeClass":"#)
      string(storeClass.rawValue)
    }
    raw(#","storeStatus":"#)
    storeStatus(branch.storeStatus)
    bytes.append(0x7D)
  }

  mutating func address(_ address: BranchAddress) {
    raw(#"{"jibun":"#)
    string(address.jibun)
    raw(#","lotPublished":"#)
    string(address.lotPublished)
    raw(#","published":"#)
    string(address.published)
    raw(#","road":"#)
    string(address.road)
    raw(#","sido":"#)
    string(address.sido)
    raw(#","sigungu":"#)
    string(address.sigungu)
    bytes.append(0x7D)
  }

  mutating func storeStatus(_ status: StoreStatus) {
    raw(#"{"closesOn":"#)
    date(status.closesOn)
    raw(#","state":"#)
    string(status.state.rawValue)
    raw(#","text":"#)
    string(status.text)
    raw(#","until":"#)
    date(status.until)
    bytes.append(0x7D)
  }

  mutating func closing(_ closing: BranchClosing) {
    raw(#"{"dates":"#)
    dates(closing.dates)
    raw(#","expected":"#)
    if let expected = closing.expected {
      raw(#"{"basis":"#)
      string(expected.basis)
      raw(#","dates":"#)
      dates(expected.dates)
      raw(#","district":"#)
      string(expected.district)
      if let storeClass = expected.storeClass {
        raw(#","storeClass":"#)
        string(storeClass.rawValue)
      }
      bytes.append(0x7D)
    } else {
      null()
    }
    raw(#","knownThrough":"#)
    date(closing.knownThrough)
    raw(#","schedule":"#)
    schedule(closing.schedule)
    raw(#","status":"#)
    string(closing.status.rawValue)
    raw(#","unknownRanges":"#)
    windows(closing.unknownRanges)
    bytes.append(0x7D)
  }

  mutating func schedule(_ schedule: ClosingSchedule) {
    raw(#"{"coverage":"#)
    if let coverage = schedule.coverage { windows(coverage) } else { null() }
    raw(#","dates":"#)
    dates(schedule.dates)
    raw(#","exceptions":"#)
    dates(schedule.exceptions)
    raw(#","lunar":"#)
    array(schedule.lunar) { $0.lunar($1) }
    raw(#","lunarExceptions":"#)
    array(schedule.lunarExceptions) { $0.lunar($1) }
    raw(#","rules":"#)
    array(schedule.rules) { $0.rule($1) }
    raw(#","status":"#)
    string(schedule.status.rawValue)
    raw(#","text":"#)
    string(schedule.text)
    raw(#","uncertain":"#)
    windows(schedule.uncertain)
    raw(#","warnings":"#)
    strings(schedule.warnings)
    bytes.append(0x7D)
  }

  mutating func lunar(_ lunar: LunarClosing) {
    raw(#"{"holiday":"#)
    string(lunar.holiday.rawValue)
    raw(#","offsets":"#)
    ints(lunar.offsets)
    bytes.append(0x7D)
  }

  mutating func rule(_ rule: ClosingRule) {
    switch rule {
    case .nthWeekday(let ordinals, let weekday):
      raw(#"{"kind":"nth-weekday","ordinals":"#)
      ints(ordinals)
      raw(#","weekday":"#)
      string(weekday.englishName)
    case .weekly(let weekday):
      raw(#"{"kind":"weekly","weekday":"#)
      string(weekday.englishName)
    case .dayOfMonth(let days):
      raw(#"{"days":"#)
      ints(days)
      raw(#","kind":"day-of-month""#)
    case .annual(let month, let day):
      raw(#"{"day":"#)
      int(day)
      raw(#","kind":"annual","month":"#)
      int(month)
    }
    bytes.append(0x7D)
  }

  mutating func ids(_ ids: [BranchID]) {
    array(ids) { $0.id($1) }
  }

  /// One row of `index.json`.
  mutating func indexRow(_ row: IndexFile.Row) throws {
    raw(#"{"brand":"#)
    string(row.brand)
    raw(#","id":"#)
    id(row.id)
    raw(#","latitude":"#)
    try double(row.latitude)
    raw(#","longitude":"#)
    try double(row.longitude)
    raw(#","name":"#)
    string(row.name)
    raw(#","sido":"#)
    string(row.sido)
    raw(#","sigungu":"#)
    string(row.sigungu)
    raw(#","storeStatus":{"state":"#)
    string(row.storeStatus.state.rawValue)
    raw("}}")
  }

  /// `branches.json`'s `removed` list (and a brand file's).
  mutating func removed(_ entries: [RemovedBranch]) {
    array(entries) { writer, entry in
      writer.raw(#"{"brand":"#)
      writer.string(entry.brand)
      writer.raw(#","id":"#)
      writer.id(entry.id)
      writer.raw(#","lastListed":"#)
      writer.date(entry.lastListed)
      writer.bytes.append(0x7D)
    }
  }

  /// `closures.json`, without its final newline.
  mutating func closures(_ file: ClosuresFile) {
    raw(#"{"closingForGood":"#)
    object(file.closingForGood) { $0.ids($1) }
    raw(#","dates":"#)
    object(file.dates) { $0.ids($1) }
    raw(#","expected":"#)
    object(file.expected) { $0.ids($1) }
    raw(#","schemaVersion":"#)
    int(file.schemaVersion)
    raw(#","shut":"#)
    ids(file.shut)
    raw(#","unknown":"#)
    object(file.unknown) { $0.ids($1) }
    raw(#","window":"#)
    window(file.window)
    bytes.append(0x7D)
  }

  /// A `current/branches/<id>.json` file, without its final newline; `branchJSON`, when given,
  /// is ``branch(_:)`` of its branch, already written.
  mutating func currentBranch(_ file: CurrentBranchFile, branchJSON: ArraySlice<UInt8>? = nil) throws {
    raw(#"{"branch":"#)
    if let branchJSON { bytes += branchJSON } else { try branch(file.branch) }
    raw(#","lastListedIn":"#)
    string(file.lastListedIn)
    raw(#","listed":"#)
    if file.listed { raw("true") } else { raw("false") }
    raw(#","schemaVersion":"#)
    int(file.schemaVersion)
    raw(#","window":"#)
    window(file.window)
    bytes.append(0x7D)
  }

  /// `manifest.json`, without its final newline.
  /// `manifest.json` without its final newline; returns where the version's text starts.
  @discardableResult
  mutating func manifest(_ manifest: BundleManifest) throws -> Int {
    raw(#"{"asOf":"#)
    date(manifest.asOf)
    raw(#","brands":"#)
    try encodable(manifest.brands)
    raw(#","files":"#)
    array(manifest.files) { writer, file in
      writer.raw(#"{"bytes":"#)
      writer.int(file.bytes)
      writer.raw(#","path":"#)
      writer.string(file.path)
      writer.raw(#","sha256":"#)
      writer.string(file.sha256)
      writer.bytes.append(0x7D)
    }
    raw(#","schemaVersion":"#)
    int(manifest.schemaVersion)
    raw(#","version":"#)
    let version = bytes.count + 1
    string(manifest.version)
    raw(#","window":"#)
    window(manifest.window)
    bytes.append(0x7D)
    return version
  }
}
