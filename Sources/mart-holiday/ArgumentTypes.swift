import ArgumentParser
import MartCore
import MartPipeline

/// `--brand SLUG`: any brand the pipeline knows.
extension BrandSlug: ExpressibleByArgument {
  public init?(argument: String) {
    guard let slug = BrandSlug(rawValue: argument), Pipeline.knownBrands.contains(where: { $0.slug == slug }) else {
      return nil
    }
    self = slug
  }

  public static var allValueStrings: [String] { Pipeline.knownBrands.map(\.slug.rawValue) }
}
extension DateCoverage: ExpressibleByArgument {}

extension CalendarDate: ExpressibleByArgument {
  public init?(argument: String) { self.init(iso: argument) }
}

/// The dates a command accepts: the days whose closing days the engine can work out (see
/// `KoreanCalendar.supportedAsOf`), so that a run, a rule and a window stay inside the calendar.
enum SupportedDates {
  /// `2000-01-01 to 2050-10-31`, for `--help`.
  static var asOfRangeText: String {
    "\(KoreanCalendar.supportedAsOf.lowerBound.iso) to \(KoreanCalendar.supportedAsOf.upperBound.iso)"
  }

  /// `2000-01-01 to 2050-12-31`, for `--help`.
  static var dayRangeText: String {
    "\(KoreanCalendar.supportedDays.lowerBound.iso) to \(KoreanCalendar.supportedDays.upperBound.iso)"
  }

  /// Throws unless `date` can be read as today.
  static func checkAsOf(_ date: CalendarDate, option: String) throws {
    guard KoreanCalendar.supportedAsOf.contains(date) else {
      throw ValidationError("\(option) must be a date from \(asOfRangeText), not \(date.iso)")
    }
  }

  /// Throws unless `date` is a day the engine knows.
  static func checkDay(_ date: CalendarDate, option: String) throws {
    guard KoreanCalendar.supportedDays.contains(date) else {
      throw ValidationError("\(option) must be a date from \(dayRangeText), not \(date.iso)")
    }
  }
}

/// Paths given on the command line.
enum SupportedPaths {
  /// Throws for an empty path, which would otherwise mean the working directory.
  static func checkNotEmpty(_ path: String, option: String) throws {
    if path.isEmpty { throw ValidationError("\(option) must not be empty") }
  }
}
