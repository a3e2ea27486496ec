import ArgumentParser
import Foundation
import MartCore

/// Dates as Korea sees them.
enum KoreanCalendar {
  /// Today's date in Asia/Seoul.
  static func today() -> CalendarDate {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Asia/Seoul")!
    let parts = calendar.dateComponents([.year, .month, .day], from: Date())
    return CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)!
  }
}

extension BrandSlug: ExpressibleByArgument {}

extension CalendarDate: ExpressibleByArgument {
  public init?(argument: String) { self.init(iso: argument) }
}
