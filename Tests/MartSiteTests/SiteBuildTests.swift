import Foundation
import TestSupport
import Testing

/// `mart-holiday site` on the bootstrap bundle: a page per branch whose structured data marks
/// exactly its closing days from the as-of day on, the same bytes from every build, links that
/// resolve, nothing loaded from another site, and a bundle that fails `validate` refused.
@Suite struct SiteBuildTests {
  @Test func twoBuildsAreByteIdentical() throws {
    let first = try SiteFixture.files(under: SiteFixture.bootstrapSite.get())
    let second = try SiteFixture.files(under: SiteFixture.buildSite(baseURL: nil))
    #expect(first.count > 400)
    #expect(first.keys.sorted() == second.keys.sorted())
    for (path, data) in first { #expect(second[path] == data, "\(path) differs between two builds") }
  }

  @Test func everyPublishedBranchHasAPageWithItsClosingDaysFromTheAsOfDay() throws {
    let site = try SiteFixture.bootstrapSite.get()
    let (asOf, window, branches) = try SiteFixture.publishedBranches()
    #expect(branches.count == (try FixturePaths.replayTotal()))
    var checkedExpected = 0
    for branch in branches {
      let id = try #require(branch["id"] as? String)
      let brand = try #require(branch["brand"] as? String)
      let page = site.appendingPathComponent("\(brand)/\(id.dropFirst(brand.count + 1)).html")
      let html = try String(contentsOf: page, encoding: .utf8)
      let data = try #require(try JSONSerialization.jsonObject(with: Data(Self.structuredData(in: html).utf8)) as? [String: Any])
      #expect(data["@context"] as? String == "https://schema.org")
      #expect(["GroceryStore", "ToyStore", "LiquorStore"].contains(data["@type"] as? String ?? ""))
      #expect(data["identifier"] as? String == id)
      #expect((data["name"] as? String)?.hasSuffix(branch["name"] as? String ?? "?") == true)
      #expect((data["address"] as? [String: Any])?["@type"] as? String == "PostalAddress")
      #expect(data["telephone"] as? String == branch["phone"] as? String)
      if let coordinate = branch["coordinate"] as? [String: Any] {
        let geo = try #require(data["geo"] as? [String: Any])
        #expect(geo["latitude"] as? Double == coordinate["latitude"] as? Double)
        #expect(geo["longitude"] as? Double == coordinate["longitude"] as? Double)
      }
      if let hours = branch["hours"] as? [String: String] {
        let daily = try #require((data["openingHoursSpecification"] as? [[String: Any]])?.first)
        #expect(daily["opens"] as? String == hours["open"])
        #expect(daily["closes"] as? String == hours["close"])
        #expect((daily["dayOfWeek"] as? [String])?.count == 7)
      }
      // The closing days: the bundle's closing dates from the as-of day through the window's end.
      let closing = try #require(branch["closing"] as? [String: Any])
      let wanted = try #require(closing["dates"] as? [String]).filter { $0 >= asOf && $0 <= window.through }
      let special = try #require(data["specialOpeningHoursSpecification"] as? [[String: Any]])
      #expect(special.map { $0["validFrom"] as? String ?? "" } == wanted, "\(id)")
      for entry in special {
        #expect(entry["validThrough"] as? String == entry["validFrom"] as? String)
        #expect(entry["opens"] as? String == "00:00")
        #expect(entry["closes"] as? String == "00:00")
      }
      // Expected days are no closures.
      if let expected = (closing["expected"] as? [String: Any])?["dates"] as? [String], !expected.isEmpty {
        checkedExpected += 1
        #expect(Set(expected).isDisjoint(with: special.compactMap { $0["validFrom"] as? String }))
      }
    }
    // Five branches of the brands publish no days in a district whose class has a pattern,
    // learned or cited, and three register stores (킴스클럽 강남, 해피마트 반여, 탑마트 대연) are in one.
    #expect(checkedExpected == 8)
  }

  @Test func everyRelativeLinkResolvesAndNothingIsLoadedFromAnotherSite() throws {
    let root = try SiteFixture.bootstrapSiteWithBase.get()
    let files = try SiteFixture.files(under: root)
    var links = 0
    for (path, data) in files where path.hasSuffix(".html") {
      let html = String(decoding: data, as: UTF8.self)
      #expect(html.hasPrefix("<!doctype html>\n<html lang=\"ko\">"), "\(path)")
      for target in try Self.matches(#"(?:href|src)="([^"]*)""#, in: html) {
        if target.hasPrefix("https://") || target.hasPrefix("http://") || target.hasPrefix("tel:") { continue }
        links += 1
        let decoded = try #require(target.removingPercentEncoding, "\(path): \(target)")
        let resolved = root.appendingPathComponent(path).deletingLastPathComponent()
          .appendingPathComponent(decoded).standardizedFileURL.path
        #expect(resolved.hasPrefix(root.standardizedFileURL.path + "/"), "\(path): \(target) leaves the site")
        #expect(FileManager.default.fileExists(atPath: resolved), "\(path): \(target) does not resolve")
      }
      // Loaded resources: scripts inline, the one stylesheet relative; no src anywhere, no
      // frame, image, font or object.
      #expect(try Self.matches(#"\ssrc="([^"]*)""#, in: html).isEmpty, "\(path)")
      for tag in ["<img", "<iframe", "<object", "<embed", "<video", "<audio", "@import", "url("] {
        #expect(!html.contains(tag), "\(path) holds \(tag)")
      }
      for link in try Self.matches(#"(<link [^>]*>)"#, in: html) {
        if link.contains("rel=\"canonical\"") {
          #expect(link.contains("href=\"https://example.org/mart/"), "\(path): \(link)")
        } else {
          #expect(link.contains("rel=\"stylesheet\"") && !link.contains("//"), "\(path): \(link)")
        }
      }
      for script in try Self.matches(#"(<script[^>]*>)"#, in: html) {
        #expect(script == "<script>" || script == "<script type=\"application/ld+json\">", "\(path): \(script)")
      }
    }
    #expect(links > 1500)
    let css = String(decoding: try #require(files["style.css"]), as: UTF8.self)
    #expect(!css.contains("url(") && !css.contains("@import") && !css.contains("@font-face"))
    // The search loads its index from the site itself.
    let index = String(decoding: try #require(files["index.html"]), as: UTF8.self)
    #expect(index.contains("fetch('search.json')"))
  }

  @Test func sitemapAndCanonicalLinksNameEveryPage() throws {
    let root = try SiteFixture.bootstrapSiteWithBase.get()
    let files = try SiteFixture.files(under: root)
    let pages = files.keys.filter { $0.hasSuffix(".html") }.sorted()
    let sitemap = String(decoding: try #require(files["sitemap.xml"]), as: UTF8.self)
    let locations = try Self.matches("<loc>([^<]*)</loc>", in: sitemap)
    #expect(locations.count == pages.count)
    for page in pages {
      let url =
        page == "index.html"
        ? "https://example.org/mart/"
        : "https://example.org/mart/" + (page.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? "")
      #expect(locations.contains(url), "\(page)")
      let html = String(decoding: files[page]!, as: UTF8.self)
      #expect(html.contains("<link rel=\"canonical\" href=\"\(url)\">"), "\(page)")
    }
    // Without a base URL: no sitemap, no canonical links.
    let plain = try SiteFixture.files(under: SiteFixture.bootstrapSite.get())
    #expect(plain["sitemap.xml"] == nil)
    #expect(!String(decoding: plain["index.html"]!, as: UTF8.self).contains("canonical"))
  }

  static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")

  /// The text of the page's one JSON-LD element.
  static func structuredData(in html: String) throws -> String {
    let all = try matches(#"<script type="application/ld\+json">(.*?)</script>"#, in: html)
    #expect(all.count == 1)
    return try #require(all.first)
  }

  /// The first capture group of every match of `pattern`.
  static func matches(_ pattern: String, in text: String) throws -> [String] {
    let expression = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
    let range = NSRange(text.startIndex..., in: text)
    return expression.matches(in: text, range: range).compactMap { match in
      Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
  }
}
