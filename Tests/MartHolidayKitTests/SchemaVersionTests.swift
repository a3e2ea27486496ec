import Foundation
import MartHolidayKit
import Testing

/// The kit reads bundles of schema version 2, whose as-of date is the manifest's alone, and of
/// version 1, whose `branches.json` carries it too.
@Suite struct SchemaVersionTests {
  @Test func aVersionTwoBundleCarriesItsDayInLatestAndTheManifestAlone() async throws {
    let output = try await PublishedFixtures.shared.copy()
    let raw = try RawBundle(output: output)
    let branches = try RawBundle.object(raw.directory.appendingPathComponent("branches.json"))
    #expect(branches["asOf"] == nil && branches["schemaVersion"] as? Int == 2)
    let bundle = try MartBundle(contentsOf: output)
    #expect(bundle.asOf.description == raw.asOf && !raw.asOf.isEmpty)
  }

  @Test func aVersionOneBundleStillLoads() async throws {
    let output = try await PublishedFixtures.shared.copy()
    let current = try MartBundle(contentsOf: output)
    let asOf = try RawBundle(output: output).asOf
    // What version 1 wrote: the as-of date in branches.json as well, and 1 everywhere.
    try BundleEdits.rewriteBranches(in: output) { text in
      let head = try #require(text.range(of: #"{"branches":["#))
      text.replaceSubrange(head, with: #"{"asOf":"\#(asOf)","branches":["#)
      let version = try #require(text.range(of: #","schemaVersion":2,"#, options: .backwards))
      text.replaceSubrange(version, with: #","schemaVersion":1,"#)
    }
    let bundle = try RawBundle(output: output).directory
    try BundleLoadingTests.resignedManifest(output, bundle) { $0["schemaVersion"] = 1 }
    let latestURL = output.appendingPathComponent("latest.json")
    var latest = try RawBundle.object(latestURL)
    latest["schemaVersion"] = 1
    try JSONSerialization.data(withJSONObject: latest).write(to: latestURL)

    let old = try MartBundle(contentsOf: output)
    #expect(old.asOf == current.asOf && old.window == current.window)
    #expect(old.branches.map(\.id) == current.branches.map(\.id))
  }
}
