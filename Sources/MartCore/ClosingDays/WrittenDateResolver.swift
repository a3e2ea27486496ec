/// Turns written dates and months into calendar days relative to the as-of date: a missing year
/// is the one near the as-of date that the text's weekday or holiday allows. Pure: the same
/// writing and as-of date give the same days and the same warnings.
struct WrittenDateResolver {
  let asOf: CalendarDate

  /// The longest range read, in days.
  static let maximumRangeDays = 366

  /// The days of `list`, in the order written (ranges day by day), and a warning for each entry
  /// that names no day (`2/29` with no leap year near the as-of date, `12/30~12/28`).
  func days(of list: WrittenDateList, warnings: inout [String]) -> [CalendarDate] {
    var listed: [CalendarDate] = []
    for entry in list.entries {
      guard let start = date(entry.start, entry.startHints, excerpt: entry.excerpt, warnings: &warnings) else {
        continue
      }
      guard let endWritten = entry.end else {
        listed.append(start)
        continue
      }
      var endYear = endWritten.year ?? start.year
      var end = CalendarDate(year: endYear, month: endWritten.month, day: endWritten.day)
      if let candidate = end, candidate < start, endWritten.year == nil {
        endYear += 1
        end = CalendarDate(year: endYear, month: endWritten.month, day: endWritten.day)
      }
      guard let end, end >= start, end.dayNumber - start.dayNumber < Self.maximumRangeDays else {
        warnings.append(Self.quoting("date range not understood", entry.excerpt))
        continue
      }
      if let weekday = entry.endHints.weekday, weekday != end.weekday {
        warnings.append(Self.quoting("\(end.iso) is not a \(weekday.englishName)", entry.excerpt))
      }
      for offset in 0...(end.dayNumber - start.dayNumber) { listed.append(start.adding(days: offset)) }
    }
    return listed
  }

  /// Whether `list` names at least one day.
  func namesAnyDay(_ list: WrittenDateList) -> Bool {
    var ignored: [String] = []
    return !days(of: list, warnings: &ignored).isEmpty
  }

  /// The day of a written date: in the year the text gives, else among the years around the
  /// as-of date those the weekday or holiday hint allows, the nearest to the as-of date.
  func date(_ written: WrittenDate, _ hints: DateHints, excerpt: String, warnings: inout [String]) -> CalendarDate? {
    if let year = written.year {
      guard let date = CalendarDate(year: year, month: written.month, day: written.day) else {
        warnings.append(Self.quoting("not a real date", excerpt))
        return nil
      }
      if let weekday = hints.weekday, weekday != date.weekday {
        warnings.append(Self.quoting("\(date.iso) is not a \(weekday.englishName)", excerpt))
      }
      return date
    }
    let candidates = ((asOf.year - 1)...(asOf.year + 1)).compactMap {
      CalendarDate(year: $0, month: written.month, day: written.day)
    }
    let byDistance = candidates.sorted {
      abs($0.dayNumber - asOf.dayNumber) < abs($1.dayNumber - asOf.dayNumber)
    }
    guard let nearest = byDistance.first else {
      warnings.append(Self.quoting("not a real date", excerpt))
      return nil
    }
    if hints.isEmpty { return nearest }
    let matching = byDistance.filter { date in
      if let weekday = hints.weekday, weekday != date.weekday { return false }
      if let holiday = hints.holiday {
        guard let day = KoreanLunarHolidays.date(of: holiday.holiday, inYear: date.year),
          holiday.offsets.contains(where: { day.adding(days: $0) == date })
        else { return false }
      }
      return true
    }
    if let match = matching.first { return match }
    if let weekday = hints.weekday, !byDistance.contains(where: { $0.weekday == weekday }) {
      // Taken in the nearest year, it would close a day of another weekday than the text's: the
      // day is left unknown instead (see ``misplacedDays(of:)``).
      warnings.append(
        Self.quoting(
          "no year near \(asOf.iso) has this date on a \(weekday.englishName); \(nearest.iso) is left unknown",
          excerpt))
      return nil
    }
    // A holiday label that fits no year (`9/26(추석)`, the day after it): the date as written.
    warnings.append(
      Self.quoting(
        "no year near \(asOf.iso) matches the weekday or holiday given; assumed \(nearest.year)", excerpt))
    return nearest
  }

  /// The days of `list` whose weekday fits no year near the as-of date, each the nearest such
  /// day: ``date(_:_:excerpt:warnings:)`` names no day for them, and the schedule
  /// keeps them unknown rather than open or closed on the wrong weekday.
  func misplacedDays(of list: WrittenDateList) -> [CalendarDate] {
    var ignored: [String] = []
    return list.entries.compactMap { entry in
      guard entry.start.year == nil, entry.startHints.weekday != nil,
        date(entry.start, entry.startHints, excerpt: "", warnings: &ignored) == nil
      else { return nil }
      return nearestDay(entry.start)
    }
  }

  /// The day of a written date with nothing said about it: in the year the text gives, else
  /// the nearest such day to the as-of date (the earlier on a tie); `nil` when it names no
  /// real day.
  func nearestDay(_ written: WrittenDate) -> CalendarDate? {
    var ignored: [String] = []
    return date(written, DateHints(), excerpt: "", warnings: &ignored)
  }

  /// The day of a written date that ends something (`12/31까지`): in the year the text gives,
  /// else the first such day on or after the first of the as-of month (in November, `3/31까지`
  /// is next March).
  func dayFromAsOfMonth(_ written: WrittenDate) -> CalendarDate? {
    if let year = written.year { return CalendarDate(year: year, month: written.month, day: written.day) }
    let start = asOf.firstOfMonth()
    return [asOf.year, asOf.year + 1].lazy
      .compactMap { CalendarDate(year: $0, month: written.month, day: written.day) }
      .first { $0 >= start }
  }

  /// The first day of a month named alone: in the year the text gives, else the next such month
  /// on or after the as-of month (`12월은 셋째 일요일`).
  func firstDay(of written: WrittenMonth) -> CalendarDate? {
    written.year.flatMap { CalendarDate(year: $0, month: written.month, day: 1) }
      ?? CalendarDate(
        year: written.month >= asOf.month ? asOf.year : asOf.year + 1, month: written.month, day: 1)
  }

  /// A warning quoting the words it is about.
  static func quoting(_ message: String, _ excerpt: String) -> String {
    "\(message): \"\(excerpt)\""
  }
}
