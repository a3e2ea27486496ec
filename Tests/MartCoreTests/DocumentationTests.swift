import Foundation
import Testing
import TestSupport

/// The module arrows of `docs/architecture.md` say what `Package.swift` says: each module's line
/// names exactly the package's modules it depends on.
@Suite struct DocumentationTests {
  /// Each library or executable target of `Package.swift` (not tests, examples or benchmarks)
  /// with the targets of this package it depends on (C modules and other packages' products
  /// left out).
  static func packageDependencies() throws -> [String: Set<String>] {
    let text = try String(
      contentsOf: FixturePaths.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    var targets: [String: [String]] = [:]
    var systemLibraries: Set<String> = []
    var rest = text[...]
    // Every `.target(`, `.executableTarget(` or `.systemLibrary(` call up to its closing parenthesis.
    while let open = rest.firstRange(of: #/\.(target|executableTarget|systemLibrary|testTarget)\(/#) {
      let kind = String(rest[open].dropFirst().dropLast())
      var depth = 1
      var index = open.upperBound
      while depth > 0, index < rest.endIndex {
        if rest[index] == "(" { depth += 1 } else if rest[index] == ")" { depth -= 1 }
        index = rest.index(after: index)
      }
      let call = rest[open.upperBound..<index]
      rest = rest[index...]
      guard let name = call.firstMatch(of: #/name: "([^"]+)"/#)?.1 else { continue }
      if kind == "systemLibrary" {
        systemLibraries.insert(String(name))
        continue
      }
      guard kind != "testTarget", !call.contains("path: \"Examples"), !call.contains("path: \"Benchmarks"),
        !call.contains("path: \"Tests")
      else { continue }
      var dependencies: [String] = []
      if let list = call.firstMatch(of: #/dependencies: \[([^\]]*)\]/#)?.1 {
        // Quoted names only: `.product(name: …, package: …)` is another package's.
        let withoutProducts = list.replacing(#/\.product\([^)]*\)/#, with: "")
        dependencies = withoutProducts.matches(of: #/"([^"]+)"/#).map { String($0.1) }
      }
      targets[String(name)] = dependencies
    }
    return targets.mapValues { Set($0).subtracting(systemLibraries) }
  }

  /// The arrow block under `## Modules` in `docs/architecture.md`: module → the package modules
  /// it names (what sits in parentheses is the C libraries, not checked here).
  static func documentedDependencies() throws -> [String: Set<String>] {
    let text = try String(
      contentsOf: FixturePaths.repositoryRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
    let section = try #require(text.firstRange(of: "## Modules").map { text[$0.upperBound...] })
    let blockStart = try #require(section.firstRange(of: "```\n"))
    let body = section[blockStart.upperBound...]
    let block = body[..<(try #require(body.firstRange(of: "```"))).lowerBound]
    var documented: [String: Set<String>] = [:]
    for line in block.split(separator: "\n") {
      let parts = line.split(separator: "▶", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let module = parts[0].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "─")))
      let named = parts[1].replacing(#/\([^)]*\)/#, with: "").split(separator: ",")
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      documented[module] = Set(named)
    }
    return documented
  }

  @Test func moduleArrowsMatchThePackage() throws {
    let package = try Self.packageDependencies()
    let documented = try Self.documentedDependencies()
    // The parser found the package's modules at all (a change of Package.swift's shape would
    // otherwise pass silently).
    #expect(package.keys.contains("MartCore") && package.keys.contains("mart-holiday") && package.count >= 14)
    #expect(Set(documented.keys) == Set(package.keys), "modules without a line, or lines without a module")
    for (module, dependencies) in package.sorted(by: { $0.key < $1.key }) {
      #expect(documented[module] == dependencies, "\(module): Package.swift says \(dependencies.sorted())")
    }
  }

  /// Every document a doc links to, or a source comment names, is a file of the repository.
  @Test func docsNameOnlyFilesInTheRepository() throws {
    let root = FixturePaths.repositoryRoot
    var missing: [String] = []
    let documents = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path))
      .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
    for document in documents {
      let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
      for match in text.matches(of: #/\]\(([A-Za-z0-9_./-]+\.md)\)/#) {
        let target = String(match.1)
        let base = (document as NSString).deletingLastPathComponent
        let path = target.hasPrefix("/") ? target : (base.isEmpty ? target : "\(base)/\(target)")
        if !FileManager.default.fileExists(atPath: root.appendingPathComponent(path).standardizedFileURL.path) {
          missing.append("\(document) → \(target)")
        }
      }
    }
    // Sources name documents in backquotes (`docs/recordings.md`, `fixtures/README.md`): each
    // must be a file of the repository, found by its path or, for a bare name, under docs/.
    let sources = root.appendingPathComponent("Sources")
    let walker = try #require(FileManager.default.enumerator(atPath: sources.path))
    while let relative = walker.nextObject() as? String {
      guard relative.hasSuffix(".swift") else { continue }
      let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
      for match in text.matches(of: #/`([A-Za-z0-9_./-]+\.md)`/#) {
        let named = String(match.1)
        let candidates = named.contains("/") ? [named] : ["docs/\(named)", named]
        if !candidates.contains(where: { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) }) {
          missing.append("Sources/\(relative) → \(named)")
        }
      }
    }
    #expect(missing.isEmpty, "\(missing)")
  }
}
