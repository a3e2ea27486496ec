import Foundation
import MartDigest
import MartHolidayKit
import TestSupport
import Testing

/// Loading refuses a bundle whose files do not match `latest.json` and `manifest.json`, with an
/// error naming the file.
@Suite struct BundleLoadingTests {
  /// A way of damaging a published output directory, and the error it must give.
  struct Damage: Sendable, CustomStringConvertible {
    var description: String
    /// The file the error names, relative to the bundle directory (`../latest.json` for the pointer).
    var file: String
    var code: MartBundleError.Code
    var apply: @Sendable (_ output: URL, _ bundle: URL) throws -> Void
  }

  static func rewrite(_ url: URL, _ change: (inout Data) -> Void) throws {
    var data = try Data(contentsOf: url)
    change(&data)
    try data.write(to: url)
  }

  /// Rewrites `manifest.json` and signs it again in `latest.json`, so only the change itself is wrong.
  static func resignedManifest(_ output: URL, _ bundle: URL, _ change: (inout [String: Any]) -> Void) throws {
    let manifestURL = bundle.appendingPathComponent("manifest.json")
    var manifest = try RawBundle.object(manifestURL)
    change(&manifest)
    let data = try JSONSerialization.data(withJSONObject: manifest)
    try data.write(to: manifestURL)
    let latestURL = output.appendingPathComponent("latest.json")
    var latest = try RawBundle.object(latestURL)
    latest["manifestSHA256"] = SHA256.hex(data)
    try JSONSerialization.data(withJSONObject: latest).write(to: latestURL)
  }

  static let damages: [Damage] = [
    Damage(description: "a byte of branches.json changed", file: "branches.json", code: .digestMismatch) { _, bundle in
      try rewrite(bundle.appendingPathComponent("branches.json")) { data in
        let index = data.firstIndex(of: UInt8(ascii: "1"))!
        data[index] = UInt8(ascii: "2")
      }
    },
    Damage(description: "a calendar grown by a byte", file: "calendars/branches/emart-1059.ics", code: .sizeMismatch) {
      _, bundle in
      try rewrite(bundle.appendingPathComponent("calendars/branches/emart-1059.ics")) { $0.append(0x0A) }
    },
    Damage(description: "a brand file removed", file: "brands/emart.json", code: .missingFile) { _, bundle in
      try FileManager.default.removeItem(at: bundle.appendingPathComponent("brands/emart.json"))
    },
    Damage(description: "a gzip copy truncated", file: "index.json.gz", code: .sizeMismatch) { _, bundle in
      try rewrite(bundle.appendingPathComponent("index.json.gz")) { $0.removeLast() }
    },
    Damage(description: "manifest.json changed", file: "manifest.json", code: .digestMismatch) { _, bundle in
      try rewrite(bundle.appendingPathComponent("manifest.json")) { $0.append(0x20) }
    },
    Damage(description: "a manifest path leaving the bundle", file: "manifest.json", code: .unsafePath) {
      output, bundle in
      try resignedManifest(output, bundle) { manifest in
        var files = manifest["files"] as! [[String: Any]]
        files[0]["path"] = "../../latest.json"
        manifest["files"] = files
      }
    },
    Damage(description: "a manifest without branches.json", file: "manifest.json", code: .missingFile) {
      output, bundle in
      try resignedManifest(output, bundle) { manifest in
        manifest["files"] = (manifest["files"] as! [[String: Any]]).filter { $0["path"] as? String != "branches.json" }
      }
    },
    Damage(description: "a schema the kit does not know", file: "../../latest.json", code: .unsupportedSchema) {
      output, _ in
      let url = output.appendingPathComponent("latest.json")
      var latest = try RawBundle.object(url)
      latest["schemaVersion"] = 3
      try JSONSerialization.data(withJSONObject: latest).write(to: url)
    },
    Damage(description: "latest.json missing", file: "../../latest.json", code: .missingFile) { output, _ in
      try FileManager.default.removeItem(at: output.appendingPathComponent("latest.json"))
    },
    Damage(description: "latest.json not JSON", file: "../../latest.json", code: .malformed) { output, _ in
      try Data("{".utf8).write(to: output.appendingPathComponent("latest.json"))
    },
  ]

  @Test(arguments: damages)
  func damagedBundlesAreRefused(damage: Damage) async throws {
    let output = try await PublishedFixtures.shared.copy()
    let bundle = try RawBundle(output: output).directory
    try damage.apply(output, bundle)
    let expectedPath = bundle.appendingPathComponent(damage.file).standardizedFileURL.path
    do {
      _ = try MartBundle(contentsOf: output)
      Issue.record("\(damage) was accepted")
    } catch {
      #expect(error.code == damage.code, "\(damage): \(error)")
      #expect(URL(fileURLWithPath: error.location).standardizedFileURL.path == expectedPath, "\(damage): \(error)")
    }
  }

  @Test func aFolderWithoutABundleIsRefused() throws {
    let empty = Scratch.directory.appendingPathComponent("kit-empty-\(UUID().uuidString)")
    #expect {
      try MartBundle(contentsOf: empty)
    } throws: { error in
      (error as? MartBundleError)?.code == .missingFile
        && (error as? MartBundleError)?.location == empty.appendingPathComponent("latest.json").path
    }
  }
}
