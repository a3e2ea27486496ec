import CCurl
import Foundation

/// The TLS sessions of a client, kept in one libcurl share handle that every engine's transfers
/// use (the client's own and each lane's, each on a thread of its own), so that any new
/// connection to a host resumes a session an earlier connection made, a lane's first connection
/// included, instead of a full handshake: less CPU here and at the site.
///
/// The share handle is used from several threads, so each kind of data it holds is behind a
/// mutex of its own (`CURLSHOPT_LOCKFUNC`). It is cleaned up when the last engine lets it go:
/// every easy handle that used it is cleaned up by then (each engine's thread cleans up its
/// handles before it ends, and the engine holds this cache).
final class TLSSessionCache: @unchecked Sendable {
  /// The share handle; nil when libcurl could not make one (then each connection negotiates
  /// a session of its own).
  let share: UnsafeMutableRawPointer?
  /// One mutex per kind of shared data (`curl_lock_data`), owned here.
  private let locks: UnsafeMutablePointer<pthread_mutex_t>
  private let lockCount = Int(CURL_LOCK_DATA_LAST.rawValue)

  init() {
    locks = .allocate(capacity: lockCount)
    for index in 0..<lockCount { pthread_mutex_init(locks + index, nil) }
    guard curlGlobalInitResult == CURLE_OK, let share = curl_share_init() else {
      share = nil
      return
    }
    guard mart_curl_share_set_locks(share, locks) == CURLSHE_OK,
      mart_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue)) == CURLSHE_OK
    else {
      curl_share_cleanup(share)
      self.share = nil
      return
    }
    self.share = share
  }

  deinit {
    if let share { curl_share_cleanup(share) }
    for index in 0..<lockCount { pthread_mutex_destroy(locks + index) }
    locks.deallocate()
  }
}
