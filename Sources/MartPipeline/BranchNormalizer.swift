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
    var schedule = ClosingSchedule.published(
      text: closingText, dates: raw.closingDates, asOf: asOf, coverage: raw.closingCoverage)
    var openingHours = TextCleanup.field(raw.openingHours)
    let reading = StoreStatus.read(
      statusText: raw.statusText, openingHours: openingHours, closingText: closingText, asOf: asOf)
    // `openingHours` holds hours only: a notice published in the hours field (`마트 임시휴업.
    // 몰영업시간 …`, `… 영업종료로 단골매장을 변경해주세요.`) is the store status's text instead.
    if let text = reading.status.text, text == openingHours,
      !reading.status.isTrading || reading.upcomingShutdown != nil
    {
      openingHours = nil
    }
    // A store shut with no closing days of its own is listed as not trading, not as a
    // closing-day problem.
    if reading.status.isTrading || schedule.status != .unknown {
      for warning in schedule.warnings { problems.warn(.closingDays, warning, branch: raw.id) }
    }
    var status = reading.status
    if let upcoming = reading.upcomingShutdown {
      addUpcomingShutdown(
        upcoming, to: &schedule, status: &status, id: raw.id, text: reading.status.text, problems: &problems)
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
      closing: BranchClosing(schedule: schedule, window: window, storeStatus: status, asOf: asOf),
      storeStatus: status,
      sourceURL: raw.sourceURL,
      pageURL: raw.pageURL)
    return (branch, parsed)
  }

  /// A shutdown the source announces for a later day: the store trades now. Closing for good
  /// becomes the status's `closesOn` (one day, not a run of daily closures); the days of a
  /// temporary closure within the window join the schedule's explicit dates (so they survive a
  /// carry-over).
  private func addUpcomingShutdown(
    _ upcoming: UpcomingShutdown, to schedule: inout ClosingSchedule, status: inout StoreStatus, id: BranchID,
    text: String?, problems: inout RunProblems
  ) {
    guard let through = upcoming.through else {
      status.closesOn = upcoming.from
      problems.warn(.storeStatus, "closes for good on \(upcoming.from), as published: \"\(text ?? "")\"", branch: id)
      return
    }
    let last = min(through, window.through)
    let first = max(upcoming.from, window.from)
    var shut: [CalendarDate] = []
    var day = first
    while day <= last {
      shut.append(day)
      day = day.adding(days: 1)
    }
    problems.warn(
      .storeStatus, "shuts from \(upcoming.from) through \(through), as published: \"\(text ?? "")\"", branch: id)
    guard !shut.isEmpty else { return }
    schedule.dates = Array(Set(schedule.dates + shut)).sorted()
    schedule.status = .closures
  }

  /// Re-expands a carried-over branch's schedule for this run's window. Its store status is
  /// the one its source last published: a carry-over never invents one.
  public func refresh(_ branch: Branch) -> Branch {
    var copy = branch
    copy.closing = BranchClosing(
      schedule: branch.closing.schedule, window: window, storeStatus: branch.storeStatus, asOf: asOf)
    return copy
  }
}
