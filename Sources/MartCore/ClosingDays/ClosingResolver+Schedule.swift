// The schedule the added-up statements make.

extension ClosingResolver {
  /// The schedule the days of `reading` make.
  func schedule(from reading: Reading, text: String) -> ClosingSchedule {
    var closed = reading.closed
    let opened = reading.opened
    var warnings = reading.warnings
    var rules: [ClosingRule] = []
    // 격주 일요일: no Sunday is known to close.
    closed.weekly.subtract(reading.alternateWeekdays)
    var weeklyAsOrdinals = Set<Weekday>()
    var lastOpened: [Weekday: Set<Int>] = [:]
    for weekday in Weekday.allCases where !opened.weekly.contains(weekday) {
      let openOrdinals = opened.ordinalsByWeekday[weekday] ?? []
      var ordinals = closed.ordinalsByWeekday[weekday] ?? []
      if closed.weekly.contains(weekday), !openOrdinals.isEmpty {
        if openOrdinals.contains(-1) {
          // The last Sunday is the 4th or the 5th: the opened days become exceptions over the horizon.
          lastOpened[weekday] = openOrdinals
        } else {
          // 매주 일요일 휴무 (단, 둘째 일요일은 정상영업): every Sunday but the second.
          ordinals = [1, 2, 3, 4, 5]
          weeklyAsOrdinals.insert(weekday)
        }
      }
      ordinals.subtract(openOrdinals)
      if !ordinals.isEmpty {
        rules.append(
          .nthWeekday(ordinals: ordinals.sorted { ($0 == -1 ? 99 : $0) < ($1 == -1 ? 99 : $1) }, weekday: weekday))
      }
    }
    rules += Weekday.allCases.filter {
      closed.weekly.contains($0) && !opened.weekly.contains($0) && !weeklyAsOrdinals.contains($0)
    }.map { .weekly($0) }
    let monthDays = closed.monthDays.subtracting(opened.monthDays)
    if !monthDays.isEmpty { rules.append(.dayOfMonth(monthDays.sorted())) }
    if closed.newYear && !opened.newYear { rules.append(.annual(month: 1, day: 1)) }
    let exceptions = opened.dates.union(opened.ruleDates).union(opened.monthScoped.values.joined())
    if reading.publicHolidaysNamed {
      // 공휴일 휴무: each public holiday of the horizon, substitutes and one-off days included.
      let horizon = ClosingSchedule.horizon(asOf: asOf)
      closed.dates.formUnion(KoreanPublicHolidays.dates(from: horizon.from, through: horizon.through))
    }
    let explicit = closed.dates.subtracting(exceptions).sorted()
    let lunar = LunarHoliday.allCases.compactMap { holiday -> LunarClosing? in
      guard let offsets = closed.lunarOffsets[holiday]?.subtracting(opened.lunarOffsets[holiday] ?? []),
        !offsets.isEmpty
      else { return nil }
      return LunarClosing(holiday: holiday, offsets: offsets.sorted())
    }
    let lunarExceptions = LunarHoliday.allCases.compactMap { holiday in
      opened.lunarOffsets[holiday].map { LunarClosing(holiday: holiday, offsets: $0.sorted()) }
    }
    if !lunar.isEmpty || !lunarExceptions.isEmpty, !KoreanLunarHolidays.years.contains(asOf.year) {
      warnings.add(
        "lunar holidays are known for \(KoreanLunarHolidays.years.lowerBound)–"
          + "\(KoreanLunarHolidays.years.upperBound) only")
    }
    let status: ClosingStatus
    if !rules.isEmpty || !explicit.isEmpty || !lunar.isEmpty || !closed.ruleDates.isEmpty
      || !closed.monthScoped.isEmpty
    {
      status = .closures
      if reading.saysOpenAllYear { warnings.add("text says open all year but also names closing days") }
    } else if reading.saysOpenAllYear {
      status = .openAllYear
    } else {
      status = .unknown
      warnings.add("no closing days understood")
    }
    var schedule = ClosingSchedule(
      status: status, rules: rules, dates: explicit, lunar: lunar, exceptions: exceptions.sorted(),
      lunarExceptions: lunarExceptions, text: text, warnings: warnings.all)
    // 12월은 셋째 일요일: in its month the scoped rule's days replace the other rules' days (all
    // months at once, each month's days being in that month).
    if !closed.monthScoped.isEmpty {
      schedule = schedule.replacingRuleDays(
        inMonths: closed.monthScoped.keys.sorted(),
        with: Set(closed.monthScoped.values.joined()).subtracting(exceptions))
    }
    // 매월 둘째 일요일 (11/15, 11/29): the rule's own dates as the site lists them. Sites list
    // the next closing days ("(11/22, 12/13)" as of 11/20 says nothing against 12/27), so dates
    // that agree with the rules only confirm them. Where one is not a rule day, the list is
    // taken as authoritative from the first of its first month to its last date: the rules'
    // days there that it leaves out give way, with a warning; later rule days stay.
    let ruleDates = closed.ruleDates.subtracting(exceptions)
    if let first = ruleDates.min(), let last = ruleDates.max() {
      let span = first.firstOfMonth()
      let fromRules = Set(schedule.closedDates(from: span, through: last)).subtracting(schedule.dates)
      if !ruleDates.isSubset(of: fromRules.union(schedule.dates)) {
        let leftOut = fromRules.subtracting(ruleDates)
        schedule.warnings.append(
          "the dates in brackets \(ClosingSchedule.listed(ruleDates)) differ from the rule's "
            + "\(ClosingSchedule.listed(fromRules)) from \(span) to \(last);"
            + " the dates in brackets are used there")
        schedule.exceptions = Set(schedule.exceptions).union(leftOut).sorted()
      }
      schedule.dates = Set(schedule.dates).union(ruleDates).sorted()
    }
    // A trading day with other hours is open even where a rule or holiday closes.
    let closingDates = Set(schedule.dates)
    let traded = reading.tradingDays.filter {
      !closingDates.contains($0) && !schedule.closedDates(from: $0, through: $0).isEmpty
    }
    if !traded.isEmpty { schedule.exceptions = Set(schedule.exceptions).union(traded).sorted() }
    if schedule.status == .closures, !schedule.coversEveryDay, coverage != .wholeMonths {
      // Explicit dates of a source that lists its next closing days speak of those days only; a
      // month's own rule, or a list the text heads as a month's (`12월 휴무일: 13일, 27일`),
      // speaks of its month.
      let scopedMonths = Set(closed.monthScoped.keys).union(opened.monthScoped.keys).union(reading.wholeMonths)
        .map { DateWindow(from: $0, through: $0.lastOfMonth) }
      let listed = (schedule.dates + schedule.exceptions).filter { !reading.wholeMonthDates.contains($0) }
      schedule.coverage = DateWindow.merged(coverage.ranges(for: listed, asOf: asOf) + scopedMonths)
    }
    if schedule.status == .unknown {
      addOpenedRuleDays(opened, to: &schedule)
    }
    addUncertainDays(to: &schedule, lastOpened: lastOpened, reading: reading)
    return schedule
  }

  /// A text that opens rule days and closes none (`매월 둘째 일요일 오후 6시까지 영업`): those
  /// days, over the horizon, are known trading days (exceptions) and the rest stays unknown.
  private func addOpenedRuleDays(_ opened: Days, to schedule: inout ClosingSchedule) {
    var rules: [ClosingRule] = opened.ordinalsByWeekday.sorted { $0.key < $1.key }.map {
      .nthWeekday(ordinals: $0.value.sorted(), weekday: $0.key)
    }
    rules += opened.weekly.sorted().map { .weekly($0) }
    if !opened.monthDays.isEmpty { rules.append(.dayOfMonth(opened.monthDays.sorted())) }
    guard !rules.isEmpty else { return }
    let horizon = ClosingSchedule.horizon(asOf: asOf)
    let days = ClosingSchedule(status: .closures, rules: rules, text: nil)
      .closedDates(from: horizon.from, through: horizon.through)
    schedule.exceptions = Set(schedule.exceptions).union(days).sorted()
    schedule.coverage = DateWindow.merged(days.map { DateWindow(from: $0, through: $0) })
  }

  /// Makes the days the text cannot tell uncertain, over the horizon: the rules' days on
  /// holidays they may move off, public holidays named as days, and alternate weeks; and moves
  /// the rules' days on public holidays a condition names the way to (``PublicHolidayMoves``).
  /// A recurring rule then speaks of the horizon only.
  private func addUncertainDays(
    to schedule: inout ClosingSchedule, lastOpened: [Weekday: Set<Int>], reading: Reading
  ) {
    let horizon = ClosingSchedule.horizon(asOf: asOf)
    var uncertain = Set<CalendarDate>()
    var extraExceptions = Set<CalendarDate>()
    if !lastOpened.isEmpty {
      // 매주 일요일 휴무 (단, 마지막 일요일은 정상영업): the opened Sundays of each month.
      var month = horizon.from
      while month <= horizon.through {
        for (weekday, ordinals) in lastOpened {
          extraExceptions.formUnion(
            ClosingRule.nthWeekday(ordinals: ordinals.sorted(), weekday: weekday).dates(inMonthStarting: month))
        }
        month = month.firstOfMonth(addingMonths: 1)
      }
    }
    var moves = PublicHolidayMoves()
    if schedule.status != .unknown {
      // Worked out only for a text that speaks of holidays: most say nothing of them.
      lazy var ruleDays = Set(schedule.closedDates(from: horizon.from, through: horizon.through))
        .subtracting(schedule.dates)
      lazy var publicHolidays = Set(KoreanPublicHolidays.dates(from: horizon.from, through: horizon.through))
        .union(KoreanPublicHolidays.unknownDates(from: horizon.from, through: horizon.through))
      for shift in reading.shifts {
        let holidays: Set<CalendarDate>
        switch shift.holidays {
        case .publicHolidays where shift.offsets.count < 2:
          moves.add(ruleDays: ruleDays, offset: shift.offsets.first, within: horizon)
          continue
        case .publicHolidays: holidays = publicHolidays
        case .lunar(let names):
          holidays = Set(
            (horizon.from.year...horizon.through.year).flatMap { year in
              names.compactMap { KoreanLunarHolidays.date(of: $0, inYear: year) }.flatMap { day in
                (-1...1).map { day.adding(days: $0) }
              }
            })
        }
        for day in ruleDays.intersection(holidays) {
          uncertain.insert(day)
          for offset in shift.offsets { uncertain.insert(day.adding(days: offset)) }
        }
      }
      if reading.publicHolidaysNamed {
        // The holidays close (explicit dates); the days the table cannot tell are unknown.
        uncertain.formUnion(KoreanPublicHolidays.unknownDates(from: horizon.from, through: horizon.through))
        schedule.coverage = [horizon]
        if let warning = PublicHolidayMoves.oneOffsWarning(within: horizon) { schedule.warnings.append(warning) }
      }
      if !reading.alternateWeekdays.isEmpty {
        var day = horizon.from
        while day <= horizon.through {
          if reading.alternateWeekdays.contains(day.weekday) { uncertain.insert(day) }
          day = day.adding(days: 1)
        }
      }
    }
    uncertain.formUnion(moves.uncertain)
    uncertain.formUnion(reading.misplacedDays)
    uncertain = uncertain.filter(horizon.contains)
    guard !uncertain.isEmpty || !extraExceptions.isEmpty || moves.wasRead || reading.publicHolidaysNamed else {
      return
    }
    if schedule.coverage == nil {
      schedule.coverage = schedule.coversEveryDay ? [horizon] : schedule.coveredMonths
    }
    moves.apply(to: &schedule, within: horizon)
    schedule.exceptions = Set(schedule.exceptions).union(extraExceptions.subtracting(schedule.dates)).sorted()
    schedule.uncertain = DateWindow.merged(
      uncertain.subtracting(schedule.dates).map { DateWindow(from: $0, through: $0) })
  }
}
