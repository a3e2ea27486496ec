import Foundation
import MartHolidayKit
import TestSupport
import Testing

/// docs/client-kit.md's Swift blocks are the ones `DocExamples.swift` compiles, and the answers
/// its examples give on the fixtures' bundle are the calendar's.
@Suite struct DocExamplesTests {
  static let page = FixturePaths.repositoryRoot.appendingPathComponent("docs/client-kit.md")
  static let compiled = FixturePaths.repositoryRoot.appendingPathComponent(
    "Tests/MartHolidayKitTests/DocExamples.swift")

  /// The page's ```swift blocks in order, each with whether a `<!-- not compiled: … -->` line
  /// precedes its fence.
  static func pageBlocks() throws -> [(text: String, compiled: Bool)] {
    let lines = try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n")
    var blocks: [(text: String, compiled: Bool)] = []
    var index = 0
    while index < lines.count {
      if lines[index] == "```swift" {
        let notCompiled = index > 0 && lines[index - 1].hasPrefix("<!-- not compiled: ")
        guard let end = lines[(index + 1)...].firstIndex(of: "```") else {
          Issue.record("docs/client-kit.md: the block at line \(index + 1) is not closed")
          return blocks
        }
        blocks.append((lines[(index + 1)..<end].joined(separator: "\n"), !notCompiled))
        index = end
      }
      index += 1
    }
    return blocks
  }

  /// The blocks of DocExamples.swift by number: the lines between `// docs/client-kit.md block N`
  /// and `// end of block N`.
  static func compiledBlocks() throws -> [Int: String] {
    let lines = try String(contentsOf: compiled, encoding: .utf8).components(separatedBy: "\n")
    var blocks: [Int: String] = [:]
    let opening = "// docs/client-kit.md block "
    for (index, line) in lines.enumerated() where line.hasPrefix(opening) {
      let number = try #require(Int(line.dropFirst(opening.count)), "DocExamples.swift: \(line)")
      let end = try #require(
        lines[(index + 1)...].firstIndex(of: "// end of block \(number)"),
        "DocExamples.swift: block \(number) not ended")
      #expect(blocks[number] == nil, "DocExamples.swift: block \(number) twice")
      blocks[number] = lines[(index + 1)..<end].joined(separator: "\n")
    }
    return blocks
  }

  @Test func everyCompiledBlockOfThePageIsInDocExamples() throws {
    let page = try Self.pageBlocks()
    let compiled = try Self.compiledBlocks()
    #expect(page.count == 8)
    #expect(page.filter { !$0.compiled }.count == 1, "only the Package.swift excerpt goes uncompiled")
    for (offset, block) in page.enumerated() {
      let number = offset + 1
      if block.compiled {
        #expect(
          compiled[number] == block.text,
          "DocExamples.swift's block \(number) differs from docs/client-kit.md's; the page has:\n\(block.text)")
      } else {
        #expect(compiled[number] == nil, "block \(number) is marked not compiled on the page")
      }
    }
    #expect(Set(compiled.keys) == Set(page.indices.filter { page[$0].compiled }.map { $0 + 1 }))
  }

  /// The uncompiled Package.swift excerpt names the product and package this repository has.
  @Test func theManifestExcerptNamesThisPackage() throws {
    let excerpt = try #require(try Self.pageBlocks().first { !$0.compiled }).text
    #expect(excerpt.contains(#".product(name: "MartHolidayKit", package: "mart-holiday")"#))
    // `package:` is the identity SwiftPM takes from the last component of the URL or path.
    #expect(excerpt.contains(#".package(url: "https://github.com/<owner>/mart-holiday", branch: "main")"#))
    #expect(excerpt.contains(#".package(path: "../mart-holiday")"#))
    let manifest = try String(
      contentsOf: FixturePaths.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(manifest.contains(#"name: "mart-holiday","#))
    #expect(manifest.contains(#".library(name: "MartHolidayKit", targets: ["MartHolidayKit"])"#))
  }

  /// Step 4's answer on the fixtures' bundle (as of 2026-11-20, every brand fresh). November 2026
  /// starts on a Sunday (python3: `calendar.monthrange(2026, 11) == (6, 30)`), so 11-22 is the
  /// 4th Sunday, E-mart's closing day; 12-01 is a Tuesday.
  @Test func tomorrowNoticeOnTheFixtures() async throws {
    let bundle = try await PublishedFixtures.shared.bundle()
    let emart = try #require(bundle.branch(id: "emart-1059"))
    #expect(tomorrowNotice(for: emart, in: bundle, today: martDay("2026-11-21")) == "내일(11/22)은 이마트 창원점 휴무일입니다.")
    // Ten days after the bundle's as-of day, the answer says how old it is.
    #expect(
      tomorrowNotice(for: emart, in: bundle, today: martDay("2026-11-30"))
        == "내일은 이마트 창원점 영업일입니다. (2026-11-20 기준 정보)")
    // homeplus-658 lists 11/25 (the 4th Wednesday) only: 11-26 is unknown, never open, and
    // five days after the as-of day the answer says how old it is.
    let homeplus = try #require(bundle.branch(id: "homeplus-658"))
    #expect(
      tomorrowNotice(for: homeplus, in: bundle, today: martDay("2026-11-25"))
        == "내일 홈플러스 강릉점의 휴무 여부는 알 수 없습니다. (2026-11-20 기준 정보)")
    #expect(tomorrowNotice(for: homeplus, in: bundle, today: martDay("2026-11-21")) == "내일은 홈플러스 강릉점 영업일입니다.")
    // Closed for good from the as-of day: its status text, not a closing day.
    let shut = try #require(bundle.branch(id: "homeplus-655"))
    let text = try #require(shut.storeStatus.text)
    #expect(tomorrowNotice(for: shut, in: bundle, today: martDay("2026-11-20")) == "\(shut.displayName): \(text)")
  }

  /// Step 4's answer when the brand's data is stale or missing, on a copy whose manifest says so.
  @Test func tomorrowNoticeSaysWhenTheDataIsNotFresh() async throws {
    let output = try await PublishedFixtures.shared.copy()
    try BundleEdits.setFreshness(
      in: output, ["emart": ("stale", "2026-11-13"), "homeplus": ("stale", nil), "lottemart": ("missing", nil)])
    let bundle = try MartBundle(contentsOf: output)
    let today = martDay("2026-11-21")
    #expect(
      tomorrowNotice(for: try #require(bundle.branch(id: "emart-1059")), in: bundle, today: today)
        == "내일(11/22)은 이마트 창원점 휴무일입니다. (2026-11-13 기준 정보이니 매장에 확인하세요)")
    let homeplus = try #require(bundle.branch(id: "homeplus-685"))
    #expect(tomorrowNotice(for: homeplus, in: bundle, today: today).hasSuffix("(이전 기준 정보이니 매장에 확인하세요)"))
    let lotte = try #require(bundle.branch(id: "lottemart-잠실점"))
    #expect(tomorrowNotice(for: lotte, in: bundle, today: today) == "\(lotte.displayName)의 휴무 정보를 지금은 받을 수 없습니다.")
  }

  /// Step 6's lines: listed, removed (with and without a day) and unknown.
  @Test func favouriteLines() async throws {
    let output = try await PublishedFixtures.shared.copy()
    try BundleEdits.setRemoved(
      in: output,
      #"[{"brand":"emart","id":"emart-2001","lastListed":"2026-11-13"},"#
        + #"{"brand":"emart","id":"emart-2002","lastListed":null}]"#)
    let bundle = try MartBundle(contentsOf: output)
    #expect(favouriteLine(id: "emart-1059", in: bundle) == "이마트 창원점")
    #expect(favouriteLine(id: "emart-2001", in: bundle) == "emart-2001: 목록에서 사라진 매장 (2026-11-13 마지막 확인)")
    #expect(favouriteLine(id: "emart-2002", in: bundle) == "emart-2002: 목록에서 사라진 매장")
    #expect(favouriteLine(id: "emart-0", in: bundle) == "emart-0: 알 수 없는 매장")
  }
}
