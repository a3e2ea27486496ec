import Foundation
import MartCore

/// Where each page of the site lives, relative to the site's root, and how one page links to
/// another.
///
/// Readable paths: a brand's page `<slug>/index.html`, a branch's `<slug>/<store id>.html`
/// (`emart/1059.html`, `lottemart/원주점.html`), a district's `districts/<시도>/<시·군·구>.html`,
/// a branch's calendar `calendars/branches/<id>.ics`. Links are relative, so the site works from
/// any folder of any static host and from the disk.
enum SitePaths {
  static let index = "index.html"
  static let stylesheet = "style.css"
  static let searchIndex = "search.json"
  static let sitemap = "sitemap.xml"

  static func brand(_ slug: BrandSlug) -> String { "\(slug.rawValue)/index.html" }

  /// A branch's page. A store id is usable as a file name (`validate` checks it); the one name
  /// a brand's own page takes is avoided.
  static func branch(_ id: BranchID) -> String {
    let name = id.storeID == "index" ? "index-" : id.storeID
    return "\(id.brand.rawValue)/\(name).html"
  }

  static func district(_ district: District) -> String {
    "districts/\(fileName(district.sido))/\(fileName(district.sigungu)).html"
  }

  static func branchCalendar(_ id: BranchID) -> String { "calendars/branches/\(id.description).ics" }

  static func brandCalendar(_ slug: BrandSlug) -> String { "calendars/brands/\(slug.rawValue).ics" }

  /// A district name as a path component: its own text, a `/` never.
  private static func fileName(_ text: String) -> String {
    text.replacingOccurrences(of: "/", with: "_")
  }

  /// The link from the page at `from` to the file at `to`, both relative to the root, with
  /// every character a URL must not carry bare percent-encoded (Hangul stays readable in the
  /// browser's address bar, which shows it decoded).
  static func href(from: String, to: String) -> String {
    let depth = from.split(separator: "/").count - 1
    return String(repeating: "../", count: depth) + encode(to)
  }

  /// `path` as an absolute URL under `base` (which ends in `/`).
  static func absolute(_ path: String, base: String) -> String { base + encode(path) }

  /// Percent-encodes every byte but the unreserved characters and `/` (RFC 3986 §2.3).
  static func encode(_ path: String) -> String {
    var out = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let hex = Array("0123456789ABCDEF".unicodeScalars)
        out.unicodeScalars.append("%")
        out.unicodeScalars.append(hex[Int(byte >> 4)])
        out.unicodeScalars.append(hex[Int(byte & 0xF)])
      }
    }
    return out
  }
}
