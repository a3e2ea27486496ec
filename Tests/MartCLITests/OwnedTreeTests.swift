import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The trees a run writes (the output and state directories), met in the state an operator's
/// disk may be in, run as the built binary: a link where the run writes is refused before
/// anything is written; a current bundle that `validate` rejects is written again; leftovers
/// anywhere in them go; a missing pointer falls back on the newest intact bundle; and what must
/// not be served stays out of the output directory, however its path is spelled.
@Suite struct OwnedTreeTests {
  let cli = CommandLineContractTests()
  let safety = RunSafetyTests()
  let foreign = ForeignDataTests()

  /// Every file under `root` (links not followed) with its bytes: what a test compares to
  /// prove nothing was written there.
  func snapshot(_ root: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    guard let walker = FileManager.default.enumerator(atPath: root.path) else { return files }
    while let relative = walker.nextObject() as? String {
      let path = root.appendingPathComponent(relative).path
      var status = stat()
      guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
      files[relative] = try Data(contentsOf: URL(fileURLWithPath: path))
    }
    return files
  }

  func report(_ output: URL) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("report.json")))
        as? [String: Any])
  }

  func pointer(_ output: URL) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: safety.latest(output)) as? [String: Any])
  }

  // MARK: Links where a run writes

  /// A link as `current/calendars` made a run write every calendar outside the output; a link
  /// as `bundles/`, `current/`, a file of `current/`, `latest.json`, the state's `cache/` or its
  /// run lock would send files (or the lock's process id) elsewhere too. Each is refused with
  /// one line before anything is written, and the place the link leads to stays as it was.
  @Test func aLinkWhereARunWritesIsRefusedAndNothingIsWrittenOutside() throws {
    // An output of 메가마트 alone, and runs of it: the places are the layout's, whatever brands it
    // holds, and its run and validation cost a fraction of every brand's.
    let output = try PublishedOutput.copy("owned-links", brands: ["megamart"])
    let state = safety.state(output)
    let outside = try foreign.scratch("owned-links-outside")
    let asides = try foreign.scratch("owned-links-aside")
    let latestBefore = try safety.latest(output)
    let bundlesBefore = try safety.bundles(output)
    let cases: [(tree: URL, setting: String, relative: String)] = [
      (output, "--output", "current/calendars"), (output, "--output", "current"), (output, "--output", "bundles"),
      (output, "--output", "current/branches/megamart-1001.json"), (output, "--output", "latest.json"),
      (output, "--output", "report.html"), (state, "--state", "cache"), (state, "--state", "run.lock"),
    ]
    for (tree, setting, relative) in cases {
      let place = tree.appendingPathComponent(relative)
      let aside = asides.appendingPathComponent(UUID().uuidString)
      let existed = FileManager.default.fileExists(atPath: place.path)
      // The link leads to an empty folder, or to a copy of the file it stands for (an empty
      // file for the lock, which a finished run removes).
      let target = outside.appendingPathComponent("target-\(UUID().uuidString)")
      if relative.contains(".") {
        if existed { try FileManager.default.copyItem(at: place, to: target) } else { try Data().write(to: target) }
      } else {
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
      }
      if existed { try FileManager.default.moveItem(at: place, to: aside) }
      try FileManager.default.createDirectory(
        at: place.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(at: place, withDestinationURL: target)
      let outsideBefore = try snapshot(outside)

      let run = try cli.run([
        "run", "--replay", "fixtures/web", "--brand", "megamart", "--output", output.path, "--as-of", "2026-11-21",
      ])
      #expect(run.status == 1, "\(relative): \(run.stderr)")
      #expect(
        safety.lines(run.stderr) == [
          "error: \(setting): \(place.path) is a symbolic link: a run writes only regular files and real folders in"
            + " \(tree.path), never through or over anything else: remove it"
        ], "\(relative)")
      #expect(run.stdout.isEmpty, "\(relative)")
      #expect(try snapshot(outside) == outsideBefore, "\(relative): something was written through the link")

      try FileManager.default.removeItem(at: place)
      if existed { try FileManager.default.moveItem(at: aside, to: place) }
      #expect(try safety.latest(output) == latestBefore, "\(relative)")
      #expect(try safety.bundles(output) == bundlesBefore, "\(relative)")
    }
    // With the links gone, the same run goes ahead.
    let run = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "megamart", "--output", output.path, "--as-of", "2026-11-21",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try cli.run(["validate", output.path]).status == 0)
  }

  // MARK: Repair

  /// The damages `validate` rejects in a current bundle, one test case each.
  static let validationDamages = [
    "an unlisted file", "a hidden unlisted file", "a file linked to identical bytes",
    "a bundle directory linked to an intact copy",
  ]

  /// Damages `bundle` as `name` (one of ``validationDamages``) says; a link leads into `outside`.
  func damage(_ bundle: URL, as name: String, outside: URL) throws {
    switch name {
    case "an unlisted file": try Data("{}".utf8).write(to: bundle.appendingPathComponent("extra.json"))
    case "a hidden unlisted file": try Data("x".utf8).write(to: bundle.appendingPathComponent(".notes"))
    case "a file linked to identical bytes":
      let index = bundle.appendingPathComponent("index.json")
      let copy = outside.appendingPathComponent("index-\(UUID().uuidString).json")
      try FileManager.default.moveItem(at: index, to: copy)
      try FileManager.default.createSymbolicLink(at: index, withDestinationURL: copy)
    case "a bundle directory linked to an intact copy":
      let copy = outside.appendingPathComponent("bundle-\(UUID().uuidString)")
      try FileManager.default.moveItem(at: bundle, to: copy)
      try FileManager.default.createSymbolicLink(at: bundle, withDestinationURL: copy)
    default: Issue.record("no such damage: \(name)")
    }
  }

  /// `validate` rejects a current bundle with a file its manifest does not list, a file replaced
  /// by a link to identical bytes elsewhere, or a bundle directory that is a link to an intact
  /// copy; a run of the same data used to say "unchanged" and leave it so. Now the run writes
  /// the bundle again, says so, and `validate` passes; what the links led to is untouched.
  /// One case per damage (each costs a run and two validations).
  @Test(arguments: validationDamages)
  func aCurrentBundleThatFailsValidationIsWrittenAgainByTheNextRun(damage name: String) throws {
    let outside = try foreign.scratch("owned-repair-outside")
    // The bundle is written again where it is published, whatever brands it holds and the run
    // fetched: with the bundle's files themselves readable (an unlisted file beside them), an
    // output of 메가마트 alone and a run of it meet that as an output and a run of every brand
    // would, at a fraction of the cost. A bundle read through a link counts as damaged, which a
    // run of some brands refuses ("run every brand to rebuild it"): those damages take every brand.
    let linked = name.contains("linked")
    let output =
      linked
      ? try safety.publishedOutput("owned-repair") : try PublishedOutput.copy("owned-repair", brands: ["megamart"])
    let before = try safety.latest(output)
    try damage(try foreign.currentBundle(output), as: name, outside: outside)
    let outsideBefore = try snapshot(outside)
    #expect(try cli.run(["validate", output.path]).status == 1, "\(name)")

    let brands = linked ? [] : ["--brand", "megamart"]
    let rerun = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path] + brands)
    #expect(rerun.status == 0, "\(name): \(rerun.stderr)")
    #expect(rerun.stderr.contains("was damaged"), "\(name): \(rerun.stderr)")
    #expect(try safety.latest(output) == before, "\(name): same data, same version")
    let validate = try cli.run(["validate", output.path])
    #expect(validate.status == 0, "\(name): \(validate.stderr)")
    #expect(try snapshot(outside) == outsideBefore, "\(name): what a link led to was changed")
  }

  /// `validate` counts every hidden name in `bundles/` and `current/` (and a temporary of
  /// `latest.json` or a report) as a leftover of an interrupted run; the next run removes
  /// every one of them, hidden folders included, and not only the names it writes itself.
  @Test func everyLeftoverValidateReportsIsRemovedByTheNextRun() throws {
    // An output of 메가마트 alone: the leftovers are names of the layout, not of a brand, and its
    // validations and run cost a fraction of every brand's.
    let output = try PublishedOutput.copy("owned-leftovers", brands: ["megamart"])
    let leftovers = [
      ".latest.json.tmp", ".report.html.partial", "bundles/.old-copy/manifest.json", "bundles/.notes",
      "current/.keep", "current/calendars/.sync/megamart-1001.ics", "current/branches/.megamart-1001.json.tmp",
    ]
    for relative in leftovers {
      let url = output.appendingPathComponent(relative)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data("left".utf8).write(to: url)
    }
    let validate = try cli.run(["validate", output.path])
    #expect(validate.status == 1)
    for top in [".latest.json.tmp", "bundles/.old-copy", "current/.keep", "current/calendars/.sync"] {
      #expect(validate.stderr.contains("\(output.path)/\(top): left by an interrupted run"), "\(validate.stderr)")
    }

    let rerun = try cli.run(["run", "--replay", "fixtures/web", "--brand", "megamart", "--output", output.path])
    #expect(rerun.status == 0, "\(rerun.stderr)")
    for relative in leftovers {
      #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent(relative).path), "\(relative)")
    }
    let after = try cli.run(["validate", output.path])
    #expect(after.status == 0, "\(after.stderr)")
  }

  // MARK: A pointer whose target is gone

  /// With `latest.json` deleted (or unreadable), a run of one brand published a bundle of that
  /// brand alone and the others vanished. Now the newest intact kept bundle stands in as the
  /// previous one, with a warning, and the other brands are kept from it; a newer bundle that
  /// is damaged does not stand in.
  @Test func aMissingPointerFallsBackOnTheNewestIntactBundle() throws {
    let output = try safety.publishedOutput("owned-pointer")
    let brands = try FixturePaths.replayCounts()
    let total = try FixturePaths.replayTotal()
    let intact = try foreign.currentBundle(output)
    // A newer bundle (one day later), damaged: it cannot stand in. A run of one brand makes it
    // whole (the other brands kept) at a fraction of the cost of every brand; it hard-links the
    // files it did not change to the older bundle's, so the damage goes to a file of its own.
    let newer = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "megamart", "--output", output.path, "--as-of", "2026-11-21",
    ])
    try #require(newer.status == 0, "\(newer.stderr)")
    let damaged = try foreign.currentBundle(output)
    try #require(damaged != intact)
    let districts = damaged.appendingPathComponent("districts.json")
    func inode(_ file: URL) throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
    }
    try #require(
      try inode(districts) != inode(intact.appendingPathComponent("districts.json")),
      "districts.json of the newer bundle is a file of its own")
    var bytes = try Data(contentsOf: districts)
    bytes[bytes.count / 2] ^= 0x20
    try bytes.write(to: districts)

    for pointerState in ["missing", "unreadable"] {
      if pointerState == "missing" {
        try FileManager.default.removeItem(at: output.appendingPathComponent("latest.json"))
      } else {
        try Data("{\"bundle\":".utf8).write(to: output.appendingPathComponent("latest.json"))
      }
      let run = try cli.run([
        "run", "--replay", "fixtures/web", "--brand", "emart", "--output", output.path, "--as-of", "2026-11-22",
      ])
      #expect(run.status == 0, "\(pointerState): \(run.stderr)")
      #expect(
        run.stderr.contains("bundles/\(intact.lastPathComponent), the newest intact bundle, stands in as the previous one"),
        "\(pointerState): \(run.stderr)")
      let published = try foreign.currentBundle(output)
      let manifest = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: published.appendingPathComponent("manifest.json")))
          as? [String: Any])
      let listed = try #require(manifest["brands"] as? [[String: Any]])
      #expect(Set(listed.compactMap { $0["slug"] as? String }) == Set(brands.keys), "\(pointerState)")
      let counts = Dictionary(uniqueKeysWithValues: listed.compactMap { brand in
        (brand["slug"] as? String).map { ($0, brand["branchCount"] as? Int ?? -1) }
      })
      #expect(counts == brands, "\(pointerState)")
      #expect(listed.reduce(0) { $0 + ($1["branchCount"] as? Int ?? 0) } == total)
      #expect(try cli.run(["validate", output.path]).status == 0, "\(pointerState)")
      // The next case starts again from the damaged newer bundle and the intact older one.
      try FileManager.default.removeItem(at: published)
    }
  }

  /// With no pointer and no intact bundle, a run of some brands could keep nothing of the
  /// others: it is refused before any request with one error, and publishes nothing. A run of
  /// every brand rebuilds the output.
  @Test func aRunOfSomeBrandsWithNoIntactBundleIsRefused() throws {
    let output = try safety.publishedOutput("owned-no-previous")
    let bundle = try foreign.currentBundle(output)
    try FileManager.default.removeItem(at: output.appendingPathComponent("latest.json"))
    try FileManager.default.removeItem(at: bundle.appendingPathComponent("manifest.json"))
    let bundlesBefore = try safety.bundles(output)

    let run = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "emart", "--output", output.path, "--as-of", "2026-11-21",
    ])
    #expect(run.status == 1, "\(run.stderr)")
    let errors = safety.lines(run.stderr).filter { $0.hasPrefix("error: ") }
    #expect(errors.count == 1, "\(run.stderr)")
    #expect(errors.first?.contains("no kept bundle is intact") == true, "\(run.stderr)")
    #expect(errors.first?.contains("run every brand to rebuild it") == true, "\(run.stderr)")
    #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("latest.json").path))
    #expect(try safety.bundles(output) == bundlesBefore)
    #expect(try report(output)["outcome"] as? String == "failed")

    let full = try cli.run(["run", "--replay", "fixtures/web", "--output", output.path, "--as-of", "2026-11-21"])
    #expect(full.status == 0, "\(full.stderr)")
    #expect(try cli.run(["validate", output.path]).status == 0)
  }

  // MARK: Private stays private

  /// The state directory reached through a link into the output, an archive or a geocoding
  /// cache inside it, or the output inside the state directory or the archive: each is refused
  /// with one line naming both paths, and nothing is created.
  @Test func privateFilesAreRefusedInsideTheOutputHoweverTheirPathIsSpelled() throws {
    let work = try foreign.scratch("owned-private")
    let output = work.appendingPathComponent("output")
    let inside = output.appendingPathComponent("private")
    try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
    let link = work.appendingPathComponent("state-link")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: inside)
    let state = work.appendingPathComponent("state")
    let real = URL(fileURLWithPath: work.path).resolvingSymlinksInPath().path

    let cases: [(arguments: [String], setting: String, paths: [String])] = [
      (["--output", output.path, "--state", link.path], "--state", [link.path, "\(real)/output/private", output.path]),
      (["--output", output.path, "--archive", "\(output.path)/raw"], "--archive", ["\(output.path)/raw", output.path]),
      (
        ["--output", output.path, "--geocoding-cache", "\(output.path)/geo.sqlite"], "--geocoding-cache",
        ["\(output.path)/geo.sqlite", output.path]
      ),
      (["--output", "\(state.path)/output", "--state", state.path], "--state", [state.path, "\(state.path)/output"]),
      (
        ["--output", "\(work.path)/raw/output", "--archive", "\(work.path)/raw"], "--archive",
        ["\(work.path)/raw", "\(work.path)/raw/output"]
      ),
    ]
    for (arguments, setting, paths) in cases {
      let before = try snapshot(work)
      let run = try cli.run(["run", "--replay", "fixtures/web"] + arguments)
      #expect(run.status == 1, "\(arguments): \(run.stderr)")
      let lines = safety.lines(run.stderr)
      #expect(lines.count == 1, "\(arguments): \(run.stderr)")
      #expect(lines.first?.hasPrefix("error: \(setting): ") == true, "\(arguments): \(run.stderr)")
      for path in paths { #expect(lines.first?.contains(path) == true, "\(arguments): \(path) in \(run.stderr)") }
      #expect(try snapshot(work) == before, "\(arguments)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: inside.path).isEmpty)
      #expect(!FileManager.default.fileExists(atPath: "\(output.path)/raw"))
      #expect(!FileManager.default.fileExists(atPath: "\(output.path)/geo.sqlite"))
      #expect(!FileManager.default.fileExists(atPath: "\(output.path)/latest.json"))
    }
  }

  /// A replay never fills the geocoding cache live runs rely on: a `--geocoding-cache` that
  /// does not exist is not created, and one that exists is read and left byte for byte as it
  /// was, with no file beside it.
  @Test func aReplayCreatesNoGeocodingCacheAndLeavesAnExistingOneAsItWas() throws {
    let work = try foreign.scratch("owned-replay-cache")
    let caches = work.appendingPathComponent("caches")
    try FileManager.default.createDirectory(at: caches, withIntermediateDirectories: true)
    let missing = caches.appendingPathComponent("geocoding.sqlite")
    // Runs of No Brand alone: it has a branch without coordinates in the recordings (nobrand-4123),
    // which is looked up in the cache; the other brands add nothing to what a cache meets.
    let first = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "nobrand", "--output", work.appendingPathComponent("a").path,
      "--geocoding-cache", missing.path,
    ])
    #expect(first.status == 0, "\(first.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: caches.path).isEmpty)

    // A cache a live run made (the table the cache keeps, one remembered answer), in WAL mode.
    let made = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/python3"),
      [
        "-c",
        """
        import sqlite3, sys
        db = sqlite3.connect(sys.argv[1])
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("CREATE TABLE geocode (provider TEXT NOT NULL, query TEXT NOT NULL, found INTEGER NOT NULL, latitude REAL, longitude REAL, precision TEXT, matched_address TEXT, stored_at REAL NOT NULL, PRIMARY KEY (provider, query)) WITHOUT ROWID")
        db.execute("INSERT INTO geocode VALUES ('kakao', '서울 송파구 올림픽로 300', 1, 37.5126, 127.1026, 'rooftop', NULL, 0)")
        db.commit()
        db.close()
        """,
        missing.path,
      ])
    try #require(made.status == 0, "\(made.stderrText)")
    let bytes = try Data(contentsOf: missing)
    let second = try cli.run([
      "run", "--replay", "fixtures/web", "--brand", "nobrand", "--output", work.appendingPathComponent("b").path,
      "--geocoding-cache", missing.path,
    ])
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: caches.path) == ["geocoding.sqlite"])
    #expect(try Data(contentsOf: missing) == bytes)
  }
}
