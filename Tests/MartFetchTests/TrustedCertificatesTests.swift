import Foundation
import MartFetch
import TestSupport
import Testing

/// Which certificate authorities the option and the environment name, in curl's order, and the
/// clear errors for names that cannot be used.
@Suite struct TrustedCertificatesTests {
  let directory: URL
  let bundle: URL
  let otherBundle: URL

  init() throws {
    directory = Scratch.directory.appendingPathComponent("trusted-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    // A real certificate: each one in a named file is parsed before it is accepted.
    let pem = try String(contentsOf: TLSTerminator.certificateAuthorityFile(), encoding: .utf8)
    bundle = directory.appendingPathComponent("a.pem")
    otherBundle = directory.appendingPathComponent("b.pem")
    try pem.write(to: bundle, atomically: true, encoding: .utf8)
    try pem.write(to: otherBundle, atomically: true, encoding: .utf8)
  }

  @Test func nothingNamedMeansTheSystemAuthorities() throws {
    #expect(try TrustedCertificates.resolve(option: nil, optionName: "--ca-bundle", environment: [:]) == .system)
    #expect(try TrustedCertificates.resolve(option: nil, optionName: "--ca-bundle", environment: ["CURL_CA_BUNDLE": ""]) == .system)
  }

  @Test func theOptionComesBeforeEveryVariable() throws {
    let environment = ["CURL_CA_BUNDLE": otherBundle.path, "SSL_CERT_FILE": otherBundle.path]
    #expect(
      try TrustedCertificates.resolve(option: bundle.path, optionName: "--ca-bundle", environment: environment)
        == .bundle(path: bundle.path, namedBy: "--ca-bundle"))
  }

  @Test func variablesAreReadInCurlsOrder() throws {
    #expect(
      try TrustedCertificates.resolve(
        option: nil, optionName: "--ca-bundle", environment: ["SSL_CERT_FILE": otherBundle.path, "CURL_CA_BUNDLE": bundle.path])
        == .bundle(path: bundle.path, namedBy: "CURL_CA_BUNDLE"))
    #expect(
      try TrustedCertificates.resolve(
        option: nil, optionName: "--ca-bundle", environment: ["SSL_CERT_DIR": directory.path, "SSL_CERT_FILE": bundle.path])
        == .bundle(path: bundle.path, namedBy: "SSL_CERT_FILE"))
    #expect(
      try TrustedCertificates.resolve(option: nil, optionName: "--ca-bundle", environment: ["SSL_CERT_DIR": directory.path])
        == .directory(path: directory.path, namedBy: "SSL_CERT_DIR"))
  }

  @Test func aMissingFileIsNamedWithTheSettingThatNamedIt() throws {
    let missing = directory.appendingPathComponent("missing.pem").path
    let error = try #require(throws: TrustedCertificatesError.self) {
      try TrustedCertificates.resolve(option: nil, optionName: "--ca-bundle", environment: ["SSL_CERT_FILE": missing])
    }
    #expect(error.setting == "SSL_CERT_FILE")
    #expect(error.description == "SSL_CERT_FILE \(missing) does not exist: no HTTPS request can be checked against it")
    #expect(error.location == missing)
    #expect(error.message == "does not exist: no HTTPS request can be checked against it")
  }

  @Test func aDirectoryOrAFileWithoutCertificatesIsNoBundle() throws {
    let notADirectory = try #require(throws: TrustedCertificatesError.self) {
      try TrustedCertificates.resolve(option: directory.path, optionName: "--ca-bundle", environment: [:])
    }
    #expect(notADirectory.problem.contains("is a directory"))
    let text = directory.appendingPathComponent("notes.txt")
    try "not a certificate".write(to: text, atomically: true, encoding: .utf8)
    let noCertificate = try #require(throws: TrustedCertificatesError.self) {
      try TrustedCertificates.resolve(option: text.path, optionName: "--ca-bundle", environment: [:])
    }
    #expect(noCertificate.problem.contains("holds no PEM certificate"))
    let fileAsDirectory = try #require(throws: TrustedCertificatesError.self) {
      try TrustedCertificates.resolve(option: nil, optionName: "--ca-bundle", environment: ["SSL_CERT_DIR": bundle.path])
    }
    #expect(fileAsDirectory.problem == "is not a directory")
  }
}
