/// A holiday of the Korean lunar calendar.
public enum LunarHoliday: String, Hashable, Sendable, Codable, CaseIterable {
  /// 설날, lunar 1/1.
  case seollal
  /// 추석, lunar 8/15.
  case chuseok

  /// The Korean name.
  public var koreanName: String {
    switch self {
    case .seollal: "설날"
    case .chuseok: "추석"
    }
  }
}

/// Solar dates of Korean lunar holidays, from the KASI tables.
///
/// The table lives in `KoreanLunarHolidays.generated.swift`, written by
/// `scripts/generate_lunar_holidays.py`. Foundation's Chinese calendar is not used: it
/// disagrees with the Korean calendar in some years.
public enum KoreanLunarHolidays {
  /// The solar date of `holiday` in the solar year `year`, or `nil` outside the table.
  public static func date(of holiday: LunarHoliday, inYear year: Int) -> CalendarDate? {
    switch holiday {
    case .seollal: seollalByYear[year]
    case .chuseok: chuseokByYear[year]
    }
  }

  /// The solar years the table covers.
  public static var years: ClosedRange<Int> { coveredYears }
}
