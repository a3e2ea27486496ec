import Foundation
import MartCore
import MartExport
import Synchronization
import TestSupport
import Testing

/// Bundles written by the real binary over the recorded pages: determinism, reruns, schemas
/// and calendars checked by independent tools, `validate`, and `diff` on pairs of real bundles
/// edited the way sources change.
@Suite struct BundleCommandTests {
  let cli = CommandLineContractTests()

  /// A fresh output directory with one replayed run published into it: a private copy of
  /// `PublishedOutput`.
  func publishedRun(_ label: String = "bundle") throws -> URL { try PublishedOutput.copy(label) }

  /// Every regular file under `root`, relative path → bytes.
  func tree(_ root: URL) throws -> [String: Data] {
    let walker = try #require(FileManager.default.enumerator(atPath: root.path))
    var files: [String: Data] = [:]
    while let relative = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      let url = root.appendingPathComponent(relative)
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files[relative] = try Data(contentsOf: url)
      }
    }
    return files
  }

  /// Runs `python3 scripts/check_bundle_schemas.py` with `arguments`; a missing python3 or
  /// missing Python packages fail the test (exit status 127 or 1 with a traceback).
  func python(_ arguments: [String]) throws -> CommandLineContractTests.Outcome {
    let python = Python3.invocation(["scripts/check_bundle_schemas.py"] + arguments)
    let ended = try ProcessRunner.run(python.executable, python.arguments, in: FixturePaths.repositoryRoot)
    return .init(status: ended.status, stdout: ended.stdoutText, stderr: ended.stderrText)
  }

  @Test func twoRunsWriteIdenticalBytes() throws {
    // Everything clients read; report.json and report.html are for operators and carry the run's
    // times and the replay server's port, which differ from run to run.
    var first = try tree(try PublishedOutput.directory())
    // The second run, from scratch like the first (made once; ConsecutiveDaysSharingTests goes
    // on from a copy of it).
    var second = try tree(try PublishedOutput.secondRunDirectory())
    for name in ["report.json", "report.html"] {
      #expect(first.removeValue(forKey: name) != nil)
      #expect(second.removeValue(forKey: name) != nil)
    }
    #expect(first.keys.sorted() == second.keys.sorted())
    #expect(first.keys.contains { $0.hasSuffix(".json.gz") })
    #expect(first.keys.contains { $0.hasPrefix("bundles/") && $0.hasSuffix(".ics") })
    for (path, data) in first where second[path] != data {
      Issue.record("\(path) differs between two runs over the same recordings")
    }
  }

  @Test func aRerunWithTheSameContentLeavesEverythingAsItIs() throws {
    let output = try publishedRun("rerun")
    let latest = output.appendingPathComponent("latest.json")
    let before = try FileManager.default.attributesOfItem(atPath: latest.path)
    let bundlesBefore = try tree(output.appendingPathComponent("bundles"))
    let outcome = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path])
    #expect(outcome.status == 0, "stderr: \(outcome.stderr)")
    let after = try FileManager.default.attributesOfItem(atPath: latest.path)
    #expect(before[.systemFileNumber] as? UInt64 == after[.systemFileNumber] as? UInt64)
    #expect(before[.modificationDate] as? Date == after[.modificationDate] as? Date)
    #expect(try tree(output.appendingPathComponent("bundles")) == bundlesBefore)
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("bundles").path).count == 1)
  }

  @Test func everyFileMatchesItsSchemaAndEveryCalendarParses() throws {
    // The checker only reads: the shared published output itself.
    let output = try PublishedOutput.directory()
    let outcome = try python([output.path])
    #expect(outcome.status == 0, "stdout: \(outcome.stdout) stderr: \(outcome.stderr)")
    // One calendar per branch and per brand; JSON: branches, one per brand, index, closures,
    // districts; the manifest, latest.json and report.json. The .gz copies are compared with
    // their files.
    let manifest = try #require(try BundleStore(outputDirectory: output).latest()).manifest
    let branches = manifest.brands.map(\.branchCount).reduce(0, +)
    let brands = manifest.brands.count
    let expected = branches + brands + (4 + brands) + 3
    #expect(outcome.stdout.contains("\(expected) files checked in 1 bundles, 0 problems"), "stdout: \(outcome.stdout)")
  }

  @Test func theSchemaCheckerCatchesWhatIsWrong() throws {
    // What the checker finds wrong does not depend on how many brands the output holds: a copy
    // of docs/sample, the output of a run over E-mart and 메가마트 (kept equal to what the
    // fixtures produce by OutputLayoutTests), checks in a fraction of the full output's time.
    let output = Scratch.directory.appendingPathComponent("schemas-bad-\(UUID().uuidString)")
    try ProcessRunner.copyTree(FixturePaths.repositoryRoot.appendingPathComponent("docs/sample"), to: output)
    let bundle = output.appendingPathComponent(
      try #require(try BundleStore(outputDirectory: output).latest()).pointer.bundle)
    // A key documented as always present goes missing, and a calendar line grows past 75 octets.
    let index = bundle.appendingPathComponent("index.json")
    try Data(
      String(decoding: try Data(contentsOf: index), as: UTF8.self)
        .replacingOccurrences(of: #""sigungu":"도봉구","#, with: "").utf8
    ).write(to: index)
    let calendar = bundle.appendingPathComponent("calendars/branches/emart-1059.ics")
    try Data(
      String(decoding: try Data(contentsOf: calendar), as: UTF8.self)
        .replacingOccurrences(of: "TRANSP:TRANSPARENT", with: "X-NOTE:" + String(repeating: "가", count: 30)).utf8
    ).write(to: calendar)
    let outcome = try python([output.path])
    #expect(outcome.status == 1)
    #expect(outcome.stderr.contains("index.json: branches/"), "stderr: \(outcome.stderr)")
    #expect(outcome.stderr.contains("'sigungu' is a required property"), "stderr: \(outcome.stderr)")
    #expect(outcome.stderr.contains("emart-1059.ics:"), "stderr: \(outcome.stderr)")
    #expect(outcome.stderr.contains("more than 75"), "stderr: \(outcome.stderr)")
  }

  @Test func theReportSchemaDescribesProblemsAsObjects() throws {
    let directory = Scratch.directory.appendingPathComponent("report-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let report = #"""
      {"asOf":"2026-11-20","branchesNotTrading":[{"id":"homeplus-655","state":"closed","until":null}],
       "branchesWithUnknownClosingDays":["emart-1099"],"branchesWithUnknownDays":["emart-1099","emart-1100"],
       "branchesWithEveryDayUnknown":["emart-1099"],"branchesWithoutCoordinates":[],
       "brands":[{"branchCount":10,"error":null,"freshness":"fresh","lastFetchedAsOf":"2026-11-20","name":"이마트","slug":"emart","status":"fresh"},
                 {"branchCount":0,"error":"the source returned no branches","freshness":"missing","lastFetchedAsOf":null,"name":"코스트코","slug":"costco","status":"missing"}],
       "errors":[],"outcome":"published-with-missing-brands","published":null,
       "fetch":{"hosts":{"store.emart.com":{"bytes":512,"failures":0,"notModifiedReuses":1,"requests":2,"retries":1}},
                "total":{"bytes":512,"failures":0,"notModifiedReuses":1,"requests":2,"retries":1}},
       "warnings":[{"brand":"emart","branch":"emart-1099","kind":"closing-days","message":"no closing days understood"},
                   {"brand":null,"branch":null,"kind":"carry-over","message":"last bundle unreadable"}],
       "window":{"from":"2026-11-01","through":"2027-01-31"},
       "toolVersion":"0.9.0","startedAt":"2026-11-20T01:00:00Z","finishedAt":"2026-11-20T01:02:00Z",
       "change":{"bundle":"new","previousVersion":null,"branchCounts":{"costco":{"previous":19,"now":0}},
                 "closingDaysChanged":0,"files":{"linked":0,"written":254}}}
      """#
    let good = directory.appendingPathComponent("report.json")
    try Data(report.utf8).write(to: good)
    let valid = try python(["--schema", "report", good.path])
    #expect(valid.status == 0, "stderr: \(valid.stderr)")
    let bad = directory.appendingPathComponent("old-report.json")
    try Data(
      report.replacingOccurrences(
        of: #"{"brand":null,"branch":null,"kind":"carry-over","message":"last bundle unreadable"}"#,
        with: #""last bundle unreadable""#
      ).utf8
    ).write(to: bad)
    let invalid = try python(["--schema", "report", bad.path])
    #expect(invalid.status == 1)
    #expect(invalid.stderr.contains("warnings/1"), "stderr: \(invalid.stderr)")
  }

  @Test func validateAcceptsARunAndNamesATamperedFile() throws {
    let output = try publishedRun("validate")
    let ok = try cli.run(["validate", output.path])
    #expect(ok.status == 0, "stderr: \(ok.stderr)")
    #expect(ok.stdout.hasPrefix("valid: bundle 2026-11-20-"))
    #expect(ok.stderr.isEmpty)

    let latest = try #require(try BundleStore(outputDirectory: output).latest())
    let file = latest.directory.appendingPathComponent("calendars/brands/lottemart.ics")
    var data = try Data(contentsOf: file)
    data.append(contentsOf: Array("X-EXTRA:1\r\n".utf8))
    try data.write(to: file)
    let tampered = try cli.run(["validate", output.path])
    #expect(tampered.status == 1)
    #expect(tampered.stdout.isEmpty)
    let lines = tampered.stderr.split(separator: "\n")
    #expect(
      lines.first?.hasSuffix(
        "calendars/brands/lottemart.ics: \(data.count) bytes, manifest.json says \(data.count - 11)")
        == true,
      "stderr: \(tampered.stderr)")
    #expect(lines.allSatisfy { $0.contains("calendars/brands/lottemart.ics: ") }, "stderr: \(tampered.stderr)")

    let missing = try cli.run(["validate", output.appendingPathComponent("nothing-here").path])
    #expect(missing.status == 1)
    #expect(!missing.stderr.isEmpty)
  }
}

/// `diff` on pairs of real bundles: the replayed run, and a copy edited like a source change.
@Suite struct DiffCommandTests {
  let cli = CommandLineContractTests()

  /// The brands one site publishes, one source of closing days each site, as the binary's
  /// `validate` has them (`KnownBrands.independentSources`, pinned in MartBrandsTests).
  static let sources: [BrandSlug: String] = {
    let sites: [String: [BrandSlug]] = [
      "store.emart.com": ["emart", "traders", "nobrand", "everyday"],
      "my.homeplus.co.kr": ["homeplus", "homeplus-express"],
      "company.lottemart.com": ["lottemart", "lotte-maxx", "grand-grocery", "toysrus", "bottle-bunker"],
    ]
    return Dictionary(uniqueKeysWithValues: sites.flatMap { site, brands in brands.map { ($0, site) } })
  }()

  /// The replayed run's output directory and its branches: the shared published output, which
  /// `diff` only reads, or a private copy of it for a test that damages it.
  func baseline(copied: Bool = false) throws -> (URL, PublishedBundle) {
    let output = copied ? try PublishedOutput.copy("diff-old") : try PublishedOutput.directory()
    return (output, try #require(try BundleStore(outputDirectory: output).latest()))
  }

  /// Publishes the baseline's branches after `edit`, and its manifest's brands after
  /// `editBrands`, into a new output directory, and checks that it is valid (unless `validated`
  /// is false: then the caller does, with ``requireValid(_:)``).
  func edited(
    _ bundle: PublishedBundle, validated: Bool = true, brands editBrands: (inout [BrandSummary]) -> Void = { _ in },
    _ edit: (inout [Branch]) throws -> Void
  ) throws -> URL {
    var branches = bundle.branches.branches
    try edit(&branches)
    let counts = Dictionary(grouping: branches, by: \.brand).mapValues(\.count)
    var brands = bundle.manifest.brands.map { summary in
      var summary = summary
      summary.branchCount = counts[summary.slug] ?? 0
      return summary
    }
    editBrands(&brands)
    let output = Scratch.directory.appendingPathComponent("diff-new-\(UUID().uuidString)")
    // As a run of the same output would: starting from what the bundle's districts.json knew, so
    // a designation no fresh store confirms is kept.
    let districts = DistrictDesignations.infer(
      from: branches, window: bundle.manifest.window, exempt: brands.exemptFromDesignation,
      storeClasses: brands.storeClasses, sources: Self.sources, asOf: bundle.manifest.asOf,
      memory: try #require(bundle.districtsFile()).memory)
    try BundleStore(outputDirectory: output).publish(
      branches: branches, brands: brands, day: RunDay(asOf: bundle.manifest.asOf, window: bundle.manifest.window),
      districts: districts)
    if validated { try requireValid([output]) }
    return output
  }

  /// Requires every edited output to be valid, validating them at the same time.
  func requireValid(_ outputs: [URL]) throws {
    let results = Mutex<[Int: Result<CommandLineContractTests.Outcome, any Error>]>([:])
    DispatchQueue.concurrentPerform(iterations: outputs.count) { index in
      let result = Result { try cli.run(["validate", outputs[index].path]) }
      results.withLock { $0[index] = result }
    }
    for index in outputs.indices {
      let valid = try #require(results.withLock { $0[index] }).get()
      try #require(valid.status == 0, "the edited bundle must itself be valid: \(valid.stderr)")
    }
  }

  func index(of id: String, in branches: [Branch]) throws -> Int {
    try #require(branches.firstIndex { $0.id.description == id }, "\(id) in the recorded pages")
  }

  func json(_ outcome: CommandLineContractTests.Outcome) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
  }

  @Test func sameBundleHasNoChanges() throws {
    let (old, _) = try baseline()
    var outcomes: [String: CommandLineContractTests.Outcome] = [:]
    for format in ["text", "json", "markdown"] {
      let outcome = try cli.run(["diff", old.path, old.path, "--format", format])
      #expect(outcome.status == 0, "\(format): \(outcome.stderr)")
      outcomes[format] = outcome
    }
    let json = try json(try #require(outcomes["json"]))
    #expect(json["added"] as? [String] == [])
    #expect(json["removed"] as? [String] == [])
    #expect((json["changed"] as? [Any])?.isEmpty == true)
  }

  @Test func aRemovedStoreInAllThreeFormats() throws {
    let (old, bundle) = try baseline()
    let new = try edited(bundle) { branches in
      branches.remove(at: try index(of: "lottemart-창원중앙점", in: branches))
    }
    let json = try json(try cli.run(["diff", old.path, new.path, "--format", "json"]))
    #expect(json["removed"] as? [String] == ["lottemart-창원중앙점"])
    #expect(json["added"] as? [String] == [])
    #expect((json["changed"] as? [Any])?.isEmpty == true)
    let summary = try #require(json["summary"] as? [String: Any])
    #expect(summary["removed"] as? Int == 1)
    #expect((summary["brands"] as? [String: [String: Int]])?["lottemart"]?["removed"] == 1)

    let text = try cli.run(["diff", old.path, new.path])
    #expect(text.status == 1)
    #expect(text.stdout.contains("removed  lottemart-창원중앙점  롯데마트 "), "stdout: \(text.stdout)")
    let markdown = try cli.run(["diff", old.path, new.path, "--format", "markdown"])
    #expect(markdown.status == 1)
    // Removals come first, in the head, before any brand's section.
    #expect(
      markdown.stdout.contains("- **removed** from 롯데마트 (`lottemart`), 1: `lottemart-창원중앙점` "),
      "stdout: \(markdown.stdout)")
    #expect(markdown.stdout.contains("| 롯데마트 (`lottemart`) | fresh | 0 | 1 | 0 |"))
    // CI that only cares about closing days lets a removal through (still reported).
    let lenient = try cli.run(["diff", old.path, new.path, "--fail-on", "closing-dates"])
    #expect(lenient.status == 0)
    #expect(lenient.stdout.contains("removed  lottemart-창원중앙점"))
  }

  @Test func aStoreThatClosesIsAStoreStatusChange() throws {
    let (old, bundle) = try baseline()
    // 창원중앙점 closes for good: shut on every day of the window.
    let window = bundle.manifest.window
    let new = try edited(bundle) { branches in
      let at = try index(of: "lottemart-창원중앙점", in: branches)
      branches[at].storeStatus = StoreStatus(state: .closed, text: "영업종료")
      branches[at].closing = BranchClosing(
        schedule: branches[at].closing.schedule, window: window, storeStatus: branches[at].storeStatus)
    }
    let outcome = try cli.run(["diff", old.path, new.path, "--format", "json"])
    #expect(outcome.status == 1)
    let changed = try #require(try json(outcome)["changed"] as? [[String: Any]])
    let changes = try #require(
      changed.first { $0["id"] as? String == "lottemart-창원중앙점" }?["changes"] as? [[String: Any]])
    let status = try #require(changes.first { $0["field"] as? String == "store-status" })
    #expect(status["old"] as? String == "trading")
    #expect(status["new"] as? String == "closed")
    #expect(changes.first?["field"] as? String == "store-status", "listed first")
    // Its shut days are told by the status change, not listed again as closing dates.
    #expect(!changes.contains { $0["field"] as? String == "closing-dates" }, "\(changes)")
    #expect(try cli.run(["diff", old.path, new.path, "--fail-on", "store-status"]).status == 1)
    #expect(try cli.run(["diff", old.path, new.path, "--fail-on", "phone"]).status == 0)
  }

  @Test func aClosingDayMovedByAWeek() throws {
    let (old, bundle) = try baseline()
    // emart-1059 publishes 2026-12-13 (December's 2nd Sunday); it moves to the next Sunday, 12-20.
    let december13 = try #require(CalendarDate(iso: "2026-12-13"))
    let december20 = try #require(CalendarDate(iso: "2026-12-20"))
    let new = try edited(bundle) { branches in
      let at = try index(of: "emart-1059", in: branches)
      try #require(branches[at].closing.dates.contains(december13))
      branches[at].closing.dates = (branches[at].closing.dates.filter { $0 != december13 } + [december20]).sorted()
    }
    let outcome = try cli.run(["diff", old.path, new.path, "--format", "json"])
    #expect(outcome.status == 1)
    let changed = try #require(try json(outcome)["changed"] as? [[String: Any]])
    #expect(changed.count == 1)
    #expect(changed.first?["id"] as? String == "emart-1059")
    let changes = try #require(changed.first?["changes"] as? [[String: Any]])
    #expect(changes.count == 1)
    #expect(changes.first?["field"] as? String == "closing-dates")
    #expect(changes.first?["old"] as? [String] == ["2026-12-13"])
    #expect(changes.first?["new"] as? [String] == ["2026-12-20"])

    // Both days are Sundays (일); the text and markdown show the day gone → the day added.
    let text = try cli.run(["diff", old.path, new.path])
    #expect(text.stdout.contains("  closing-dates  emart-1059 "), "stdout: \(text.stdout)")
    #expect(text.stdout.contains(": 12-13(일) → 12-20(일)"), "stdout: \(text.stdout)")
    let markdown = try cli.run(["diff", old.path, new.path, "--format", "markdown"])
    #expect(markdown.stdout.contains("- **closing-dates** `emart-1059` "), "stdout: \(markdown.stdout)")
    #expect(markdown.stdout.contains(": 12-13(일) → 12-20(일)"), "stdout: \(markdown.stdout)")
    #expect(try cli.run(["diff", old.path, new.path, "--fail-on", "removed,closing-dates"]).status == 1)
    #expect(try cli.run(["diff", old.path, new.path, "--fail-on", "removed", "--fail-on", "phone"]).status == 0)
  }

  @Test func coordinatesNudgedAFewMetresAreNotAMoveButAKilometreIs() throws {
    let (old, bundle) = try baseline()
    func shifted(by degrees: Double) throws -> URL {
      try edited(bundle, validated: false) { branches in
        let at = try index(of: "emart-1059", in: branches)
        try #require(branches[at].coordinate != nil)
        branches[at].coordinate?.latitude += degrees
      }
    }
    // One degree of latitude is about 111.2 km: 0.00003° is about 3.3 m, 0.009° about 1.0 km.
    let nudged = try shifted(by: 0.00003)
    let moved = try shifted(by: 0.009)
    try requireValid([nudged, moved])
    let quiet = try cli.run(["diff", old.path, nudged.path])
    #expect(quiet.status == 0)
    #expect(quiet.stdout.contains("no changes"))

    let outcome = try cli.run(["diff", old.path, moved.path, "--format", "json"])
    #expect(outcome.status == 1)
    let changed = try #require(try json(outcome)["changed"] as? [[String: Any]])
    let change = try #require((changed.first?["changes"] as? [[String: Any]])?.first)
    #expect(change["field"] as? String == "coordinates")
    let before = try #require(change["old"] as? [String: Double])
    let after = try #require(change["new"] as? [String: Double])
    #expect(abs(try #require(after["latitude"]) - (try #require(before["latitude"])) - 0.009) < 1e-9)
    let markdown = try cli.run(["diff", old.path, moved.path, "--format", "markdown"])
    #expect(markdown.stdout.contains("(moved 1.0 km)"), "stdout: \(markdown.stdout)")
  }

  @Test func aChangedPhoneAndFailOn() throws {
    let (old, bundle) = try baseline()
    let new = try edited(bundle) { branches in
      let at = try index(of: "emart-1059", in: branches)
      branches[at].phone = "055-999-0000"
      branches[at].phonePublished = "055-999-0000"
    }
    let outcome = try cli.run(["diff", old.path, new.path, "--format", "json"])
    #expect(outcome.status == 1)
    let changed = try #require(try json(outcome)["changed"] as? [[String: Any]])
    let change = try #require((changed.first?["changes"] as? [[String: Any]])?.first)
    #expect(change["field"] as? String == "phone")
    #expect(change["new"] as? String == "055-999-0000")
    #expect((change["old"] as? String)?.isEmpty == false)
    #expect((try json(outcome)["summary"] as? [String: Any])?["kinds"] as? [String: Int] == ["phone": 1])

    let reportedOnly = try cli.run(["diff", old.path, new.path, "--fail-on", "removed,closing-dates"])
    #expect(reportedOnly.status == 0)
    #expect(reportedOnly.stdout.contains("phone"))
    #expect(try cli.run(["diff", old.path, new.path, "--fail-on", "phone"]).status == 1)
    let markdown = try cli.run(["diff", old.path, new.path, "--format", "markdown"])
    #expect(markdown.stdout.contains("- **phone** `emart-1059` "), "stdout: \(markdown.stdout)")
    #expect(markdown.stdout.contains(" → 055-999-0000\n"))
  }

  @Test func aBrandGoingStaleIsAChangeOnItsOwn() throws {
    let (old, bundle) = try baseline()
    // The run failed for 그랑그로서리: its branches are carried over unchanged, fetched on 11-19(목).
    // A stale brand's stores are no evidence for their districts, but the designations they
    // confirmed are kept (수원's and 유성구's hypermarkets), so nothing else changes.
    let new = try edited(
      bundle,
      brands: { brands in
        for index in brands.indices where brands[index].slug.rawValue == "grand-grocery" {
          brands[index].freshness = .stale
          brands[index].lastFetchedAsOf = CalendarDate(iso: "2026-11-19")
        }
      }, { _ in })
    let text = try cli.run(["diff", old.path, new.path])
    #expect(text.status == 1)
    #expect(
      text.stdout.contains("brand-freshness  그랑그로서리 (grand-grocery)  fresh → stale (last fetched 2026-11-19(목))"))
    #expect(!text.stdout.contains("no changes"))
    let outcome = try cli.run(["diff", old.path, new.path, "--format", "json"])
    #expect(outcome.status == 1)
    let json = try json(outcome)
    #expect((json["changed"] as? [Any])?.isEmpty == true)
    let brands = try #require(json["brands"] as? [[String: Any]])
    #expect(brands.map { $0["brand"] as? String } == ["grand-grocery"])
    #expect(brands.first?["brandName"] as? String == "그랑그로서리")
    #expect((brands.first?["old"] as? [String: Any])?["freshness"] as? String == "fresh")
    #expect((brands.first?["new"] as? [String: Any])?["freshness"] as? String == "stale")
    #expect((json["summary"] as? [String: Any])?["kinds"] as? [String: Int] == ["brand-freshness": 1])
    let markdown = try cli.run(["diff", old.path, new.path, "--format", "markdown"])
    #expect(markdown.status == 1)
    #expect(
      markdown.stdout.contains(
        "| 그랑그로서리 (`grand-grocery`) | fresh → stale (last fetched 2026-11-19(목)) | 0 | 0 | 0 |"),
      "stdout: \(markdown.stdout)")
    #expect(try cli.run(["diff", old.path, new.path, "--fail-on", "brand-freshness"]).status == 1)
    #expect(try cli.run(["diff", old.path, new.path, "--fail-on", "closing-dates,unknown-days"]).status == 0)
    // And back: fresh again.
    #expect(try cli.run(["diff", new.path, old.path, "--fail-on", "brand-freshness"]).status == 1)
  }

  /// The two bundles of ``hundredsOfIdenticalChangesStayWithinMaxBytes(maxBytes:)``, made once
  /// for its cases, and the whole markdown diff between them: 600 copies of emart-1059, which
  /// closes on 2026-12-13 (일); in the new bundle every copy closes on 2026-12-20 (일) instead.
  struct Copies: Sendable {
    var old: URL
    var new: URL
    var full: CommandLineContractTests.Outcome
  }

  static let copies = Result<Copies, any Error> { try DiffCommandTests().makeCopies() }

  func makeCopies() throws -> Copies {
    let (_, bundle) = try baseline()
    let december13 = try #require(CalendarDate(iso: "2026-12-13"))
    let december20 = try #require(CalendarDate(iso: "2026-12-20"))
    func copies(moved: Bool) throws -> URL {
      try edited(bundle, validated: false) { branches in
        let original = branches[try index(of: "emart-1059", in: branches)]
        try #require(original.closing.dates.contains(december13))
        for number in 0..<600 {
          var copy = original
          copy.id = BranchID(brand: original.brand, storeID: "9\(number)")
          copy.name = "복제\(number)점"
          if moved {
            copy.closing.dates = (copy.closing.dates.filter { $0 != december13 } + [december20]).sorted()
          }
          branches.append(copy)
        }
        branches.sort { $0.id < $1.id }
      }
    }
    let old = try copies(moved: false)
    let new = try copies(moved: true)
    try requireValid([old, new])
    let full = try cli.run(["diff", old.path, new.path, "--format", "markdown", "--max-bytes", "1000000"])
    return Copies(old: old, new: new, full: full)
  }

  /// One case per bound (the whole diff, two that shorten it, one too small for its header), so
  /// that no case runs long; the bundles are made once, by the first case that needs them.
  @Test(arguments: [1_000_000, 60_000, 4_000, 200])
  func hundredsOfIdenticalChangesStayWithinMaxBytes(maxBytes: Int) throws {
    let copies = try Self.copies.get()
    let full = copies.full
    switch maxBytes {
    case 1_000_000:
      #expect(full.status == 1)
      #expect(full.stdout.contains("- **closing-dates**, 600 branches: 12-13(일) → 12-20(일)\n"))
      #expect(!full.stdout.contains("see the JSON diff"))
      #expect(full.stdout.utf8.count > 4_000)
    case 200:
      let tooSmall = try cli.run([
        "diff", copies.old.path, copies.new.path, "--format", "markdown", "--max-bytes", "200",
      ])
      #expect(tooSmall.status == 2)
      #expect(tooSmall.stdout.isEmpty)
      #expect(tooSmall.stderr.contains("--max-bytes 200 cannot hold the header"), "stderr: \(tooSmall.stderr)")
    default:
      let outcome = try cli.run([
        "diff", copies.old.path, copies.new.path, "--format", "markdown", "--max-bytes", "\(maxBytes)",
      ])
      #expect(outcome.status == 1)
      #expect(outcome.stdout.utf8.count <= maxBytes)
      #expect(outcome.stdout.contains("- **closing-dates**, 600 branches: 12-13(일) → 12-20(일)\n"))
      if full.stdout.utf8.count > maxBytes {
        #expect(outcome.stdout.contains(", … and "), "stdout: \(outcome.stdout)")
        #expect(outcome.stdout.contains(" more branches (see the JSON diff)"), "stdout: \(outcome.stdout)")
        #expect(outcome.stdout.contains("_Shortened to stay within \(maxBytes) bytes: "), "stdout: \(outcome.stdout)")
      }
    }
  }

  @Test(arguments: [
    ["--format", "xml"], ["--fail-on", "everything"], ["--fail-on", ""], ["--no-such-option"],
    ["--max-bytes", "0"], ["--max-bytes", "many"], ["--format", "markdown", "--max-bytes", "20"],
  ])
  func troubleExitsTwo(extra: [String]) throws {
    let (old, _) = try baseline()
    let outcome = try cli.run(["diff", old.path, old.path] + extra)
    #expect(outcome.status == 2)
    #expect(!outcome.stderr.isEmpty)
  }

  @Test func aMissingOrTamperedBundleExitsTwo() throws {
    let (old, bundle) = try baseline(copied: true)
    let missing = try cli.run(["diff", old.path, old.appendingPathComponent("nothing-here").path])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("nothing-here"))
    #expect(try cli.run(["diff", old.path]).status == 2)

    let branchesFile = bundle.directory.appendingPathComponent("branches.json")
    var data = try Data(contentsOf: branchesFile)
    data.append(0x20)
    try data.write(to: branchesFile)
    let tampered = try cli.run(["diff", old.path, old.path])
    #expect(tampered.status == 2)
    #expect(tampered.stderr.contains("branches.json"))
  }
}
