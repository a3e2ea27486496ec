/// Readings of published texts that many branches share, each made once per distinct input and
/// then reused: a brand's branches publish the same few closing-day texts (`매월 둘째, 넷째 일요일
/// (11/22, 12/13)`) or dates, opening hours (`10:00 ~ 22:00`) and status texts, and reading them
/// and expanding the schedules over the window is most of the work of normalizing a branch, its
/// address aside.
///
/// Each reading is a pure function of its inputs, which are its key (the as-of date included), so
/// a reused reading is the one that would have been made again. The texts read are told apart by
/// their bytes: two spellings of a text that differ in their bytes are each read on their own. Not
/// shared between threads: ``BranchNormalizer/normalize(_:reusing:)`` takes it `inout`, one per
/// batch of branches.
public struct BranchReadings {
  /// Each schedule read, by its number: its place here.
  private var readSchedules: [ClosingSchedule] = []
  private var scheduleNumbers: [ScheduleInputs: Int] = [:]
  private var statuses: [StatusInputs: StoreStatusReading] = [:]
  private var hours: [ExactText: OpeningHours?] = [:]
  private var closings: [ClosingInputs: BranchClosing] = [:]

  public init() {}

  /// ``ClosingSchedule/published(text:dates:asOf:coverage:textCoverage:)``, read once per distinct
  /// input, with the number these readings know it by (for ``closing(ofSchedule:window:storeStatus:asOf:)``).
  mutating func schedule(
    text: String?, dates: [CalendarDate], asOf: CalendarDate, coverage: DateCoverage, textCoverage: DateCoverage
  ) -> (schedule: ClosingSchedule, number: Int) {
    let key = ScheduleInputs(
      text: ExactText(text), dates: dates, asOf: asOf, coverage: coverage, textCoverage: textCoverage)
    if let number = scheduleNumbers[key] { return (readSchedules[number], number) }
    let schedule = ClosingSchedule.published(
      text: text, dates: dates, asOf: asOf, coverage: coverage, textCoverage: textCoverage)
    scheduleNumbers[key] = readSchedules.count
    readSchedules.append(schedule)
    return (schedule, readSchedules.count - 1)
  }

  /// ``BranchClosing/init(schedule:window:storeStatus:asOf:)`` of the schedule read as `number`
  /// (``schedule(text:dates:asOf:coverage:textCoverage:)``), made once per distinct input.
  mutating func closing(
    ofSchedule number: Int, window: DateWindow, storeStatus: StoreStatus, asOf: CalendarDate
  ) -> BranchClosing {
    let key = ClosingInputs(
      schedule: number, window: window, state: storeStatus.state, statusText: ExactText(storeStatus.text),
      until: storeStatus.until, closesOn: storeStatus.closesOn, asOf: asOf)
    if let known = closings[key] { return known }
    let closing = BranchClosing(
      schedule: readSchedules[number], window: window, storeStatus: storeStatus, asOf: asOf)
    closings[key] = closing
    return closing
  }

  /// ``StoreStatus/read(statusText:openingHours:closingText:asOf:)``, read once per distinct
  /// input.
  mutating func status(
    statusText: String?, openingHours: String?, closingText: String?, asOf: CalendarDate
  ) -> StoreStatusReading {
    let key = StatusInputs(
      statusText: ExactText(statusText), openingHours: ExactText(openingHours), closingText: ExactText(closingText),
      asOf: asOf)
    if let known = statuses[key] { return known }
    let reading = StoreStatus.read(
      statusText: statusText, openingHours: openingHours, closingText: closingText, asOf: asOf)
    statuses[key] = reading
    return reading
  }

  /// ``OpeningHours/parse(_:)``, read once per distinct text.
  mutating func openingHours(_ published: String?) -> OpeningHours? {
    guard published != nil else { return nil }
    let key = ExactText(published)
    if let known = hours[key] { return known }
    let parsed = OpeningHours.parse(published)
    hours[key] = parsed
    return parsed
  }

  private struct ScheduleInputs: Hashable {
    var text: ExactText
    var dates: [CalendarDate]
    var asOf: CalendarDate
    var coverage: DateCoverage
    var textCoverage: DateCoverage
  }

  private struct StatusInputs: Hashable {
    var statusText: ExactText
    var openingHours: ExactText
    var closingText: ExactText
    var asOf: CalendarDate
  }

  /// A schedule by its number, and every part of the store status.
  private struct ClosingInputs: Hashable {
    var schedule: Int
    var window: DateWindow
    var state: StoreStatus.State
    var statusText: ExactText
    var until: CalendarDate?
    var closesOn: CalendarDate?
    var asOf: CalendarDate
  }
}

/// A text, or none, compared and hashed by its UTF-8 bytes: equal bytes are an equal text, and
/// hashing a Hangul `String` would normalize every syllable first.
private struct ExactText: Hashable {
  let text: String?

  init(_ text: String?) {
    self.text = text
  }

  static func == (lhs: ExactText, rhs: ExactText) -> Bool {
    guard let left = lhs.text, let right = rhs.text else { return lhs.text == nil && rhs.text == nil }
    return left.hasSameUTF8(as: right)
  }

  func hash(into hasher: inout Hasher) {
    // No UTF-8 byte is 0xFE: no text cannot be taken for a text's bytes.
    guard let text else { return hasher.combine(UInt8(0xFE)) }
    text.hashUTF8(into: &hasher)
  }
}
