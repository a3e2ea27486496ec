import Foundation
import MartCore
import MartExport
import MartFiles
import MartReport
import Synchronization

extension Pipeline {
  /// What could not be written of what follows `latest.json` after a run: `current/`, and
  /// `report.html`.
  struct Following: Sendable {
    /// Why `current/` does not follow `latest.json`, when it does not.
    var current: RunProblem?
    /// Why `report.html` could not be written, when it could not.
    var page: RunProblem?
    /// What stood in the way in `current/` and was removed, as warnings.
    var repairs: [RunProblem] = []
    /// The run's report as `report.json` holds it, when the page was made from it: what
    /// `report.json` is written with when nothing above changed the report.
    var reportJSON: Data?

    /// Both, as the run's errors.
    var problems: [RunProblem] { [current, page].compactMap { $0 } }
  }

  /// Writes what follows `latest.json` after a run, each once and in this one place: `current/`
  /// brought in line with the bundle `latest.json` names, `report.html` rendered from the run's
  /// report, and then `report.json` with what of those could not be written among its errors.
  /// The bundles come from `outcome`'s memory when `latest.json` names the one it says
  /// (otherwise from disk). `current/` and the page are made side by side: neither reads what
  /// the other writes. When the `report.json` there already says the same apart from when it ran
  /// (``RunReport/saysTheSame(as:)``), it and the page made from it are kept as they are, so a run
  /// that changes nothing leaves every file of the output, and its modification time, as they
  /// were. Returns the report as written (a failure to write `report.json` itself is among its
  /// errors).
  public static func finishOutput(_ outcome: PipelineOutcome, output: URL) -> RunReport {
    var report = outcome.report
    let reportPath = OutputLayout(output).report.path
    let keep = PlainFiles.contents(of: reportPath).map { report.saysTheSame(as: $0) } ?? false
    let following = followLatest(outcome, output: output, keepingPage: keep)
    report.errors += following.problems
    report.warnings += following.repairs
    let unchanged = following.problems.isEmpty && following.repairs.isEmpty
    if keep, unchanged { return report }
    do {
      let data = try (unchanged ? following.reportJSON : nil) ?? BundleJSON.encode(report)
      try Files.replace(reportPath, with: data)
    } catch {
      report.errors.append(RunProblem(kind: .report, message: "writing report.json failed: \(error)"))
    }
    return report
  }

  /// Makes `current/` and `report.html` (from `outcome`'s report) side by side; returns what
  /// could not be written. With `keepingPage`, a page already there is left as it is.
  static func followLatest(_ outcome: PipelineOutcome, output: URL, keepingPage: Bool = false) -> Following {
    let named = try? OutputLayout(output).readLatest()
    let latest = outcome.latest.flatMap { named == $0.pointer ? $0 : nil }
    let parts = Mutex(Following())
    DispatchQueue.concurrentPerform(iterations: 2) { part in
      if part == 0 {
        let (problem, repairs) = synchronizeCurrent(output: output, latest: latest)
        parts.withLock {
          $0.current = problem
          $0.repairs = repairs
        }
      } else if !keepingPage || Files.kind(at: OutputLayout(output).reportPage.path) != .regularFile {
        // Encoded once, for the page and for report.json.
        let encoded = try? BundleJSON.encode(outcome.report)
        let problem = writeReportPage(
          output: output, report: outcome.report, encoded: encoded, latest: latest, previous: outcome.previous)
        parts.withLock {
          $0.page = problem
          $0.reportJSON = encoded
        }
      }
    }
    var following = parts.withLock { $0 }
    // The page was made side by side with current/: when current/ failed or needed repairs, it
    // is made again with them, so that it states the run's outcome as report.json and the exit
    // status do.
    if following.page == nil, following.current != nil || !following.repairs.isEmpty {
      var report = outcome.report
      report.errors += [following.current].compactMap { $0 }
      report.warnings += following.repairs
      following.page = writeReportPage(output: output, report: report, latest: latest, previous: outcome.previous)
    }
    return following
  }

  /// Brings `current/` in line with `latest.json` (whose bundle is `latest`, when given);
  /// the problem when it could not, and what stood in the way and was removed.
  static func synchronizeCurrent(output: URL, latest: PublishedBundle?) -> (RunProblem?, [RunProblem]) {
    do {
      let done = try CurrentDirectory(outputDirectory: output).synchronize(latest: latest)
      // A path that cannot be cleared holds back its own files only; no later run clears it.
      let blocked =
        done.blocked.isEmpty
        ? nil
        : RunProblem(
          kind: .current,
          message: "current/ follows latest.json but for what stands in the way: "
            + done.blocked.joined(separator: "; ") + "; every other file was written")
      return (blocked, done.repaired.map { RunProblem(kind: .current, message: $0) })
    } catch {
      return (
        RunProblem(
          kind: .current, message: "current/ could not follow latest.json: \(error); the next run finishes it"),
        []
      )
    }
  }

  /// Writes `report.html` of the run whose report is `report`; the problem when it could not.
  /// An older page is then kept, marked as old (``ReportPage/markedOld(_:startedAt:reason:)``),
  /// so the operator still has a page; when it cannot be marked either (the disk that refused
  /// the new page refuses the marked one), it is kept as it was, its times saying which run it
  /// shows, and the problem says so. `encoded` is the report as `BundleJSON` encodes it, when the
  /// caller has it already.
  static func writeReportPage(
    output: URL, report: RunReport, encoded: Data? = nil, latest: PublishedBundle?, previous: PublishedBundle?
  ) -> RunProblem? {
    do {
      let written = try ReportFiles.decodeReport(try encoded ?? BundleJSON.encode(report))
      if let latest {
        try ReportFiles.write(
          outputDirectory: output, report: written, latest: latest, previous: previous,
          sources: Pipeline.independentSources)
      } else {
        try ReportFiles.write(outputDirectory: output, report: written, sources: Pipeline.independentSources)
      }
      return nil
    } catch {
      let page = OutputLayout(output).reportPage.path
      let failure = "report.html could not be written: \(error)"
      guard Files.kind(at: page) == .regularFile, let old = PlainFiles.contents(of: page) else {
        return RunProblem(kind: .report, message: failure)
      }
      let marked = ReportPage.markedOld(
        String(decoding: old, as: UTF8.self), startedAt: report.startedAt, reason: "\(error)")
      do {
        try Files.replace(page, with: Data(marked.utf8))
        return RunProblem(kind: .report, message: "\(failure); the page of an earlier run is kept, marked as old")
      } catch {
        return RunProblem(
          kind: .report,
          message: "\(failure); the page of an earlier run is kept as it was (it could not be marked as old either)")
      }
    }
  }
}
