import CCurl
import Synchronization

/// The trusted certificates of one PEM file, parsed once for a whole client and given to every
/// TLS connection it opens, whichever libcurl multi handle opens it: the client's own engine or
/// a lane's (``HTTPRequest/ConnectionChoice/lane(_:closing:)``).
///
/// libcurl keeps the store it parses from `CURLOPT_CAINFO` in its multi handle, so each lane,
/// which has a multi handle of its own, parsed the system's 140 certificates again: 25–35 ms of
/// CPU with OpenSSL 3 on the development machine (2026-12-03), more than a run's TLS handshakes
/// to a host. Here the file is parsed at the first connection that needs it, and each
/// connection's `SSL_CTX` takes a reference to the one store (`CURLOPT_SSL_CTX_FUNCTION`).
final class CertificateStore: Sendable {
  /// The PEM file.
  let path: String
  /// The store once parsed (an `X509_STORE *`); nil before the first connection, and a failed
  /// parse is not tried again.
  private let store = Mutex<Loaded>(.notYet)

  /// `@unchecked Sendable`: the pointer is read and replaced under the lock only, and OpenSSL's
  /// X509 stores are safe to check certificates against from several threads at once.
  private enum Loaded: @unchecked Sendable {
    case notYet
    case parsed(OpaquePointer)
    case unreadable
  }

  init(path: String) {
    self.path = path
  }

  deinit {
    // Connections still holding the store hold references of their own.
    store.withLock { loaded in
      if case .parsed(let pointer) = loaded { mart_x509_store_free(pointer) }
    }
  }

  /// Gives the TLS context `context` (an `SSL_CTX *`) the store, parsing the file first if no
  /// connection has yet. Returns false when the file holds no readable certificate: libcurl
  /// then fails the transfer as it does for an unreadable `CURLOPT_CAINFO`.
  func install(into context: UnsafeMutableRawPointer?) -> Bool {
    store.withLock { loaded in
      if case .notYet = loaded {
        loaded = mart_x509_store_from_file(path).map(Loaded.parsed) ?? .unreadable
      }
      guard case .parsed(let pointer) = loaded else { return false }
      return mart_ssl_context_use_store(context, pointer) == 1
    }
  }

  /// Makes `handle`'s TLS connections use this store instead of parsing `CURLOPT_CAINFO`; false
  /// (nothing set) where libcurl's TLS library has no `SSL_CTX` to give it to.
  func configure(_ handle: UnsafeMutableRawPointer) -> Bool {
    mart_curl_setopt_ssl_context_callback(handle, installCertificateStore, Unmanaged.passUnretained(self).toOpaque())
      == CURLE_OK
  }
}

/// libcurl's `CURLOPT_SSL_CTX_FUNCTION`: gives the new connection's `SSL_CTX` the client's
/// store. `data` is the ``CertificateStore``, which outlives the transfer (its engine holds it).
private func installCertificateStore(
  handle: UnsafeMutableRawPointer?, context: UnsafeMutableRawPointer?, data: UnsafeMutableRawPointer?
) -> CURLcode {
  guard let data else { return CURLE_SSL_CACERT_BADFILE }
  let store = Unmanaged<CertificateStore>.fromOpaque(data).takeUnretainedValue()
  return store.install(into: context) ? CURLE_OK : CURLE_SSL_CACERT_BADFILE
}
