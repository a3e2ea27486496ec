import Foundation
import TestSupport
import Testing

/// The clock is input: a run whose as-of comes from a clock the engine cannot speak of, or
/// from a day before the published bundle's, stops with one error and leaves the output as it was.
@Suite(.serialized) struct RunClockTests {
  static let binary: URL = {
    let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return testExecutable.deletingLastPathComponent().appendingPathComponent("mart-holiday")
  }()

  func run(_ arguments: [String], clock: String? = nil) throws -> ProcessRunner.Outcome {
    try ProcessRunner.run(
      Self.binary, arguments, in: FixturePaths.repositoryRoot,
      environment: clock.map { ["MART_HOLIDAY_CLOCK": $0] } ?? [:])
  }

  /// An output directory holding the bundle of a replay of the recordings of 메가마트: the clock
  /// is read the same whatever brands a run fetches and a bundle holds, and an output of one
  /// brand costs a fraction of every brand's to run over and to snapshot.
  func publishedOutput() throws -> URL { try PublishedOutput.copy("clock", brands: ["megamart"]) }

  func errorLines(_ outcome: ProcessRunner.Outcome) -> [String] {
    outcome.stderrText.split(separator: "\n").map(String.init).filter { $0.hasPrefix("error:") }
  }

  @Test func aClockOutsideTheEnginesYearsOrBeforeTheBundleChangesNothing() throws {
    let output = try publishedOutput()
    let latest = output.appendingPathComponent("latest.json")
    let published = try Data(contentsOf: latest)
    let before = try TreeSnapshot(output)
    // After the lunar tables (2050), at the last year a date holds, and years before the
    // bundle's as-of; each run in turn also shows the one before released its lock.
    for (clock, says) in [
      ("2052-03-01T09:00:00Z", "2052-03-01"), ("9999-06-01T00:00:00Z", "9999-06-01"),
      ("2020-01-01T09:00:00Z", "before"),
    ] {
      let outcome = try run(["run", "--output", output.path, "--brand", "emart"], clock: clock)
      #expect(outcome.status == 1, "\(clock): \(outcome.stderrText)")
      let errors = errorLines(outcome)
      #expect(errors.count == 1, "\(clock): \(outcome.stderrText)")
      #expect(errors.first?.contains("MART_HOLIDAY_CLOCK") == true, "\(clock): \(errors)")
      #expect(errors.first?.contains(says) == true, "\(clock): \(errors)")
      #expect(try Data(contentsOf: latest) == published)
    }
    #expect(try TreeSnapshot(output) == before)
  }

  @Test func anEarlierAsOfPublishesOnlyWhenAllowed() throws {
    let output = try publishedOutput()
    let latest = output.appendingPathComponent("latest.json")
    let published = try Data(contentsOf: latest)
    let refused = try run([
      "run", "--replay", FixturePaths.web.path, "--brand", "megamart", "--output", output.path, "--as-of", "2026-11-02",
    ])
    #expect(refused.status == 1)
    #expect(errorLines(refused).count == 1)
    #expect(errorLines(refused).first?.contains("--allow-earlier-as-of") == true, "\(refused.stderrText)")
    #expect(try Data(contentsOf: latest) == published)

    let allowed = try run([
      "run", "--replay", FixturePaths.web.path, "--brand", "megamart", "--output", output.path, "--as-of", "2026-11-02",
      "--allow-earlier-as-of",
    ])
    #expect(allowed.status == 0, "\(allowed.stderrText)")
    let pointer = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: latest)) as? [String: Any])
    #expect(pointer["asOf"] as? String == "2026-11-02")
  }

  /// A day the calendar does not have is an error, never rolled into the next month; and the
  /// error for a far year says what the clock read, in words.
  @Test func aClockOnADayThatDoesNotExistIsAnErrorWithAMessage() throws {
    let output = Scratch.directory.appendingPathComponent("clock-\(UUID().uuidString)/output")
    for (clock, says) in [
      ("2027-02-29T09:00:00Z", "2027-02-29 is not a day of the calendar"),
      ("2026-11-31T09:00:00+09:00", "2026-11-31 is not a day of the calendar"),
      ("2026-11-20T24:30:00Z", "24:30:00 is not a time of day"),
      ("9999-12-31T23:00:00Z", "9999-12-31T23:00:00Z"),
    ] {
      let outcome = try run(["run", "--output", output.path, "--brand", "emart"], clock: clock)
      #expect(outcome.status == 1, "\(clock): \(outcome.stderrText)")
      let errors = errorLines(outcome)
      #expect(errors.count == 1, "\(clock): \(outcome.stderrText)")
      #expect(errors.first?.contains("MART_HOLIDAY_CLOCK") == true, "\(clock): \(errors)")
      #expect(errors.first?.contains(says) == true, "\(clock): \(errors)")
      #expect(errors.first?.contains("description unavailable") == false, "\(clock): \(errors)")
      #expect(!FileManager.default.fileExists(atPath: output.path), "\(clock): nothing is written")
    }
  }
}
