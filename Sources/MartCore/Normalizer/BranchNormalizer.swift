/// Turns a raw branch into the exported form: cleaned text, formatted phone, canonical
/// address, closing schedule and dates. Pure: coordinates are added by the geocoding stage, and
/// what it could not take as published comes back as ``NormalizationProblem`` values.
public struct BranchNormalizer: Sendable {
  /// The run's day: a shut store is shut from its as-of date, and closing dates are expanded
  /// for its window.
  public let day: RunDay

  public init(day: RunDay) {
    self.day = day
  }

  /// Normalizes one branch: the branch, the parsed address the geocoding stage builds its
  /// queries from, and the problems worth reporting, in the order they were met.
  public func normalize(_ raw: RawBranch) -> NormalizedBranch {
    var readings = BranchReadings()
    return normalize(raw, reusing: &readings)
  }

  /// ``normalize(_:)``, taking the readings of texts that branches normalized before published
  /// too (closing days, opening hours, status) from `readings`, and adding the new ones to it.
  public func normalize(_ raw: RawBranch, reusing readings: inout BranchReadings) -> NormalizedBranch {
    var problems: [NormalizationProblem] = []
    func problem(_ kind: NormalizationProblem.Kind, _ message: String) {
      problems.append(NormalizationProblem(branch: raw.id, kind: kind, message: message))
    }
    let published = TextCleanup.field(raw.address)
    let lotPublished = TextCleanup.field(raw.lotAddress)
    let parsed = (published ?? lotPublished).map { KoreanAddress(parsing: $0, lotAddress: lotPublished) }
    if let parsed, !parsed.unparsed.isEmpty {
      problem(.address, "address parts not understood: \(parsed.unparsed.joined(separator: ", "))")
    }
    let phonePublished = TextCleanup.field(raw.phone)
    let phone = PhoneNumber.format(phonePublished)
    if let phonePublished, phone == nil {
      problem(.phone, "phone \"\(phonePublished)\" is not a Korean phone number")
    }
    let closingText = TextCleanup.field(raw.closingText)
    let read = readings.schedule(
      text: closingText, dates: raw.closingDates, asOf: day.asOf, coverage: raw.closingCoverage,
      textCoverage: raw.closingTextCoverage)
    var schedule = read.schedule
    var openingHours = TextCleanup.field(raw.openingHours)
    let reading = readings.status(
      statusText: raw.statusText, openingHours: openingHours, closingText: closingText, asOf: day.asOf)
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
      for warning in schedule.warnings { problem(.closingDays, warning) }
    }
    var status = reading.status
    // The schedule as read, unless an announced shutdown adds its days.
    var readSchedule: Int? = read.number
    if let upcoming = reading.upcomingShutdown {
      let text = reading.status.text ?? ""
      if let through = upcoming.through {
        problem(.storeStatus, "shuts from \(upcoming.from) through \(through), as published: \"\(text)\"")
      } else {
        problem(.storeStatus, "closes for good on \(upcoming.from), as published: \"\(text)\"")
      }
      addUpcomingShutdown(upcoming, to: &schedule, status: &status)
      readSchedule = nil
    }
    let closing =
      if let readSchedule {
        readings.closing(ofSchedule: readSchedule, window: day.window, storeStatus: status, asOf: day.asOf)
      } else {
        BranchClosing(schedule: schedule, window: day.window, storeStatus: status, asOf: day.asOf)
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
      hours: reading.status.isTrading ? readings.openingHours(openingHours) : nil,
      coordinate: nil,
      closing: closing,
      storeStatus: status,
      sourceURL: raw.sourceURL,
      pageURL: raw.pageURL)
    return NormalizedBranch(branch: branch, address: parsed, problems: problems)
  }

  /// A shutdown the source announces for a later day: the store trades now. Closing for good
  /// becomes the status's `closesOn` (one day, not a run of daily closures); the days of a
  /// temporary closure within the window (``ShutDays/init(from:through:)``) join the schedule's
  /// explicit dates (so they survive a carry-over).
  private func addUpcomingShutdown(
    _ upcoming: UpcomingShutdown, to schedule: inout ClosingSchedule, status: inout StoreStatus
  ) {
    guard let through = upcoming.through else {
      status.closesOn = upcoming.from
      return
    }
    let shut = ShutDays(from: upcoming.from, through: through).days(in: day.window)
    guard !shut.isEmpty else { return }
    schedule.dates = Array(Set(schedule.dates + shut)).sorted()
    schedule.status = .closures
  }

  /// Re-expands a carried-over branch's schedule for this run's window. Its store status is
  /// the one its source last published: a carry-over never invents one.
  public func refresh(_ branch: Branch) -> Branch {
    var copy = branch
    copy.closing = BranchClosing(
      schedule: branch.closing.schedule, window: day.window, storeStatus: branch.storeStatus, asOf: day.asOf)
    return copy
  }
}

/// One branch as ``BranchNormalizer/normalize(_:)`` made it.
public struct NormalizedBranch: Hashable, Sendable {
  /// The branch, without coordinates.
  public var branch: Branch
  /// The published address as parsed, from which the geocoding stage builds its queries; `nil`
  /// when the source published none.
  public var address: KoreanAddress?
  /// What in the branch's published record could not be taken as it stands, in the order met.
  public var problems: [NormalizationProblem]

  public init(branch: Branch, address: KoreanAddress?, problems: [NormalizationProblem]) {
    self.branch = branch
    self.address = address
    self.problems = problems
  }
}

/// Something in one branch's published record that the normalizer could not take as it
/// stands, or that an operator should know: worth a look, never a reason to drop the branch.
public struct NormalizationProblem: Hashable, Sendable, CustomStringConvertible {
  /// Which part of the record the problem is in.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// Parts of the address were not understood.
    case address
    /// The published phone is not a Korean phone number.
    case phone
    /// Part of the closing-day text was not understood.
    case closingDays = "closing-days"
    /// The source announces that the trading store shuts on a later day.
    case storeStatus = "store-status"
  }

  /// The branch the problem is in.
  public var branch: BranchID
  public var kind: Kind
  /// What the problem is, with the published text concerned.
  public var message: String

  public init(branch: BranchID, kind: Kind, message: String) {
    self.branch = branch
    self.kind = kind
    self.message = message
  }

  /// `<branch>: <message>`.
  public var description: String { "\(branch): \(message)" }
}
