import Foundation
import Testing
import TestSupport

/// The modules a run goes through for every branch build no regular expression: a `Regex`
/// literal or `Regex(…)` is compiled anew each time it is evaluated, which made Costco's store
/// parser 7 % of a run of 3,150 branches. Their readers are written by hand (`TextScanner` in
/// MartBrands, the closing-day scanner in MartCore).
@Suite struct HotPathLintTests {
  /// Every module on the per-branch path: fetch, parse, normalize, geocode, export.
  static let perBranchModules = [
    "MartCore", "MartBrands", "MartHTML", "MartCharset", "MartFetch", "MartReplay", "MartGeocoding", "MartPipeline",
    "MartExport", "MartFiles",
  ]
  /// What builds a regular expression: a literal, `Regex(…)`, `try Regex`, Foundation's kinds.
  static let patterns = ["#/", "Regex(", "Regex<", "try Regex", "NSRegularExpression", ".regularExpression"]

  @Test func noRegularExpressionIsBuiltOnThePerBranchPath() throws {
    var found: [String] = []
    var filesRead = 0
    for module in Self.perBranchModules {
      let folder = FixturePaths.repositoryRoot.appendingPathComponent("Sources/\(module)")
      let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
      for file in files {
        filesRead += 1
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        for (number, line) in lines.enumerated() {
          // Comments may name what the code avoids.
          let code = line.trimmingCharacters(in: .whitespaces)
          guard !code.hasPrefix("//") else { continue }
          for pattern in Self.patterns where code.contains(pattern) {
            found.append("Sources/\(module)/\(file.lastPathComponent):\(number + 1): \(pattern)")
          }
        }
      }
    }
    // The walk read the sources (a wrong root would find nothing and pass).
    #expect(filesRead > 100)
    #expect(found.isEmpty, "regular expressions on the per-branch path:\n\(found.joined(separator: "\n"))")
  }

  /// The lint finds what it is meant to find: each pattern in a line of code.
  @Test func theLintRecognisesEachWayOfBuildingOne() {
    let samples = [
      #"let match = text.firstMatch(of: #/\d+/#)"#, #"let pattern = try Regex("[0-9]+")"#,
      #"let typed: Regex<Substring> = pattern"#, #"_ = try NSRegularExpression(pattern: "a")"#,
      #"text.range(of: "a+", options: .regularExpression)"#,
    ]
    for sample in samples {
      #expect(Self.patterns.contains { sample.contains($0) }, "\(sample)")
    }
  }
}
