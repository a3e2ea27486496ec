import Foundation
import MartFetch
import MartReplay
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Data made elsewhere, read by the built binary: a recording, an output directory or a bundle
/// that leads outside itself; a bundle with links, leftovers or a compressed copy that expands
/// without end; a feed with an id that cannot name a file; an archive that holds two answers to
/// one request.
@Suite struct ForeignDataTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()

  func scratch(_ label: String) throws -> URL {
    let url = Scratch.directory.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// A copy of `fixtures/web` in `folder`.
  func recordings(in folder: URL) throws -> URL {
    let copy = folder.appendingPathComponent("web")
    try FileManager.default.copyItem(at: FixturePaths.web, to: copy)
    return copy
  }

  /// The recorded Costco store list of `recordings`: its exchange file and body file.
  func costcoFeed(_ recordings: URL) -> (exchange: URL, body: URL) {
    let folder = recordings.appendingPathComponent("www.costco.co.kr")
    return (
      folder.appendingPathComponent("occ-stores-0.exchange.json"),
      folder.appendingPathComponent("occ-stores-0.body.json")
    )
  }

  func setBodyFile(_ value: String, of exchange: URL) throws {
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: exchange)) as? [String: Any])
    var response = try #require(object["response"] as? [String: Any])
    response["bodyFile"] = value
    object["response"] = response
    try JSONSerialization.data(withJSONObject: object).write(to: exchange)
  }

  /// The bundle directory `latest.json` of `output` names.
  func currentBundle(_ output: URL) throws -> URL {
    let latest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("latest.json")))
        as? [String: Any])
    return output.appendingPathComponent(try #require(latest["bundle"] as? String))
  }

  // MARK: Recordings

  @Test func aBodyFileOutsideItsRecordingIsRefusedNamingTheRecordingAndTheField() throws {
    let work = try scratch("body-outside")
    let web = try recordings(in: work)
    let feed = costcoFeed(web)
    // A file outside the recording that a replay would otherwise publish: a Costco feed with
    // one store nobody recorded.
    let secret = work.appendingPathComponent("secret.json")
    var feedObject = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: feed.body)) as? [String: Any])
    var rows = try #require(feedObject["stores"] as? [[String: Any]])
    rows[0]["name"] = "Outside"
    feedObject["stores"] = rows
    try JSONSerialization.data(withJSONObject: feedObject).write(to: secret)

    let link = feed.body.deletingLastPathComponent().appendingPathComponent("link.body.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: secret)
    for bodyFile in ["../../secret.json", secret.path, "link.body.json"] {
      try setBodyFile(bodyFile, of: feed.exchange)
      let output = work.appendingPathComponent("out-\(UUID().uuidString)")
      let ended = try cli.run(["run", "--replay", web.path, "--output", output.path])
      #expect(ended.status == 1, "\(bodyFile)")
      let lines = safety.lines(ended.stderr)
      #expect(lines.count == 1, "\(bodyFile): \(ended.stderr)")
      #expect(lines.first?.hasPrefix("error: --replay: \(feed.exchange.path): response.bodyFile") == true, "\(bodyFile)")
      #expect(lines.first?.contains("leads outside the recording") == true, "\(bodyFile)")
      #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("latest.json").path))
    }
  }

  // MARK: Trees that lead outside

  @Test func diffReadsOnlyInsideTheTreesItIsGiven() throws {
    let work = try scratch("diff-outside")
    // An output of 메가마트 alone: what diff refuses to follow is the layout's, whatever brands
    // the bundles hold, and its copies and diffs cost a fraction of every brand's.
    let output = try PublishedOutput.copy(to: work.appendingPathComponent("output"), brands: ["megamart"])
    let elsewhere = work.appendingPathComponent("elsewhere")
    try FileManager.default.copyItem(at: try currentBundle(output), to: elsewhere)

    // latest.json pointing at an identical bundle outside the output directory.
    let pointer = output.appendingPathComponent("latest.json")
    let original = try Data(contentsOf: pointer)
    var object = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
    object["bundle"] = "../elsewhere"
    try JSONSerialization.data(withJSONObject: object).write(to: pointer)
    let outside = try cli.run(["diff", output.path, elsewhere.path])
    #expect(outside.status == 2)
    #expect(safety.lines(outside.stderr) == ["error: \(pointer.path): bundle \"../elsewhere\" leads outside \(output.path)"])

    // A bundle directory that is a link to a bundle outside.
    object["bundle"] = "bundles/linked"
    try JSONSerialization.data(withJSONObject: object).write(to: pointer)
    try FileManager.default.createSymbolicLink(
      at: output.appendingPathComponent("bundles/linked"), withDestinationURL: elsewhere)
    let linked = try cli.run(["diff", output.path, elsewhere.path])
    #expect(linked.status == 2)
    #expect(linked.stderr.contains("bundle \"bundles/linked\" leads outside"), "\(linked.stderr)")
    try original.write(to: pointer)

    // A manifest listing a file outside its bundle, with the right size and digest.
    let bundle = work.appendingPathComponent("bundle")
    try FileManager.default.copyItem(at: elsewhere, to: bundle)
    let manifestURL = bundle.appendingPathComponent("manifest.json")
    var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
    var files = try #require(manifest["files"] as? [[String: Any]])
    let index = try #require(files.firstIndex { $0["path"] as? String == "closures.json.gz" })
    files[index]["path"] = "../moved/closures.json.gz"
    manifest["files"] = files
    try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
    try FileManager.default.createDirectory(
      at: work.appendingPathComponent("moved"), withIntermediateDirectories: true)
    try FileManager.default.moveItem(
      at: bundle.appendingPathComponent("closures.json.gz"),
      to: work.appendingPathComponent("moved/closures.json.gz"))
    let listed = try cli.run(["diff", bundle.path, elsewhere.path])
    #expect(listed.status == 2)
    #expect(
      safety.lines(listed.stderr) == [
        "error: \(manifestURL.path): file \"../moved/closures.json.gz\" leads outside the bundle"
      ])
    // The untouched trees still compare.
    #expect(try cli.run(["diff", output.path, elsewhere.path]).status == 0)
  }

  @Test func validateRejectsLinksUnlistedFilesAndLeftovers() throws {
    // Outputs of 메가마트 alone: what validate refuses here is the layout's, whatever brands the
    // bundle holds, and each validation costs a tenth of one of every brand's.
    let output = try PublishedOutput.copy("validate-links", brands: ["megamart"])
    let bundle = try currentBundle(output)
    let bundleName = "bundles/\(bundle.lastPathComponent)"
    let outside = try scratch("validate-outside")

    // A bundle file replaced by a link to identical bytes outside the tree.
    let index = bundle.appendingPathComponent("index.json")
    try FileManager.default.copyItem(at: index, to: outside.appendingPathComponent("index.json"))
    try FileManager.default.removeItem(at: index)
    try FileManager.default.createSymbolicLink(at: index, withDestinationURL: outside.appendingPathComponent("index.json"))
    // A hidden temporary file in the bundle, a staging bundle and a pointer of killed runs
    // (process ids above the kernel's limit, so no process has them).
    try Data("{}".utf8).write(to: bundle.appendingPathComponent(".closures.json.tmp"))
    try FileManager.default.createDirectory(
      at: output.appendingPathComponent("bundles/.staging-2026-11-20-1-99999999"), withIntermediateDirectories: true)
    try Data("{}".utf8).write(to: output.appendingPathComponent(".latest.json.99999999"))
    try Data("x".utf8).write(to: output.appendingPathComponent("current/branches/.megamart-1001.json.99999999"))

    let ended = try cli.run(["validate", output.path])
    #expect(ended.status == 1)
    let lines = Set(safety.lines(ended.stderr))
    let expected = [
      "error: \(output.path)/\(bundleName)/index.json: is a symbolic link; a bundle holds only regular files and directories",
      "error: \(output.path)/\(bundleName)/.closures.json.tmp: not listed in manifest.json",
      "error: \(output.path)/bundles/.staging-2026-11-20-1-99999999: left by an interrupted run (a hidden temporary name); the next run removes it",
      "error: \(output.path)/.latest.json.99999999: left by an interrupted run (a hidden temporary name); the next run removes it",
      "error: \(output.path)/current/branches/.megamart-1001.json.99999999: left by an interrupted run (a hidden temporary name); the next run removes it",
    ]
    for line in expected { #expect(lines.contains(line), "missing \(line) in \(ended.stderr)") }

    // A whole bundle directory that is a link to an intact copy outside.
    let cleanOutput = try PublishedOutput.copy("validate-linked-bundle", brands: ["megamart"])
    let cleanBundle = try currentBundle(cleanOutput)
    let moved = outside.appendingPathComponent("moved-bundle")
    try FileManager.default.moveItem(at: cleanBundle, to: moved)
    try FileManager.default.createSymbolicLink(at: cleanBundle, withDestinationURL: moved)
    let linked = try cli.run(["validate", cleanOutput.path])
    #expect(linked.status == 1)
    #expect(
      safety.lines(linked.stderr).first
        == "error: \(cleanOutput.path)/bundles/\(cleanBundle.lastPathComponent): is a symbolic link; a bundle holds only regular files and directories",
      "\(linked.stderr)")
    // The same link named directly, however it is written, and the copy it points to is intact.
    for name in [cleanBundle.path, cleanBundle.path + "/", cleanBundle.path + "/."] {
      let direct = try cli.run(["validate", name])
      #expect(direct.status == 1, "\(name): \(direct.stderr)")
      #expect(direct.stderr.contains("is a symbolic link; a bundle holds only regular files and directories"), "\(name)")
    }
    #expect(try cli.run(["validate", moved.path]).status == 0)
  }

  @Test func validateStopsInflatingACompressedCopyPastTheSizeOfItsFile() throws {
    // An output of 메가마트 alone: the bomb is in place of its closures.json.gz as it would be in
    // one of every brand's, and validate checks the rest of it in a tenth of the time.
    let output = try PublishedOutput.copy("validate-bomb", brands: ["megamart"])
    let bundle = try currentBundle(output)
    // 1 GiB of zeros in a gzip stream of about 1 MB, written by Python's zlib in pieces, in place of
    // closures.json.gz; validate runs under Python, which reports its peak memory. Each MiB is
    // compressed once and ends in a full flush (byte-aligned, nothing carried to the next), so
    // the same deflate bytes stand for every MiB: the stream is written in a fraction of a second
    // instead of deflating 1 GiB (5 s), with the gzip header and trailer (CRC-32 and size of the
    // 1 GiB) as gzip writes them.
    let copy = bundle.appendingPathComponent("closures.json.gz")
    let script = """
      import resource, struct, subprocess, sys, zlib
      piece = bytes(1 << 20)
      z = zlib.compressobj(9, zlib.DEFLATED, -15)
      block = z.compress(piece) + z.flush(zlib.Z_FULL_FLUSH)
      crc = 0
      for _ in range(1024):
          crc = zlib.crc32(piece, crc)
      with open(sys.argv[1], "wb") as f:
          f.write(b"\\x1f\\x8b\\x08\\x00\\x00\\x00\\x00\\x00\\x00\\xff")
          for _ in range(1024):
              f.write(block)
          f.write(z.flush())
          f.write(struct.pack("<II", crc, (1024 << 20) & 0xFFFFFFFF))
      ended = subprocess.run(sys.argv[2:], capture_output=True)
      sys.stdout.write("%d %d\\n" % (ended.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
      sys.stdout.write(ended.stderr.decode())
      """
    let measured = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/python3"),
      ["-c", script, copy.path, CommandLineContractTests.binary.path, "validate", output.path])
    let lines = safety.lines(measured.stdoutText)
    let figures = try #require(lines.first).split(separator: " ").compactMap { Int($0) }
    try #require(figures.count == 2, "\(measured.stdoutText) \(measured.stderrText)")
    #expect(figures[0] == 1)
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: bundle.appendingPathComponent("closures.json").path)[.size]
        as? Int)
    #expect(
      lines.contains(
        "error: \(output.path)/bundles/\(bundle.lastPathComponent)/closures.json.gz: does not decompress to closures.json"
          + " (decompresses to more than \(size) bytes)"),
      "\(lines)")
    // Peak memory in KiB: far below the 1 GiB the stream holds.
    #expect(figures[1] < 300_000, "validate peaked at \(figures[1]) KiB")
  }

  // MARK: Per-brand failure for per-brand data

  @Test func anIdThatCannotNameAFileCostsThatBranchAloneAndTheOtherBrandsPublish() throws {
    let work = try scratch("hostage")
    let web = try recordings(in: work)
    let feed = costcoFeed(web)
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: feed.body)) as? [String: Any])
    var rows = try #require(object["stores"] as? [[String: Any]])
    rows[0]["name"] = "../x"
    object["stores"] = rows
    try JSONSerialization.data(withJSONObject: object).write(to: feed.body)

    let output = work.appendingPathComponent("output")
    // Costco and two other brands of other sources stand for the brands that publish beside it.
    let ended = try cli.run([
      "run", "--replay", web.path, "--brand", "costco", "--brand", "megamart", "--brand", "lottemart", "--output",
      output.path,
    ])
    #expect(ended.status == 0, "\(ended.stderr)")
    // The fixture lists 19 Costco branches (RunSafetyTests); one is left out.
    #expect(ended.stdout.contains("costco            fresh   18 branches"), "\(ended.stdout)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
    let warnings = try #require(report["warnings"] as? [[String: Any]])
    #expect(
      warnings.contains {
        $0["brand"] as? String == "costco" && $0["kind"] as? String == "source"
          && ($0["message"] as? String)?.contains("\"costco-../x\" cannot name a file") == true
      })
    #expect(report["outcome"] as? String == "published", "every brand published")
    #expect(try cli.run(["validate", output.path]).status == 0)
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("x.json").path))
  }

  // MARK: The archive replays the run

  @Test func aRequestAnsweredTwiceReplaysWithTheAnswerTheRunUsed() async throws {
    let feed = costcoFeed(FixturePaths.web)
    let body = try Data(contentsOf: feed.body)
    let answers = Answers()
    // The live site answers the store list empty the first time, in full afterwards.
    let site = try LocalHTTPServer { request in
      guard request.path == "/rest/v2/korea/stores" else { return .text("not found", status: 404) }
      let number = answers.next()
      return ServerResponse(
        headers: [HTTPHeader("Content-Type", "application/json;charset=UTF-8")],
        body: number == 1 ? Data(#"{"stores":[]}"#.utf8) : body)
    }
    defer { site.stop() }
    let work = try scratch("archive-twice")
    let archive = work.appendingPathComponent("archive")
    // No politeness delay between the requests (1 to 1.5 s each by default): a local test server.
    let fetcher = FetchStack(
      overrides: ["https://www.costco.co.kr": site.baseURL],
      politeness: PolitenessPolicy(minimumDelay: .zero, jitter: .zero),
      archive: try ArchiveWriter(directory: archive, recordedOn: "2026-11-20")
    ).fetcher
    let request = HTTPRequest.get("https://www.costco.co.kr/rest/v2/korea/stores?fields=FULL&pageSize=50&currentPage=0")
    let empty = try await fetcher.fetch(request)
    let full = try await fetcher.fetch(request)
    #expect(empty.body.count < 20 && full.body == body)
    #expect(try ReplayArchive.load(from: archive).exchanges.count == 2)

    // Replayed, the archive gives the bundle the full answer gives.
    let replayed = try cli.run([
      "run", "--replay", archive.path, "--brand", "costco", "--output", work.appendingPathComponent("replayed").path,
    ])
    #expect(replayed.status == 0, "\(replayed.stderr)")
    let reference = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "costco", "--output", work.appendingPathComponent("reference").path,
    ])
    #expect(reference.status == 0)
    // The fixtures also hold the national register, which the archive of one brand's requests
    // does not: the branches are the same but for the register's ids.
    #expect(
      try branchesWithoutRegisterIDs(currentBundle(work.appendingPathComponent("replayed")))
        == branchesWithoutRegisterIDs(currentBundle(work.appendingPathComponent("reference"))))
  }

  /// A bundle's `branches.json` without each branch's `registerId`, as canonical JSON text.
  private func branchesWithoutRegisterIDs(_ bundle: URL) throws -> String {
    let data = try Data(contentsOf: bundle.appendingPathComponent("branches.json"))
    var file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let branches = try #require(file["branches"] as? [[String: Any]])
    file["branches"] = branches.map { $0.filter { $0.key != "registerId" } }
    let text = try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys])
    return String(decoding: text, as: UTF8.self)
  }
}

/// Counts the answers of a test server.
private final class Answers: Sendable {
  private let count = Mutex(0)
  func next() -> Int { count.withLock { $0 += 1; return $0 } }
}
