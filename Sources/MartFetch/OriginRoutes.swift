import MartCore

/// Where a run's requests go: each real origin (or part of one) to the base URL that stands in
/// for it, for `OriginRedirectingFetcher`. Sources keep naming the real sites; only these routes
/// know the replay server's listeners and the operator's mirrors.
public struct OriginRoutes: Sendable, Hashable {
  /// What one source reads: the brands it serves, its site's origin and the part of the site it
  /// reads (`/mobiledowa`), or `""` for the whole site.
  public struct Site: Sendable, Hashable {
    public var brands: [BrandSlug]
    public var origin: String
    public var scope: String

    public init(brands: [BrandSlug], origin: String, scope: String = "") {
      self.brands = brands
      self.origin = origin
      self.scope = scope
    }
  }

  /// Brand to the `scheme://host[:port]` that stands in for its source's real origin.
  public let mirrors: [BrandSlug: String]
  /// The sites the run reads.
  public let sites: [Site]

  /// Routes for `sites`, sending each brand's site to its mirror in `mirrors`. Throws when
  /// brands that share a site are sent to different mirrors: the site's source makes one set of
  /// requests for all of them.
  public init(mirrors: [BrandSlug: String], sites: [Site]) throws(MirrorConflict) {
    for site in sites {
      let given = site.brands.compactMap { brand in mirrors[brand].map { (brand, $0) } }
      guard Set(given.map(\.1)).count > 1 else { continue }
      throw MirrorConflict(mirrors: given.map { (brand: $0.0, baseURL: $0.1) }, site: site)
    }
    self.mirrors = mirrors
    self.sites = sites
  }

  /// The overrides of `OriginRedirectingFetcher`: `base` (the replay server's, or none), then
  /// each brand's mirror for its site's origin and scope. A site read in part (`scope`) follows
  /// the whole site's mirror, and the whole site's robots.txt follows the part's mirror.
  public func overrides(over base: [String: String] = [:]) -> [String: String] {
    var overrides = base
    let unmirrored = overrides
    for (brand, baseURL) in mirrors {
      for site in sites where site.brands.contains(brand) {
        let stripped = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        overrides[site.origin + site.scope] = stripped + site.scope
      }
    }
    for site in sites where !site.scope.isEmpty {
      let siteMirrored = overrides[site.origin] != unmirrored[site.origin]
      if let partMirror = overrides[site.origin + site.scope] {
        // The site's robots.txt is asked where the part went, unless the site has a mirror too.
        if !siteMirrored, partMirror.hasSuffix(site.scope) {
          overrides[site.origin + "/robots.txt"] = partMirror.dropLast(site.scope.count) + "/robots.txt"
        }
      } else if siteMirrored {
        // A source reading one part of a site keeps going where it went when only another
        // source of that site has a mirror.
        overrides[site.origin + site.scope] = (unmirrored[site.origin] ?? site.origin) + site.scope
      }
    }
    return overrides
  }
}

/// Brands that share a site were given different mirrors: a ``LocatedError`` at the site's origin.
public struct MirrorConflict: LocatedError, Sendable {
  /// The brands of the site that were given a mirror, each with its base URL.
  public var mirrors: [(brand: BrandSlug, baseURL: String)]
  /// The site they share.
  public var site: OriginRoutes.Site

  /// The origin of the site the brands share.
  public var location: String { site.origin }

  /// The mirrors given and the brands that share the site, without its origin.
  public var message: String {
    mirrors.map { "\($0.brand.rawValue)=\($0.baseURL)" }.joined(separator: ", ")
      + " name different URLs, but \(site.brands.map(\.rawValue).joined(separator: ", ")) share one source"
  }

  /// `<brand>=<URL>, … name different URLs, but <brands> share one source (<origin>): give them
  /// the same URL, or name only one of them`.
  public var description: String {
    "\(message) (\(location)): give them the same URL, or name only one of them"
  }

}
