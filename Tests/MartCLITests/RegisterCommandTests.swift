import Foundation
import TestSupport
import Testing

/// `mart-holiday register FILE` run as a built binary: the JSON contract on the CP949 recordings,
/// and one `error:` line for a file that is no register.
@Suite struct RegisterCommandTests {
  func run(_ arguments: [String]) throws -> ProcessRunner.Outcome {
    try ProcessRunner.run(CommandLineContractTests.binary, arguments, in: FixturePaths.repositoryRoot)
  }

  @Test func jsonListsTheBoundStoresWithEveryField() throws {
    let outcome = try run(["register", "fixtures/register/register-2026.csv", "--format", "json"])
    #expect(outcome.status == 0, "\(outcome.stderrText)")
    #expect(outcome.stderrText.isEmpty)
    let json = try #require(try JSONSerialization.jsonObject(with: outcome.stdout) as? [String: Any])
    #expect(Set(json.keys) == ["stores", "skipped"])
    let stores = try #require(json["stores"] as? [[String: Any]])
    #expect(stores.count == 21)
    let fields: Set<String> = [
      "id", "name", "kind", "status", "brand", "sido", "sigungu", "roadAddress", "jibunAddress", "phone", "latitude",
      "longitude",
    ]
    for store in stores { #expect(Set(store.keys) == fields) }
    let cheonggyecheon = try #require(stores.first { $0["id"] as? String == "2008301010007500002" })
    #expect(cheonggyecheon["name"] as? String == "주식회사 이마트 청계천점")
    #expect(cheonggyecheon["kind"] as? String == "hypermarket")
    #expect(cheonggyecheon["status"] as? String == "open")
    #expect(cheonggyecheon["brand"] as? String == "emart")
    #expect(cheonggyecheon["sido"] as? String == "서울특별시")
    #expect(cheonggyecheon["sigungu"] as? String == "중구")
    #expect(cheonggyecheon["roadAddress"] as? String == "서울특별시 중구 청계천로 400-0 (황학동)")
    #expect(cheonggyecheon["jibunAddress"] as? String == "서울특별시 중구 황학동 2545번지")
    #expect(cheonggyecheon["phone"] as? String == "02-2290-1234")
    #expect(abs(try #require(cheonggyecheon["latitude"] as? Double) - 37.570978) < 1e-4)
    #expect(abs(try #require(cheonggyecheon["longitude"] as? Double) - 127.021434) < 1e-4)
    // The row with (0, 0) has no point, and a store of no covered brand says so with null.
    let zero = try #require(stores.first { $0["id"] as? String == "2015416010807500003" })
    #expect(zero["latitude"] is NSNull && zero["longitude"] is NSNull && zero["brand"] is NSNull)
    let notYetOpen = stores.filter { $0["status"] as? String == "notYetOpen" }.compactMap { $0["id"] as? String }
    #expect(notYetOpen == ["2026350010807500001"])
    let skipped = try #require(json["skipped"] as? [String: Int])
    #expect(
      skipped == [
        "closed": 3, "suspended": 1, "cancelled": 1, "legacy": 2, "notAMart": 4, "duplicateID": 1, "sameStore": 1,
      ])
  }

  @Test func textListsOneStoreALine() throws {
    let outcome = try run(["register", "fixtures/register/register-2025.csv"])
    #expect(outcome.status == 0, "\(outcome.stderrText)")
    let lines = outcome.stdoutText.split(separator: "\n")
    #expect(lines.count == 16)
    #expect(lines.last == "15 stores; skipped: closed 2, duplicateID 1, sameStore 1")
    #expect(lines.contains("2014332008807500002\tssm\topen\t-\t부산광역시 북구\t탑마트 구포점"))
  }

  @Test func aFileThatIsNoRegisterIsOneErrorLine() throws {
    let folder = Scratch.directory.appendingPathComponent("register-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let full = try FixturePaths.data("register/register-2026.csv")
    let cases: [(name: String, bytes: Data, says: String)] = [
      ("page.csv", Data("<!DOCTYPE html><html><body>점검 중</body></html>".utf8), "an HTML page"),
      ("columns.csv", Data("관리번호,사업장명\n1,이마트\n".utf8), "missing columns 영업상태명, 상세영업상태명, 점포구분명"),
      ("cut.csv", full.prefix(full.count - 60), "fields where the header has 26"),
      ("latin.csv", Data([0x41, 0x0A, 0xFF, 0xFE, 0xFF]), "neither UTF-8 nor CP949"),
    ]
    for (name, bytes, says) in cases {
      let path = folder.appendingPathComponent(name).path
      try bytes.write(to: URL(fileURLWithPath: path))
      let before = try Data(contentsOf: URL(fileURLWithPath: path))
      let outcome = try run(["register", path, "--format", "json"])
      #expect(outcome.status == 1, "\(name)")
      #expect(outcome.stdout.isEmpty, "\(name)")
      let lines = outcome.stderrText.split(separator: "\n")
      #expect(lines.count == 1, "\(name): \(outcome.stderrText)")
      #expect(lines.first?.hasPrefix("error: \(path): ") == true, "\(name): \(outcome.stderrText)")
      #expect(outcome.stderrText.contains(says), "\(name): \(outcome.stderrText)")
      // Nothing lost: the file is as it was.
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
    let missing = try run(["register", folder.appendingPathComponent("none.csv").path])
    #expect(missing.status == 1)
    #expect(missing.stderrText.hasPrefix("error: "))
    #expect(missing.stderrText.split(separator: "\n").count == 1)
  }
}
