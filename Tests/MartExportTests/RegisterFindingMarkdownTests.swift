import Foundation
import MartCore
import MartExport
import TestSupport
import Testing

/// Many new findings of the register in the Markdown diff: the limit holds, a few of each kind
/// are shown while they fit, and the rest are counted (`… and N more`), never dropped unsaid.
@Suite struct RegisterFindingMarkdownTests {
  let side = BundleDiff.Side(version: "v", asOf: ExportFixtures.asOf, window: ExportFixtures.window)

  /// `count` findings of each kind, as the `register` of a `report.json`.
  static func register(count: Int) -> String {
    func id(_ kind: Int, _ index: Int) -> String { "20\(kind)000001080750\(String(format: "%04d", index))" }
    let shut = (0..<count).map { index in
      #"{"branch": "homeplus-\#(600 + index)", "registerID": "\#(id(1, index))", "state": "closed", "since": "2026-10-31", "until": null}"#
    }
    func store(_ kind: Int, _ index: Int, brand: String, permit: String) -> String {
      #"{"id": "\#(id(kind, index))", "name": "주식회사 가상마트 가상\#(index)점", "kind": "hypermarket", "brand": "\#(brand)", "sido": "경기도", "sigungu": "가상시", "roadAddress": null, "permitDate": "\#(permit)"}"#
    }
    let unlisted = (0..<count).map { store(2, $0, brand: "emart", permit: "2010-05-01") }
    let permits = (0..<count).map { store(3, $0, brand: "traders", permit: "2026-11-15") }
    return #"{"shutInRegister": [\#(shut.joined(separator: ","))], "unlisted": [\#(unlisted.joined(separator: ","))], "newPermits": [\#(permits.joined(separator: ","))]}"#
  }

  /// An output directory holding only a `report.json` of the run that published `version`.
  static func output(version: String, register: String) throws -> URL {
    let directory = Scratch.directory.appendingPathComponent("register-markdown-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let report = #"{"published": {"version": "\#(version)"}, "brands": [], "register": \#(register)}"#
    try Data(report.utf8).write(to: directory.appendingPathComponent("report.json"))
    return directory
  }

  @Test(arguments: [1_000, 1_500, 2_500, 4_000, 60_000])
  func manyFindingsStayWithinTheLimitAndTheRestIsCounted(maxBytes: Int) throws {
    let new = try Self.output(version: "new", register: Self.register(count: 40))
    let old = try Self.output(version: "old", register: Self.register(count: 0))
    defer {
      try? FileManager.default.removeItem(at: new)
      try? FileManager.default.removeItem(at: old)
    }
    let diff = BundleDiff(old: side, oldBranches: [], new: side, newBranches: [], brandNames: ExportFixtures.names)
      .withRegisterFindings(
        new: BundleDiff.registerFindings(inOutput: new, version: "new"),
        old: BundleDiff.registerFindings(inOutput: old, version: "old"))
    #expect(diff.registerFindings.count == 120)

    let markdown = try diff.markdown(maxBytes: maxBytes, jsonOption: "--format json")
    #expect(markdown.utf8.count <= maxBytes, "\(markdown.utf8.count) bytes")
    #expect(markdown.contains("120 new findings of the register"))
    for kind in ["register-new-permit", "register-shut", "register-unlisted"] {
      let shown = markdown.components(separatedBy: "- **\(kind)** ").count - 1
      #expect(shown <= 5)
      if shown == 0 {
        // No finding of the kind fits: the line counts them all, and the closing note says so.
        #expect(markdown.contains("- 40 \(kind) (see the JSON diff)"), "\(markdown)")
        #expect(markdown.contains("the list of the register's findings"), "\(markdown)")
      } else {
        #expect(markdown.contains("- … and \(40 - shown) more \(kind) (see the JSON diff)"), "\(markdown)")
      }
    }
    if maxBytes == 60_000 {
      // With room, the first findings of each kind are there, in order.
      #expect(markdown.contains("- **register-shut** homeplus-600 closed in the register since 2026-10-31"))
      #expect(markdown.contains("- … and 35 more register-unlisted (see the JSON diff)"))
      #expect(!markdown.contains("Shortened"))
    }
  }
}
