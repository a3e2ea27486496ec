import ArgumentParser
import Foundation
import MartCore
import MartFiles
import MartPipeline
import MartSite

/// `mart-holiday site OUTPUT --to DIR [--base-url URL]`: the public site of a published bundle.
struct SiteCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "site",
    abstract: "Writes a static site from the published bundle: a page per brand, district and branch.",
    discussion: """
      OUTPUT is an output directory: the site is made from the bundle its latest.json names, after the checks of validate (an invalid bundle gives one error: line and no site). DIR receives index.html (today and tomorrow at a glance, a search, the brands and districts), a page per brand (<slug>/index.html), per district (districts/<시도>/<시·군·구>.html) and per branch (<slug>/<store id>.html, with schema.org structured data), style.css, search.json and the bundle's calendars. The same bundle gives the same bytes. DIR is replaced whole; it must be new, empty, or a site this command wrote. docs/site.md says how to serve it.

      With --base-url every page carries its canonical URL and sitemap.xml lists them.

      Exit status: 0 written; 1 bad input (an invalid bundle, a DIR that holds something else), with one error: line on standard error.
      """)

  @Argument(help: ArgumentHelp("An output directory (latest.json, bundles/).", valueName: "output"))
  var output: String

  @Option(name: .customLong("to"), help: ArgumentHelp("The folder to write the site to.", valueName: "dir"))
  var directory: String

  @Option(
    name: .customLong("base-url"),
    help: ArgumentHelp("The site's absolute http(s) URL, for canonical links and sitemap.xml.", valueName: "url"))
  var baseURL: String?

  func validate() throws {
    try SupportedPaths.checkNotEmpty(output, option: "OUTPUT")
    try SupportedPaths.checkNotEmpty(directory, option: "--to")
    if let baseURL {
      let scalars = baseURL.unicodeScalars
      guard baseURL.hasPrefix("https://") || baseURL.hasPrefix("http://"), baseURL.count > 8,
        !scalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || "\"<>\\`{}|^".unicodeScalars.contains($0) }),
        !baseURL.contains("?"), !baseURL.contains("#")
      else {
        throw ValidationError("--base-url must be an absolute http:// or https:// URL without a query or fragment, not \(baseURL)")
      }
    }
  }

  func run() throws {
    do {
      let outputURL = URL(fileURLWithPath: output)
      let target = URL(fileURLWithPath: directory)
      let outputPath = outputURL.standardizedFileURL.resolvingSymlinksInPath().path
      let targetPath = target.standardizedFileURL.resolvingSymlinksInPath().path
      if outputPath == targetPath || outputPath.hasPrefix(targetPath.hasSuffix("/") ? targetPath : targetPath + "/") {
        throw FileError(.invalid, path: directory, message: "holds the output directory; write the site elsewhere")
      }
      let data = try SiteFiles.read(
        outputDirectory: outputURL, baseURL: baseURL, sources: Pipeline.independentSources)
      let site = Site(data)
      try SiteFiles.write(site, to: target)
      for kind in site.sizeByKind {
        StandardStreams.outLine("  \(kind.kind): \(kind.files) files, \(kind.bytes) bytes")
      }
      StandardStreams.outLine("wrote \(directory): \(site.files.count) files, \(site.totalBytes) bytes")
    } catch {
      StandardStreams.err("error: \(error)\n")
      throw ExitCode(1)
    }
  }
}
