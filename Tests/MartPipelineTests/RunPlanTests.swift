import Foundation
import MartCore
import MartPipeline
import TestSupport
import Testing

/// A run is planned before anything is created: the plan checks and resolves, and only
/// `prepare()` creates the folders it names.
@Suite struct RunPlanTests {
  let root = FileManager.default.temporaryDirectory.appendingPathComponent("run-plan-\(UUID().uuidString)")

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
  }

  @Test func aMessageNamesOtherSettingsAsTheCallerDoes() {
    let text: SettingText = "give \(setting: .asOf), or set the clock right"
    #expect(text.worded { $0 == .asOf ? "AS-OF" : "?" } == "give AS-OF, or set the clock right")
    #expect(text.description == "give the as-of date, or set the clock right")
  }
}
