import Foundation
import MartCore

/// The clock as a run reads it: input like any other, checked before anything is touched.
public enum RunClock {
  /// An environment variable that, when set, replaces the system clock with the instant it
  /// holds (ISO 8601, e.g. `2052-03-01T09:00:00Z`): for rehearsing a run on another day.
  public static let environmentVariable = "MART_HOLIDAY_CLOCK"

  /// The clock the run reads: the variable when it is set.
  static var setting: RunSetting {
    ProcessInfo.processInfo.environment[environmentVariable] != nil ? .clockVariable : .systemClock
  }

  /// The as-of day the clock gives (today in Korea), checked as a given as-of is: a day outside
  /// `KoreanCalendar.supportedAsOf`, a clock no date can be read from, or an unreadable
  /// ``environmentVariable`` is a `RunSetupError`, never a trap or a bundle of a day the engine
  /// cannot speak of.
  public static func asOf(
    environment: [String: String] = ProcessInfo.processInfo.environment, systemNow: Date = Date()
  ) throws(RunSetupError) -> CalendarDate {
    var now = systemNow
    var setting = RunSetting.systemClock
    if let value = environment[environmentVariable] {
      setting = .clockVariable
      // Foundation's parser rolls a day or an hour that does not exist into the next
      // (2027-02-29 into 2027-03-01): the date and time are checked as written first.
      if let problem = Self.fieldsProblem(value), !problem.isEmpty {
        throw RunSetupError(setting: setting, message: "\"\(value)\" is not an instant: \(problem)")
      }
      guard let instant = ISO8601DateFormatter().date(from: value), Self.fieldsProblem(value) != nil else {
        throw RunSetupError(setting: setting, message: "\"\(value)\" is not an ISO 8601 instant such as 2026-11-20T09:00:00Z")
      }
      now = instant
    }
    let range = KoreanCalendar.supportedAsOf
    guard let today = KoreanCalendar.date(at: now), range.contains(today) else {
      // `Date`'s own description has no words for some years (`<description unavailable>`).
      let instant = setting == .clockVariable ? environment[environmentVariable] ?? "" : Self.iso(now)
      throw RunSetupError(
        setting: setting,
        message:
          "it is \(instant) (\(KoreanCalendar.date(at: now)?.iso ?? "no date") in Korea), outside \(range.lowerBound.iso) to \(range.upperBound.iso), the days a run can be as of; nothing was touched (give \(setting: .asOf), or set the clock right)"
      )
    }
    return today
  }

  /// What is wrong with the date and time of an ISO 8601 instant as written
  /// (`YYYY-MM-DDThh:mm[:ss]…`): empty when they name a real day and time; `nil` when the text
  /// does not start with them.
  static func fieldsProblem(_ value: String) -> String? {
    let text = Array(value.utf8)
    func number(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= text.count else { return nil }
      return Int(String(decoding: text[range], as: UTF8.self))
    }
    guard text.count >= 16, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
      let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16)
    else { return nil }
    let second = text.count >= 19 && text[16] == UInt8(ascii: ":") ? number(17..<19) ?? 0 : 0
    if CalendarDate(year: year, month: month, day: day) == nil {
      return "\(String(decoding: text[0..<10], as: UTF8.self)) is not a day of the calendar"
    }
    if hour > 23 || minute > 59 || second > 59 {
      return "\(String(decoding: text[11..<min(text.count, 19)], as: UTF8.self)) is not a time of day"
    }
    return ""
  }

  /// The instant in ISO 8601, UTC, for messages.
  static func iso(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}
