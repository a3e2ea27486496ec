import MartCore
import MartFetch
import Testing

/// Where a run's requests go: mirrors per brand over the replay server's routes, a site read
/// in part following its whole site's mirror, and brands of one site kept on one mirror.
@Suite struct OriginRoutesTests {
  let emart = BrandSlug(rawValue: "emart")!
  let traders = BrandSlug(rawValue: "traders")!
  let lottemart = BrandSlug(rawValue: "lottemart")!
  let zettaplex = BrandSlug(rawValue: "zettaplex")!

  @Test func aBrandsMirrorStandsInForItsSitesOrigin() throws {
    let routes = try OriginRoutes(
      mirrors: [emart: "http://127.0.0.1:8080/"],
      sites: [OriginRoutes.Site(brands: [emart, traders], origin: "https://store.emart.com")])
    #expect(routes.overrides() == ["https://store.emart.com": "http://127.0.0.1:8080"])
  }

  @Test func mirrorsGoOverTheReplayServersRoutes() throws {
    let routes = try OriginRoutes(
      mirrors: [lottemart: "http://127.0.0.1:9000"],
      sites: [
        OriginRoutes.Site(brands: [lottemart], origin: "https://company.lottemart.com"),
        OriginRoutes.Site(brands: [emart], origin: "https://store.emart.com"),
      ])
    let replay = [
      "https://company.lottemart.com": "http://127.0.0.1:1", "https://store.emart.com": "http://127.0.0.1:2",
    ]
    #expect(
      routes.overrides(over: replay)
        == ["https://company.lottemart.com": "http://127.0.0.1:9000", "https://store.emart.com": "http://127.0.0.1:2"])
  }

  @Test func aPartOfASiteGoesToItsMirrorAndTakesTheSitesRobotsTxtAlong() throws {
    let routes = try OriginRoutes(
      mirrors: [zettaplex: "http://127.0.0.1:9000"],
      sites: [
        OriginRoutes.Site(brands: [lottemart], origin: "https://company.lottemart.com"),
        OriginRoutes.Site(brands: [zettaplex], origin: "https://company.lottemart.com", scope: "/mobiledowa"),
      ])
    #expect(
      routes.overrides()
        == [
          "https://company.lottemart.com/mobiledowa": "http://127.0.0.1:9000/mobiledowa",
          "https://company.lottemart.com/robots.txt": "http://127.0.0.1:9000/robots.txt",
        ])
  }

  @Test func aPartOfASiteKeepsItsRouteWhenOnlyTheWholeSiteHasAMirror() throws {
    let routes = try OriginRoutes(
      mirrors: [lottemart: "http://127.0.0.1:9000"],
      sites: [
        OriginRoutes.Site(brands: [lottemart], origin: "https://company.lottemart.com"),
        OriginRoutes.Site(brands: [zettaplex], origin: "https://company.lottemart.com", scope: "/mobiledowa"),
      ])
    #expect(
      routes.overrides(over: ["https://company.lottemart.com": "http://127.0.0.1:1"])
        == [
          "https://company.lottemart.com": "http://127.0.0.1:9000",
          "https://company.lottemart.com/mobiledowa": "http://127.0.0.1:1/mobiledowa",
        ])
  }

  @Test func brandsOfOneSiteCannotGoToDifferentMirrors() throws {
    let conflict = try #require(throws: MirrorConflict.self) {
      try OriginRoutes(
        mirrors: [emart: "http://127.0.0.1:1", traders: "http://127.0.0.1:2"],
        sites: [OriginRoutes.Site(brands: [emart, traders], origin: "https://store.emart.com")])
    }
    #expect(
      conflict.description
        == "emart=http://127.0.0.1:1, traders=http://127.0.0.1:2 name different URLs, but emart, traders share one"
        + " source (https://store.emart.com): give them the same URL, or name only one of them")
    #expect(conflict.location == "https://store.emart.com")
    #expect(
      conflict.message
        == "emart=http://127.0.0.1:1, traders=http://127.0.0.1:2 name different URLs, but emart, traders share one"
        + " source")
    #expect(
      throws: Never.self,
      performing: {
        try OriginRoutes(
          mirrors: [emart: "http://127.0.0.1:1", traders: "http://127.0.0.1:1"],
          sites: [OriginRoutes.Site(brands: [emart, traders], origin: "https://store.emart.com")])
      })
  }
}
