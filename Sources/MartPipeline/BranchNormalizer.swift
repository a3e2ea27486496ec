import MartCore

/// Turns a raw branch into the exported form: cleaned text, formatted phone, canonical
/// address, closing schedule and dates. Pure: coordinates are added by the geocoding stage.
public struct BranchNormalizer: Sendable {
  public let asOf: CalendarDate
  public let window: DateWindow

  public init(asOf: CalendarDate, window: DateWindow) {
    self.asOf = asOf
    self.window = window
  }

  /// Normalizes one branch; problems worth reporting go to `problems`, naming the branch.
  /// Also returns the parsed address, from which the geocoding stage builds its queries.
  public func normalize(_ raw: RawBranch, problems: inout RunProblems) -> (Branch, KoreanAddress?) {
    let published = TextCleanup.field(raw.address)
    let lotPublished = TextCleanup.field(raw.lotAddress)
    let parsed = (published ?? lotPublished).map { KoreanAddress(parsing: $0, lotAddress: lotPublished) }
    if let parsed, !parsed.unparsed.isEmpty {
      problems.warn(
        .address, "address parts not understood: \(parsed.unparsed.joined(separator: ", "))", branch: raw.id)
    }
    let phonePublished = TextCleanup.field(raw.phone)
    let phone = PhoneNumber.format(phonePublished)
    if let phonePublished, phone == nil {
      problems.warn(.phone, "phone \"\(phonePublished)\" is not a Korean phone number", branch: raw.id)
    }
    let schedule = ClosingSchedule.published(
      text: TextCleanup.field(raw.closingText), dates: raw.closingDates, asOf: asOf)
    for warning in schedule.warnings { problems.warn(.closingDays, warning, branch: raw.id) }
    let branch = Branch(
      id: raw.id,
      name: TextCleanup.field(raw.name) ?? raw.id.storeID,
      address: BranchAddress(published: published, lotPublished: lotPublished, parsed: parsed),
      phone: phone,
      phonePublished: phonePublished,
      openingHours: TextCleanup.field(raw.openingHours),
      hours: OpeningHours.parse(TextCleanup.field(raw.openingHours)),
      coordinate: nil,
      closing: BranchClosing(schedule: schedule, window: window),
      sourceURL: raw.sourceURL)
    return (branch, parsed)
  }

  /// Re-expands a carried-over branch's schedule for this run's window.
  public func refresh(_ branch: Branch) -> Branch {
    var copy = branch
    copy.closing = BranchClosing(schedule: branch.closing.schedule, window: window)
    return copy
  }
}
