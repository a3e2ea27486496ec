import Foundation

/// Instants as a person in Korea reads them: `2026-11-25 09:00 KST (UTC+9)`.
///
/// Korea Standard Time is UTC+9 all year: South Korea has not observed daylight saving time
/// since the summer of 1988 (Wikipedia, "Korea Standard Time",
/// en.wikipedia.org/wiki/Korea_Standard_Time, read 2026-11-25), so a fixed offset is exact for
/// every run.
enum KoreanTime {
  static let offset = TimeZone(secondsFromGMT: 9 * 3600)!

  /// `2026-11-25T00:00:00Z` (as `report.json` writes instants, with or without fractions of a
  /// second) as `2026-11-25 09:00 KST (UTC+9)`; text that is no such instant is returned as it is.
  static func text(_ iso8601: String) -> String {
    guard let date = date(iso8601) else { return iso8601 }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = offset
    let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
    func two(_ value: Int?) -> String { (value ?? 0) < 10 ? "0\(value ?? 0)" : "\(value ?? 0)" }
    return
      "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute)) KST (UTC+9)"
  }

  static func date(_ iso8601: String) -> Date? {
    let plain = ISO8601DateFormatter()
    if let date = plain.date(from: iso8601) { return date }
    let fractional = ISO8601DateFormatter()
    fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return fractional.date(from: iso8601)
  }
}
