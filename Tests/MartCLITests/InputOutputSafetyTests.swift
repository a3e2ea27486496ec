import Foundation
import MartFetch
import MartReplay
import ReplayTestSupport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The built binary against hostile input and output: standard streams that cannot be written,
/// extreme option values, foreign recordings and trees, a feed with an id that cannot name a
/// file. Nothing crashes (no exit status of 128 or more), every refusal is one `error:` line.
@Suite struct InputOutputSafetyTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()

  /// How a process started with explicit standard streams ended.
  struct Ended {
    var status: Int32
    var crashed: Bool
    var stdout: String
    var stderr: String
  }

  /// Runs the binary with stdout or stderr sent to `/dev/full` (or kept in a pipe), in `directory`.
  func run(
    _ arguments: [String], stdoutToFull: Bool = false, stderrToFull: Bool = false,
    in directory: URL = FixturePaths.repositoryRoot
  ) throws -> Ended {
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    defer { try? full.close() }
    let ended = try ChildProcess.run(
      CommandLineContractTests.binary, arguments, in: directory, stdout: stdoutToFull ? .handle(full) : .pipe,
      stderr: stderrToFull ? .handle(full) : .pipe
    ).ended
    return Ended(
      status: ended.status, crashed: ended.reason != .exit || ended.status >= 128, stdout: ended.stdoutText,
      stderr: ended.stderrText)
  }

  func scratch(_ label: String) throws -> URL {
    let url = Scratch.directory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  // MARK: Standard streams that cannot be written

  @Test func everyCommandSurvivesAFullDiskAsStdoutOrStderr() throws {
    // A small output (two brands): what the commands write does not depend on its size.
    let output = try PublishedOutput.copy("full", brands: ["lottemart", "megamart"])
    let work = try scratch("full-work")
    // Each command with the status it ends with when its result cannot be written to stdout:
    // its trouble status (diff 2, the others 1); a run keeps the status of what it published
    // (a run of one of the output's brands).
    let commands: [([String], Int32)] = [
      (["diff", output.path, output.path], 2),
      (["validate", output.path], 1),
      (["rule", "--as-of", "2026-11-20", "매월 둘째·넷째 일요일"], 1),
      (["address", "서울 송파구 올림픽로 300"], 1),
      (["report", output.path, "--output", work.appendingPathComponent("page.html").path], 1),
      (
        ["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-21", "--brand", "megamart"], 0
      ),
      (["--help"], 0),
    ]
    for (arguments, failedStdoutStatus) in commands {
      let noStdout = try run(arguments, stdoutToFull: true)
      #expect(!noStdout.crashed, "\(arguments) > /dev/full: \(noStdout.status)")
      #expect(noStdout.status == failedStdoutStatus, "\(arguments) > /dev/full: \(noStdout.stderr)")
      if failedStdoutStatus != 0 {
        #expect(
          safety.lines(noStdout.stderr) == ["error: cannot write to standard output: No space left on device"],
          "\(arguments)")
      }
      let noStderr = try run(arguments, stderrToFull: true)
      #expect(!noStderr.crashed, "\(arguments) 2> /dev/full: \(noStderr.status)")
      #expect(noStderr.status == 0, "\(arguments) 2> /dev/full")
    }
    // The run whose stderr was full published all the same: the report says so.
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    #expect(report["outcome"] as? String == "published")
    #expect(try cli.run(["validate", output.path]).status == 0)
  }

  @Test func aDiffWithChangesIntoAFullDiskIsTroubleAndADamagedBundleStillFailsValidation() throws {
    // Small outputs (two brands): what the commands write does not depend on their size.
    let output = try PublishedOutput.copy("full-diff", brands: ["lottemart", "megamart"])
    let later = try PublishedOutput.copy("full-diff-later", brands: ["lottemart", "megamart"])
    // A later bundle.
    let changed = try cli.run([
      "run", "--replay", "fixtures/web", "--output", later.path, "--as-of", "2026-11-25", "--brand", "megamart",
    ])
    try #require(changed.status == 0, "\(changed.stderr)")
    // Changes would be 1; not being able to show them is trouble.
    let diff = try run(["diff", output.path, later.path], stdoutToFull: true)
    #expect(diff.status == 2 && !diff.crashed)
    // A bundle with a damaged file, its problems written into a full disk: still 1, no crash.
    let latest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("latest.json")))
        as? [String: Any])
    let bundle = try #require(latest["bundle"] as? String)
    try Data("{}".utf8).write(to: output.appendingPathComponent("\(bundle)/index.json"))
    let validate = try run(["validate", output.path], stderrToFull: true)
    #expect(validate.status == 1 && !validate.crashed)
  }

  @Test func aReaderThatGoesAwayEndsTheCommandWithoutASignal() throws {
    let process = Process()
    process.executableURL = CommandLineContractTests.binary
    // Nobody reads: the pipe's reading end is closed before the command writes.
    process.arguments = ["rule", "--as-of", "2026-11-20", "--from", "2000-01-01", "--to", "2050-12-31", "매주 일요일"]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try out.fileHandleForReading.close()
    try process.run()
    try out.fileHandleForWriting.close()
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
    #expect(process.terminationStatus == 1)
    #expect(safety.lines(errors) == ["error: cannot write to standard output: Broken pipe"])
  }

  // MARK: Extreme values

  /// Values no option should crash on: huge, negative, not a number, infinite, empty, control
  /// characters.
  static let extremeValues = [
    "99999999999999999999999999", "1e300", "-1", "-99999999999999999999", "nan", "inf", "-inf", "", "\u{1}\r\n\u{7F}",
    "9999-12-31", "0000-00-00",
  ]

  /// What an option reads, and so which of ``extremeValues`` it can tell apart. Every option
  /// meets values of each kind (huge, negative, not a number, infinite, empty, control
  /// characters); a value is left out only for options to which it is the same as one they
  /// meet, read by the same parsing.
  enum Reads: Sendable {
    /// A whole number (a count, bytes, a seed, scales): "-inf" is a dash and no number, like
    /// "-99999999999999999999"; the two dates are no number, like "nan".
    case integer
    /// A number of seconds: the two dates are no number, like the empty value.
    case decimal
    /// A date: "1e300" is no date, like "nan"; "-99999999999999999999" and "-inf" are a dash
    /// and no date, like "-1".
    case date
    /// Text (a path, a name, a URL, one of a few words): "1e300", "nan", "inf",
    /// "-99999999999999999999" and the dates are text like any other, read as the huge number
    /// is; the empty value, control characters and values that look like an option (a dash and
    /// a digit, a dash and letters) are each read differently.
    case text

    var values: [String] {
      let left: Set<String> =
        switch self {
        case .integer: ["-inf", "9999-12-31", "0000-00-00"]
        case .decimal: ["9999-12-31", "0000-00-00"]
        case .date: ["1e300", "-99999999999999999999", "-inf"]
        case .text: ["1e300", "-99999999999999999999", "nan", "inf", "9999-12-31", "0000-00-00"]
        }
      return extremeValues.filter { !left.contains($0) }
    }
  }

  /// One option of one command, and the extreme values it meets.
  struct FuzzedOption: Sendable, CustomTestStringConvertible {
    var command: String
    var option: String
    var reads: Reads

    var values: [String] { reads.values }
    var testDescription: String { "\(command) \(option)" }

    /// The command's arguments that stop it before any work (a folder without recordings, a URL
    /// that is not http), with `empty` an empty folder and `file` a file.
    func base(empty: URL, file: URL) -> [String] {
      switch command {
      case "run": ["run", "--replay", empty.path, "--output", file.path]
      case "rule": ["rule", "매주 월요일"]
      case "address": ["address", "서울 송파구 올림픽로 300"]
      case "diff": ["diff", empty.path, empty.path]
      case "report": ["report", empty.path]
      case "fetch": ["fetch", "ftp://127.0.0.1/"]
      case "bench": ["bench", "--scale", "1"]
      default: ["bench-run", "--output", file.path, "--as-of", "1999-12-31"]
      }
    }
  }

  /// Every option of every command whose values are tried, one test case each, in three tests
  /// so that no test runs long: `run`'s options of what it reads and writes, `run`'s options of
  /// how it asks and how often it tells its progress, and the other commands' options.
  static let fuzzedOptions: [FuzzedOption] = runOutputOptions + runRequestOptions + otherCommandsOptions

  static let runOutputOptions = options(
    of: "run",
    [
      ("--output", .text), ("--state", .text), ("--replay", .text), ("--brand", .text), ("--as-of", .date),
      ("--source", .text), ("--geocoding-cache", .text), ("--archive", .text), ("--keep", .integer),
      ("--log-format", .text),
    ])

  static let runRequestOptions = options(
    of: "run",
    [
      ("--user-agent", .text), ("--max-per-host", .integer), ("--request-delay", .decimal), ("--retries", .integer),
      ("--retry-delay", .decimal), ("--timeout", .decimal), ("--progress-interval", .decimal),
    ])

  static let otherCommandsOptions =
    options(
      of: "rule", [("--as-of", .date), ("--from", .date), ("--to", .date), ("--format", .text), ("--coverage", .text)])
    + options(of: "address", [("--format", .text)])
    + options(of: "diff", [("--format", .text), ("--fail-on", .text), ("--max-bytes", .integer)])
    + options(of: "report", [("--previous", .text), ("--output", .text)])
    + options(of: "fetch", [("--method", .text), ("--data", .text)])
    + options(of: "bench", [("--scale", .integer), ("--format", .text), ("--seed", .integer), ("--keep", .text)])
    + options(of: "bench-run", [("--output", .text), ("--as-of", .date), ("--origin", .text)])

  static func options(of command: String, _ options: [(String, Reads)]) -> [FuzzedOption] {
    options.map { FuzzedOption(command: command, option: $0.0, reads: $0.1) }
  }

  @Test(arguments: runOutputOptions)
  func everyOptionOfWhatRunReadsAndWritesTakesExtremeValuesWithOneErrorLine(option: FuzzedOption) throws {
    try expectExtremeValuesGiveOneErrorLine(option)
  }

  @Test(arguments: runRequestOptions)
  func everyOptionOfHowRunAsksAndTellsTakesExtremeValuesWithOneErrorLine(option: FuzzedOption) throws {
    try expectExtremeValuesGiveOneErrorLine(option)
  }

  @Test(arguments: otherCommandsOptions)
  func everyOptionOfTheOtherCommandsTakesExtremeValuesWithOneErrorLine(option: FuzzedOption) throws {
    try expectExtremeValuesGiveOneErrorLine(option)
  }

  /// Runs `fuzzed`'s command with each value `fuzzed` meets: no crash, the command's trouble
  /// status, one `error:` line, nothing written.
  func expectExtremeValuesGiveOneErrorLine(_ fuzzed: FuzzedOption) throws {
    let work = try scratch("fuzz")
    let empty = work.appendingPathComponent("no-recordings")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let file = work.appendingPathComponent("a-file")
    try Data("x".utf8).write(to: file)
    let base = fuzzed.base(empty: empty, file: file)
    for value in fuzzed.values {
      let arguments = base + [fuzzed.option, value]
      let name = "\(fuzzed.command) \(fuzzed.option) \(value.debugDescription)"
      let ended = try run(arguments, in: work)
      #expect(!ended.crashed, "\(name): status \(ended.status)")
      #expect(ended.status == (fuzzed.command == "diff" ? 2 : 1), "\(name): status \(ended.status) \(ended.stderr)")
      let lines = safety.lines(ended.stderr)
      #expect(lines.count == 1 && lines.first?.hasPrefix("error: ") == true, "\(name): \(ended.stderr)")
    }
    // Nothing was written where the commands ran (an empty path is not the working directory).
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).sorted() == ["a-file", "no-recordings"])
  }

  /// Every option the commands above list is tried once, and each meets values of every kind.
  @Test func theFuzzedOptionsAreEveryListedOptionOnce() {
    #expect(Self.fuzzedOptions.count == 37)
    #expect(Set(Self.fuzzedOptions.map(\.testDescription)).count == Self.fuzzedOptions.count)
    for reads in [Reads.integer, .decimal, .date, .text] {
      let values = Set(reads.values)
      #expect(values.contains("99999999999999999999999999") && values.contains("-1"), "huge, negative: \(reads)")
      #expect(values.contains("") && values.contains("\u{1}\r\n\u{7F}"), "empty, control characters: \(reads)")
    }
  }

  @Test func aHugeTimeoutOrAFarDateIsRefusedAndLeavesNoLock() throws {
    let output = try safety.publishedOutput("far")
    let before = try safety.latest(output)
    for arguments in [["--timeout", "1e300"], ["--as-of", "9999-12-31"], ["--as-of", "2050-11-01"]] {
      let ended = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path] + arguments)
      #expect(ended.status == 1, "\(arguments)")
      #expect(safety.lines(ended.stderr).count == 1, "\(arguments): \(ended.stderr)")
      #expect(!FileManager.default.fileExists(atPath: safety.state(output).appendingPathComponent("run.lock").path))
    }
    #expect(try safety.latest(output) == before)
    // The ranges are in --help.
    let help = try cli.run(["run", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(help.contains("2000-01-01 to 2050-10-31"))
    #expect(help.contains("more than 0, at most 86400"))
    #expect(help.contains("0 to 10"))
    // The last as-of day whose window (October to December 2050) the calendar covers.
    let rule = try cli.run(["rule", "--as-of", "2050-10-31", "매월 둘째 일요일"])
    #expect(rule.status == 0, "\(rule.stderr)")
  }

  @Test func negativeNumbersGetAMessageSayingWhatIsAllowed() throws {
    let cases: [([String], String)] = [
      (["run", "--retries", "-1"], "error: --retries must be from 0 to 10, not -1"),
      (["run", "--timeout", "-5"], "error: --timeout must be a number of seconds more than 0 and at most 86400"),
      (["run", "--keep", "-2"], "error: --keep must be at least 1, not -2"),
      (["run", "--max-per-host", "-3"], "error: --max-per-host must be from 1 to 64, not -3"),
      (["diff", "a", "b", "--max-bytes", "-1"], "error: --max-bytes must be a positive number of bytes"),
    ]
    for (arguments, message) in cases {
      let ended = try cli.run(arguments)
      #expect(safety.lines(ended.stderr).count == 1, "\(arguments)")
      #expect(ended.stderr.hasPrefix(message), "\(arguments): \(ended.stderr)")
      #expect(!ended.stderr.contains("Missing value"), "\(arguments)")
    }
  }

  // MARK: Input hygiene

  @Test func aHeaderInjectionEmptyPathsAndConflictingOptionsAreRefusedWithOneLine() throws {
    let output = try safety.publishedOutput("hygiene")
    let before = try safety.latest(output)
    let work = try scratch("hygiene-work")
    let cases: [([String], String)] = [
      (
        ["run", "--replay", "fixtures/web", "--output", output.path, "--user-agent", "mart\r\nX-Injected: yes"],
        "error: --user-agent holds the control character U+000D"
      ),
      (["run", "--replay", "fixtures/web", "--output", ""], "error: --output must not be empty"),
      (["run", "--replay", "", "--output", output.path], "error: --replay must not be empty"),
      (
        ["run", "--replay", "fixtures/web", "--output", output.path, "--state", ""],
        "error: --state must not be empty"
      ),
      (
        ["run", "--replay", "fixtures/web", "--source", "costco=http://127.0.0.1:9", "--output", output.path],
        "error: --replay and --source costco=… cannot be used together"
      ),
      (["validate", ""], "error: DIR must not be empty"),
      (["report", output.path, "--output", ""], "error: --output must not be empty"),
      (["diff", "", output.path], "error: OLD must not be empty"),
    ]
    for (arguments, message) in cases {
      let ended = try run(arguments, in: work)
      #expect(ended.status == (arguments.first == "diff" ? 2 : 1), "\(arguments)")
      #expect(safety.lines(ended.stderr).count == 1, "\(arguments): \(ended.stderr)")
      #expect(ended.stderr.hasPrefix(message), "\(arguments): \(ended.stderr)")
      #expect(ended.stdout.isEmpty, "\(arguments)")
    }
    #expect(try safety.latest(output) == before)
    #expect(try FileManager.default.contentsOfDirectory(atPath: work.path).isEmpty, "nothing in the working directory")
  }

  @Test func theReportNeverReplacesADeviceADirectoryOrALink() throws {
    let output = try PublishedOutput.copy("report-device", brands: ["lottemart", "megamart"])
    let work = try scratch("report-device")
    let folder = work.appendingPathComponent("folder")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let target = work.appendingPathComponent("target.html")
    try Data("keep me".utf8).write(to: target)
    let link = work.appendingPathComponent("link.html")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    for (path, kind) in [("/dev/full", "a device"), (folder.path, "a directory"), (link.path, "a symbolic link")] {
      let ended = try cli.run(["report", output.path, "--output", path])
      #expect(ended.status == 1, "\(path)")
      #expect(
        safety.lines(ended.stderr) == [
          "error: \(path): is \(kind), not a regular file; the page is written only over a regular file or a new one"
        ])
    }
    var status = stat()
    #expect(lstat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    #expect(try Data(contentsOf: target) == Data("keep me".utf8))
    // A regular file is replaced as before.
    let written = try cli.run(["report", output.path, "--output", target.path])
    #expect(written.status == 0, "\(written.stderr)")
    #expect(try String(contentsOf: target, encoding: .utf8).contains("<html"))
  }

  @Test func aSecondSignalStillWritesTheReportAsCancelled() async throws {
    let output = try safety.publishedOutput("second-signal")
    let before = try safety.latest(output)
    let (process, stderr, slow, _) = try safety.startRunAgainstASlowServer(output: output)
    defer { slow.stop() }
    kill(process.processIdentifier, SIGTERM)
    // The second signal while the run stops: it must not cut the report short.
    usleep(300_000)
    kill(process.processIdentifier, SIGINT)
    let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 128 + SIGTERM)
    #expect(
      safety.lines(errors).filter { $0.hasPrefix("error: ") } == [
        "error: cancelled by SIGTERM: nothing published; the previous bundle stays current"
      ])
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    #expect(report["outcome"] as? String == "cancelled")
    #expect(try safety.latest(output) == before)
  }

  @Test func aRunRefusedByAnotherStateDirectorysRunNamesTheLockThatIsHeld() throws {
    let output = try safety.publishedOutput("other-state")
    // Another run with its lock file elsewhere holds the lock on the output directory itself.
    let fd = open(output.path, O_RDONLY | O_DIRECTORY)
    try #require(fd >= 0)
    defer { close(fd) }
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
    let refused = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-21"])
    #expect(refused.status == 1)
    #expect(
      safety.lines(refused.stderr) == [
        "error: --output: \(output.path) is in use by another run (one with another state directory holds the lock on \(output.path) itself); wait for it to finish"
      ])
    #expect(!refused.stderr.contains("run.lock"))
  }
}
