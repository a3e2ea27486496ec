import Foundation
import TestSupport
import Testing

/// Runs the built `mart-holiday` binary the way scripts and acceptance checks do, and checks
/// the command-line contracts: JSON fields, exit statuses, help texts.
@Suite struct CommandLineContractTests {
  struct Outcome {
    var status: Int32
    var stdout: String
    var stderr: String

    init(status: Int32, stdout: String, stderr: String) {
      self.status = status
      self.stdout = stdout
      self.stderr = stderr
    }

    init(_ outcome: ProcessRunner.Outcome) {
      self.init(status: outcome.status, stdout: outcome.stdoutText, stderr: outcome.stderrText)
    }

    func json() throws -> [String: Any] {
      try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    }
  }

  /// The executable beside this test bundle in the build folder.
  static let binary: URL = {
    let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return testExecutable.deletingLastPathComponent().appendingPathComponent("mart-holiday")
  }()

  /// Runs the binary in the repository's root and waits for it (``ChildProcess``: without the
  /// idle tens of milliseconds `Process.waitUntilExit()` adds to each command).
  func run(_ arguments: [String]) throws -> Outcome {
    let ended = try ProcessRunner.run(Self.binary, arguments, in: FixturePaths.repositoryRoot)
    return Outcome(status: ended.status, stdout: ended.stdoutText, stderr: ended.stderrText)
  }

  @Test func ruleJSONContract() throws {
    // 2nd and 4th Sundays of November 2026 and December 2026 (1 Nov 2026 is a Sunday).
    let outcome = try run([
      "rule", "--as-of", "2026-11-20", "--from", "2026-11-01", "--to", "2026-12-31", "--format", "json",
      "매월 둘째·넷째 일요일",
    ])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(json["status"] as? String == "closures")
    #expect(json["dates"] as? [String] == ["2026-11-08", "2026-11-22", "2026-12-13", "2026-12-27"])
    #expect(json["warnings"] as? [String] == [])
    #expect((json["changes"] as? [Any])?.isEmpty == true)
    // A recurring rule speaks of every day, and has no end.
    #expect((json["unknownRanges"] as? [Any])?.isEmpty == true)
    #expect(json["knownThrough"] is NSNull)
  }

  @Test func ruleJSONExplainsARuleChange() throws {
    // The 2nd and 4th Sundays until December 2026 (Dec 13, 27), the 2nd and 4th Wednesdays from
    // January 2027 (Jan 1 2027 is a Friday: Wednesdays 6, 13, 20, 27).
    let outcome = try run([
      "rule", "--as-of", "2026-11-25", "--from", "2026-12-01", "--to", "2027-01-31", "--format", "json",
      "2027년 1월부터 의무휴업일이 둘째·넷째 일요일에서 둘째·넷째 수요일로 변경",
    ])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(
      json.keys.sorted() == [
        "as-of", "changes", "dates", "from", "holidayMoves", "knownThrough", "publicHolidays", "schedule", "status",
        "storeStatus", "to", "unknownRanges", "warnings",
      ])
    #expect(json["dates"] as? [String] == ["2026-12-13", "2026-12-27", "2027-01-13", "2027-01-27"])
    let changes = try #require(json["changes"] as? [[String: Any]])
    #expect(changes.count == 1)
    let change = try #require(changes.first)
    #expect(change["kind"] as? String == "rule-change")
    #expect(change["appliesFrom"] as? String == "2027-01-01")
    let before = try #require(change["rulesBefore"] as? [[String: Any]])
    let after = try #require(change["rulesAfter"] as? [[String: Any]])
    #expect(before.first?["weekday"] as? String == "sunday")
    #expect(after.first?["weekday"] as? String == "wednesday")
    #expect(after.first?["ordinals"] as? [Int] == [2, 4])
  }

  @Test func ruleExplainsAMovedDay() throws {
    // 2027-02-10 is a Wednesday, 2027-02-07 a Sunday (설날 2027).
    let text = "2월 첫째 휴무일을 10일에서 7일(설 당일)로 변경"
    let json = try run([
      "rule", "--as-of", "2026-11-25", "--from", "2027-02-01", "--to", "2027-02-28", "--format", "json", text,
    ]).json()
    #expect(json["dates"] as? [String] == ["2027-02-07"])
    let change = try #require((json["changes"] as? [[String: Any]])?.first)
    #expect(change["kind"] as? String == "moved")
    #expect(change["replaced"] as? [String] == ["2027-02-10"])
    #expect(change["replacement"] as? [String] == ["2027-02-07"])
    #expect(change["appliesFrom"] is NSNull)
    let summary = try run(["rule", "--as-of", "2026-11-25", "--from", "2027-02-01", "--to", "2027-02-28", text])
    #expect(summary.stdout.contains("moved: 2027-02-10(수) → 2027-02-07(일)"))
  }

  @Test func ruleReadsTheNextClosingDaysOfASource() throws {
    // Lotte Mart's cell "11/22(일)" as of 2026-11-20: known from 11-20 through 11-22 only.
    let outcome = try run([
      "rule", "--as-of", "2026-11-20", "--from", "2026-11-01", "--to", "2026-12-31", "--format", "json",
      "--coverage", "as-of-through-last-listed", "11/22(일)",
    ])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(json["dates"] as? [String] == ["2026-11-22"])
    #expect(try unknownRanges(json) == ["2026-11-01…2026-11-19", "2026-11-23…2026-12-31"])
    #expect(json["knownThrough"] as? String == "2026-11-22")
  }

  @Test func ruleExplainsTheDaysAPublicHolidayMoved() throws {
    // October 2026: 한글날 10-09 is a Friday, so Saturday 10-10 closes instead; Fridays 10-02,
    // 10-16, 10-23 and 10-30 close as usual.
    let arguments = [
      "rule", "--as-of", "2026-11-25", "--from", "2026-10-01", "--to", "2026-10-31", "매주 금요일 휴무 (공휴일인 경우 익일 휴무)",
    ]
    let outcome = try run(arguments + ["--format", "json"])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(json["dates"] as? [String] == ["2026-10-02", "2026-10-10", "2026-10-16", "2026-10-23", "2026-10-30"])
    let moves = try #require(json["holidayMoves"] as? [[String: String]])
    #expect(
      moves == [
        [
          "from": "2026-10-09", "to": "2026-10-10", "holiday": "한글날 (public holiday)",
          "why": "2026-10-09 is 한글날 (public holiday) → closed 2026-10-10 instead",
        ]
      ])
    let table = try #require(json["publicHolidays"] as? [String: Any])
    #expect(table["oneOffsKnownThrough"] as? String == "2026-11-25")
    #expect(table["lastYear"] as? Int == 2050)
    let text = try run(arguments)
    #expect(text.stdout.contains("moved: 2026-10-09 is 한글날 (public holiday) → closed 2026-10-10 instead"))
  }

  func unknownRanges(_ json: [String: Any]) throws -> [String] {
    let ranges = try #require(json["unknownRanges"] as? [[String: String]])
    return try ranges.map { range in
      #expect(range.keys.sorted() == ["from", "through"])
      return "\(try #require(range["from"]))…\(try #require(range["through"]))"
    }
  }

  @Test func ruleJSONNamesTheDaysItDoesNotKnow() throws {
    // A bare list is the next closing days: known from the as-of date through its last date.
    let outcome = try run([
      "rule", "--as-of", "2026-11-20", "--from", "2026-11-15", "--to", "2027-02-10", "--format", "json",
      "12/28~12/30 재고조사 휴점",
    ])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(json["status"] as? String == "closures")
    #expect(json["dates"] as? [String] == ["2026-12-28", "2026-12-29", "2026-12-30"])
    #expect(try unknownRanges(json) == ["2026-11-15…2026-11-19", "2026-12-31…2027-02-10"])
  }

  @Test func ruleTextNamesTheDaysItDoesNotKnow() throws {
    let outcome = try run([
      "rule", "--as-of", "2026-11-20", "--from", "2026-11-01", "--to", "2027-01-31", "12/13,/27",
    ])
    #expect(outcome.status == 0)
    #expect(outcome.stdout.contains("unknown: 2026-11-01 … 2026-11-19, 2026-12-28 … 2027-01-31"))
  }

  @Test(arguments: ["", "휴무일 정보가 없습니다", "연중무휴"])
  func ruleProcessesAnyTextWithExitZero(text: String) throws {
    let outcome = try run([
      "rule", "--as-of", "2026-11-20", "--from", "2026-11-01", "--to", "2026-11-30", "--format", "json", text,
    ])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(json["status"] as? String == (text == "연중무휴" ? "open-all-year" : "unknown"))
    #expect(json["dates"] as? [String] == [])
    // Unknown text knows no day: one range for the whole window; open all year knows every day.
    #expect(try unknownRanges(json) == (text == "연중무휴" ? [] : ["2026-11-01…2026-11-30"]))
  }

  @Test func invalidArgumentsFailWithAMessage() {
    let table = [
      ["rule", "--as-of", "2026-13-01", "매주 월요일"],
      ["rule", "--as-of", "2026-11-20", "--from", "2026-12-01", "--to", "2026-11-01", "매주 월요일"],
      ["run", "--brand", "no-such-brand"],
      ["run", "--source", "emart=ftp://mirror.example"],
    ]
    forEachCase(table, named: { "\($0)" }) { arguments, name in
      let outcome = try run(arguments)
      #expect(outcome.status != 0, name)
      #expect(!outcome.stderr.isEmpty, name)
    }
  }

  @Test func everyBrandIsASlugOfBrandAndSource() throws {
    let help = try run(["run", "--help"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    let slugs = try FixturePaths.branchCounts().keys.sorted()
    #expect(help.contains("(values: \(slugs.joined(separator: ", ")))"))
    // Each slug parses for --brand and --source: the run gets past the options and stops at the
    // output path, which is a file.
    let file = Scratch.directory.appendingPathComponent("cli-slugs-\(UUID().uuidString)")
    try Data().write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    forEachCase(["lotte-maxx", "toysrus", "grand-grocery", "bottle-bunker", "lotte-super", "megamart"], named: { $0 }) {
      slug, name in
      let outcome = try run([
        "run", "--output", file.path, "--brand", slug, "--source", "\(slug)=http://127.0.0.1:9",
      ])
      #expect(outcome.status != 0, name)
      #expect(!outcome.stderr.contains("is invalid for"), "\(name): \(outcome.stderr)")
    }
  }

  @Test func addressJSONContract() throws {
    let outcome = try run(["address", "--format", "json", "서울 송파구 신천동 올림픽로 300"])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(json["sido"] as? String == "서울특별시")
    #expect(json["sigungu"] as? String == "송파구")
    #expect(json["roadAddress"] as? String == "서울특별시 송파구 올림픽로 300")
    #expect(json.keys.contains("jibunAddress"))
    let queries = try #require(json["queries"] as? [String])
    #expect(queries.first == "서울특별시 송파구 올림픽로 300")
  }

  @Test func addressJSONOfTheMergedProvince() throws {
    // 광주광역시 has been part of 전남광주통합특별시 since 2026-07-01; the former name is a fallback query.
    let outcome = try run(["address", "--format", "json", "광주광역시 광산구 장신로 98 (장덕동)"])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(json["sido"] as? String == "전남광주통합특별시")
    #expect(json["roadAddress"] as? String == "전남광주통합특별시 광산구 장신로 98")
    let queries = try #require(json["queries"] as? [String])
    #expect(Array(queries.prefix(2)) == ["전남광주통합특별시 광산구 장신로 98", "광주광역시 광산구 장신로 98"])
  }

  @Test func addressOfGarbageStillExitsZero() throws {
    let outcome = try run(["address", "--format", "json", "???"])
    #expect(outcome.status == 0)
    let json = try outcome.json()
    #expect(json["roadAddress"] is NSNull)
    #expect(json["queries"] as? [String] == [])
  }

  @Test func runOverTheFixturesPublishesABundle() throws {
    // The shared published output is this command's: `mart-holiday run --replay fixtures/web`.
    let output = try PublishedOutput.directory()
    let latest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("latest.json")))
        as? [String: Any])
    #expect(latest["asOf"] as? String == "2026-11-20")
    let bundle = try #require(latest["bundle"] as? String)
    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("\(bundle)/branches.json").path))

    // The branches whose sources write 광주 or 전남 (in any form) are in 전남광주통합특별시, the
    // province they have been in since 2026-07-01; no branch is in a province that no longer exists.
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("\(bundle)/branches.json")))
        as? [String: Any])
    let addresses = try #require(document["branches"] as? [[String: Any]]).compactMap {
      $0["address"] as? [String: Any]
    }
    let written = addresses.filter { address in
      let published = address["published"] as? String ?? ""
      return ["광주광역시 ", "광주 ", "전라남도 ", "전남 "].contains { published.hasPrefix($0) }
    }
    #expect(!written.isEmpty)
    for address in written {
      #expect(address["sido"] as? String == "전남광주통합특별시", "\(address)")
    }
    #expect(!addresses.contains { ["광주광역시", "전라남도"].contains($0["sido"] as? String ?? "") })
  }

  @Test func helpExplainsItself() {
    forEachCase([[], ["run"], ["rule"], ["address"], ["validate"], ["diff"]], named: { "\($0)" }) { command, name in
      let outcome = try run(command + ["--help"])
      #expect(outcome.status == 0, name)
      #expect(outcome.stdout.contains("USAGE:"), name)
      #expect(outcome.stdout.contains("OVERVIEW:"), name)
    }
  }
}

extension CommandLineContractTests {
  @Test func anArchivedRunCanBeParsedAgainWithoutTheNetwork() throws {
    let scratch = Scratch.directory.appendingPathComponent("cli-archive-\(UUID().uuidString)")
    let archive = scratch.appendingPathComponent("raw")
    let first = try run([
      "run", "--replay", "fixtures/web", "--output", scratch.appendingPathComponent("a").path,
      "--archive", archive.path,
    ])
    #expect(first.status == 0, "stderr: \(first.stderr)")
    // The archive names the real sites, not the local replay server: every site recorded under
    // fixtures/web but the geocoding providers (only what the sources fetch is archived).
    let geocoders: Set = ["api.vworld.kr", "dapi.kakao.com", "maps.apigw.ntruss.com"]
    let recorded = try FileManager.default.contentsOfDirectory(atPath: FixturePaths.web.path)
    let hosts = try FileManager.default.contentsOfDirectory(atPath: archive.path).sorted()
    #expect(hosts == recorded.filter { !geocoders.contains($0) }.sorted())
    #expect(hosts.contains("store.emart.com") && hosts.contains("replay.json"), "\(hosts)")

    let second = try run(["run", "--replay", archive.path, "--output", scratch.appendingPathComponent("b").path])
    #expect(second.status == 0, "stderr: \(second.stderr)")

    func closings(_ output: String) throws -> [String: [String]] {
      let root = scratch.appendingPathComponent(output)
      let latest = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("latest.json")))
          as? [String: Any])
      let bundle = try #require(latest["bundle"] as? String)
      let file = try #require(
        try JSONSerialization.jsonObject(
          with: Data(contentsOf: root.appendingPathComponent("\(bundle)/branches.json"))) as? [String: Any])
      let branches = try #require(file["branches"] as? [[String: Any]])
      var result: [String: [String]] = [:]
      for branch in branches {
        let id = try #require(branch["id"] as? String)
        let closing = try #require(branch["closing"] as? [String: Any])
        result[id] = try #require(closing["dates"] as? [String])
      }
      return result
    }
    let original = try closings("a")
    #expect(original.count == (try FixturePaths.replayTotal()))
    #expect(try closings("b") == original)
  }
}
