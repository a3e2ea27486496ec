import Foundation
import MartCore
import MartGeocoding
import MartSQLite
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("Geocode cache (SQLite)")
struct GeocodeCacheTests {
  let jamsil = GeocodeMatch(
    point: GeoPoint(latitude: 37.5112210, longitude: 127.0980440), precision: .building,
    matchedAddress: "서울 송파구 올림픽로 240")

  @Test("a match and a not-found marker are remembered per provider and query")
  func storeAndLookup() throws {
    let path = try temporaryDirectory().appendingPathComponent("geocode.sqlite").path
    let cache = try GeocodeCache(path: path)
    let storedAt = Date(timeIntervalSince1970: 1_795_000_000)
    try cache.store(provider: .kakao, query: "서울특별시 송파구 올림픽로 240", match: jamsil, at: storedAt)
    try cache.store(provider: .naver, query: "서울특별시 송파구 올림픽로 240", match: nil, at: storedAt)

    let found = try #require(try cache.lookup(provider: .kakao, query: "서울특별시 송파구 올림픽로 240"))
    #expect(found.match == jamsil)
    #expect(found.storedAt == storedAt)
    let notFound = try #require(try cache.lookup(provider: .naver, query: "서울특별시 송파구 올림픽로 240"))
    #expect(notFound.match == nil)
    #expect(try cache.lookup(provider: .vworld, query: "서울특별시 송파구 올림픽로 240") == nil)
    #expect(try cache.lookup(provider: .kakao, query: "서울특별시 송파구 올림픽로 241") == nil)
    #expect(try cache.count() == 2)
  }

  @Test("queries are keyed after collapsing spaces and normalizing to NFC")
  func normalizedKeys() throws {
    let cache = try GeocodeCache(path: try temporaryDirectory().appendingPathComponent("c.sqlite").path)
    try cache.store(provider: .kakao, query: "서울특별시  송파구 올림픽로 240 ", match: jamsil)
    let decomposed = "서울특별시 송파구 올림픽로 240".decomposedStringWithCanonicalMapping
    #expect(try cache.lookup(provider: .kakao, query: decomposed)?.match == jamsil)
  }

  @Test("a newer answer replaces the older one")
  func replace() throws {
    let cache = try GeocodeCache(path: try temporaryDirectory().appendingPathComponent("c.sqlite").path)
    try cache.store(provider: .kakao, query: "q", match: nil)
    try cache.store(provider: .kakao, query: "q", match: jamsil)
    #expect(try cache.lookup(provider: .kakao, query: "q")?.match == jamsil)
    #expect(try cache.count() == 1)
  }

  @Test("data survives closing and reopening the database")
  func reopen() throws {
    let path = try temporaryDirectory().appendingPathComponent("geocode.sqlite").path
    do {
      let cache = try GeocodeCache(path: path)
      try cache.store(provider: .vworld, query: "경상남도 창원시 성산구 중앙동 92", match: jamsil)
    }
    let reopened = try GeocodeCache(path: path)
    #expect(try reopened.lookup(provider: .vworld, query: "경상남도 창원시 성산구 중앙동 92")?.match == jamsil)
    try reopened.verifyIntegrity()
  }

  @Test("a path that cannot be opened is a typed error naming the path")
  func unopenable() throws {
    let path = "/nonexistent-directory-\(UUID().uuidString)/geocode.sqlite"
    let error = #expect(throws: GeocodeCacheError.self) { try GeocodeCache(path: path) }
    #expect(error?.path == path)
    #expect(error?.operation == "open")
  }

  /// The path a child process and its parent agree on without sharing memory.
  static func killTestPath(parent: pid_t) -> String {
    // Not ``Scratch``: the child is a test process of its own, with a scratch folder of its own.
    FileManager.default.temporaryDirectory.appendingPathComponent("mart-geocode-kill-\(parent).sqlite").path
  }

  @Test("a process killed with SIGKILL while writing leaves a readable database")
  func killedWhileWriting() async throws {
    let path = Self.killTestPath(parent: getpid())
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }

    await #expect(processExitsWith: .signal(SIGKILL)) {
      // In the child: commit a known entry, then write continuously from another thread and
      // kill the process while those writes are in flight.
      let cache = try GeocodeCache(path: GeocodeCacheTests.killTestPath(parent: getppid()))
      try cache.store(
        provider: .kakao, query: "committed",
        match: GeocodeMatch(point: GeoPoint(latitude: 37.5, longitude: 127.0), precision: .building))
      let writer = Thread {
        var index = 0
        while true {
          index += 1
          try? cache.store(
            provider: .naver, query: "in flight \(index)",
            match: GeocodeMatch(point: GeoPoint(latitude: 35.0, longitude: 129.0), precision: .parcel))
        }
      }
      writer.start()
      usleep(200_000)
      kill(getpid(), SIGKILL)
    }

    let reopened = try GeocodeCache(path: path)
    try reopened.verifyIntegrity()
    let committed = try #require(try reopened.lookup(provider: .kakao, query: "committed"))
    #expect(committed.match?.point == GeoPoint(latitude: 37.5, longitude: 127.0))
    #expect(try reopened.count() > 1)  // the writer was running when the process died
    try reopened.store(provider: .vworld, query: "after the crash", match: nil)
    #expect(try reopened.lookup(provider: .vworld, query: "after the crash") != nil)
  }
}
