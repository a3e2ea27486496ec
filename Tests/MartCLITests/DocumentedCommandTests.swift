import Foundation
import TestSupport
import Testing

/// Every command line of a `sh` block in README.md and docs/*.md runs as written, so the docs
/// cannot drift from the binary: in a folder holding what `scripts/bootstrap.sh` leaves
/// (`output/`, replayed from `fixtures/web`) and a copy of it, `previous-output/`, with the built
/// `mart-holiday` first on `PATH`, one document's lines in order. A line must exit `0`, or the
/// `N` of an `# exits N` comment; `# not run` lines, and blocks after `<!-- not run: … -->`, are
/// skipped (docs/cli.md).
@Suite struct DocumentedCommandTests {
  /// One command line of a document.
  struct DocumentedCommand: CustomStringConvertible {
    var document: String
    /// The line number of its first line.
    var line: Int
    var command: String
    /// The status it must end with; `nil` when it is not run.
    var expectedStatus: Int32?

    var description: String { "\(document):\(line): \(command)" }
  }

  /// The pages under docs/ whose `sh` blocks are run (the README's are run by a test of their
  /// own, so that neither test runs long).
  static func docsPages() -> [String] {
    let docs = FixturePaths.repositoryRoot.appendingPathComponent("docs")
    let names = FileManager.default.enumerator(atPath: docs.path)?.allObjects.compactMap { $0 as? String } ?? []
    return names.filter { $0.hasSuffix(".md") && !$0.contains("/") }.sorted().map { "docs/\($0)" }
  }

  /// Removes a folder or file the test made; a failure is recorded, not swallowed.
  static func remove(_ url: URL) {
    do { try FileManager.default.removeItem(at: url) } catch { Issue.record("cannot remove \(url.path): \(error)") }
  }

  /// The command lines of `text`'s `sh` (or `bash`, `shell`) blocks: lines continued with `\`
  /// joined, blank lines and comment lines left out.
  static func commands(in text: String, document: String) -> [DocumentedCommand] {
    var commands: [DocumentedCommand] = []
    var inBlock = false
    var blockRuns = true
    var previous = ""
    var pending: (line: Int, text: String)?
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(rawLine)
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      defer { if !trimmed.isEmpty { previous = trimmed } }
      if trimmed.hasPrefix("```") {
        if inBlock {
          inBlock = false
        } else {
          inBlock = ["```sh", "```bash", "```shell"].contains(trimmed)
          blockRuns = !previous.hasPrefix("<!-- not run:")
        }
        continue
      }
      guard inBlock else { continue }
      var joined = (pending?.text ?? "") + line
      let start = pending?.line ?? index + 1
      if joined.hasSuffix("\\") {
        joined.removeLast()
        pending = (start, joined)
        continue
      }
      pending = nil
      let command = joined.trimmingCharacters(in: .whitespaces)
      guard !command.isEmpty, !command.hasPrefix("#") else { continue }
      commands.append(
        DocumentedCommand(
          document: document, line: start, command: command,
          expectedStatus: blockRuns ? expectedStatus(of: command) : nil))
    }
    return commands
  }

  /// `nil` for a line marked `# not run`, `N` for `# exits N`, else 0.
  static func expectedStatus(of command: String) -> Int32? {
    if command.contains(#/(^|\s)#\s*not run\b/#) { return nil }
    if let match = command.firstMatch(of: #/(^|\s)#\s*exits (\d+)\b/#) { return Int32(match.2) }
    return 0
  }

  /// A folder as the quick start leaves the repository, made once: `fixtures/` and `scripts/`
  /// copied, `output/` published from the recordings (as `scripts/bootstrap.sh` runs it: a copy
  /// of ``PublishedOutput``, which is that run's output and state directory, byte for byte but
  /// for the times in report.json and report.html), and `previous-output/` a copy of it.
  static let prepared: Result<URL, PreparationError> = {
    let folder = Scratch.directory.appendingPathComponent("documented-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for name in ["fixtures", "scripts"] {
        try ProcessRunner.copyTree(
          FixturePaths.repositoryRoot.appendingPathComponent(name), to: folder.appendingPathComponent(name))
      }
      try PublishedOutput.copy(to: folder.appendingPathComponent("output"))
      try ProcessRunner.copyTree(
        folder.appendingPathComponent("output"), to: folder.appendingPathComponent("previous-output"))
      return .success(folder)
    } catch {
      return .failure(PreparationError(description: "\(error)"))
    }
  }()

  struct PreparationError: Error, CustomStringConvertible {
    var description: String
  }

  /// A fresh copy of ``prepared`` for one document.
  static func workingFolder(for document: String) throws -> URL {
    let base = try prepared.get()
    let folder = Scratch.directory.appendingPathComponent(
      "documented-\(document.replacingOccurrences(of: "/", with: "-"))-\(UUID().uuidString)")
    try ProcessRunner.copyTree(base, to: folder)
    return folder
  }

  /// Runs `command` with bash in `folder`, the built binary first on `PATH`. A line still
  /// running after `limit` seconds is stopped and fails.
  static func run(_ command: String, in folder: URL, limit: TimeInterval = 600) throws -> (
    status: Int32, output: String, timedOut: Bool
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = folder
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] =
      CommandLineContractTests.binary.deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    process.environment = environment
    let output = Scratch.directory.appendingPathComponent("documented-output-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    defer { remove(output) }
    let handle = try FileHandle(forWritingTo: output)
    process.standardOutput = handle
    process.standardError = handle
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    let timedOut = ended.wait(timeout: .now() + limit) == .timedOut
    if timedOut {
      process.terminate()
      ended.wait()
    }
    try handle.close()
    let text = String(decoding: try Data(contentsOf: output), as: UTF8.self)
    return (process.terminationStatus, text, timedOut)
  }

  @Test func theMarkersAreRead() {
    let text = """
      ```sh
      mart-holiday validate output
      mart-holiday diff a \\
        b  # exits 1: changes
      # a comment
      mart-holiday fetch https://example.com  # not run: the network
      ```
      <!-- not run: installs -->
      ```sh
      sudo make install
      ```
      ```
      not a shell block
      ```
      """
    let commands = Self.commands(in: text, document: "x.md")
    #expect(
      commands.map(\.command) == [
        "mart-holiday validate output", "mart-holiday diff a   b  # exits 1: changes",
        "mart-holiday fetch https://example.com  # not run: the network", "sudo make install",
      ])
    #expect(commands.map(\.expectedStatus) == [0, 1, nil, nil])
    #expect(commands.map(\.line) == [2, 3, 6, 10])
  }

  @Test func everyCommandLineOfTheReadmeRunsAsDocumented() throws {
    try expectCommandLinesRunAsDocumented(in: "README.md")
  }

  @Test(arguments: docsPages())
  func everyCommandLineRunsAsDocumented(document: String) throws {
    try expectCommandLinesRunAsDocumented(in: document)
  }

  /// Runs the command lines of `document`'s `sh` blocks in order, each to the status it must end
  /// with.
  func expectCommandLinesRunAsDocumented(in document: String) throws {
    let text = try String(contentsOf: FixturePaths.repositoryRoot.appendingPathComponent(document), encoding: .utf8)
    let commands = Self.commands(in: text, document: document).filter { $0.expectedStatus != nil }
    guard !commands.isEmpty else { return }
    let folder = try Self.workingFolder(for: document)
    defer { Self.remove(folder) }
    for command in commands {
      let ended = try Self.run(command.command, in: folder)
      #expect(!ended.timedOut, "\(command): still running after 600 s")
      #expect(ended.status == command.expectedStatus, "\(command): exit \(ended.status)\n\(ended.output)")
    }
  }

  /// The README and docs/cli.md hold runnable examples at all (a change of the block syntax
  /// would otherwise leave nothing to run).
  @Test func theReadmeAndTheCommandPageHaveExamplesThatRun() throws {
    for document in ["README.md", "docs/cli.md"] {
      let text = try String(contentsOf: FixturePaths.repositoryRoot.appendingPathComponent(document), encoding: .utf8)
      let run = Self.commands(in: text, document: document).filter { $0.expectedStatus != nil }
      #expect(run.count >= 5, "\(document): \(run)")
      #expect(run.contains { $0.command.hasPrefix("mart-holiday diff ") }, "\(document)")
    }
  }
}
