import Foundation
import TestSupport
import Testing

/// The kit builds for iOS, macOS and Linux apps: its targets depend on no C module, no other
/// package and no platform library outside `#if`.
@Suite struct KitDependencyTests {
  /// The targets `MartHolidayKit` depends on, itself included, from `swift package dump-package`.
  static func kitClosure() throws -> [[String: Any]] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    let scratch = Scratch.directory.appendingPathComponent("kit-dump-\(UUID().uuidString)")
    process.arguments = [
      "swift", "package", "--package-path", FixturePaths.repositoryRoot.path, "--scratch-path", scratch.path,
      "dump-package",
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let package = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let targets = try #require(package["targets"] as? [[String: Any]])
    let byName = Dictionary(uniqueKeysWithValues: targets.map { ($0["name"] as? String ?? "", $0) })
    var closure: [String: [String: Any]] = [:]
    var pending = ["MartHolidayKit"]
    while let name = pending.popLast() {
      guard closure[name] == nil else { continue }
      let target = try #require(byName[name], "no target \(name)")
      closure[name] = target
      for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
        #expect(dependency["product"] == nil, "\(name) depends on another package: \(dependency)")
        for kind in ["byName", "target"] {
          if let reference = dependency[kind] as? [Any], let dependencyName = reference.first as? String {
            pending.append(dependencyName)
          }
        }
      }
    }
    return closure.keys.sorted().compactMap { closure[$0] }
  }

  @Test func theKitDependsOnPureSwiftTargetsOnly() throws {
    let closure = try Self.kitClosure()
    #expect(closure.map { $0["name"] as? String ?? "" } == ["MartCore", "MartHolidayKit"])
    for target in closure {
      let name = target["name"] as? String ?? ""
      #expect(target["type"] as? String == "regular", "\(name) is a \(target["type"] ?? "?") target")
      // Swift language settings only: no linked libraries, no unsafe flags, no C settings.
      for setting in target["settings"] as? [[String: Any]] ?? [] {
        let kind = (setting["kind"] as? [String: Any])?.keys.first ?? "?"
        #expect(setting["tool"] as? String == "swift", "\(name): \(setting)")
        #expect(kind == "enableUpcomingFeature" || kind == "enableExperimentalFeature", "\(name): \(setting)")
      }
      let folder = FixturePaths.repositoryRoot.appendingPathComponent(target["path"] as? String ?? "Sources/\(name)")
      let files = try #require(FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String])
      let sources = files.filter { !$0.hasSuffix("/") && $0.contains(".") }
      #expect(!sources.isEmpty, "\(name) has no sources at \(folder.path)")
      for file in sources {
        #expect(file.hasSuffix(".swift"), "\(name)/\(file) is not Swift")
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        for platformModule in ["Glibc", "Musl", "Darwin", "WinSDK", "FoundationNetworking"] {
          // A platform module is imported only behind `#if canImport(…)`.
          for line in text.split(separator: "\n")
          where line.trimmingCharacters(in: .whitespaces) == "import \(platformModule)" {
            #expect(text.contains("#if canImport(\(platformModule))"), "\(name)/\(file): \(line)")
          }
        }
      }
    }
  }
}
