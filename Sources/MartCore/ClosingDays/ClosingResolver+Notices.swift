// Change notices: the replaced days give way, the replacing ones hold from the day given.

extension ClosingResolver {
  /// Applies the change notices of `reading` to `schedule` and says what each did.
  ///
  /// Moved dates are already open (exceptions). A rule change with the day it applies from
  /// keeps the old rules' days before that day (explicit dates) and the new rules' days from it
  /// (its rules); each side's days on the other side of that day become exceptions. Without that
  /// day, or when nothing replacing was read, the days of both are uncertain. Either way the
  /// schedule speaks of the horizon only, as one with uncertain days does.
  func applyChanges(of reading: Reading, to schedule: inout ClosingSchedule) -> [ClosingChange] {
    guard !reading.changes.isEmpty else { return [] }
    let horizon = ClosingSchedule.horizon(asOf: asOf)
    var explained: [ClosingChange] = []
    var uncertain = Set<CalendarDate>()
    var dates = Set(schedule.dates)
    var exceptions = Set(schedule.exceptions)
    // The days changes apply from, in the order of the text: the next one not before a change.
    var nextAppliesFrom = 0
    for change in reading.changes {
      while nextAppliesFrom < reading.appliesFrom.count,
        reading.appliesFrom[nextAppliesFrom].statement < change.statement
      {
        nextAppliesFrom += 1
      }
      let oldDates = change.old.flatMap { days -> [CalendarDate] in
        switch days {
        case .dates(let values), .ruleDates(let values): values
        default: []
        }
      }
      let old = rulesSchedule(of: change.old)
      let new = rulesSchedule(of: change.new)
      if !oldDates.isEmpty, old.rules.isEmpty {
        explained.append(
          ClosingChange(
            kind: .moved, replaced: Set(oldDates).sorted(),
            replacement: new.closedDates(from: horizon.from, through: horizon.through)))
        continue
      }
      let oldDays = Set(old.closedDates(from: horizon.from, through: horizon.through))
      let newDays = Set(new.closedDates(from: horizon.from, through: horizon.through))
      // The last day given before the change, else the first after it.
      let appliesFrom =
        (nextAppliesFrom > 0 ? reading.appliesFrom[nextAppliesFrom - 1] : reading.appliesFrom.first)?.day
      if let appliesFrom, !change.new.isEmpty {
        dates.formUnion(oldDays.filter { $0 < appliesFrom })
        exceptions.formUnion(newDays.filter { $0 < appliesFrom }.subtracting(oldDays))
        exceptions.formUnion(oldDays.filter { $0 >= appliesFrom }.subtracting(newDays))
      } else {
        uncertain.formUnion(oldDays.union(newDays))
      }
      explained.append(
        ClosingChange(kind: .ruleChange, rulesBefore: old.rules, rulesAfter: new.rules, appliesFrom: appliesFrom))
    }
    if explained.allSatisfy({ $0.kind == .moved }) { return explained }
    if schedule.coverage == nil, schedule.coversEveryDay { schedule.coverage = [horizon] }
    schedule.dates = dates.sorted()
    schedule.exceptions = exceptions.subtracting(dates).sorted()
    if !uncertain.isEmpty {
      schedule.warnings.append(
        "a change notice without the day it applies from; the days of the old and the new rules are unknown")
      schedule.uncertain = DateWindow.merged(
        schedule.uncertain + uncertain.subtracting(dates).map { DateWindow(from: $0, through: $0) })
    }
    if schedule.status == .unknown, !schedule.dates.isEmpty { schedule.status = .closures }
    return explained
  }

  /// The schedule the days `named` close, alone.
  private func rulesSchedule(of named: [NamedDays]) -> ClosingSchedule {
    var alone = Reading()
    for days in named { alone.closed.add(days) }
    return schedule(from: alone, text: "")
  }
}
