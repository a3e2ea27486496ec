import Foundation
import MartDigest
import Testing

/// Changes to a copy of a published output directory that a run could have written, each file
/// signed again (manifest entry, then `latest.json`) so that only the change itself differs.
enum BundleEdits {
  /// Sets brands' `freshness` and `lastFetchedAsOf` (`nil` for JSON `null`) in the manifest.
  static func setFreshness(in output: URL, _ changes: [String: (freshness: String, lastFetchedAsOf: String?)]) throws {
    let bundle = try RawBundle(output: output).directory
    var seen: Set<String> = []
    try BundleLoadingTests.resignedManifest(output, bundle) { manifest in
      var brands = manifest["brands"] as? [[String: Any]] ?? []
      for index in brands.indices {
        guard let slug = brands[index]["slug"] as? String, let change = changes[slug] else { continue }
        brands[index]["freshness"] = change.freshness
        brands[index]["lastFetchedAsOf"] = change.lastFetchedAsOf ?? NSNull()
        seen.insert(slug)
      }
      manifest["brands"] = brands
    }
    #expect(seen == Set(changes.keys), "brands not in the manifest: \(Set(changes.keys).subtracting(seen))")
  }

  /// Sets `branches.json`'s `removed` to `json` (`nil`: leaves the key out, as bundles written
  /// before it existed did).
  static func setRemoved(in output: URL, _ json: String?) throws {
    try rewriteBranches(in: output) { text in
      let written = #","removed":[],"schemaVersion":"#
      let range = try #require(text.range(of: written, options: .backwards), "branches.json has no empty removed list")
      text.replaceSubrange(range, with: json.map { #","removed":"# + $0 + #","schemaVersion":"# } ?? #","schemaVersion":"#)
    }
  }

  /// Rewrites `branches.json` and signs it again.
  static func rewriteBranches(in output: URL, _ change: (inout String) throws -> Void) throws {
    let bundle = try RawBundle(output: output).directory
    let url = bundle.appendingPathComponent("branches.json")
    var text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
    try change(&text)
    let data = Data(text.utf8)
    try data.write(to: url)
    var found = false
    try BundleLoadingTests.resignedManifest(output, bundle) { manifest in
      var files = manifest["files"] as? [[String: Any]] ?? []
      for index in files.indices where files[index]["path"] as? String == "branches.json" {
        files[index]["sha256"] = SHA256.hex(data)
        files[index]["bytes"] = data.count
        found = true
      }
      manifest["files"] = files
    }
    #expect(found, "manifest.json does not list branches.json")
  }
}
