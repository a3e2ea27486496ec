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
    let closingText = TextCleanup.field(raw.closingText)
    var schedule = ClosingSchedule.published(text: closingText, dates: raw.closingDates, asOf: asOf)
    let openingHours = TextCleanup.field(raw.openingHours)
    let reading = StoreStatus.read(
      statusText: raw.statusText, openingHours: openingHours, closingText: closingText, asOf: asOf)
    // A store shut with no closing days of its own is listed as not trading, not as a
    // closing-day problem.
    if reading.status.isTrading || schedule.status != .unknown {
      for warning in schedule.warnings { problems.warn(.closingDays, warning, branch: raw.id) }
    }
    if let upcoming = reading.upcomingShutdown {
      addUpcomingShutdown(upcoming, to: &schedule, id: raw.id, text: reading.status.text, problems: &problems)
    }
    let branch = Branch(
      id: raw.id,
      banner: TextCleanup.field(raw.banner),
      name: TextCleanup.field(raw.name) ?? raw.id.storeID,
      namePublished: TextCleanup.field(raw.publishedName),
      address: BranchAddress(published: published, lotPublished: lotPublished, parsed: parsed),
      phone: phone,
      phonePublished: phonePublished,
      openingHours: openingHours,
      // A shut store's hours text is a notice (or the mall's hours), never its own.
      hours: reading.status.isTrading ? OpeningHours.parse(openingHours) : nil,
      coordinate: nil,
      closing: BranchClosing(schedule: schedule, window: window, storeStatus: reading.status),
      storeStatus: reading.status,
      sourceURL: raw.sourceURL)
    return (branch, parsed)
  }

  /// A shutdown the source announces for a later day: the store trades now, and the shut days
  /// within the window join the schedule's explicit dates (so they survive a carry-over).
  private func addUpcomingShutdown(
    _ upcoming: UpcomingShutdown, to schedule: inout ClosingSchedule, id: BranchID, text: String?,
    problems: inout RunProblems
  ) {
    let last = min(upcoming.through ?? window.through, window.through)
    let first = max(upcoming.from, window.from)
    var shut: [CalendarDate] = []
    var day = first
    while day <= last {
      shut.append(day)
      day = day.adding(days: 1)
    }
    let end = upcoming.through.map { "through \($0)" } ?? "for good"
    problems.warn(.storeStatus, "shuts from \(upcoming.from) \(end), as published: \"\(text ?? "")\"", branch: id)
    guard !shut.isEmpty else { return }
    schedule.dates = Array(Set(schedule.dates + shut)).sorted()
    schedule.status = .closures
  }

  /// Re-expands a carried-over branch's schedule for this run's window. Its store status is
  /// the one its source last published: a carry-over never invents one.
  public func refresh(_ branch: Branch) -> Branch {
    var copy = branch
    copy.closing = BranchClosing(schedule: branch.closing.schedule, window: window, storeStatus: branch.storeStatus)
    return copy
  }
}
