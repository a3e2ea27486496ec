import MartFetch
import Testing

@Suite struct URLPartsTests {
  @Test(
    arguments: [
      // url, origin, hostAndPort, host, path, query
      ("https://Store.Emart.com/branch/view.do?id=1059#top", "https://store.emart.com", "store.emart.com",
        "store.emart.com", "/branch/view.do", "id=1059"),
      ("HTTP://127.0.0.1:8080", "http://127.0.0.1:8080", "127.0.0.1:8080", "127.0.0.1", "/", ""),
      ("http://user@example.com:81/a?u=http://b/c", "http://example.com:81", "example.com:81", "example.com", "/a",
        "u=http://b/c"),
      ("https://www.lotteon.com/p/점포?q=대전", "https://www.lotteon.com", "www.lotteon.com", "www.lotteon.com", "/p/점포",
        "q=대전"),
      ("https://example.com?x=1", "https://example.com", "example.com", "example.com", "/", "x=1"),
      // Without a scheme: the authority is what comes first; a "://" in the query is not a scheme.
      ("example.com/a?u=http://b", "example.com", "example.com", "example.com", "/a", "u=http://b"),
    ] as [(String, String, String, String, String, String)])
  func anAbsoluteURLIsSplitIntoItsParts(
    url: String, origin: String, hostAndPort: String, host: String, path: String, query: String
  ) {
    let parts = URLParts(url)
    #expect(parts.origin == origin)
    #expect(parts.hostAndPort == hostAndPort)
    #expect(parts.host == host)
    #expect(parts.path == path)
    #expect(parts.query == query)
  }
}
