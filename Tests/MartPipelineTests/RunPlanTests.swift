import Foundation
import MartBrands
import MartCore
import MartFetch
import MartPipeline
import TestSupport
import Testing

/// A run is planned before anything is created: the plan checks and resolves, and only
/// `prepare()` creates the folders it names.
@Suite struct RunPlanTests {
  let root = Scratch.directory.appendingPathComponent("run-plan-\(UUID().uuidString)")

  @Test func aPlanResolvesEverythingAndCreatesNothing() throws {
    let output = root.appendingPathComponent("output")
    let plan = try RunPlan(
      RunConfiguration(outputDirectory: output, replayDirectory: FixturePaths.web, geocodingEnvironment: [:]))
    #expect(plan.mode == .replay)
    #expect(plan.recordings != nil)
    #expect(plan.asOfSetting == .replay)
    #expect(plan.archive == nil)
    #expect(plan.validatorStore == nil)
    #expect(plan.state == RunConfiguration.defaultStateDirectory(for: output))
    #expect(!FileManager.default.fileExists(atPath: root.path))

    let prepared = try plan.prepare()
    defer { prepared.release() }
    var isDirectory: ObjCBool = false
    #expect(FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory) && isDirectory.boolValue)
    #expect(FileManager.default.fileExists(atPath: plan.state.appendingPathComponent("run.lock").path))
  }

  @Test func aSettingAtFaultIsNamedByItsSettingAndTheCallerWordsIt() throws {
    let file = root.appendingPathComponent("output")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    try Data("x".utf8).write(to: file)
    let error = try #require(throws: RunSetupError.self) {
      try RunPlan(RunConfiguration(outputDirectory: file, asOf: CalendarDate(iso: "2026-11-20")))
    }
    #expect(error.setting == .output)
    #expect(error.worded { _ in "OUT" } == "OUT: \(file.path): is a file, not a directory")
    #expect(error.description == "the output directory: \(file.path): is a file, not a directory")
    // A LocatedError at the setting, with nothing underneath.
    #expect(error.location == "the output directory")
    #expect(error.message == "\(file.path): is a file, not a directory")
    #expect(error.cause == nil)
  }

  /// The error underneath is the cause, its words after the setting's: brands of one site sent
  /// to two mirrors are a conflict of the mirrors, which says it all.
  @Test func theErrorUnderneathIsTheCauseAndItsWordsComeLast() throws {
    let error = try #require(throws: RunSetupError.self) {
      try RunPlan(
        probing: RunConfiguration(
          outputDirectory: root.appendingPathComponent("output"),
          mirrors: [.emart: "http://127.0.0.1:1", .traders: "http://127.0.0.1:2"],
          asOf: CalendarDate(iso: "2026-11-20")))
    }
    let conflict = try #require(error.cause as? MirrorConflict)
    #expect(Set(conflict.site.brands).isSuperset(of: [.emart, .traders]))
    #expect(error.setting == .source)
    #expect(error.location == "the source mirrors")
    #expect(error.message == "")
    #expect(error.messageWithCause == conflict.description)
    #expect(error.description == "the source mirrors: \(conflict)")
    #expect(error.worded { _ in "--source" } == "--source: \(conflict)")
    #expect(error.causes.count == 1)

    // With words of its own, the cause's follow them.
    let wrapped = RunSetupError(setting: .replay, message: "cannot serve the recordings", cause: conflict)
    #expect(wrapped.message == "cannot serve the recordings")
    #expect(wrapped.description == "the recordings replayed: cannot serve the recordings: \(conflict)")
    #expect(wrapped == RunSetupError(setting: .replay, message: "cannot serve the recordings", cause: conflict))
    #expect(wrapped != RunSetupError(setting: .replay, message: "cannot serve the recordings"))
  }

  @Test func aMessageNamesOtherSettingsAsTheCallerDoes() {
    let text: SettingText = "give \(setting: .asOf), or set the clock right"
    #expect(text.worded { $0 == .asOf ? "AS-OF" : "?" } == "give AS-OF, or set the clock right")
    #expect(text.description == "give the as-of date, or set the clock right")
  }
}
