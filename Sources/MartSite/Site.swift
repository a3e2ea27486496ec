import Foundation
import MartCore
import MartExport
import MartReport

/// The static site of one bundle, rendered in memory: every file's path (relative to the site's
/// root) and bytes. Pure: the same ``SiteData`` gives the same files, byte for byte (nothing of
/// the build's time or place is written).
public struct Site: Sendable {
  /// Every file, sorted by path.
  public let files: [(path: String, data: Data)]

  /// Renders every page of `data`: `index.html`, a page per brand, per district and per branch,
  /// `style.css`, `search.json`, the bundle's calendars, and `sitemap.xml` when the site's URL is
  /// known.
  public init(_ data: SiteData) {
    var files: [String: Data] = [:]
    func add(_ path: String, _ text: String) { files[path] = Data(text.utf8) }
    add(SitePaths.index, ListPages.home(site: data))
    add(SitePaths.stylesheet, SitePage.stylesheet)
    for summary in data.brands { add(SitePaths.brand(summary.slug), ListPages.brand(summary, site: data)) }
    for (district, branches) in data.districts {
      add(SitePaths.district(district), ListPages.district(district, branches: branches, site: data))
    }
    for days in data.branches { add(SitePaths.branch(days.branch.id), BranchPage.render(days, site: data)) }
    files[SitePaths.searchIndex] = Self.searchIndex(data)
    for (path, bytes) in data.calendars { files[path] = Data(bytes) }
    if let base = data.baseURL {
      add(SitePaths.sitemap, Self.sitemap(pages: files.keys.filter { $0.hasSuffix(".html") }, base: base))
    }
    self.files = files.keys.sorted().map { ($0, files[$0]!) }
  }

  /// Total bytes of every file.
  public var totalBytes: Int { files.reduce(0) { $0 + $1.data.count } }

  /// The files and bytes of each kind (`html`, `ics`, `json`, …), by extension.
  public var sizeByKind: [(kind: String, files: Int, bytes: Int)] {
    var sizes: [String: (Int, Int)] = [:]
    for file in files {
      let kind = file.path.split(separator: ".").last.map(String.init) ?? ""
      let old = sizes[kind] ?? (0, 0)
      sizes[kind] = (old.0 + 1, old.1 + file.data.count)
    }
    return sizes.keys.sorted().map { ($0, sizes[$0]!.0, sizes[$0]!.1) }
  }

  /// `search.json`: `[[page path, name, district], …]` by branch id, for the home page's search.
  static func searchIndex(_ data: SiteData) -> Data {
    let rows = data.branches.map { days in
      [
        SitePaths.encode(SitePaths.branch(days.branch.id)), data.displayName(days.branch),
        District(days.branch.address)?.description ?? "",
      ]
    }
    // Arrays of strings: encoding cannot fail.
    return ((try? CanonicalJSON.encode(rows)) ?? Data("[]".utf8)) + Data("\n".utf8)
  }

  /// `sitemap.xml` (sitemaps.org protocol 0.9) of `pages`, with absolute URLs under `base`; the
  /// home page as `base` itself. No `lastmod`: the site holds no time of its build.
  static func sitemap(pages: [String], base: String) -> String {
    var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    xml += "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n"
    for page in pages.sorted() {
      let url = page == SitePaths.index ? base : SitePaths.absolute(page, base: base)
      xml += "<url><loc>\(HTML.escape(url))</loc></url>\n"
    }
    return xml + "</urlset>\n"
  }
}
