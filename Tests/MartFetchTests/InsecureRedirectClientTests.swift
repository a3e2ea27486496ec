import Foundation
import MartCore
import MartFetch
import MartReplay
import Synchronization
import TestSupport
import Testing

/// The client keeps HTTPS HTTPS, on kept-alive and on fresh connections (whose redirects it
/// follows itself): a redirect from an HTTPS URL (a real TLS terminator on 127.0.0.1) to a
/// plain-HTTP one fails with both URLs named, unless the configuration allows it; an answer
/// read after an allowed one says so.
@Suite struct InsecureRedirectClientTests {
  static func downgradingServer() throws -> LocalHTTPServer {
    let port = Mutex(0)
    let server = try LocalHTTPServer { request in
      if request.path == "/plain" { return .text("plain answer") }
      return .redirect(to: "http://127.0.0.1:\(port.withLock { $0 })/plain")
    }
    port.withLock { $0 = server.port }
    return server
  }

  @Test(arguments: [HTTPRequest.ConnectionChoice.keptAlive, .fresh])
  func aRedirectToPlainHTTPIsRefusedUnlessAllowed(connection: HTTPRequest.ConnectionChoice) async throws {
    let server = try Self.downgradingServer()
    let terminator = try TLSTerminator(targetPort: server.port)
    let trust = TrustedCertificates.bundle(path: try TLSTerminator.certificateAuthorityFile().path, namedBy: "test")
    var request = HTTPRequest.get(terminator.baseURL + "/secure")
    request.connection = connection
    let plain = "http://127.0.0.1:\(server.port)/plain"

    let refusing = CurlHTTPClient(
      configuration: HTTPClientConfiguration(https: HTTPSPolicy(trustedCertificates: trust, insecureRedirectSetting: "--allow-it")))
    do {
      let response = try await refusing.fetch(request)
      Issue.record("a redirect to plain HTTP was followed: \(response.status) \(response.finalURL)")
    } catch {
      #expect(error.code == .redirect)
      // The error names the request's URL; its message the plain one it was sent to.
      #expect(error.url == request.url && error.message.contains("to plain HTTP at \(plain)"), "\(error)")
      #expect(error.message.contains("--allow-it"), "\(error)")
    }

    let allowing = CurlHTTPClient(
      configuration: HTTPClientConfiguration(https: HTTPSPolicy(trustedCertificates: trust, allowsInsecureRedirects: true)))
    let response = try await allowing.fetch(request)
    #expect(response.status == 200 && response.body == Data("plain answer".utf8))
    #expect(response.cameOverPlainHTTP)

    // An HTTPS answer without such a redirect says nothing of the kind.
    var direct = HTTPRequest.get(terminator.baseURL + "/plain")
    direct.connection = connection
    #expect(try await refusing.fetch(direct).cameOverPlainHTTP == false)
  }
}
