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
      guard let instant = ISO8601DateFormatter().date(from: value) else {
        throw RunSetupError(setting: setting, message: "\"\(value)\" is not an ISO 8601 instant such as 2026-11-20T09:00:00Z")
      }
      now = instant
    }
    let range = KoreanCalendar.supportedAsOf
    guard let today = KoreanCalendar.date(at: now), range.contains(today) else {
      throw RunSetupError(
        setting: setting,
        message:
          "it is \(now) (\(KoreanCalendar.date(at: now)?.iso ?? "no date") in Korea), outside \(range.lowerBound.iso) to \(range.upperBound.iso), the days a run can be as of; nothing was touched (give \(setting: .asOf), or set the clock right)"
      )
    }
    return today
  }
}
