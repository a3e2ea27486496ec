// swift-tools-version:6.1
import PackageDescription

/// The executable compiles against the runtime's static libraries and links them (what
/// `swift build --static-swift-stdlib` does), in release builds on Linux.
let staticSwiftRuntime = SwiftSetting.unsafeFlags(
  ["-static-stdlib"], .when(platforms: [.linux], configuration: .release))
let staticSwiftRuntimeLinking = LinkerSetting.unsafeFlags(
  ["-static-stdlib"], .when(platforms: [.linux], configuration: .release))

let package = Package(
  name: "mart-holiday",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .executable(name: "mart-holiday", targets: ["mart-holiday"]),
    .library(name: "MartCore", targets: ["MartCore"]),
    // The client kit for apps: Foundation and MartCore only, no C module.
    .library(name: "MartHolidayKit", targets: ["MartHolidayKit"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
  ],
  targets: [
    // C libraries, each behind a module map and a shim of typed wrappers.
    .systemLibrary(
      name: "CCurl", path: "Sources/CSystem/CCurl", pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(
      name: "CLibXML2", path: "Sources/CSystem/CLibXML2", pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]),
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSystem/CSQLite", pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CIconv", path: "Sources/CSystem/CIconv"),
    .systemLibrary(
      name: "COpenSSLCrypto", path: "Sources/CSystem/COpenSSLCrypto", pkgConfig: "libcrypto",
      providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CFileSync", path: "Sources/CSystem/CFileSync"),
    .systemLibrary(
      name: "CZlib", path: "Sources/CSystem/CZlib", pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]),
    .systemLibrary(
      name: "CLibDeflate", path: "Sources/CSystem/CLibDeflate", pkgConfig: "libdeflate",
      providers: [.apt(["libdeflate-dev"])]),
    .systemLibrary(
      name: "CProj", path: "Sources/CSystem/CProj", pkgConfig: "proj",
      providers: [.apt(["libproj-dev"])]),

    // Pure core: domain model, closing-day engine, address normalizer. No I/O but reading the clock.
    .target(name: "MartCore"),

    // I/O edges. MartSQLite and MartHTML take MartCore for the one shape of errors, `LocatedError`.
    .target(name: "MartSQLite", dependencies: ["CSQLite", "MartCore"]),
    .target(name: "MartDigest", dependencies: ["COpenSSLCrypto"]),
    // gzip: libdeflate compresses (deterministic members), zlib reads.
    .target(name: "MartGzip", dependencies: ["CZlib", "CLibDeflate"]),
    .target(name: "MartFetch", dependencies: ["CCurl", "COpenSSLCrypto", "MartCore", "MartSQLite", "MartDigest"]),
    // Every file written, renamed, flushed or removed: one owner of the disk.
    .target(
      name: "MartFiles",
      dependencies: ["MartCore", "CFileSync", .product(name: "SystemPackage", package: "swift-system")]),
    .target(name: "MartReplay", dependencies: ["MartCore", "MartFetch", "MartFiles", "MartDigest", "MartGzip"]),
    .target(name: "MartCharset", dependencies: ["CIconv"]),
    // Coordinate transformations by PROJ (the register's EPSG:5174 to WGS84).
    .target(name: "MartProjection", dependencies: ["CProj", "MartCore"]),
    // The national register of large stores (LOCALDATA 대규모점포): reading, selecting, placing.
    .target(name: "MartRegister", dependencies: ["MartCore", "MartCharset", "MartProjection", "MartBrands"]),
    .target(name: "MartHTML", dependencies: ["CLibXML2", "MartCharset", "MartCore"]),
    .target(name: "MartBrands", dependencies: ["MartCore", "MartFetch", "MartHTML", "MartCharset"]),
    .target(name: "MartGeocoding", dependencies: ["MartCore", "MartFetch", "MartSQLite"]),
    .target(name: "MartExport", dependencies: ["MartCore", "MartDigest", "MartFiles", "MartGzip"]),
    // report.html: a self-contained page of a run (map, brands, calendar, changes).
    .target(name: "MartReport", dependencies: ["MartCore", "MartExport", "MartFiles"]),
    // The public site: a page per brand, district and branch, from a published bundle.
    .target(name: "MartSite", dependencies: ["MartCore", "MartExport", "MartFiles", "MartReport"]),
    .target(
      name: "MartPipeline",
      dependencies: [
        "MartCore", "MartFetch", "MartReplay", "MartBrands", "MartGeocoding", "MartExport", "MartSQLite", "MartReport",
        "MartFiles", "MartRegister", "MartProjection", .product(name: "Logging", package: "swift-log"),
      ]),

    // The client kit apps depend on: loads and verifies bundles, answers closing-day questions.
    // Foundation and the pure core only, so it builds for iOS, macOS and Linux without C modules.
    .target(name: "MartHolidayKit", dependencies: ["MartCore"]),

    // Speed measurement: generated source data at any scale, stage throughputs.
    .target(
      name: "MartBench",
      dependencies: [
        "MartCore", "MartFetch", "MartFiles", "MartReplay", "MartBrands", "MartExport", "MartPipeline", "CLibXML2",
        .product(name: "Logging", package: "swift-log"),
      ]),

    // Thin command-line front end.
    .executableTarget(
      name: "mart-holiday",
      dependencies: [
        "MartCore", "MartPipeline", "MartExport", "MartReport", "MartSite", "MartFetch", "MartCharset", "MartBench",
        "MartRegister", "MartFiles",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      // jemalloc in place of the C library's allocator: a run allocates and frees small objects
      // on several threads at once, where it spends 5–10 % less CPU (docs/benchmarks.md).
      // A release build links the Swift runtime and Foundation in (`-static-stdlib`, what
      // `swift build --static-swift-stdlib` does): the binary runs without a Swift toolchain
      // installed, and calls into the runtime (retain, release, allocation) go direct instead of
      // through the dynamic linker's tables, about 5 % less CPU for a run (docs/benchmarks.md).
      swiftSettings: [staticSwiftRuntime],
      linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux])), staticSwiftRuntimeLinking]),

    // Prints a branch's month from an output directory:
    // `swift run mart-holiday-client-example output emart-1059`.
    .executableTarget(
      name: "mart-holiday-client-example", dependencies: ["MartHolidayKit"],
      path: "Examples/mart-holiday-client-example"),

    // Benchmarks: run with `swift run -c release mart-holiday-benchmarks`.
    .executableTarget(
      name: "mart-holiday-benchmarks", dependencies: ["MartCore"],
      path: "Benchmarks/MartBenchmarks"),

    // Tests.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    // The faults a test server injects (truncated, slow, reset, endless responses).
    .target(name: "ReplayTestSupport", dependencies: ["MartFetch", "MartReplay"], path: "Tests/ReplayTestSupport"),
    // One replay of fixtures/web published in process, shared by the pipeline's and the kit's tests.
    .target(
      name: "PipelineTestSupport", dependencies: ["MartPipeline", "MartCore", "MartFetch", "TestSupport"],
      path: "Tests/PipelineTestSupport"),
    .testTarget(name: "MartCoreTests", dependencies: ["MartCore", "TestSupport"]),
    .testTarget(
      name: "MartFetchTests",
      dependencies: [
        "MartCore", "MartFetch", "MartReplay", "MartCharset", "MartHTML", "MartSQLite", "ReplayTestSupport",
        "TestSupport",
      ]),
    .testTarget(
      name: "MartFilesTests",
      dependencies: ["MartFiles", "MartCore", .product(name: "SystemPackage", package: "swift-system")]),
    .testTarget(
      name: "MartReplayTests",
      dependencies: ["MartReplay", "MartFetch", "MartFiles", "MartCore", "MartExport", "MartGzip"]),
    .testTarget(name: "MartCharsetTests", dependencies: ["MartCharset", "TestSupport"]),
    .testTarget(name: "MartSQLiteTests", dependencies: ["MartSQLite", "MartCore"]),
    .testTarget(name: "MartProjectionTests", dependencies: ["MartProjection", "MartCore", "TestSupport"]),
    .testTarget(
      name: "MartRegisterTests", dependencies: ["MartRegister", "MartProjection", "MartBrands", "MartCore", "TestSupport"]),
    .testTarget(name: "MartHTMLTests", dependencies: ["MartHTML", "MartCore", "TestSupport"]),
    .testTarget(name: "MartGzipTests", dependencies: ["MartGzip"]),
    .testTarget(
      name: "MartBrandsTests",
      dependencies: [
        "MartBrands", "MartCore", "MartFetch", "MartReplay", "MartHTML", "ReplayTestSupport", "TestSupport",
        // The bench's generators write sites at any scale for the parsers to read.
        "MartBench",
      ]),
    .testTarget(
      name: "MartGeocodingTests",
      dependencies: [
        "MartGeocoding", "MartSQLite", "MartCore", "MartFetch", "MartFiles", "MartReplay", "ReplayTestSupport",
        "TestSupport",
      ]),
    .testTarget(
      name: "MartExportTests",
      dependencies: ["MartExport", "MartCore", "MartDigest", "MartFiles", "MartGzip", "TestSupport"]),
    .testTarget(name: "MartReportTests", dependencies: ["MartReport", "MartCore", "MartExport"]),
    .testTarget(name: "MartSiteTests", dependencies: ["MartSite", "MartCore", "MartExport", "TestSupport"]),
    // The CLI tests run the built `mart-holiday` binary; the dependency only builds it.
    .testTarget(
      name: "MartCLITests",
      dependencies: [
        "mart-holiday", "MartExport", "MartFiles", "MartCore", "MartFetch", "MartReplay", "ReplayTestSupport", "TestSupport",
      ]),
    .testTarget(
      name: "MartPipelineTests",
      dependencies: [
        "MartPipeline", "MartBrands", "MartCore", "MartExport", "MartFetch", "MartGeocoding", "MartReplay",
        "MartRegister", "PipelineTestSupport", "ReplayTestSupport", "TestSupport",
      ]),
    .testTarget(
      name: "MartHolidayKitTests",
      dependencies: [
        "MartHolidayKit", "MartPipeline", "MartExport", "MartDigest", "MartCore", "MartReplay", "MartFetch",
        "MartGeocoding", "MartFiles", "PipelineTestSupport", "TestSupport",
        // Only builds the example, which a test runs.
        "mart-holiday-client-example",
      ]),
  ]
)

for target in package.targets where [.executable, .test, .regular].contains(target.type) {
  var settings = target.swiftSettings ?? []
  settings.append(.enableUpcomingFeature("ExistentialAny"))
  settings.append(.enableUpcomingFeature("MemberImportVisibility"))
  target.swiftSettings = settings
}
